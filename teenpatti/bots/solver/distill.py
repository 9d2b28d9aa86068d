"""The rollout search at three to six seats, learnt offline into a table of corrections to ``hard``.

``expert``'s rollout search (:mod:`teenpatti.bots.search`) beats ``hard`` at 4 and 6 seats but
plays a hundred hands out a decision (28 ms at 6 seats). This module runs that search offline
on positions of hands ``hard`` plays against itself at 3 to 6 seats of our table (every
decision where all the others still in have seen: where ``expert`` searches) and keeps, for each
of the multiway information sets (:func:`teenpatti.bots.solver.multiway.info_key`) and each
move ``hard`` chose there, what every other move gained over it in the rollouts: the sum, the
sum of squares and the count over the positions. The shipped table
(``data/multiway_moves.npz``) holds, per set and hard's move, the move to play instead where
the mean gain over the positions of the set's group (:func:`group_of`: the positions are too
few for every set) is above zero by more than :data:`Z` standard errors (:func:`corrections`),
and -1 (keep hard's move) everywhere else: one lookup a decision.

With ``--everywhere`` a build searches every decision of the multiway game (a blind player
still in included) and pools the positions by how many of the others have seen too: the
second shipped table (``data/multiway_everywhere.npz``), which ``expert`` plays in hands dealt
to three or six (:data:`EVERYWHERE_SEATS`), where the strongest exploiter takes less from it
than from the first; dealt to four or five it plays the first.

Build: ``python -m teenpatti.bots.solver.distill --positions 20000 --state PATH --out PATH``
(``--state`` keeps the sums and goes on from them, so the build can stop and go on; builds with
other ``--seed`` values deal other hands, and ``--combine STATE STATE ... --out PATH`` writes
the table of their summed positions).
"""

from __future__ import annotations

import argparse
import random
import time
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from ...engine.actions import ActionKind
from ...engine.hand import Hand
from ...engine.rules import Rules
from ...engine.view import HandView, view
from ..hard import HardBot
from ..search import Rollouts, candidates
from .multiway import KEYS, MOVES, multiway_key

__all__ = ["FOLDER", "Sums", "Z", "corrections", "load"]

KINDS = tuple(ActionKind(m) for m in MOVES)
NM = len(MOVES)
Z = 2.0
"""Standard errors by which a move's mean gain over hard's must be above zero to replace it."""
MIN_POSITIONS = 4
"""Positions of a set (with hard's move) needed before a correction is made."""
FOLDER = Path(__file__).with_name("data")


def all_others_seen(v: HandView) -> bool:
    """Whether every other player still in has seen (where ``expert`` searches)."""
    return all(s.seen for s in v.seats if s.dealt and not s.packed and s.seat != v.viewer)


class Sums:
    """Per information set, hard's move and another move: the rollouts' gain, summed."""

    def __init__(self, seed: int = 1, everywhere: bool = False) -> None:
        self.everywhere = everywhere
        """Search every decision of the multiway game, not only where all the others have
        seen."""
        self.total = np.zeros((KEYS, NM, NM), dtype=np.float64)
        self.squares = np.zeros((KEYS, NM, NM), dtype=np.float64)
        self.count = np.zeros((KEYS, NM), dtype=np.int64)
        self.hands = 0
        self.positions = 0
        self.seed = seed

    def add_hand(self, search: Rollouts) -> None:
        """Play one hand of ``hard`` at 3-6 seats and search every decision where all the
        others have seen (every decision of the multiway game, with :attr:`everywhere`)."""
        rng = random.Random(f"distill/{self.seed}/{self.hands}")
        self.hands += 1
        rules = Rules()
        seats = rng.randint(3, 6)
        hand = Hand(
            rules, [rules.starting_chips] * seats, rng.randrange(seats), seed=rng.randbytes(32)
        )
        bots = [HardBot(rng.randrange(2**32)) for _ in range(seats)]
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            move = bots[seat].decide(v)
            key = multiway_key(v) if hand.side_show is None else None
            searched = self.everywhere or all_others_seen(v)
            if key is not None and move.kind in KINDS and searched and v.you is not None:
                moves = candidates(v)
                values = search.values(v, moves, rng)
                base = next((i for i, m in enumerate(moves) if m.kind is move.kind), None)
                if values is not None and base is not None:
                    h = KINDS.index(move.kind)
                    self.count[key, h] += 1
                    self.positions += 1
                    n = len(values[base])
                    for i, m in enumerate(moves):
                        if i == base or m.kind not in KINDS:
                            continue
                        gain = sum(a - b for a, b in zip(values[i], values[base], strict=True)) / n
                        gain /= rules.boot
                        k = KINDS.index(m.kind)
                        self.total[key, h, k] += gain
                        self.squares[key, h, k] += gain * gain
            hand.apply(move)

    def save(self, path: Path) -> None:
        """Write the sums to ``path`` whole or not at all (a new file put in its place), so a
        build stopped at any moment goes on from its last save."""
        part = path.with_name(path.name + ".part")
        with part.open("wb") as out:
            self._write(out)
        part.replace(path)

    def _write(self, out: BinaryIO) -> None:
        np.savez_compressed(
            out,
            total=self.total,
            squares=self.squares,
            count=self.count,
            hands=np.int64(self.hands),
            positions=np.int64(self.positions),
            seed=np.int64(self.seed),
            everywhere=np.bool_(self.everywhere),
        )

    @classmethod
    def resume(cls, path: Path) -> Sums:
        with np.load(path) as f:
            s = cls(int(f["seed"]), bool(f["everywhere"]) if "everywhere" in f else False)
            s.total, s.squares, s.count = f["total"], f["squares"], f["count"]
            s.hands, s.positions = int(f["hands"]), int(f["positions"])
        return s


