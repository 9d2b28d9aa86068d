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
second shipped table (``data/multiway_everywhere.npz``). Which table ``expert`` plays in a hand
dealt to so many players is :data:`SEAT_TABLES`, chosen by what the strongest exploiter takes.

With ``--population`` a build plays its hands against a population of opponents rather than
``hard`` alone (:data:`POPULATION`: ``hard``, ``expert`` as shipped, the styles people play,
among them the blind presser and the call-down player), searches every decision of a ``hard``
seat, and plays each rollout with every seat's own policy, the others' hands drawn by Bayes on
those policies' moves (:class:`~teenpatti.bots.search.Rollouts` with ``posterior``): a best
response to the mix, learnt as corrections to ``hard`` (one round of a policy-space response
loop; ``expert`` as shipped is in the mix, so the next round answers the corrections made by
this one). Its table is ``data/multiway_population.npz``.

With ``--respond`` a build is the next round of that loop against ``expert`` itself: hands of
``expert`` as shipped (without this table) against itself at the table sizes of
:data:`RESPONSE_SEATS`; at every decision of every seat (a side show's answer included) the
rollouts play ``expert`` in every seat, the others' hands drawn by Bayes on ``expert``'s own
moves: the search ``bench/exploit.py``'s strongest exploiter makes against it. What that
exploiter would play instead of ``expert``'s move is learnt, per set and ``expert``'s move, as
a second layer of corrections (``data/multiway_response.npz``), applied after the first.

Build: ``python -m teenpatti.bots.solver.distill --positions 20000 --state PATH --out PATH``
(``--state`` keeps the sums and goes on from them, so the build can stop and go on; builds with
other ``--seed`` values deal other hands, and ``--combine STATE STATE ... --out PATH`` writes
the table of their summed positions).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import BinaryIO

import numpy as np
import numpy.typing as npt

from ...engine.actions import ActionKind
from ...engine.hand import Hand
from ...engine.rules import Rules
from ...engine.view import HandView, view
from ..base import DecidesActions, load_bot
from ..hard import HardBot
from ..search import Rollouts, candidates
from .multiway import KEYS, MOVES, multiway_key

__all__ = [
    "FOLDER",
    "POPULATION",
    "RESPONSE_SEATS",
    "SEAT_TABLES",
    "Sums",
    "Z",
    "corrections",
    "load",
]

KINDS = tuple(ActionKind(m) for m in MOVES)
NM = len(MOVES)
Z = 2.0
"""Standard errors by which a move's mean gain over hard's must be above zero to replace it."""
MIN_POSITIONS = 4
"""Positions of a set (with hard's move) needed before a correction is made."""
FOLDER = Path(__file__).with_name("data")


POPULATION: dict[str, int] = {
    "hard": 3,
    "expert": 3,
    "blind_presser": 2,
    "calldown": 1,
    "tight_aggressive": 1,
    "sideshow_asker": 1,
    "maniac": 1,
    "station": 1,
    "never_looks": 1,
    "blind_raiser": 1,
}
"""The opponents of a population build, each with its weight in the draw of a seat."""
POPULATION_SEATS = (3, 3, 4, 5, 6)
"""The table sizes a population build deals to (three seats twice as often: the table of two
friends and the computer, or one person and two computers)."""


RESPONSE_BUILD_SEATS = (3, 6)
"""The table sizes a ``--respond`` build deals to."""
RESPONSE_SEATS: frozenset[int] = frozenset()
"""The deals (players dealt in) where ``expert`` plays the second layer learnt by a
``--respond`` build (``data/multiway_response.npz``, its clearest corrections: ``--z 3 --least
30``) over its first corrections: none. Measured with the exploiter at every place in the
betting order, the layer left it more, not less: +1.04 ± 0.58 boots a hand more at three seats,
paired, and no less at six (docs/bots.md, section 8, "The exploiter from every place"). The
build and its data stay, for the next round of the response loop to start from."""


def _unresponsive_expert(seed: int) -> DecidesActions:
    """``expert`` without the second layer: the policy a ``--respond`` build answers."""
    from ..expert import ExpertBot  # the expert reads this module's tables

    bot = ExpertBot(seed)
    bot.respond = False
    return bot


def all_others_seen(v: HandView) -> bool:
    """Whether every other player still in has seen (where ``expert`` searches)."""
    return all(s.seen for s in v.seats if s.dealt and not s.packed and s.seat != v.viewer)


class Sums:
    """Per information set, hard's move and another move: the rollouts' gain, summed."""

    def __init__(
        self,
        seed: int = 1,
        everywhere: bool = False,
        population: bool = False,
        respond: bool = False,
        answered: Callable[[int], DecidesActions] | None = None,
        answered_seats: tuple[int, ...] = RESPONSE_BUILD_SEATS,
    ) -> None:
        self.everywhere = everywhere or population or respond
        """Search every decision of the multiway game, not only where all the others have
        seen."""
        self.population = population
        """Play against :data:`POPULATION`, each seat's own policy in the rollouts."""
        self.respond = respond
        """Play ``expert`` against itself and learn the exploiter's answer to its moves."""
        self.answered = answered or _unresponsive_expert
        """With :attr:`respond`: the policy answered, made afresh from a seed (``expert``
        without the second layer; ``bench/response_loop.py`` answers its later rounds)."""
        self.answered_seats = answered_seats
        """With :attr:`respond`: the table sizes dealt to."""
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
        if self.respond:
            seats = rng.choice(self.answered_seats)
            names = ["expert"] * seats
        elif self.population:
            seats = rng.choice(POPULATION_SEATS)
            names = rng.choices(list(POPULATION), list(POPULATION.values()), k=seats)
            names[rng.randrange(seats)] = "hard"
        else:
            seats = rng.randint(3, 6)
            names = ["hard"] * seats
        hand = Hand(
            rules, [rules.starting_chips] * seats, rng.randrange(seats), seed=rng.randbytes(32)
        )
        bots: list[DecidesActions] = [
            self.answered(rng.randrange(2**32))
            if self.respond
            else HardBot(rng.randrange(2**32))
            if n == "hard"
            else load_bot(n, rng.randrange(2**32))
            for n in names
        ]
        if self.respond:
            search = Rollouts(
                samples=search.samples,
                seats=lambda _, s: self.answered(s),
                posterior=True,
            )
        elif self.population:
            search = Rollouts(
                samples=search.samples,
                seats=lambda seat, s: load_bot(names[seat], s),
                posterior=True,
            )
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            move = bots[seat].decide(v)
            ours = names[seat] == "hard" or self.respond
            answer = hand.side_show is not None and not self.respond
            key = multiway_key(v) if ours and not answer else None
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
            population=np.bool_(self.population),
            respond=np.bool_(self.respond),
        )

    @classmethod
    def resume(cls, path: Path) -> Sums:
        with np.load(path) as f:
            s = cls(
                int(f["seed"]),
                bool(f["everywhere"]) if "everywhere" in f else False,
                bool(f["population"]) if "population" in f else False,
                bool(f["respond"]) if "respond" in f else False,
            )
            s.total, s.squares, s.count = f["total"], f["squares"], f["count"]
            s.hands, s.positions = int(f["hands"]), int(f["positions"])
        return s


