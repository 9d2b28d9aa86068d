"""The solved strategy tables shipped with the package: how they are built, stored and read.

A table is one ``.npz`` file per preset in this folder: the public states of the abstract game
(:mod:`teenpatti.bots.solver.game`) as small integers, and for each state, move and bucket the
chance of the move as a byte (0-255, rows summing to about 255), with the solver's parameters
and the exploitability of the stored bytes (:func:`measure`). Build one with
``python -m teenpatti.bots.solver.tables nepal --iterations 2400`` (the shipped table: CFR+
unless ``--method``; ``--checkpoint PATH`` measures and writes the table every 25 iterations as
it goes, ``--every N`` every N; ``--state PATH`` keeps the whole state of the solve there at
the same times and, when PATH exists, goes on from it, so a long solve can stop and go on;
``--tremble E`` trains the rows off the strategy's own path, see
:func:`teenpatti.bots.solver.cfr.solve`: ``duo``'s table is built with ``--tremble 0.001``).
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
from .cfr import Progress, exploitability, solve
from .game import EDGES, Abstraction, Buckets, State, buckets, build_abstraction

__all__ = [
    "FOLDER",
    "RowIndex",
    "Table",
    "build",
    "coarse_map",
    "load",
    "load_path",
    "main",
    "measure",
    "state_rows",
    "stored_policy",
]

FOLDER = Path(__file__).with_name("data")
"""Where the shipped tables live."""


class RowIndex:
    """A state's row found by its fields (a row of :func:`state_rows`): each row packed into
    one integer, every field given the bits its largest value in the table needs, and the
    packed rows sorted, so that a lookup is a binary search. About 12 bytes a state, where a
    dictionary of byte keys took about 150 (a table of 233,487 states: 3 MB against 35); rows
    too wide to pack into 63 bits are kept in a dictionary.

    >>> index = RowIndex(np.array([[1, 2], [3, 0], [0, 7]], dtype=np.int16))
    >>> index.get((3, 0)), index.get((0, 7)), index.get((4, 0)), index.get((1, 3)), len(index)
    (1, 2, None, None, 3)
    >>> RowIndex(np.array([[-1, 2], [5, 2**14]], dtype=np.int16)).get((5, 2**14))  # kept as a dict
    1
    """

    def __init__(self, rows: npt.NDArray[np.int16]) -> None:
        wide = rows.astype(np.int64)
        self._top = [int(x) for x in wide.max(axis=0)] if len(rows) else [0] * rows.shape[1]
        bits = [max(t, 0).bit_length() for t in self._top]
        self._shifts = [sum(bits[:k]) for k in range(len(bits))]
        self._dict: dict[tuple[int, ...], int] | None = None
        if len(rows) and (wide.min() < 0 or sum(bits) > 63):
            self._dict = {tuple(int(x) for x in r): i for i, r in enumerate(wide)}
            return
        keys = (wide << np.array(self._shifts, dtype=np.int64)).sum(axis=1)
        self._order = np.argsort(keys, kind="stable").astype(np.int32)
        self._keys = keys[self._order]

    def __len__(self) -> int:
        """How many states."""
        return len(self._dict) if self._dict is not None else len(self._keys)

    def get(self, fields: tuple[int, ...]) -> int | None:
        """The row of the state with these fields, or ``None`` if the table has none."""
        if self._dict is not None:
            return self._dict.get(fields)
        key = 0
        for value, top, shift in zip(fields, self._top, self._shifts, strict=True):
            if not 0 <= value <= top:
                return None
            key |= int(value) << shift  # a Python int: a numpy one would overflow
        i = int(np.searchsorted(self._keys, key))
        if i < len(self._keys) and int(self._keys[i]) == key:
            return int(self._order[i])
        return None


@dataclass(frozen=True, slots=True)
class Table:
    """A solved strategy: ``policy[row, move, bucket]`` as bytes (sum about 255), the row of a
    state found by :meth:`row`."""

    preset: str
    chips: int
    rows: npt.NDArray[np.int16]
    """Every state as a row of small integers (:func:`state_rows`), in the solver's order."""
    index: RowIndex
    """A state's row by its fields: built from :attr:`rows` in a fraction of a second where
    a dictionary of 250,000 ``State`` objects takes seconds."""
    policy: npt.NDArray[np.uint8]
    edges: tuple[float, ...]
    iterations: int
    exploitability: float
    method: str = "cfr+"
    """The solver's method (:func:`teenpatti.bots.solver.cfr.solve`)."""
    tremble: float = 0.0
    """The solver's tremble (:func:`teenpatti.bots.solver.cfr.solve`)."""

    def row(self, state: State) -> int | None:
        """The row of ``state``, or ``None`` if the table has no such state."""
        return self.index.get(_fields(state))


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


