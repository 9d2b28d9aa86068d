"""Benchmark of the computer players: time per decision, against the random bot's in the same run.

Run ``.venv/bin/python bench/bench_bots.py [--hands N]``. Every bot plays the same seeded hands at
2, 4 and 6 seats (one seat each, the other seats filled with a rotation of all bots so that every
kind of situation comes up); only the ``decide`` call is timed (building the view is the
table's cost, not the bot's). The odds tables are built before the clock starts, as a server does
once at start-up. Figures: mean, median, 99th percentile and worst decision in microseconds, and
the mean as a ratio to the random bot's mean measured in the same run.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from teenpatti.bots import load_bot
from teenpatti.engine import Hand, Rules, view
from teenpatti.odds import universe

BOT_NAMES = ("random", "easy", "medium", "hard")


def measure(hands: int) -> dict[str, list[float]]:
    """Seconds per decision of each bot over ``hands`` hands at each table size."""
    rules = Rules()
    odds = universe(rules.ranking)  # the exact-odds tables: built once, as at start-up
    equities = getattr(odds, "equities", None)  # (older versions, measured for comparison, lack it)
    if equities is not None:
        equities()
    times: dict[str, list[float]] = {name: [] for name in BOT_NAMES}
    clock = time.perf_counter
    for seats in (2, 4, 6):
        for number in range(hands):
            seed = hashlib.sha256(b"bench-bots/%d/%d" % (seats, number)).digest()
            names = [BOT_NAMES[(number + s) % len(BOT_NAMES)] for s in range(seats)]
            bots = [load_bot(name, number * 10 + s) for s, name in enumerate(names)]
            hand = Hand(rules, [rules.starting_chips] * seats, number % seats, seed=seed)
            while not hand.finished:
                seat = hand.actor
                assert seat is not None
                seen = view(hand, seat)
                start = clock()
                action = bots[seat].decide(seen)
                times[names[seat]].append(clock() - start)
                hand.apply(action)
    return times


def main() -> None:
    """Measure and print one line per bot."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000, help="hands per table size")
    args = parser.parse_args()
    times = measure(args.hands)
    base = statistics.fmean(times["random"])
    print(
        f"{'bot':<8} {'decisions':>9} {'mean us':>8} {'p50 us':>7} {'p99 us':>7} {'max us':>8}"
        f" {'x random':>9}"
    )
    for name in BOT_NAMES:
        xs = sorted(times[name])
        mean = statistics.fmean(xs)
        p50 = xs[len(xs) // 2]
        p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
        print(
            f"{name:<8} {len(xs):>9,} {mean * 1e6:>8.1f} {p50 * 1e6:>7.1f} {p99 * 1e6:>7.1f}"
            f" {xs[-1] * 1e6:>8.1f} {mean / base:>9.1f}"
        )


if __name__ == "__main__":
    main()
