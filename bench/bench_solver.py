"""The solver's convergence on a ladder of game sizes: exploitability by iteration and method.

    .venv/bin/python bench/bench_solver.py --limits 16,24,32,48 --iterations 200 --every 50
    .venv/bin/python bench/bench_solver.py --limits 32 --methods dcfr,cfr+,pcfr+
    .venv/bin/python bench/bench_solver.py --limits 64 --methods cfr+ --float32

Each game is our table's betting (``nepal``: stake cap 8 boots, ``double`` bets) with the pot
limit and both stacks at the given number of boots, and the table's 10 buckets of hands. For
every method the best response of each seat is measured against the average strategy every
``--every`` iterations (boots a hand; the exploitability is the mean of the two seats). The CPU
time of the solve is printed too (``time.process_time``: the wall time on a shared machine says
more about the load than about the solver). ``--float32`` runs the passes in 32-bit floats (the
solver before 2 December), ``--own-reach`` weighs merged paths by the acting player's own chance
(:func:`teenpatti.bots.solver.cfr.solve`).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import numpy.typing as npt

from teenpatti.bots.solver.cfr import best_response, solve
from teenpatti.bots.solver.game import Abstraction, Buckets, buckets, build_abstraction
from teenpatti.engine.rules import Rules


def run(
    game: Abstraction,
    hands: Buckets,
    method: str,
    iterations: int,
    every: int,
    *,
    dtype: type = np.float64,
    own_reach: bool = False,
) -> None:
    """Solve ``game`` and print the exploitability every ``every`` iterations."""
    spent = [0.0]
    name = (
        f"{method}{', float32' if dtype is np.float32 else ''}{', own reach' if own_reach else ''}"
    )
    print(f"{game.chips:>3} boots, {game.size:,} states, {name}", flush=True)

    def progress(t: int, average: npt.NDArray[np.float64]) -> None:
        paused = time.process_time()
        first = best_response(game, hands, average, 0)
        second = best_response(game, hands, average, 1)
        print(f"    {t}: {(first + second) / 2:.4f} ({first:+.3f} {second:+.3f})", flush=True)
        spent[0] += time.process_time() - paused

    started = time.process_time()
    solve(
        game,
        hands,
        iterations,
        method=method,
        progress=progress,
        every=every,
        dtype=dtype,
        own_reach=own_reach,
    )
    cpu = (time.process_time() - started - spent[0]) / iterations
    print(f"    {cpu:.3f} cpu s/iteration", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--limits", default="16,24,32,48")
    parser.add_argument("--methods", default="dcfr,cfr+")
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--every", type=int, default=50)
    parser.add_argument("--float32", action="store_true")
    parser.add_argument("--own-reach", action="store_true")
    args = parser.parse_args()
    hands = buckets(Rules())
    for limit in [int(x) for x in args.limits.split(",")]:
        game = build_abstraction(Rules.from_options({"pot_limit_boots": limit}), chips=limit)
        for method in args.methods.split(","):
            run(
                game,
                hands,
                method,
                args.iterations,
                args.every,
                dtype=np.float32 if args.float32 else np.float64,
                own_reach=args.own_reach,
            )


if __name__ == "__main__":
    main()
