"""Benchmark of the arena: duplicate deals a CPU second, one process.

Run ``.venv/bin/python bench/bench_arena.py [--seats 4] [--deals 2000] [BOT ...]`` (default
``hard medium``). The arena plays ``--deals`` deals in every rotation, as ``teenpatti arena`` does,
with one worker; the odds tables are built before the clock starts, as the command does on its
first deal. The rate is deals per CPU second of this process (``time.process_time``), so time
spent waiting for a busy machine's cores is not counted; the scores are printed too, so that two
versions of the code can be seen to play the same moves (the same scores, to the last digit).
To compare with another version, run this script with ``PYTHONPATH`` pointing at that version's
checkout.
"""

from __future__ import annotations

import argparse
import time

from teenpatti.bots.arena import run_arena
from teenpatti.engine import Rules
from teenpatti.odds import universe


def main() -> None:
    """Measure and print one line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bots", nargs="*", default=["hard", "medium"])
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--deals", type=int, default=2000)
    args = parser.parse_args()
    rules = Rules()
    equities = getattr(universe(rules.ranking), "equities", None)
    if equities is not None:  # older versions have no table of equities
        equities()
    start = time.process_time()
    result = run_arena(args.bots, seats=args.seats, deals=args.deals, seed=1, rules=rules)
    cpu = time.process_time() - start
    scores = ", ".join(f"{b.bot} {b.boots_per_hand:+.4f}" for b in result.bots)
    print(
        f"{args.seats} seats, {' '.join(args.bots)}: {args.deals / cpu:,.0f} deals per CPU second"
        f" ({args.deals:,} deals in {cpu:.2f} s; boots per hand: {scores})"
    )


if __name__ == "__main__":
    main()
