"""The response loop over ``expert``'s corrections, averaged round by round: measured, not played.

    nice -n 5 .venv/bin/python bench/response_loop.py --rounds 2 --seats 3 --dir .solves/loop

Round 0 is ``expert`` as shipped. Round ``k`` learns a layer of corrections against the policy
of round ``k - 1``: hands of that policy against itself, and at every decision of every seat the
search the strongest exploiter makes against it (every move played out with the policy in every
seat, the others' hands drawn by Bayes on its own moves: ``distill --respond``'s build, its
answered policy given), kept per information set and the policy's move where the gain over the
set's group is above zero by ``--z`` standard errors over ``--least`` positions. The policy of
round ``k`` plays that layer on round ``k - 1``'s move with chance ``1 / (k + 1)``, else round
``k - 1``'s move: fictitious play, each new answer weighing as much as one of the policies
before it, which is how a loop of best responses is made to converge where a loop that plays
its last answer alone circles (docs/bots.md, section 8, "The next round of the loop"). Each
round is then measured by ``bench/exploit.py``'s exploiter (from every place, ``--test`` hands
a seed) on the same hands as round 0, paired, and against ``hard`` in the arena.

The builds of one round run in parallel, a seed a process (``--seed 1,2``: two); each keeps its
sums in ``--dir`` (``S<k>-<seed>.npz``) and goes on from them, and a round's layer
(``R<k>.npz``) is kept once built, so a stopped run goes on where it stopped.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from functools import lru_cache
from pathlib import Path

import exploit  # bench/exploit.py (the script's folder is on the path): the exploiter
import numpy as np
import numpy.typing as npt

from teenpatti.bots import load_bot, register
from teenpatti.bots.arena import run_arena
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.search import Rollouts
from teenpatti.bots.solver import distill
from teenpatti.bots.solver.multiway import multiway_key
from teenpatti.engine import Action, HandView

FOLDER = Path(".solves/loop")
"""Where the layers and the builds' sums are kept (``--dir``)."""


def weight(k: int) -> float:
    """The chance round ``k`` plays its own layer: fictitious play's ``1 / (k + 1)``.

    >>> [weight(k) for k in (1, 2, 3)]
    [0.5, 0.3333333333333333, 0.25]
    """
    return 1.0 / (k + 1)


@lru_cache(maxsize=32)
def layer(folder: Path, k: int) -> npt.NDArray[np.int8]:
    """Round ``k``'s layer: ``table[key, move]``, the move to play instead (-1: keep it)."""
    with np.load(folder / f"R{k}.npz") as f:
        return np.asarray(f["moves"], dtype=np.int8)


class Round(ExpertBot):
    """``expert`` with the layers of rounds 1 to :attr:`rounds`, each played on the move before
    it with its round's :func:`weight`, in hands dealt to :attr:`seats`."""

    rounds = 0
    folder = FOLDER
    seats: frozenset[int] = frozenset({3})

    def decide(self, view: HandView) -> Action:
        move = super().decide(view)
        seat = view.viewer
        if not self.rounds or seat is None or view.actor != seat:
            return move
        if sum(s.dealt for s in view.seats) not in self.seats:
            return move
        for k in range(1, self.rounds + 1):
            if move.kind not in distill.KINDS:
                break
            if self.rng.random() >= weight(k):
                continue
            key = multiway_key(view)
            if key is None or (self.exploits and self._exploitable(view)):
                break
            other = int(layer(self.folder, k)[key, distill.KINDS.index(move.kind)])
            option = {a.kind: a for a in view.legal_actions}.get(distill.KINDS[other])
            if other >= 0 and option is not None:
                move = option.action(seat)
        return move


def round_bot(k: int, folder: Path, seats: frozenset[int]) -> str:
    """Register round ``k``'s policy as a bot (the exploiter and the arena load bots by name)."""
    name = f"round{k}"
    cls = type(name, (Round,), {"rounds": k, "folder": folder, "seats": seats, "name": name})
    register(name, cls)
    return name


def build(job: tuple[int, int, int, Path, frozenset[int]]) -> int:
    """One seed's sums for round ``k``, against round ``k - 1``: its positions."""
    k, seed, positions, folder, seats = job
    answered = round_bot(k - 1, folder, seats)  # (registered in this process)
    state = folder / f"S{k}-{seed}.npz"
    sums = distill.Sums.resume(state) if state.exists() else distill.Sums(seed, respond=True)
    sums.answered = lambda s: load_bot(answered, s)
    sums.answered_seats = tuple(sorted(seats))
    search = Rollouts()
    while sums.positions < positions:
        for _ in range(20):
            sums.add_hand(search)
        sums.save(state)
    return sums.positions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--seats", default="3", help="table sizes dealt to and played: 3 or 3,4")
    parser.add_argument("--positions", type=int, default=10_000, help="a seed, a round")
    parser.add_argument("--seed", type=exploit.seeds, default=(1, 2))
    parser.add_argument("--test", type=int, default=1500, help="exploiter hands a seed")
    parser.add_argument("--deals", type=int, default=1500, help="arena deals against hard")
    parser.add_argument("--z", type=float, default=3.0)
    parser.add_argument("--least", type=int, default=30)
    parser.add_argument("--dir", type=Path, default=FOLDER)
    args = parser.parse_args()
    seats = frozenset(int(x) for x in args.seats.split(","))
    args.dir.mkdir(parents=True, exist_ok=True)
    layer.cache_clear()
    measured = exploit.settings(args.test)
    first: dict[int, list[float]] = {}
    with multiprocessing.get_context("fork").Pool(len(args.seed)) as pool:
        for k in range(args.rounds + 1):
            started = time.time()
            if k and not (args.dir / f"R{k}.npz").exists():
                jobs = [(k, s, args.positions, args.dir, seats) for s in args.seed]
                pool.map(build, jobs)
                print(f"round {k}'s layer: ", end="", flush=True)
                distill.main(
                    [
                        "--combine",
                        *(str(args.dir / f"S{k}-{s}.npz") for s in args.seed),
                        "--out",
                        str(args.dir / f"R{k}.npz"),
                        "--z",
                        str(args.z),
                        "--least",
                        str(args.least),
                    ]
                )
            name = round_bot(k, args.dir, seats)
            for n in sorted(seats):
                jobs_x = [(k, args.dir, seats, n, s, measured) for s in args.seed]
                gains = [g for part in pool.map(_exploited, jobs_x) for g in part]
                mean, ci = exploit.interval(gains)
                line = f"round {k}, {n} seats: the exploiter takes {mean:+.3f} +- {ci:.3f}"
                if k == 0:
                    first[n] = gains
                else:
                    diff = [b - a for a, b in zip(first[n], gains, strict=True)]
                    line += " (less round 0, paired: {:+.3f} +- {:.3f})".format(
                        *exploit.interval(diff)
                    )
                hard = run_arena([name, "hard"], seats=n, deals=args.deals, seed=1).bots[0]
                line += f"; against hard {hard.boots_per_hand:+.3f} +- {hard.ci95:.3f}"
                print(f"{line} ({len(gains)} hands, {time.time() - started:.0f} s)", flush=True)


Job = tuple[int, Path, frozenset[int], int, int, argparse.Namespace]


def _exploited(job: Job) -> list[float]:
    """The exploiter's gains, a hand each, against round ``k`` at ``n`` seats with one seed."""
    k, folder, seats, n, seed, measured = job
    return exploit.measure("bayes", round_bot(k, folder, seats), n, measured, seed=seed)


if __name__ == "__main__":
    main()
