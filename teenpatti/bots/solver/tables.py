"""The solved strategy tables shipped with the package: how they are built, stored and read.

A table is one ``.npz`` file per preset in this folder: the public states of the abstract game
(:mod:`teenpatti.bots.solver.game`) as small integers, and for each state, move and bucket the
chance of the move as a byte (0-255, rows summing to about 255), with the solver's parameters
and the exploitability of the stored bytes (:func:`measure`). Build one with
``python -m teenpatti.bots.solver.tables nepal --iterations 40`` (CFR+ unless ``--method``).
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
from .game import EDGES, Abstraction, Buckets, State, buckets, build_abstraction

__all__ = ["FOLDER", "Table", "build", "load", "main", "measure", "state_rows", "stored_policy"]

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
    method: str = "cfr+"
    """The solver's method (:func:`teenpatti.bots.solver.cfr.solve`)."""

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


def stored_policy(policy: npt.NDArray[np.uint8]) -> npt.NDArray[np.float64]:
    """A table's bytes as chances (each row scaled to sum to one)."""
    out = policy.astype(np.float64)
    out /= np.maximum(out.sum(axis=1, keepdims=True), 1e-12)
    return out


def measure(game: Abstraction, hands: Buckets, policy: npt.NDArray[np.uint8]) -> float:
    """The exploitability of a table's bytes (boots a hand, the mean of the two seats)."""
    return exploitability(game, hands, stored_policy(policy))


def build(rules: Rules, iterations: int, *, method: str = "cfr+", log: bool = True) -> Table:
    """Solve the heads-up game of ``rules`` with ``iterations`` of ``method`` and measure it."""
    started = time.monotonic()
    hands = buckets(rules)
    game = build_abstraction(rules)

    def progress(t: int, average: npt.NDArray[np.float64]) -> None:
        if log:
            print(f"iteration {t}: {time.monotonic() - started:.0f} s", flush=True)

    solution = solve(game, hands, iterations, method=method, progress=progress, every=25)
    policy = quantise(solution.policy)
    gap = measure(game, hands, policy)
    if log:
        print(f"exploitability {gap:.4f} boots a hand ({game.size} states)", flush=True)
    rows = state_rows(game)
    index = {row.tobytes(): i for i, row in enumerate(rows)}
    return Table(rules.preset, game.chips, rows, index, policy, EDGES, iterations, gap, method)


def save(table: Table, path: Path) -> None:
    """Write ``table`` compactly (``np.savez_compressed``)."""
    np.savez_compressed(
        path,
        states=table.rows,
        policy=table.policy,
        edges=np.array(table.edges),
        meta=np.array([table.chips, table.iterations]),
        exploitability=np.array([table.exploitability]),
        method=np.array(table.method),
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
            str(data["method"]) if "method" in data else "cfr+",
        )


def main(argv: list[str] | None = None) -> None:
    """``python -m teenpatti.bots.solver.tables PRESET --iterations N``: build and store."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("preset", nargs="?", default="nepal")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--method", choices=("cfr+", "dcfr", "pcfr+"), default="cfr+")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    table = build(preset(args.preset), args.iterations, method=args.method)
    out = args.out or FOLDER / f"{args.preset}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    save(table, out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