def coarse_map(
    coarse: tuple[float, ...], edges: tuple[float, ...] = EDGES
) -> npt.NDArray[np.int64]:
    """For every bucket of ``edges``, the bucket of ``coarse`` (a subset of the edges) holding it.

    >>> coarse_map((0.58, 0.83)).tolist()
    [0, 0, 0, 1, 1, 1, 2, 2, 2, 2]
    >>> coarse_map((0.5,))
    Traceback (most recent call last):
    ...
    ValueError: the solving buckets must cut at some of the table's edges, not at 0.5
    """
    for edge in coarse:
        if edge not in edges:
            raise ValueError(
                f"the solving buckets must cut at some of the table's edges, not at {edge}"
            )
    lows = np.array((0.0, *edges))
    out: npt.NDArray[np.int64] = np.searchsorted(np.array(coarse), lows, side="right")
    return out


def build(
    rules: Rules,
    iterations: int,
    *,
    method: str = "cfr+",
    coarse: tuple[float, ...] | None = None,
    log: bool = True,
    checkpoint: Path | None = None,
    every: int = 25,
    dtype: type = np.float64,
    state: Path | None = None,
    tremble: float = 0.0,
    root: State | None = None,
    dead: int = 0,
    name: str | None = None,
    chips: int | None = None,
) -> Table:
    """Solve the heads-up game of ``rules`` with ``iterations`` of ``method`` and measure it.

    ``coarse`` solves on fewer buckets (cut at some of the table's edges) and stores the
    strategy for the table's buckets (each plays its coarse bucket's row); the exploitability is
    measured in the game of the table's buckets either way. With ``checkpoint``, the stored
    strategy is measured every ``every`` iterations and written beside it (``NAME-<t>.npz``,
    :func:`save`) as a table of that many iterations: the same table a build of ``t``
    iterations stores, so a long solve leaves its figures and tables as it goes. ``dtype`` is
    the solver's floats (:func:`~teenpatti.bots.solver.cfr.solve`). With ``state``, the whole
    state of the solve (:class:`~teenpatti.bots.solver.cfr.Progress`) is written there every
    ``every`` iterations (replacing the last) and, if the file exists, the solve goes on from
    it: the table is the one an unbroken solve of ``iterations`` builds. ``tremble`` is the
    solver's (:func:`~teenpatti.bots.solver.cfr.solve`), kept in the table. ``root`` and
    ``dead`` start the game elsewhere (:func:`~teenpatti.bots.solver.game.build_abstraction`;
    :mod:`teenpatti.bots.solver.endgame`), ``name`` is then the table's; ``chips`` plays it
    on stacks of that many boots (default: the rules' starting chips).
    """
    started = time.monotonic()
    hands = buckets(rules)
    game = build_abstraction(rules, chips, root=root, dead=dead)
    spread = coarse_map(coarse) if coarse is not None else np.arange(len(EDGES) + 1)
    solving = buckets(rules, coarse) if coarse is not None else hands
    rows = state_rows(game)
    index = RowIndex(rows)

    def table(policy: npt.NDArray[np.uint8], t: int, gap: float) -> Table:
        title = name or rules.preset
        return Table(title, game.chips, rows, index, policy, EDGES, t, gap, method, tremble)

    def progress(t: int, average: npt.NDArray[np.float64]) -> None:
        line = f"iteration {t}: {time.monotonic() - started:.0f} s, {time.process_time():.0f} cpu s"
        if checkpoint is not None and t < iterations:
            policy = quantise(average[:, :, spread])
            gap = measure(game, hands, policy)
            save(table(policy, t, gap), checkpoint.with_name(f"{checkpoint.stem}-{t}.npz"))
            line += f", exploitability {gap:.4f}"
        if log:
            print(line, flush=True)

    def keep(progress: Progress) -> None:
        assert state is not None
        partial = state.with_name(state.name + ".partial")
        progress.save(partial)
        partial.replace(state)

    resume = Progress.load(state) if state is not None and state.exists() else None
    if resume is not None and log:
        print(f"going on from iteration {resume.t} ({state})", flush=True)
    solution = solve(
        game,
        solving,
        iterations,
        method=method,
        progress=progress,
        every=every,
        dtype=dtype,
        resume=resume,
        keep=keep if state is not None else None,
        tremble=tremble,
    )
    policy = quantise(solution.policy[:, :, spread])
    gap = measure(game, hands, policy)
    if log:
        print(f"exploitability {gap:.4f} boots a hand ({game.size} states)", flush=True)
    return table(policy, iterations, gap)


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
        tremble=np.array([table.tremble]),
    )


