"""The ladder that can fail: each level against every fixed style and the levels below it.

    nice -n 10 .venv/bin/python bench/ladder.py                      # the whole ladder, our table
    nice -n 10 .venv/bin/python bench/ladder.py --bots hard --seats 2,4 --deals 1000
    nice -n 10 .venv/bin/python bench/ladder.py --bots expert --against never_looks,hard \\
        --rules classic --seats 2

Every cell is one ``teenpatti arena`` run (duplicate deals, seed 1 unless given) of the row's bot
against the column's opponent: boots a hand for the row's bot with its 95% interval, marked
``ok`` when the interval is above zero and ``LOSS``/``open`` otherwise. The command that gives a
cell alone is printed under the table, with the machine's load, so every figure can be checked.
"""

from __future__ import annotations

import argparse
import os
import time

from teenpatti.bots.arena import run_arena
from teenpatti.bots.styles import STYLES
from teenpatti.engine import Rules

LEVELS = ("easy", "medium", "hard", "expert")


def _opponents(bot: str) -> list[str]:
    below = list(LEVELS[: LEVELS.index(bot)]) if bot in LEVELS else []
    return list(STYLES) + below[::-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="hard,expert", help="rows: levels to measure")
    parser.add_argument("--against", default="", help="columns (default: styles, lower levels)")
    parser.add_argument("--seats", default="2,4,6", help="table sizes, comma separated")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="nepal")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()
    rules = Rules.from_options({"preset": args.rules})
    print(f"load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    started = time.monotonic()
    rows: list[str] = ["| bot | seats | opponent | deals | boots a hand | 95% | verdict |"]
    rows.append("|---|---|---|---|---|---|---|")
    for bot in args.bots.split(","):
        against = args.against.split(",") if args.against else _opponents(bot)
        for seats in (int(s) for s in args.seats.split(",")):
            for other in against:
                result = run_arena(
                    [bot, other],
                    seats=seats,
                    deals=args.deals,
                    seed=args.seed,
                    rules=rules,
                    workers=args.workers,
                )
                mine = result.bots[0]
                low = mine.boots_per_hand - mine.ci95
                high = mine.boots_per_hand + mine.ci95
                verdict = "ok" if low > 0 else ("LOSS" if high < 0 else "open")
                rows.append(
                    f"| {bot} | {seats} | {other} | {args.deals} | {mine.boots_per_hand:+.2f}"
                    f" | ±{mine.ci95:.2f} | {verdict} |"
                )
                print(rows[-1], flush=True)
    print()
    print("\n".join(rows))
    print()
    print(
        f"one cell: teenpatti arena --rules {args.rules} --seats N --deals {args.deals}"
        f" --seed {args.seed} --json BOT OPPONENT"
    )
    print(f"{time.monotonic() - started:.0f} s; load after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
