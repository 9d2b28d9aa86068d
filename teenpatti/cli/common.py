"""What the commands share: reading ``--option NAME=VALUE`` into rules, and failing cleanly."""

from __future__ import annotations

import json
from typing import Annotated, Any, NoReturn

import typer

from ..engine.cards import CardError, parse_card
from ..engine.errors import RulesError
from ..engine.rules import Rules, Variant

__all__ = ["OptionArg", "RulesArg", "WildArg", "fail", "parse_option", "rules_from", "wild_from"]

RulesArg = Annotated[
    str, typer.Option("--rules", help="Preset: nepal, classic, club, duo, limited or limited2.")
]
"""The ``--rules PRESET`` option, as every command takes it."""
OptionArg = Annotated[
    list[str] | None,
    typer.Option(
        "--option",
        help="House-rule option NAME=VALUE (repeatable), e.g. a23=lowest, variant=muflis.",
        show_default=False,
    ),
]
"""The repeatable ``--option NAME=VALUE``."""
WildArg = Annotated[
    str | None,
    typer.Option("--wild", help="The card turned up under the wild_rank variant, like 7d."),
]
"""The ``--wild CARD`` option of the commands that rank hands."""


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on standard error and exit with ``code`` (2: bad input)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(code)


def parse_option(text: str) -> tuple[str, Any]:
    """Split ``NAME=VALUE``; the value is read as JSON when it can be (``true``, ``8``, ``null``).

    >>> parse_option("suits_break_ties=true")
    ('suits_break_ties', True)
    >>> parse_option("a23=lowest")
    ('a23', 'lowest')
    """
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise ValueError(f"--option takes NAME=VALUE, not {text!r}")
    raw = raw.strip()
    try:
        value: Any = json.loads(raw)
    except ValueError:
        value = raw
    return name, value


def rules_from(preset: str, items: list[str] | None, **more: Any) -> Rules:
    """The rules of ``preset`` with ``--option`` items (and ``more``) applied; a bad option
    fails the command with the engine's sentence, naming it."""
    options: dict[str, Any] = {"preset": preset}
    for item in items or []:
        try:
            name, value = parse_option(item)
        except ValueError as error:
            fail(str(error))
        options[name] = value
    options.update({k: v for k, v in more.items() if v is not None})
    try:
        return Rules.from_options(options)
    except RulesError as error:
        fail(error.reason)


def wild_from(text: str | None, rules: Rules) -> int | None:
    """The card turned up, from ``--wild`` (only under ``wild_rank``; never a joker)."""
    if text is None:
        return None
    if rules.variant is not Variant.WILD_RANK:
        fail("--wild is the card turned up under the wild_rank variant only")
    try:
        card = parse_card(text)
    except CardError as error:
        fail(str(error))
    if card >= 52:
        fail("the card turned up cannot be a joker")
    return card
