"""The SQLite store writes on its own thread, a batch per commit: another process holding the
file's write lock delays the writes (every one of them is stored once the lock is let go, none
twice) but not the reads, nor the event loop."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from teenpatti.store.base import VersionConflict
from teenpatti.store.sqlite import SqliteStore

FIRST: dict[str, Any] = {"type": "created"}

HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO meta (key, value) VALUES ('held', 'yes')")
print("locked", flush=True)
sys.stdin.readline()
db.execute("COMMIT")
print("released", flush=True)
"""


async def _hold_the_lock(path: Path) -> asyncio.subprocess.Process:
    """Another process that takes the file's write lock and keeps it until told to let go."""
    holder = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        HOLDER,
        str(path),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert holder.stdout is not None
    assert await holder.stdout.readline() == b"locked\n"
    return holder


async def _let_go(holder: asyncio.subprocess.Process) -> None:
    assert holder.stdin is not None and holder.stdout is not None
    holder.stdin.write(b"go\n")
    await holder.stdin.drain()
    assert await holder.stdout.readline() == b"released\n"
    assert await holder.wait() == 0


def test_a_lock_held_elsewhere_delays_writes_not_reads(tmp_path: Path) -> None:
    path = tmp_path / "teenpatti.sqlite3"

    async def body() -> None:
        store = SqliteStore(path, busy_timeout=120)
        try:
            for n in range(10):
                await store.create_table(f"t{n}", f"CODE{n:02d}", FIRST)
            holder = await _hold_the_lock(path)
            try:
                moves = [
                    asyncio.create_task(store.append(f"t{n}", 1, [{"move": n}])) for n in range(10)
                ]
                # The same move sent again (a retry): it must not be stored twice.
                again = asyncio.create_task(store.append("t0", 1, [{"move": 0}]))
                # The loop keeps turning and reads answer while the writes wait for the lock.
                for _ in range(50):
                    await asyncio.sleep(0)
                assert [e.version for e in await store.load("t3")] == [1]
                assert (await store.find("CODE03")) is not None
                assert await store.versions([f"t{n}" for n in range(10)]) == {
                    f"t{n}": 1 for n in range(10)
                }
                assert len(await store.tables()) == 10
                assert not any(m.done() for m in [*moves, again])
                commits = store.commits
            finally:
                await _let_go(holder)
            assert await asyncio.gather(*moves) == [2] * 10
            with pytest.raises(VersionConflict):
                await again
            # Every write that waited went in one or two commits (one batch may have been
            # taken before the others arrived).
            assert store.commits - commits <= 2
            for n in range(10):
                assert [e.data for e in await store.load(f"t{n}")] == [FIRST, {"move": n}]
        finally:
            await store.close()

    asyncio.run(asyncio.wait_for(body(), 120))


def test_a_failed_write_in_a_batch_fails_alone(tmp_path: Path) -> None:
    """A stale append shares its commit with good ones: it stores nothing, they store all."""

    async def body() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        try:
            await store.create_table("a", "AAAAAA", FIRST)
            await store.create_table("b", "BBBBBB", FIRST)
            results = await asyncio.gather(
                store.append("a", 1, [{"n": 1}, {"n": 2}]),
                store.append("a", 1, [{"n": 9}]),
                store.append("b", 1, [{"n": 1}]),
                return_exceptions=True,
            )
            assert results[0] == 3 and results[2] == 2
            assert isinstance(results[1], VersionConflict)
            assert [e.data for e in await store.load("a")] == [FIRST, {"n": 1}, {"n": 2}]
            assert [e.data for e in await store.load("b")] == [FIRST, {"n": 1}]
        finally:
            await store.close()

    asyncio.run(asyncio.wait_for(body(), 60))
