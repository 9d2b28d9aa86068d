"""Benchmark of dealing: the whole-deck shuffle of ``teenpatti-deck/1`` against the lazy draw
of ``teenpatti-deck/2`` (only the cards dealt), and what the commitment tree adds.

Run ``.venv/bin/python bench/bench_deal.py``. Everything is measured in the same run on the same
seeds; figures are deals a second (best of a few repeats, one core) and ratios against the
baseline, the ``teenpatti-deck/1`` shuffle of the whole pack.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from teenpatti.engine import Rules
from teenpatti.engine.deck import CardTree, Shuffle, deck_seed, draw, shuffled_deck
from teenpatti.engine.hand import Hand

DEALS = 20_000
REPEATS = 3
SEEDS = [hashlib.sha256(n.to_bytes(4, "big")).digest() for n in range(DEALS)]
PARTS = (SEEDS[1], None, SEEDS[2], None)


def best(job: Callable[[], None]) -> float:
    """Deals a second: the best of REPEATS runs of ``job`` over every seed."""
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return DEALS / min(times)


def main() -> None:
    rules = Rules.from_options({"preset": "classic"})
    rows = {
        "v1 shuffle of 52 (baseline)": lambda: [shuffled_deck(s) for s in SEEDS] and None,
        "v2 draw of 12 cards (4 seats)": lambda: [draw(s, 12) for s in SEEDS] and None,
        "v2 draw of 30 cards (10 seats)": lambda: [draw(s, 30) for s in SEEDS] and None,
        "v2 seed from secret + 4 parts": lambda: [deck_seed(s, PARTS) for s in SEEDS] and None,
        "v2 commitment tree of 12 cards": lambda: (
            [CardTree(s, draw(s, 12)) for s in SEEDS] and None
        ),
        "Hand, v1 seed (4 seats)": lambda: (
            [Hand(rules, [1000] * 4, 0, seed=s) for s in SEEDS] and None
        ),
        "Hand, v2 shuffle (4 seats)": lambda: (
            [Hand(rules, [1000] * 4, 0, seed=Shuffle(s, PARTS)) for s in SEEDS] and None
        ),
    }
    base = 0.0
    print(f"{'what':34} {'per second':>12} {'x baseline':>10}")
    for name, job in rows.items():
        rate = best(job)
        base = base or rate
        print(f"{name:34} {rate:12,.0f} {rate / base:10.2f}")


if __name__ == "__main__":
    main()
