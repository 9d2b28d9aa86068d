"""Whole hands a second: random four-seat hands at our table, legality checks included.

Each hand is dealt from its own 32-byte secret (``--deck 2``, as tables deal: ``teenpatti-deck/2``,
only the cards dealt are drawn; ``--deck 1``: the whole-pack shuffle of ``teenpatti-deck/1``), and
every move is chosen at random among ``hand.legal_actions()`` and played through ``hand.apply``
(which checks it again through the gate, as it checks every move). Run on one
core: ``.venv/bin/python bench/bench_hands.py``. Rates are per CPU second of this process
(``time.process_time``), so time spent waiting for a busy machine's cores is not counted.

The yardstick measured in the same run is a bare loop that shuffles a 52-card list with
``random.shuffle`` and deals three cards to four seats: the ratio says how many of those one whole
hand costs, which is steadier across machines than hands a second alone.
"""

from __future__ import annotations

import argparse
import random
import time

from teenpatti.engine import Hand, Rules
from teenpatti.engine.deck import DECK_V1, DECK_V2, Shuffle


def yardstick(count: int, rng: random.Random) -> float:
    """Shuffles and deals a second with the standard library (no rules at all)."""
    deck = list(range(52))
    start = time.process_time()
    for _ in range(count):
        rng.shuffle(deck)
        _ = [tuple(deck[s::4][:3]) for s in range(4)]
    return count / (time.process_time() - start)


def random_hands(rules: Rules, seeds: list[Shuffle], rng: random.Random) -> tuple[float, float]:
    """Random hands a second, and actions a hand."""
    actions = 0
    start = time.process_time()
    for seed in seeds:
        hand = Hand(rules, [1000, 1000, 1000, 1000], 0, seed=seed)
        while not hand.finished:
            choice = rng.choice(hand.legal_actions())
            hand.apply(choice.action(hand.actor))  # type: ignore[arg-type]
            actions += 1
    elapsed = time.process_time() - start
    return len(seeds) / elapsed, actions / len(seeds)


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--deck", choices=("1", "2"), default="2")
    args = parser.parse_args()
    rng = random.Random(2026)
    version = DECK_V2 if args.deck == "2" else DECK_V1
    seeds = [Shuffle(rng.randbytes(32), version=version) for _ in range(args.hands)]
    Hand(Rules(), [1000] * 4, 0, seed=seeds[0])  # build the evaluation table before timing
    rows = []
    for preset in ("nepal", "classic", "club"):
        rules = Rules.from_options({"preset": preset})
        best = max(random_hands(rules, seeds, random.Random(1)) for _ in range(args.repeat))
        rows.append((preset, *best))
    base = max(yardstick(args.hands, random.Random(1)) for _ in range(args.repeat))
    print(f"yardstick (random.shuffle + deal): {base:,.0f} a second; deck {version}")
    for preset, rate, per_hand in rows:
        print(
            f"{preset:8s} random four-seat hands: {rate:,.0f} a second "
            f"({per_hand:.1f} actions a hand; {base / rate:.1f} yardsticks a hand)"
        )


if __name__ == "__main__":
    main()
