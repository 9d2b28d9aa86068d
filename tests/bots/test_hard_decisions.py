"""The hard computer's decisions on fixed seeds: the same moves, whatever the speed-ups.

The digest below was taken from the decisions of the straightforward implementation (every move
valued separately at each of the 32 points of the grid); a faster evaluation must reproduce
every decision exactly, at 2, 4 and 6 seats, with every level at the table. It was taken again,
deliberately, when ``easy`` learnt to respect a raise made after looking and ``medium`` to read
one as a hand above 0.65 (``hard``'s code unchanged; its moves differ only where the others' did).
"""

from __future__ import annotations

import hashlib

from teenpatti.bots import load_bot
from teenpatti.engine import Hand, Rules, view

LEVELS = ("easy", "medium", "hard", "hard")
HANDS = 40
"""Hands per table size."""
DIGEST = "1de8eb58dcb315c29b15959d1668f80bd29633b1da389cb33896e2f11d174d6f"


def _decisions() -> tuple[str, int]:
    """Every decision of every bot over the fixed hands, as one digest, and how many."""
    rules = Rules()
    digest = hashlib.sha256()
    count = 0
    for seats in (2, 4, 6):
        for number in range(HANDS):
            seed = hashlib.sha256(b"hard-decisions/%d/%d" % (seats, number)).digest()
            names = [LEVELS[(number + s) % len(LEVELS)] for s in range(seats)]
            bots = [load_bot(name, number * 10 + s) for s, name in enumerate(names)]
            hand = Hand(rules, [rules.starting_chips] * seats, number % seats, seed=seed)
            while not hand.finished:
                seat = hand.actor
                assert seat is not None
                action = hand.apply(bots[seat].decide(view(hand, seat)))
                digest.update(repr(action).encode())
                count += 1
    return digest.hexdigest(), count


def test_the_decisions_on_fixed_seeds_are_unchanged() -> None:
    digest, count = _decisions()
    assert count > 1000
    assert digest == DIGEST
