"""What a bot holds when it bets after looking: the hands behind each seen chaal and raise.

    nice -n 10 .venv/bin/python bench/ranges.py --bot expert --seats 3,4,6 --hands 500

A bot reads another player's seen chaal or raise as a step up in that player's range, at a
centre on the ``u`` scale (:func:`teenpatti.bots.strategy.seen_bet_centre`: from ``chaal_centre`` or
``raise_centre``, higher by ``stake_step`` for every doubling of the stake). A reading is right
when it matches how players really bet. This plays ``--hands`` single hands of ``--bot`` in
every seat (the dealer going round, seeded by the hand's number) and prints, for each seen
chaal and raise by the stake it was made at, how many there were and the hands' ``u`` at their
10th, 25th and 50th percentiles, beside the centre ``hard``'s reading and ``expert``'s
multiway reading put there. A centre far below the 10th percentile reads the bot's own bets
as weaker than they are: an opponent who plays as the bot does is then paid off too often.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

from teenpatti.bots import load_bot
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.hard import HARD
from teenpatti.bots.strategy import seen_bet_centre
from teenpatti.engine import ActionKind, Hand, Rules, view
from teenpatti.odds import heads_up_equity

MOVES = (ActionKind.CHAAL, ActionKind.RAISE)


def bets(bot: str, seats: int, hands: int) -> dict[tuple[ActionKind, int], list[float]]:
    """The ``u`` of every seen chaal and raise ``bot`` made in ``hands`` hands, by move and the
    stake (boots) before it."""
    rules = Rules()
    out: dict[tuple[ActionKind, int], list[float]] = defaultdict(list)
    for h in range(hands):
        rng = random.Random(h)
        hand = Hand(rules, [rules.starting_chips] * seats, h % seats, seed=rng.randbytes(32))
        bots = [load_bot(bot, rng.randrange(2**32)) for _ in range(seats)]
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            move = bots[seat].decide(v)
            you = v.seats[seat]
            if you.seen and you.cards is not None and move.kind in MOVES:
                u = heads_up_equity(you.cards, rules.ranking, v.wild)
                out[move.kind, v.stake // v.boot].append(u)
            hand.apply(move)
    return out


def quantile(xs: list[float], q: float) -> float:
    """The ``q`` quantile of ``xs`` (the nearest rank below).

    >>> quantile([0.1, 0.2, 0.3, 0.4, 0.5], 0.25)
    0.2
    """
    ordered = sorted(xs)
    return ordered[int(q * (len(ordered) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="expert")
    parser.add_argument("--seats", default="3,4,6")
    parser.add_argument("--hands", type=int, default=500)
    args = parser.parse_args()
    mine = ExpertBot.multiway_level
    print("| seats | move | stake | bets | u p10 | u p25 | u p50 | hard reads | expert reads |")
    print("|---|---|---|---|---|---|---|---|---|")
    for seats in (int(s) for s in args.seats.split(",")):
        found = bets(args.bot, seats, args.hands)
        for (kind, stake), us in sorted(found.items(), key=lambda kv: (kv[0][1], kv[0][0])):
            print(
                f"| {seats} | {kind.value} | {stake} | {len(us)} | {quantile(us, 0.1):.2f}"
                f" | {quantile(us, 0.25):.2f} | {quantile(us, 0.5):.2f}"
                f" | {seen_bet_centre(HARD, kind is ActionKind.RAISE, stake):.2f}"
                f" | {seen_bet_centre(mine, kind is ActionKind.RAISE, stake):.2f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
