"""The guided first hand ("Learn by playing"): one scripted hand at our table, played through the
engine, written out for the page as ``static/lesson.json``.

The page plays no rules of its own here: every card, price, pot and outcome it shows is the
engine's, recorded step by step as the learner (seat 0) would see it. Only the moves are scripted:
the learner plays blind, looks, raises, asks for a side show and a show; the computer players
pack, play blind and look. Nothing of it reaches a table, the store or the standings.

Write the file again after a change to the engine or to the script::

    python -m teenpatti.web.lesson > teenpatti/web/static/lesson.json

(``tests/web/test_lesson.py`` fails while the file differs from :func:`build`.)

>>> lesson = build()
>>> [step["do"] for step in lesson["steps"] if step["learner"]]
['chaal', 'see', 'raise', 'sideshow', 'show']
>>> lesson["end"]["winners"], lesson["end"]["pot"]
([0], 300)
"""

from __future__ import annotations

import json
import sys
from typing import Any

from ..engine import Action, ActionKind, Evaluator, Hand, Rules, card_str, parse_cards, view

CARDS = ("9h 9s 4d", "Kc 7d 2s", "Qd Jh 5c", "Qs Tc 3h")
"""The deal, by seat: the learner's pair of nines, then Chandra, Bikash and Asha (play passes
anticlockwise, from seat 0 to 3, 2 and 1)."""
NAMES = ("", "Chandra", "Bikash", "Asha")
"""The computer players' names (seat 0 is the learner: "You")."""
DEALER = 1
SCRIPT: tuple[tuple[int, str, int | None, str], ...] = (
    (0, "chaal", None, "learn.blind"),
    (3, "see", None, "learn.asha.see"),
    (3, "pack", None, "learn.asha.pack"),
    (2, "chaal", None, "learn.bikash.blind"),
    (1, "see", None, "learn.chandra.see"),
    (1, "chaal", None, "learn.chandra.chaal"),
    (0, "see", None, "learn.see"),
    (0, "raise", None, "learn.raise"),
    (2, "chaal", None, "learn.bikash.chaal"),
    (1, "chaal", None, "learn.chandra.chaal2"),
    (0, "sideshow", 1, "learn.sideshow"),
    (1, "accept", None, "learn.chandra.accept"),
    (2, "see", None, "learn.bikash.see"),
    (2, "chaal", None, "learn.bikash.chaal2"),
    (0, "show", None, "learn.show"),
)
"""Each move: the seat, what it does, its target (a side show's), and the words that explain it."""
LEARNER = 0


def rules() -> Rules:
    """Our table, as a first game plays it."""
    return Rules()


def _state(hand: Hand, rules: Rules) -> dict[str, Any]:
    """The hand as the learner sees it now."""
    seen = view(hand, LEARNER)
    evaluator = Evaluator.get(rules.ranking)
    seats = []
    for seat in seen.seats:
        cards = list(seat.cards) if seat.cards is not None else None
        seats.append(
            {
                "chips": seat.chips,
                "put_in": seat.put_in,
                "seen": seat.seen,
                "packed": seat.packed,
                "cards": [card_str(c) for c in cards] if cards else None,
                "category": evaluator.category(cards, seen.wild).value if cards else None,
            }
        )
    return {"pot": seen.pot, "stake": seen.stake, "seats": seats}


def build() -> dict[str, Any]:
    """The lesson: the deal, each scripted move with the learner's choices and what it did."""
    table = rules()
    hand = Hand(
        table,
        [table.starting_chips] * len(CARDS),
        dealer=DEALER,
        cards=[parse_cards(cards) for cards in CARDS],
    )
    start = _state(hand, table)
    steps = []
    for seat, kind, target, say in SCRIPT:
        legal = [
            {"do": option.kind.value, "cost": option.cost, "targets": list(option.targets)}
            for option in hand.legal_actions(seat)
        ]
        hand.apply(Action(seat, ActionKind(kind), target=target))
        outcome = view(hand, LEARNER).outcomes[-1]
        steps.append(
            {
                "seat": seat,
                "do": kind,
                "target": target,
                "say": say,
                "learner": seat == LEARNER,
                "legal": legal,
                "paid": outcome.paid,
                "loser": outcome.loser,
                "after": _state(hand, table),
            }
        )
    seen = view(hand, LEARNER)
    assert seen.finished, "the script plays the hand to its end"
    pot = seen.pots[0]
    return {
        "rules": table.changed_options(),
        "boot": table.boot,
        "names": list(NAMES),
        "dealer": DEALER,
        "order": list(hand.deal_order),
        "start": start,
        "steps": steps,
        "end": {"ended_by": seen.ended_by, "pot": pot.amount, "winners": list(pot.winners)},
    }


def main() -> None:
    """Print the lesson as the page loads it."""
    sys.stdout.write(json.dumps(build(), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
