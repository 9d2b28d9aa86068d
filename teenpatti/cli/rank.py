"""``teenpatti rank``: order hands best first under a table's rules.

Hands come from the arguments (one quoted string each, like ``"As Ks Qs"``) or, when none are
given, one per line on standard input (blank lines are skipped). Equal hands share a place
(standard competition ranking: 1, 1, 3). Bad input prints one line on standard error and exits
with status 2.
"""

from __future__ import annotations

import json
import sys
from typing import Annotated

import typer

from teenpatti.engine.cards import CardError, cards_str, parse_cards
from teenpatti.engine.evaluate import Evaluator

from . import app
from .common import OptionArg, RulesArg, WildArg, fail, rules_from, wild_from

__all__ = ["places", "rank"]


def places(strengths: list[int]) -> list[tuple[int, int]]:
    """``(place, index)`` best first; equal strengths share a place (1, 1, 3), in given order.

    >>> places([5, 9, 5, 1])
    [(1, 1), (2, 0), (2, 2), (4, 3)]
    """
    order = sorted(range(len(strengths)), key=lambda i: -strengths[i])
    ranked: list[tuple[int, int]] = []
    place = 0
    for position, i in enumerate(order, start=1):
        if position == 1 or strengths[i] != strengths[order[position - 2]]:
            place = position
        ranked.append((place, i))
    return ranked


@app.command("rank")
def rank(
    hands: Annotated[
        list[str] | None,
        typer.Argument(
            help='Hands to rank, each one quoted, like "As Ks Qs". None: read one per line from '
            "standard input.",
            show_default=False,
        ),
    ] = None,
    rules: RulesArg = "nepal",
    option: OptionArg = None,
    wild: WildArg = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print a JSON array of {cards, category, place}.")
    ] = False,
) -> None:
    """Rank hands best first; equal hands share a place."""
    table_rules = rules_from(rules, option)
    evaluator = Evaluator.get(table_rules.ranking)

    wild_card = wild_from(wild, table_rules)

    if hands:
        texts = [(f"hand {n}", text) for n, text in enumerate(hands, start=1)]
    else:
        if sys.stdin.isatty():
            fail('no hands: give them as arguments ("As Ks Qs") or one per line on standard input')
        lines = sys.stdin.read().splitlines()
        texts = [(f"line {n}", text) for n, text in enumerate(lines, start=1) if text.strip()]
    if not texts:
        fail("no hands to rank")

    parsed: list[tuple[int, ...]] = []
    strengths: list[int] = []
    for where, text in texts:
        try:
            cards = parse_cards(text)
            strengths.append(evaluator.strength(cards, wild_card))
        except CardError as error:
            hint = ' (quote each hand: "As Ks Qs")' if hands and len(text.split()) == 1 else ""
            fail(f"{where} ({text.strip()!r}): {error}{hint}")
        parsed.append(cards)

    ranked = [(place, parsed[i]) for place, i in places(strengths)]
    if as_json:
        rows = [
            {
                "cards": cards_str(hand),
                "category": evaluator.category(hand, wild_card).value,
                "place": place,
            }
            for place, hand in ranked
        ]
        typer.echo(json.dumps(rows))
        return
    width = len(str(ranked[-1][0]))
    for place, hand in ranked:
        words = evaluator.describe(hand, wild_card)
        typer.echo(f"{place:>{width}}  {cards_str(hand)}  {words}")
