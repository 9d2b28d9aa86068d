"""The solved strategy tables shipped with the package: how they are built, stored and read.

A table is one ``.npz`` file per preset in this folder: the public states of the abstract game
(:mod:`teenpatti.bots.solver.game`) as small integers, and for each state, move and bucket the
chance of the move as a byte (0-255, rows summing to about 255), with the solver's parameters.
Build one with ``python -m teenpatti.bots.solver.tables nepal --iterations 40``.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...engine.rules import Rules, preset
from .cfr import exploitability, solve
from .game import EDGES, Abstraction, State, buckets, build_abstraction

__all__ = ["FOLDER", "Table", "build", "load", "main", "state_rows"]

FOLDER = Path(__file__).with_name("data")
"""Where the shipped tables live."""


@dataclass(frozen=True, slots=True)
class Table:
    """A solved strategy: ``policy[row, move, bucket]`` as bytes (sum about 255), the row of a
    state found by :meth:`row`."""

    preset: str
    chips: int
    rows: npt.NDArray[np.int16]
    """Every state as a row of small integers (:func:`state_rows`), in the solver's order."""
    index: dict[bytes, int]
    """A state's row by its key (:func:`state_key`): a dictionary of bytes builds in a fraction
    of a second where one of 250,000 ``State`` objects takes seconds."""
    policy: npt.NDArray[np.uint8]
    edges: tuple[float, ...]
    iterations: int
    exploitability: float

    def row(self, state: State) -> int | None:
        """The row of ``state``, or ``None`` if the table has no such state."""
        return self.index.get(state_key(state))


def _fields(s: State) -> tuple[int, ...]:
    return (
        s.put[0],
        s.put[1],
        s.stake,
        s.seen[0],
        s.seen[1],
        s.turn,
        s.bet_made,
        s.blind_turns[0],
        s.blind_turns[1],
        s.saw[0],
        s.saw[1],
    )


def state_key(state: State) -> bytes:
    """The table's key of ``state``: its row of :func:`state_rows` as bytes."""
    return np.array(_fields(state), dtype=np.int16).tobytes()


def state_rows(game: Abstraction) -> npt.NDArray[np.int16]:
    """Every state as a row of eleven small integers (the table's key)."""
    return np.array([_fields(s) for s in game.states], dtype=np.int16)


def quantise(policy: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """Chances as bytes (0-255)."""
    out: npt.NDArray[np.uint8] = np.rint(policy * 255).astype(np.uint8)
    return out


def build(rules: Rules, iterations: int, *, log: bool = True) -> Table:
    """Solve the heads-up game of ``rules`` with ``iterations`` of CFR+ and measure it."""
    started = time.monotonic()
    hands = buckets(rules)
    game = build_abstraction(rules)

    def progress(t: int, average: npt.NDArray[np.float64]) -> None:
        if log:
            print(f"iteration {t}: {time.monotonic() - started:.0f} s", flush=True)

    solution = solve(game, hands, iterations, progress=progress, every=25)
    gap = exploitability(game, hands, solution.policy)
    if log:
        print(f"exploitability {gap:.4f} boots a hand ({game.size} states)", flush=True)
    rows = state_rows(game)
    index = {row.tobytes(): i for i, row in enumerate(rows)}
    table = Table(
        rules.preset, game.chips, rows, index, quantise(solution.policy), EDGES, iterations, gap
    )
    return table


def save(table: Table, path: Path) -> None:
    """Write ``table`` compactly (``np.savez_compressed``)."""
    np.savez_compressed(
        path,
        states=table.rows,
        policy=table.policy,
        edges=np.array(table.edges),
        meta=np.array([table.chips, table.iterations]),
        exploitability=np.array([table.exploitability]),
    )


@lru_cache(maxsize=8)
def load(name: str) -> Table | None:
    """The shipped table of preset ``name``, or ``None`` if there is none."""
    path = FOLDER / f"{name}.npz"
    if not path.exists():
        return None
    with np.load(path) as data:
        rows = data["states"]
        index = {row.tobytes(): i for i, row in enumerate(rows)}
        chips, iterations = (int(x) for x in data["meta"])
        return Table(
            name,
            chips,
            rows,
            index,
            data["policy"],
            tuple(float(x) for x in data["edges"]),
            iterations,
            float(data["exploitability"][0]),
        )


def main(argv: list[str] | None = None) -> None:
    """``python -m teenpatti.bots.solver.tables PRESET --iterations N``: build and store."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("preset", nargs="?", default="nepal")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    table = build(preset(args.preset), args.iterations)
    out = args.out or FOLDER / f"{args.preset}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    save(table, out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