def combined(paths: list[Path]) -> Sums:
    """The sums of several builds (different seeds deal different hands)."""
    out = Sums.resume(paths[0])
    for path in paths[1:]:
        more = Sums.resume(path)
        if (more.everywhere, more.population, more.respond) != (
            out.everywhere,
            out.population,
            out.respond,
        ):
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


def corrections(sums: Sums, z: float = Z, least: int = MIN_POSITIONS) -> npt.NDArray[np.int8]:
    """Per set and hard's move, the move to play instead (-1: keep hard's): the move whose
    mean gain over the positions of the set's group (:func:`group_of`) is above zero by more
    than ``z`` standard errors, with at least ``least`` positions."""
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
    good = (np.take_along_axis(score, best[:, :, None], axis=2)[:, :, 0] > 0) & (count >= least)
    per_group = np.where(good, best, -1).astype(np.int8)
    out: npt.NDArray[np.int8] = per_group[GROUPS]
    return out


TABLES = {
    "seen": "multiway_moves.npz",
    "everywhere": "multiway_everywhere.npz",
    "population": "multiway_population.npz",
    "response": "multiway_response.npz",
}
"""The shipped tables: learnt against ``hard`` where all the others still in have seen, against
``hard`` at every decision, against the population (:data:`POPULATION`) at every
decision, and the second layer: the exploiter's answer to ``expert`` (``--respond``)."""
SEAT_TABLES: dict[int, str] = {3: "everywhere", 4: "seen", 5: "seen", 6: "everywhere"}
"""The table ``expert`` plays in a hand dealt to so many players (the one learnt where all the
others have seen is used only there; the others at every decision). Chosen by the strongest
exploiter's gain and the ladder (docs/bots.md, section 8)."""


@lru_cache(maxsize=4)
def load(which: str = "seen") -> npt.NDArray[np.int8] | None:
    """A shipped table of corrections (:data:`TABLES`), ``table[key, hard's move]`` (-1: keep
    it), or ``None``."""
    path = FOLDER / TABLES[which]
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
        population=np.bool_(sums.population),
        respond=np.bool_(sums.respond),
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
        "--population",
        action="store_true",
        help="play against the population of opponents, not hard alone (a new build)",
    )
    parser.add_argument(
        "--respond",
        action="store_true",
        help="play expert against itself and learn the exploiter's answer (a new build)",
    )
    parser.add_argument("--z", type=float, default=Z, help="standard errors a correction needs")
    parser.add_argument(
        "--least", type=int, default=MIN_POSITIONS, help="positions a correction needs"
    )
    parser.add_argument(
        "--combine", type=Path, nargs="*", default=None, help="write --out from these states"
    )
    args = parser.parse_args(argv)
    if args.combine:
        sums = combined(args.combine)
        table = corrections(sums, args.z, args.least)
        _write(args.out, table, sums)
        print(f"{sums.positions} positions, {int((table >= 0).sum())} corrections")
        return
    if args.state is None:
        parser.error("--state PATH is needed to build")
    sums = (
        Sums.resume(args.state)
        if args.state.exists()
        else Sums(args.seed, args.everywhere, args.population, args.respond)
    )
    search = Rollouts()
    started = time.process_time()
    while sums.positions < args.positions:
        for _ in range(args.every):
            sums.add_hand(search)
        sums.save(args.state)
        table = corrections(sums, args.z, args.least)
        if args.out is not None:
            _write(args.out, table, sums)
        print(
            f"{sums.hands} hands, {sums.positions} positions, {int((table >= 0).sum())}"
            f" corrections, {time.process_time() - started:.0f} CPU s",
            flush=True,
        )


if __name__ == "__main__":
    main()
