"""Benchmark of hand evaluation: a plain sort-and-compare evaluator against the engine's table.

Run ``.venv/bin/python bench/bench_evaluate.py``. Everything is measured in the same run on the
same pre-dealt hands, and the figures are reported as ratios against the baseline (a
straightforward evaluator written here: sort the ranks, detect the kind, build a tuple key).
Each figure is the best of a few repeats, on one core, in CPU seconds of this process
(``time.process_time``: time spent waiting for a busy machine's cores is not counted).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

import numpy as np

from teenpatti.engine.bulk import bulk_index, bulk_strength, bulk_strength_of_index
from teenpatti.engine.evaluate import Evaluator, Ranking

HANDS = 200_000
BULK_HANDS = 10_000_000
REPEATS = 3


def baseline_key(cards: Sequence[int]) -> tuple[int, ...]:
    """A straightforward Teen Patti key (standard ranking): bigger tuple = better hand."""
    ranks = sorted((card // 4 + 2 for card in cards), reverse=True)
    flush = len({card % 4 for card in cards}) == 1
    high, mid, low = ranks
    if high == low:
        return (5, high)
    run = 0
    if high - low == 2 and high != mid != low:
        run = 2 * high
    elif ranks == [14, 3, 2]:
        run = 27  # A-2-3: below A-K-Q (28), above K-Q-J (26)
    if run:
        return (4 if flush else 3, run)
    if flush:
        return (2, high, mid, low)
    if high == mid or mid == low:
        pair, odd = (high, low) if high == mid else (mid, high)
        return (1, pair, odd)
    return (0, high, mid, low)


def best_rate(run: Callable[[], object], count: int) -> float:
    """Evaluations per second: ``count`` evaluations per call of ``run``, best of the repeats."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.process_time()
        run()
        best = min(best, time.process_time() - start)
    return count / best


def main() -> None:
    """Measure and print the four figures and their ratios against the baseline."""
    rng = random.Random(20240611)
    deck = list(range(52))
    hands = [tuple(rng.sample(deck, 3)) for _ in range(HANDS)]
    evaluator = Evaluator.get(Ranking())

    start = time.process_time()
    Evaluator(Ranking()).table()
    build_ms = (time.process_time() - start) * 1000
    start = time.process_time()
    Evaluator(Ranking(variant="jokers")).table()
    build_wild_ms = (time.process_time() - start) * 1000

    # The two evaluators must agree on the order before their speeds mean anything.
    sample = hands[:20_000]
    by_key = sorted(range(len(sample)), key=lambda i: baseline_key(sample[i]))
    strengths = [evaluator.strength(sample[i]) for i in by_key]
    assert strengths == sorted(strengths), "table and baseline disagree"

    def run_baseline() -> object:
        return [baseline_key(hand) for hand in hands]

    table = evaluator.table()

    def run_table() -> object:
        return [table[a * 2916 + b * 54 + c] for a, b, c in hands]

    strength = evaluator.strength

    def run_strength() -> object:
        return [strength(hand) for hand in hands]

    baseline = best_rate(run_baseline, HANDS)
    fast = best_rate(run_table, HANDS)
    checked = best_rate(run_strength, HANDS)

    bulk_rng = np.random.default_rng(7)
    first = bulk_rng.integers(0, 52, BULK_HANDS)
    second = (first + bulk_rng.integers(1, 52, BULK_HANDS)) % 52
    third = (first + bulk_rng.integers(1, 52, BULK_HANDS)) % 52
    array = np.stack([first, second, third], axis=1)[second != third]  # three different cards
    bulk_strength(array[:10])
    bulk = best_rate(lambda: bulk_strength(array), len(array))
    index = bulk_index(array)
    bulk_indexed = best_rate(lambda: bulk_strength_of_index(index), len(array))

    print(f"table build: standard {build_ms:.0f} ms, jokers (wild) {build_wild_ms:.0f} ms")
    rows = [
        ("baseline sort-and-compare (tuple key)", baseline),
        ("table fast path: table[a*2916 + b*54 + c]", fast),
        ("Evaluator.strength() (checks + table)", checked),
        (f"bulk_strength, numpy, {len(array):,} hands", bulk),
        ("bulk_strength_of_index (pre-computed index)", bulk_indexed),
    ]
    for name, rate in rows:
        print(f"{name:<46} {rate / 1e6:10.2f} M/s  {rate / baseline:8.1f}x baseline")


if __name__ == "__main__":
    main()
