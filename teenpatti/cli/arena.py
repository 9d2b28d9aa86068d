"""``teenpatti arena``: computer players against each other on duplicate deals.

Bots are built-in names (``random``, ``easy``, ``medium``, ``hard``) or import paths
(``package.module:Class``). The method (duplicate deals, rotations, the interval) is in
:mod:`teenpatti.bots.arena`. Bad input prints one line on standard error and exits with status 2;
a bot that makes an illegal move stops the run with status 1.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Annotated

import typer

from ..bots.arena import ArenaError, run_arena
from . import app
from .common import OptionArg, RulesArg, fail, rules_from

__all__ = ["arena"]


class _Progress:
    """Progress on standard error: a line rewritten in place on a terminal, else every 10%."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self.last = -1

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        tenth = done * 10 // total
        if self.tty:
            sys.stderr.write(f"\rdeals {done:,}/{total:,}")
            if done == total:
                sys.stderr.write("\n")
        elif tenth != self.last:
            sys.stderr.write(f"deals {done:,}/{total:,}\n")
        self.last = tenth
        sys.stderr.flush()


@app.command("arena")
def arena(
    bots: Annotated[
        list[str],
        typer.Argument(
            help="Bots to play: random, easy, medium, hard or pkg.module:Class. They fill the"
            " seats in order, repeating when there are more seats.",
            show_default=False,
        ),
    ],
    seats: Annotated[int, typer.Option("--seats", help="Players at the table.")] = 2,
    deals: Annotated[int, typer.Option("--deals", help="Duplicate deals to play.")] = 1000,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the decks and the bots.")] = 1,
    rules: RulesArg = "nepal",
    option: OptionArg = None,
    workers: Annotated[
        int,
        typer.Option("--workers", help="Processes to share the deals (the result is the same)."),
    ] = min(2, os.cpu_count() or 1),
    as_json: Annotated[
        bool,
        typer.Option("--json", help='Print one JSON object: {"deals", "seats", "bots": [...]}.'),
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", help="No progress on standard error.")] = False,
    games: Annotated[
        bool,
        typer.Option(
            "--games",
            help="Play whole games (the table's hands, chips carried, early end) instead of"
            " single hands; --deals counts games and scores are boots per game.",
        ),
    ] = False,
) -> None:
    """Play duplicate deals among BOTS and report each one's boots per hand with a 95% interval."""
    table = rules_from(rules, option)
    if deals < 2:
        fail("--deals must be at least 2")
    if workers < 1:
        fail("--workers must be at least 1")
    progress = _Progress(not quiet and deals >= (50 if games else 1000))
    try:
        result = run_arena(
            bots,
            seats=seats,
            deals=deals,
            seed=seed,
            rules=table,
            workers=workers,
            progress=progress,
            games=games,
        )
    except ArenaError as error:
        message = str(error)
        fail(message, 1 if "illegal" in message or "did not end" in message else 2)
    if as_json:
        typer.echo(json.dumps(result.to_json()))
        return
    unit = "games" if games else "deals"
    per = "game" if games else "hand"
    typer.echo(
        f"{deals:,} duplicate {unit} at {seats} seats ({table.preset}), seed {seed}:"
        f" boots won per {per}, 95% interval"
    )
    width = max(len(b.bot) for b in result.bots)
    for b in result.bots:
        typer.echo(f"  {b.bot:<{width}}  {b.boots_per_hand:+8.3f}  ± {b.ci95:.3f}")
