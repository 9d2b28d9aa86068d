"""The expert level: exploitability of the shipped table and decision time against hard's.

    .venv/bin/python bench/bench_expert.py            # both
    .venv/bin/python bench/bench_expert.py --no-time  # exploitability only
    .venv/bin/python bench/bench_expert.py --no-exploitability --seats 2,4,6 --hands 40

Exploitability: the perfect adversary's winnings against the shipped strategy in the abstract
heads-up game of our table (boots a hand, averaged over the two seats), by the best response of
:mod:`teenpatti.bots.solver.cfr`; also for a uniform strategy, as the scale. Decision time: the
``decide`` calls of hands of expert and hard in turn round the table, timed per bot (wall
clock and CPU time).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import numpy as np

from teenpatti.bots import load_bot
from teenpatti.bots.solver.cfr import best_response
from teenpatti.bots.solver.distill import load as load_corrections
from teenpatti.bots.solver.game import buckets, build_abstraction
from teenpatti.bots.solver.tables import load
from teenpatti.engine import Hand, Rules, view


def exploitability_figures() -> None:
    rules = Rules()
    table = load("nepal")
    assert table is not None, "no shipped table: build it first"
    started = time.monotonic()
    hands = buckets(rules, table.edges)
    game = build_abstraction(rules)
    policy = table.policy.astype(np.float64)
    policy /= np.maximum(policy.sum(axis=1, keepdims=True), 1e-12)
    first = best_response(game, hands, policy, 0)
    second = best_response(game, hands, policy, 1)
    uniform = (game.child != -1).astype(float)[:, :, None] * np.ones(len(table.edges) + 1)
    uniform /= uniform.sum(axis=1, keepdims=True)
    loose = (best_response(game, hands, uniform, 0) + best_response(game, hands, uniform, 1)) / 2
    print(f"abstract heads-up game of nepal: {game.size:,} public states")
    print(f"table: {table.iterations} CFR+ iterations, {len(table.edges) + 1} buckets")
    print(f"exploitability stored when solved: {table.exploitability:.4f} boots a hand")
    print(f"best response against expert: {first:+.4f} (seat 1st), {second:+.4f} (seat 2nd)")
    print(f"exploitability of expert: {(first + second) / 2:.4f} boots a hand")
    print(f"exploitability of a uniform strategy: {loose:.4f} boots a hand")
    print(f"({time.monotonic() - started:.0f} s)")


def decision_times(hands: int = 300, seats: int = 2) -> None:
    rules = Rules()
    load("nepal")  # the table loads once per process, before the first decision (as at start-up)
    load_corrections()  # and the multiway corrections
    rng = random.Random(1)
    wall: dict[str, list[float]] = {"expert": [], "hard": []}
    cpu: dict[str, list[float]] = {"expert": [], "hard": []}
    for deal in range(hands):
        names = [("expert", "hard")[(deal + s) % 2] for s in range(seats)]
        bots = [load_bot(n, deal * seats + i) for i, n in enumerate(names)]
        hand = Hand(rules, [1000] * seats, deal % seats, seed=rng.randbytes(32))
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            seen = view(hand, seat)
            t0, c0 = time.perf_counter(), time.process_time()
            action = bots[seat].decide(seen)
            cpu[names[seat]].append(time.process_time() - c0)
            wall[names[seat]].append(time.perf_counter() - t0)
            hand.apply(action)
    print(f"{seats} seats, {hands} hands, expert and hard in turn round the table:")
    for name, xs in wall.items():
        us = sorted(x * 1e3 for x in xs)
        print(
            f"{name:>6}: {len(us):,} decisions, wall mean {statistics.fmean(us):.2f} ms,"
            f" median {us[len(us) // 2]:.2f} ms, 99th {us[int(len(us) * 0.99)]:.2f} ms,"
            f" max {us[-1]:.2f} ms; CPU mean {statistics.fmean(cpu[name]) * 1e3:.2f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--no-time", action="store_true")
    parser.add_argument("--no-exploitability", action="store_true")
    parser.add_argument("--seats", default="2", help="comma-separated seat counts to time")
    parser.add_argument("--hands", type=int, default=300)
    args = parser.parse_args()
    if not args.no_time:
        for seats in (int(x) for x in args.seats.split(",")):
            decision_times(args.hands, seats)
    if not args.no_exploitability:
        exploitability_figures()


if __name__ == "__main__":
    main()
