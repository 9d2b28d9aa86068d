"""Where hands come down to two blind players: the endgames' census, and which are shipped.

Plays ``--deals`` single hands at each table size of ``--seats`` with the bots of ``--bots``
seated in turn (``expert`` alone: every seat ``expert``) and counts, for every hand that comes
down to two players who are both blind, the point it came down at
(:class:`teenpatti.bots.solver.endgame.Root`), with whether a solved endgame is shipped for it.
The shipped endgames were chosen from this census (docs/bots.md, section 8, "Two blind players
left: the endgame solved").

With ``--games N`` it plays N whole games instead (chips carried from hand to hand, so a game's
later hands deal short stacks) and says, for each point, in how many hands ``expert`` has a
table to play there: the full stacks' table, one solved on a shorter stack
(:func:`teenpatti.bots.solver.endgame.for_stack`), or none (no table for the point, or none
solved on a stack within ``NEAR`` boots of the shorter one). The bots are not shown the hands
they played (a game of the arena shows them), so the opponent model marks nobody here.

    nice -n 5 .venv/bin/python bench/endgames.py --seats 3,4,6 --bots expert --deals 400
    nice -n 5 .venv/bin/python bench/endgames.py --seats 3 --bots expert,expert,hard
    nice -n 5 .venv/bin/python bench/endgames.py --seats 3 --bots expert,expert,hard --games 40
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable

from teenpatti.bots import load_bot
from teenpatti.bots.arena import deal_seed, game_seed
from teenpatti.bots.base import DecidesActions
from teenpatti.bots.solver.endgame import Root, for_stack, locate, shorter_stack, table
from teenpatti.engine import Action, Game, Hand, Rules, view


def first_point(
    hand: Hand, players: list[DecidesActions], apply: Callable[[Action], object]
) -> tuple[Root, int] | None:
    """Play ``hand`` to its end (each move through ``apply``): the first point it came down to
    two blind players at, with the shorter stack of the two there (boots), or ``None``."""
    found = None
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        v = view(hand, seat)
        if found is None:
            here = locate(v)
            if here is not None:
                found = here[0], shorter_stack(v)
        apply(players[seat].decide(v))
    return found


def census(bots: list[str], seats: int, deals: int, seed: int) -> tuple[Counter[Root], int]:
    """The roots hands come down at (one a hand, at most), and how many hands were played."""
    rules = Rules()
    found: Counter[Root] = Counter()
    for deal in range(deals):
        players = [load_bot(bots[(s + deal) % len(bots)], deal * 16 + s) for s in range(seats)]
        hand = Hand(rules, [rules.starting_chips] * seats, deal % seats, seed=deal_seed(seed, deal))
        point = first_point(hand, players, hand.apply)
        if point is not None:
            found[point[0]] += 1
    return found, deals


def played(
    bots: list[str], seats: int, games: int, seed: int
) -> tuple[Counter[Root], Counter[str]]:
    """Over ``games`` whole games: the roots hands came down at, and which table ``expert``
    would play at each (``full``, ``shorter``: one solved on a shorter stack, ``none``)."""
    rules = Rules()
    found: Counter[Root] = Counter()
    tables: Counter[str] = Counter()
    for g in range(games):
        players = [load_bot(bots[(s + g) % len(bots)], g * 16 + s) for s in range(seats)]
        names = [f"seat {s}" for s in range(seats)]
        game = Game(rules, names, game_seed(seed, g), dealer=g % seats)
        while not game.finished:
            point = first_point(game.start_hand(), players, game.apply)
            if point is None:
                continue
            root, stack = point
            found[root] += 1
            chosen = for_stack(root, stack)
            kind = "none" if chosen is None else "full"
            if chosen is not None and chosen.preset != root.name:
                kind = "shorter"  # a table solved on a stack is named for it
            tables[kind] += 1
    return found, tables


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seats", default="3,4,6")
    parser.add_argument("--bots", default="expert", help="seated in turn round the table")
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=6)
    parser.add_argument("--games", type=int, default=0, help="whole games, with their stacks")
    args = parser.parse_args()
    bots = args.bots.split(",")
    if args.games:
        print("| seats | bots | hands at a point | full stacks' table | a shorter stack's | none |")
        print("|---|---|---|---|---|---|")
        for seats in (int(x) for x in args.seats.split(",")):
            found, tables = played(bots, seats, args.games, args.seed)
            hands = sum(found.values())
            print(
                f"| {seats} | {args.bots} | {hands} | {tables['full']} | {tables['shorter']} |"
                f" {tables['none']} |"
            )
            for root, count in found.most_common(args.top):
                print(f"|  | {root.name} | {count} | | | |")
        return
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