@lru_cache(maxsize=8)
def load(name: str) -> Table | None:
    """The shipped table of preset ``name``, or ``None`` if there is none."""
    return load_path(FOLDER / f"{name}.npz")


def load_path(path: Path) -> Table | None:
    """The table stored at ``path`` (named for its file), or ``None`` if there is none."""
    if not path.exists():
        return None
    name = path.stem
    with np.load(path) as data:
        rows = data["states"]
        index = RowIndex(rows)
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
            float(data["tremble"][0]) if "tremble" in data else 0.0,
        )


def main(argv: list[str] | None = None) -> None:
    """``python -m teenpatti.bots.solver.tables PRESET --iterations N``: build and store."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("preset", nargs="?", default="nepal")
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--method", choices=("cfr+", "dcfr", "pcfr+"), default="cfr+")
    parser.add_argument(
        "--coarse",
        default=None,
        help="solve on fewer buckets, cut at some of the table's edges (e.g. 0.58,0.83)",
    )
    parser.add_argument(
        "--checkpoint",
        type=Path,
        default=None,
        help="measure and write the table every 25 iterations, as PATH-<iterations>.npz",
    )
    parser.add_argument(
        "--every",
        type=int,
        default=25,
        help="with --checkpoint: measure and write the table every N iterations (default 25)",
    )
    parser.add_argument(
        "--float32",
        action="store_true",
        help="solve in 32-bit floats, as the tables before 2 December were built",
    )
    parser.add_argument(
        "--state",
        type=Path,
        default=None,
        help="keep the solve's whole state in PATH every --every iterations and go on from it "
        "if it exists",
    )
    parser.add_argument(
        "--tremble",
        type=float,
        default=0.0,
        help="count the regrets as if every move were made with at least this share of the "
        "chance (a tremble), so that rows off the strategy's own path are trained too",
    )
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    coarse = None if args.coarse is None else tuple(float(x) for x in args.coarse.split(","))
    if coarse is not None:
        try:
            coarse_map(coarse)
        except ValueError as e:
            parser.error(str(e))
    table = build(
        preset(args.preset),
        args.iterations,
        method=args.method,
        coarse=coarse,
        checkpoint=args.checkpoint,
        every=args.every,
        dtype=np.float32 if args.float32 else np.float64,
        state=args.state,
        tremble=args.tremble,
    )
    out = args.out or FOLDER / f"{args.preset}.npz"
    out.parent.mkdir(parents=True, exist_ok=True)
    save(table, out)
    print(f"wrote {out} ({out.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
