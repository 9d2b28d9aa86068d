"""``teenpatti odds``: the chance that a hand beats random hands, and its percentile.

Exact against one or two opponents; from seeded deals (the same answer every time) against more.
The figures are those of :mod:`teenpatti.odds`, which also feeds the players' tips. Bad input
prints one line on standard error and exits with status 2.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from ..engine.cards import CardError, cards_str, parse_cards
from ..engine.evaluate import Evaluator, Variant
from ..odds import DEFAULT_SAMPLES, hand_odds
from . import app
from .common import OptionArg, RulesArg, WildArg, fail, rules_from, wild_from

__all__ = ["odds"]


def _percent(x: float) -> str:
    return f"{100 * x:.2f}%"


@app.command("odds")
def odds(
    hand: Annotated[str, typer.Argument(help='The hand, quoted, like "As Kd 9c".')],
    opponents: Annotated[
        int, typer.Option("--opponents", "-n", help="How many random hands to beat.")
    ] = 1,
    rules: RulesArg = "nepal",
    option: OptionArg = None,
    wild: WildArg = None,
    dead: Annotated[
        str | None,
        typer.Option("--dead", help='Cards you know are out of the pack, like "Qh 2c".'),
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", help="Deals sampled against three or more opponents.")
    ] = DEFAULT_SAMPLES,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Print the chance that HAND beats OPPONENTS random hands and the hand's percentile."""
    table = rules_from(rules, option)
    ranking = table.ranking
    evaluator = Evaluator.get(ranking)
    try:
        cards = parse_cards(hand)
    except CardError as error:
        fail(str(error))
    if len(cards) != 3:
        fail(f"a hand is three cards, not {len(cards)}")
    if ranking.variant != Variant.JOKERS and any(c >= 52 for c in cards):
        fail("jokers are in the pack only under variant=jokers")
    wild_card = wild_from(wild, table)
    if wild_card is not None and wild_card in cards:
        fail("the card turned up cannot be in the hand")
    dead_cards: tuple[int, ...] = ()
    if dead:
        try:
            dead_cards = parse_cards(dead)
        except CardError as error:
            fail(str(error))
        if set(dead_cards) & set(cards) or (wild_card is not None and wild_card in dead_cards):
            fail("a dead card cannot be in the hand or be the card turned up")
        if ranking.variant != Variant.JOKERS and any(c >= 52 for c in dead_cards):
            fail("jokers are in the pack only under variant=jokers")
    if opponents < 1:
        fail("--opponents must be at least 1")
    if samples < 100:
        fail("--samples must be at least 100")
    try:
        result = hand_odds(cards, opponents, ranking, wild_card, dead_cards, samples=samples)
    except (CardError, ValueError) as error:
        fail(str(error))
    words = evaluator.describe(cards, wild_card)
    if as_json:
        out: dict[str, Any] = {
            "cards": cards_str(cards),
            "hand": words,
            "category": evaluator.category(cards, wild_card).value,
            **result.to_json(),
        }
        typer.echo(json.dumps(out))
        return
    against = "1 random hand" if opponents == 1 else f"{opponents} random hands"
    how = (
        "exact"
        if result.exact
        else f"from {result.samples:,} seeded deals, ± {100 * result.error:.2f}%"
    )
    typer.echo(f"{cards_str(cards)}  {words}")
    typer.echo(
        f"against {against}: win {_percent(result.win)}, tie {_percent(result.tie)},"
        f" lose {_percent(result.lose)} ({how})"
    )
    typer.echo(
        f"percentile {result.percentile:.2f}: better than {result.percentile:.2f}% of all hands"
        " (equal hands count half; exact)"
    )
