"""Benchmark of the SQLite store: the event loop's time per append, and appends a second.

Run ``.venv/bin/python bench/bench_store.py [--tables 200 --moves 20]``. Each of ``--tables``
tables appends ``--moves`` moves one after the other (as a table does: the next move waits for
the last one's append), all tables at once on one event loop, into a fresh file in a temporary
folder. Measured in the same run, the baseline is the same appends done the straightforward way:
a transaction and a commit per append, on the event loop's thread (as the store did before its
writer thread). Figures: the loop thread's CPU per append (``time.thread_time`` in the loop: what
an append takes from every other table and socket), appends a second, and commits made.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

from teenpatti.store.sqlite import SqliteStore

FIRST: dict[str, Any] = {"type": "created"}
MOVE: dict[str, Any] = {"type": "act", "seat": 1, "action": {"do": "chaal"}, "id": "x" * 16}


class DirectAppends:
    """The baseline: one transaction per append, on the loop's thread."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.commits = 0

    async def append(self, table_id: str, expected: int, events: list[dict[str, Any]]) -> int:
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            (last,) = self.db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
            assert last == expected
            self.db.executemany(
                "INSERT INTO events (table_id, version, data, at) VALUES (?, ?, ?, ?)",
                [(table_id, expected + i, json.dumps(e), now) for i, e in enumerate(events, 1)],
            )
        self.commits += 1
        return expected + len(events)


async def play(store: Any, tables: int, moves: int) -> tuple[float, float]:
    """Loop CPU seconds and wall seconds for every table's moves."""

    async def table(n: int) -> None:
        version = 1
        for _ in range(moves):
            version = await store.append(f"t{n}", version, [MOVE])

    cpu, wall = time.thread_time(), time.perf_counter()
    await asyncio.gather(*(table(n) for n in range(tables)))
    return time.thread_time() - cpu, time.perf_counter() - wall


async def measure(folder: Path, tables: int, moves: int) -> dict[str, tuple[float, float, int]]:
    out: dict[str, tuple[float, float, int]] = {}
    for name in ("writer thread", "on the loop (baseline)"):
        path = folder / f"{len(out)}.sqlite3"
        store = SqliteStore(path)
        for n in range(tables):
            await store.create_table(f"t{n}", f"C{n:05d}", FIRST)
        if name == "writer thread":
            commits = store.commits
            cpu, wall = await play(store, tables, moves)
            out[name] = (cpu, wall, store.commits - commits)
            await store.close()
        else:
            await store.close()
            direct = DirectAppends(path)
            cpu, wall = await play(direct, tables, moves)
            out[name] = (cpu, wall, direct.commits)
            direct.db.close()
    return out


def main() -> None:
    """Measure and print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    appends = args.tables * args.moves
    with tempfile.TemporaryDirectory() as folder:
        rows = asyncio.run(measure(Path(folder), args.tables, args.moves))
    base_cpu = rows["on the loop (baseline)"][0] / appends
    print(f"{appends:,} appends ({args.tables} tables x {args.moves} moves, one after the other)")
    for name, (cpu, wall, commits) in rows.items():
        per = cpu / appends
        print(
            f"{name:<24} loop CPU {per * 1e6:7.1f} us an append ({per / base_cpu:4.2f}x baseline),"
            f" {appends / wall:9,.0f} appends a second, {commits:,} commits"
        )


if __name__ == "__main__":
    main()