def combined(paths: list[Path]) -> Sums:
    """The sums of several builds (different seeds deal different hands)."""
    out = Sums.resume(paths[0])
    for path in paths[1:]:
        more = Sums.resume(path)
        if more.everywhere != out.everywhere:
            raise ValueError(f"{path} searched other decisions than {paths[0]}")
        out.total += more.total
        out.squares += more.squares
        out.count += more.count
        out.hands += more.hands
        out.positions += more.positions
    return out


def group_of(key: int) -> int:
    """The group a set's positions are pooled in: acting or answering, two left or more, the
    bucket, how many of the others have seen (none, one, two or more), the stake and the pot
    band (the sets of :func:`.multiway.info_key` differ also in the players in, the side show's
    target and a seen raise, which the positions are too few to tell apart).

    >>> group_of(0), group_of(KEYS - 1)
    (0, 2591)
    """
    k = key // 2  # a seen raise
    pot = k % 6
    k //= 6
    stake = k % 4
    k //= 4 * 2  # the side show's target
    seen = k % 3
    k //= 3
    bucket = k % 9
    k //= 9
    n_in = k % 5
    answering = k // 5
    return ((((answering * 2 + (n_in > 0)) * 9 + bucket) * 3 + seen) * 4 + stake) * 6 + pot


GROUPS = np.array([group_of(k) for k in range(KEYS)], dtype=np.int64)


def corrections(sums: Sums, z: float = Z) -> npt.NDArray[np.int8]:
    """Per set and hard's move, the move to play instead (-1: keep hard's): the move whose
    mean gain over the positions of the set's group (:func:`group_of`) is above zero by more
    than ``z`` standard errors, with at least :data:`MIN_POSITIONS` positions."""
    groups = int(GROUPS.max()) + 1
    total = np.zeros((groups, NM, NM))
    squares = np.zeros((groups, NM, NM))
    count = np.zeros((groups, NM))
    np.add.at(total, GROUPS, sums.total)
    np.add.at(squares, GROUPS, sums.squares)
    np.add.at(count, GROUPS, sums.count)
    n = np.maximum(count[:, :, None], 1.0)
    mean = total / n
    var = np.maximum(squares / n - mean * mean, 0.0) * n / np.maximum(n - 1, 1)
    score = np.where(total != 0, mean - z * np.sqrt(var / n), -np.inf)
    best = score.argmax(axis=2)
    good = (np.take_along_axis(score, best[:, :, None], axis=2)[:, :, 0] > 0) & (
        count >= MIN_POSITIONS
    )
    per_group = np.where(good, best, -1).astype(np.int8)
    out: npt.NDArray[np.int8] = per_group[GROUPS]
    return out


TABLES = {False: "multiway_moves.npz", True: "multiway_everywhere.npz"}
"""The shipped tables: learnt where all the others still in have seen, and at every decision."""
EVERYWHERE_SEATS = frozenset({3, 6})
"""The deals (players dealt in) where ``expert`` plays the table learnt at every decision; at the
others it plays the one learnt where all the others have seen, only there. Chosen by the
strongest exploiter's gain (docs/bots.md): at three and six seats the table learnt everywhere
leaves it less, at four more (five is not measured: the first table, as before)."""


@lru_cache(maxsize=2)
def load(everywhere: bool = False) -> npt.NDArray[np.int8] | None:
    """A shipped table of corrections, ``table[key, hard's move]`` (-1: keep it), or ``None``:
    the one learnt at every decision, or where all the others have seen."""
    path = FOLDER / TABLES[everywhere]
    if not path.exists():
        return None
    with np.load(path) as f:
        out: npt.NDArray[np.int8] = np.asarray(f["moves"], dtype=np.int8)
    return out


def _write(path: Path, table: npt.NDArray[np.int8], sums: Sums) -> None:
    np.savez_compressed(
        path,
        moves=table,
        positions=np.int64(sums.positions),
        everywhere=np.bool_(sums.everywhere),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--state", type=Path, default=None)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--every", type=int, default=50, help="hands between saves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--everywhere",
        action="store_true",
        help="search every decision, not only where all the others have seen (a new build)",
    )
    parser.add_argument(
        "--combine", type=Path, nargs="*", default=None, help="write --out from these states"
    )
    args = parser.parse_args(argv)
    if args.combine:
        sums = combined(args.combine)
        table = corrections(sums)
        _write(args.out, table, sums)
        print(f"{sums.positions} positions, {int((table >= 0).sum())} corrections")
        return
    if args.state is None:
        parser.error("--state PATH is needed to build")
    sums = Sums.resume(args.state) if args.state.exists() else Sums(args.seed, args.everywhere)
    search = Rollouts()
    started = time.process_time()
    while sums.positions < args.positions:
        for _ in range(args.every):
            sums.add_hand(search)
        sums.save(args.state)
        table = corrections(sums)
        if args.out is not None:
            _write(args.out, table, sums)
        print(
            f"{sums.hands} hands, {sums.positions} positions, {int((table >= 0).sum())}"
            f" corrections, {time.process_time() - started:.0f} CPU s",
            flush=True,
        )


if __name__ == "__main__":
    main()
