"""Where hands come down to two blind players: the endgames' census, and which are shipped.

Plays ``--deals`` single hands at each table size of ``--seats`` with the bots of ``--bots``
seated in turn (``expert`` alone: every seat ``expert``) and counts, for every hand that comes
down to two players who are both blind, the point it came down at
(:class:`teenpatti.bots.solver.endgame.Root`), with whether a solved endgame is shipped for it.
The shipped endgames were chosen from this census (docs/bots.md, section 8, "Two blind players
left: the endgame solved").

    nice -n 5 .venv/bin/python bench/endgames.py --seats 3,4,6 --bots expert --deals 400
    nice -n 5 .venv/bin/python bench/endgames.py --seats 3 --bots expert,expert,hard
"""

from __future__ import annotations

import argparse
from collections import Counter

from teenpatti.bots import load_bot
from teenpatti.bots.arena import deal_seed
from teenpatti.bots.solver.endgame import Root, locate, table
from teenpatti.engine import Hand, Rules, view


def census(bots: list[str], seats: int, deals: int, seed: int) -> tuple[Counter[Root], int]:
    """The roots hands come down at (one a hand, at most), and how many hands were played."""
    rules = Rules()
    found: Counter[Root] = Counter()
    for deal in range(deals):
        players = [load_bot(bots[(s + deal) % len(bots)], deal * 16 + s) for s in range(seats)]
        hand = Hand(rules, [rules.starting_chips] * seats, deal % seats, seed=deal_seed(seed, deal))
        counted = False
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            if not counted:
                here = locate(v)
                if here is not None:
                    found[here[0]] += 1
                    counted = True
            hand.apply(players[seat].decide(v))
    return found, deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", default="3,4,6")
    parser.add_argument("--bots", default="expert", help="seated in turn round the table")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=6)
    args = parser.parse_args()
    bots = args.bots.split(",")
    print("| seats | bots | root | hands | share | shipped |")
    print("|---|---|---|---|---|---|")
    for seats in (int(x) for x in args.seats.split(",")):
        found, deals = census(bots, seats, args.deals, args.seed)
        for root, count in found.most_common(args.top):
            shipped = "yes" if table(root) is not None else "no"
            share = f"{count / deals:.0%}"
            print(f"| {seats} | {args.bots} | {root.name} | {count} | {share} | {shipped} |")
        rest = sum(found.values()) - sum(c for _, c in found.most_common(args.top))
        if rest:
            print(f"| {seats} | {args.bots} | (others) | {rest} | {rest / deals:.0%} | |")


if __name__ == "__main__":
    main()
