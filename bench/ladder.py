"""The ladder that can fail: each level against every fixed style, the levels below it and the
exploiter.

    nice -n 10 .venv/bin/python bench/ladder.py                      # the whole ladder, our table
    nice -n 10 .venv/bin/python bench/ladder.py --bots hard --seats 2,4 --deals 1000
    nice -n 15 .venv/bin/python bench/ladder.py --bots expert --against exploiter --seats 3,4
    nice -n 10 .venv/bin/python bench/ladder.py --bots expert --against never_looks,hard \\
        --rules classic --seats 2
    nice -n 10 .venv/bin/python bench/ladder.py --bots expert --against hard --seats 3 --games

Every cell is one ``teenpatti arena`` run (duplicate deals, seed 1 unless given) of the row's bot
against the column's opponent: boots a hand for the row's bot with its 95% interval, marked
``ok`` when the interval is above zero and ``LOSS``/``open`` otherwise. The command that gives a
cell alone is printed under the table, with the machine's load, so every figure can be checked.
With ``--games`` every deal is a whole game (chips carried from hand to hand, so most hands are
dealt with stacks that have moved from the start) and a cell is boots a game.

The styles include the ways people play at the tables friends open (``teenpatti.bots.styles``):
the blind presser (raises blind to the cap while another player is blind), the call-down
player (pays to the pot limit once it has seen), the side-show asker, the player who never
looks and the maniac, among others, each at every table size asked for (2-6 seats); and
``reading_presser`` (``teenpatti.bots.presser``), ``hard``'s values with every bet read at face
value and blind players pressed, the opponent the issue's held-out measurement describes. The
column
``exploiter`` is the strongest exploiter of ``bench/exploit.py`` (``--method bayes``: the
row's own policy in every other seat, its ranges inferred from that policy's moves) on as many
hands as ``--deals``: the figure is what the row's bot wins from it, the exploiter's gain with
its sign turned (its command is printed too).
"""

from __future__ import annotations

import argparse
import os
import time

from exploit import interval, measure, settings

from teenpatti.bots.arena import run_arena
from teenpatti.bots.styles import STYLES
from teenpatti.engine import Rules

LEVELS = ("easy", "medium", "hard", "expert")


def _opponents(bot: str) -> list[str]:
    below = list(LEVELS[: LEVELS.index(bot)]) if bot in LEVELS else []
    return [*STYLES, "reading_presser", *below[::-1], "exploiter"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="hard,expert", help="rows: levels to measure")
    parser.add_argument("--against", default="", help="columns (default: styles, lower levels)")
    parser.add_argument("--seats", default="2,3,4,5,6", help="table sizes, comma separated")
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="nepal")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--games",
        action="store_true",
        help="whole games (chips carried from hand to hand): --deals counts games, cells are"
        " boots a game; the exploiter plays single hands on stacks of 70 to 130 boots",
    )
    args = parser.parse_args()
    unit = "game" if args.games else "hand"
    rules = Rules.from_options({"preset": args.rules})
    print(f"load before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    started = time.monotonic()
    rows: list[str] = [f"| bot | seats | opponent | deals | boots a {unit} | 95% | verdict |"]
    rows.append("|---|---|---|---|---|---|---|")
    for bot in args.bots.split(","):
        against = args.against.split(",") if args.against else _opponents(bot)
        for seats in (int(s) for s in args.seats.split(",")):
            for other in against:
                if other == "exploiter":
                    gains = measure("bayes", bot, seats, exploiter_args(args), seed=args.seed)
                    gain, ci = interval(gains)
                    score = -gain
                else:
                    result = run_arena(
                        [bot, other],
                        seats=seats,
                        deals=args.deals,
                        seed=args.seed,
                        rules=rules,
                        workers=args.workers,
                        games=args.games,
                    )
                    score, ci = result.bots[0].boots_per_hand, result.bots[0].ci95
                low = score - ci
                high = score + ci
                verdict = "ok" if low > 0 else ("LOSS" if high < 0 else "open")
                if other == "exploiter" and args.games:
                    other = f"exploiter (a hand, stacks {GAME_STACKS[0]}-{GAME_STACKS[1]})"
                rows.append(
                    f"| {bot} | {seats} | {other} | {args.deals} | {score:+.2f}"
                    f" | ±{ci:.2f} | {verdict} |"
                )
                print(rows[-1], flush=True)
    print()
    print("\n".join(rows))
    print()
    print(
        f"one cell: teenpatti arena --rules {args.rules} --seats N --deals {args.deals}"
        f" --seed {args.seed}{' --games' if args.games else ''} --json BOT OPPONENT"
    )
    stacks = f" --stacks {GAME_STACKS[0]},{GAME_STACKS[1]}" if args.games else ""
    print(
        f"exploiter: nice -n 15 .venv/bin/python bench/exploit.py --target BOT --seats N"
        f" --test {args.deals} --seed {args.seed}{stacks}"
    )
    print(f"{time.monotonic() - started:.0f} s; load after: {os.getloadavg()[0]:.1f}")


GAME_STACKS = (70, 130)
"""With ``--games``, the stacks (boots) the exploiter's single hands are dealt: as a game's later
hands deal them."""


def exploiter_args(args: argparse.Namespace) -> argparse.Namespace:
    """The exploiter's settings for a cell: ``bench/exploit.py``'s defaults, on ``--deals``
    hands (of ``--seed``, given to :func:`exploit.measure` beside them), dealt
    :data:`GAME_STACKS` with ``--games``.

    >>> exploiter_args(argparse.Namespace(deals=9, games=True)).stacks
    (70, 130)
    """
    return settings(args.deals, GAME_STACKS if args.games else None)


if __name__ == "__main__":
    main()
