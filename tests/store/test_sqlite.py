"""The SQLite event store: an append-only log per table with compare-and-set. A stale writer gets
``VersionConflict`` and stores nothing; of two writers racing from the same version exactly one
wins, even from two connections (two processes) on one file; what was committed is there when
the file is opened again."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.push_records import check_push_records

from teenpatti.push.keep import adopt
from teenpatti.store.base import CodeTaken, EventStore, StoredEvent, VersionConflict
from teenpatti.store.sqlite import SCHEMA_VERSION, SqliteStore

FIRST: dict[str, Any] = {"type": "created", "settings": {"seats": 4}, "host": {"name": "Asha"}}


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "teenpatti.sqlite3"


@pytest.fixture
def store(path: Path) -> Iterator[SqliteStore]:
    s = SqliteStore(path)
    yield s
    run(s.close())


def events(n: int, start: int = 0) -> list[dict[str, Any]]:
    return [{"type": "act", "n": start + i} for i in range(n)]


def data(stored: list[StoredEvent]) -> list[dict[str, Any]]:
    return [e.data for e in stored]


def test_the_store_is_an_event_store(store: SqliteStore) -> None:
    def needs(s: EventStore) -> EventStore:
        return s

    assert needs(store) is store


def test_create_append_load(store: SqliteStore, path: Path) -> None:
    async def body() -> None:
        assert path.parent.is_dir()  # the data folder is made
        await store.create_table("t1", "K7WQ3M", FIRST)
        assert await store.append("t1", 1, events(2)) == 3
        assert await store.append("t1", 3, events(1, 2)) == 4
        loaded = await store.load("t1")
        assert [e.version for e in loaded] == [1, 2, 3, 4]
        assert data(loaded) == [FIRST, *events(3)]
        assert all(isinstance(e.at, float) and e.at > 0 for e in loaded)
        assert data(await store.load("t1", after=2)) == events(1, 1) + events(1, 2)
        assert await store.load("t1", after=4) == []
        assert await store.load("nope") == []
        assert await store.append("t1", 4, []) == 4  # nothing to store
        assert len(await store.load("t1")) == 4

    run(body())


def test_find_and_tables(store: SqliteStore) -> None:
    async def body() -> None:
        assert await store.tables() == []
        assert await store.find("K7WQ3M") is None
        for i, code in enumerate(["AAAAAA", "BBBBBB", "CCCCCC"]):
            await store.create_table(f"t{i}", code, FIRST)
        found = await store.find("BBBBBB")
        assert found is not None and (found.table_id, found.code) == ("t1", "BBBBBB")
        assert [t.code for t in await store.tables()] == ["AAAAAA", "BBBBBB", "CCCCCC"]
        assert await store.find("bbbbbb") is None  # the service upper-cases codes first

    run(body())


def test_a_taken_code_or_id_is_refused_and_stores_nothing(store: SqliteStore) -> None:
    async def body() -> None:
        await store.create_table("t1", "AAAAAA", FIRST)
        with pytest.raises(CodeTaken):
            await store.create_table("t2", "AAAAAA", {"type": "created", "other": True})
        with pytest.raises(CodeTaken):
            await store.create_table("t1", "BBBBBB", {"type": "created", "other": True})
        assert [t.table_id for t in await store.tables()] == ["t1"]
        assert await store.load("t2") == []
        assert data(await store.load("t1")) == [FIRST]
        assert await store.find("BBBBBB") is None

    run(body())


@pytest.mark.parametrize("expected", [0, 1, 2, 4, 99, -1])
def test_a_stale_expected_version_raises_and_stores_nothing(
    store: SqliteStore, expected: int
) -> None:
    async def body() -> None:
        await store.create_table("t1", "AAAAAA", FIRST)
        await store.append("t1", 1, events(2))  # the log is at version 3
        before = await store.load("t1")
        with pytest.raises(VersionConflict):
            await store.append("t1", expected, events(3, 100))
        assert await store.load("t1") == before
        assert await store.append("t1", 3, events(1, 200)) == 4  # the right version still works

    run(body())


def test_append_is_all_or_nothing(store: SqliteStore) -> None:
    async def body() -> None:
        await store.create_table("t1", "AAAAAA", FIRST)
        with pytest.raises(TypeError):  # an event that is not JSON: nothing of the batch stays
            await store.append("t1", 1, [{"ok": 1}, {"bad": object()}])
        assert data(await store.load("t1")) == [FIRST]
        with pytest.raises(VersionConflict):  # a table that does not exist
            await store.append("missing", 0, events(1))
        assert await store.load("missing") == []

    run(body())


def test_text_is_kept_exactly(store: SqliteStore) -> None:
    odd = {"type": "joined", "name": '<b>x</b> & "q" \' \\ दीपा 🂡 \u0000', "n": 2**70}

    async def body() -> None:
        await store.create_table("t1", "AAAAAA", odd)
        assert data(await store.load("t1")) == [odd]

    run(body())


def test_two_concurrent_writers_exactly_one_wins(path: Path) -> None:
    """Two connections to one file (as two processes would have), appending at the same
    instant from the same version, round after round: one wins each round, the other gets
    ``VersionConflict`` and stores nothing."""
    writers = [SqliteStore(path), SqliteStore(path)]
    run(writers[0].create_table("t1", "AAAAAA", FIRST))
    rounds = 25
    barrier = threading.Barrier(2, timeout=10)
    outcomes: list[list[str]] = [[], []]
    version = [1]

    def write(w: int) -> None:
        for r in range(rounds):
            barrier.wait()
            expected = version[0]
            barrier.wait()  # both have read the version: now race
            try:
                run(writers[w].append("t1", expected, [{"round": r, "writer": w}]))
                outcomes[w].append("won")
            except VersionConflict:
                outcomes[w].append("lost")
            barrier.wait()
            if w == 0:
                version[0] += 1
            barrier.wait()

    threads = [threading.Thread(target=write, args=(w,)) for w in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads)
    for r in range(rounds):
        assert sorted([outcomes[0][r], outcomes[1][r]]) == ["lost", "won"], r
    log = run(writers[1].load("t1"))
    assert [e.version for e in log] == list(range(1, rounds + 2))
    for r, event in enumerate(log[1:]):
        winner = 0 if outcomes[0][r] == "won" else 1
        assert event.data == {"round": r, "writer": winner}
    for w in writers:
        run(w.close())


def test_many_writers_on_one_loop_never_fork_the_log(store: SqliteStore) -> None:
    """Writers that each read the version and append: however they interleave, the log has
    no gap and no duplicate, and each conflict stored nothing."""

    async def body() -> None:
        await store.create_table("t1", "AAAAAA", FIRST)
        wins = conflicts = 0

        async def writer(w: int) -> None:
            nonlocal wins, conflicts
            for i in range(20):
                seen = len(await store.load("t1"))
                await asyncio.sleep(0)  # let the others read the same version
                try:
                    await store.append("t1", seen, [{"writer": w, "i": i}])
                    wins += 1
                except VersionConflict:
                    conflicts += 1

        await asyncio.gather(*(writer(w) for w in range(5)))
        log = await store.load("t1")
        assert [e.version for e in log] == list(range(1, wins + 2))
        assert wins + conflicts == 100 and conflicts > 0

    run(body())


def test_reopen_the_file_and_the_events_are_there(path: Path) -> None:
    async def body() -> None:
        first = SqliteStore(path)
        await first.create_table("t1", "AAAAAA", FIRST)
        await first.create_table("t2", "BBBBBB", FIRST)
        await first.append("t1", 1, events(5))
        await first.close()
        again = SqliteStore(path)
        assert [t.code for t in await again.tables()] == ["AAAAAA", "BBBBBB"]
        assert data(await again.load("t1")) == [FIRST, *events(5)]
        with pytest.raises(VersionConflict):
            await again.append("t1", 1, events(1))
        assert await again.append("t1", 6, events(1, 5)) == 7
        await again.close()

    run(body())


def test_a_killed_writer_loses_nothing_committed(path: Path) -> None:
    """A writer that never closes (the process was killed): a new connection reads everything
    it committed, WAL and all."""
    code = f"""
import asyncio, os
from teenpatti.store.sqlite import SqliteStore
s = SqliteStore({str(path)!r})
async def main():
    await s.create_table("t1", "AAAAAA", {{"type": "created"}})
    for v in range(1, 51):
        await s.append("t1", v, [{{"n": v}}])
asyncio.run(main())
os._exit(0)  # no close, no checkpoint, no cleanup
"""
    import subprocess
    import sys

    subprocess.run([sys.executable, "-c", code], check=True, timeout=30)
    reopened = SqliteStore(path)
    log = run(reopened.load("t1"))
    assert [e.version for e in log] == list(range(1, 52))
    assert log[-1].data == {"n": 50}
    run(reopened.close())


def test_schema_version_is_recorded_and_a_newer_file_refused(path: Path) -> None:
    run(SqliteStore(path).close())
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
        str(SCHEMA_VERSION),
    )
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION + 1,))
    conn.commit()
    conn.close()
    with pytest.raises(RuntimeError, match="newer"):
        SqliteStore(path)


def test_memory_store(tmp_path: Path) -> None:
    async def body() -> None:
        s = SqliteStore(":memory:")
        await s.create_table("t1", "AAAAAA", FIRST)
        assert await s.append("t1", 1, events(1)) == 2
        await s.close()

    run(body())
    assert list(tmp_path.iterdir()) == []


def test_the_turn_alerts_records(store: SqliteStore) -> None:
    run(check_push_records(store))


def test_a_version_1_file_gains_the_turn_alerts_tables(path: Path) -> None:
    """A file written before the store kept the turn alerts' records is migrated on open."""
    run(SqliteStore(path).close())
    conn = sqlite3.connect(path)
    conn.executescript("DROP TABLE push_subscriptions; DROP TABLE push_alerts;")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    store = SqliteStore(path)
    run(check_push_records(store))
    run(store.close())
    conn = sqlite3.connect(path)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    conn.close()
    assert version == (str(SCHEMA_VERSION),)


def test_an_earlier_versions_push_file_is_taken_in_once(tmp_path: Path, path: Path) -> None:
    """``push.sqlite3`` as an earlier version kept it: its subscriptions and claims move into
    the store, and the file is set aside."""
    old = tmp_path / "push.sqlite3"
    conn = sqlite3.connect(old)
    conn.executescript(
        "CREATE TABLE push_subscriptions (table_id TEXT, holder TEXT, endpoint TEXT,"
        " p256dh TEXT, auth TEXT, at REAL, PRIMARY KEY (table_id, holder, endpoint));"
        "CREATE TABLE push_alerts (table_id TEXT, key TEXT, at REAL, PRIMARY KEY (table_id, key));"
        "INSERT INTO push_subscriptions VALUES ('t1', 'h1', 'https://p/1', 'k1', 'a1', 1.0);"
        "INSERT INTO push_subscriptions VALUES ('t1', 'h1', 'https://p/2', 'k2', 'a2', 2.0);"
        "INSERT INTO push_alerts VALUES ('t1', 'turn:1:1:0:1', 1.0);"
    )
    conn.commit()
    conn.close()

    async def body() -> None:
        store = SqliteStore(path)
        try:
            assert await adopt(old, store) == 2
            found = await store.push_subscriptions("t1", ["h1"])
            assert found == [("h1", "https://p/1", "k1", "a1"), ("h1", "https://p/2", "k2", "a2")]
            assert await store.push_claim("t1", "turn:1:1:0:1") is False  # claimed before
            assert await adopt(old, store) == 0  # once
            assert (tmp_path / "push.sqlite3.taken").is_file()
        finally:
            await store.close()

    run(body())


def test_a_read_only_store_reads_a_running_one_and_changes_nothing(
    path: Path, store: SqliteStore
) -> None:
    """A second process (a test, an operator's look) reads a server's file as it is written,
    through the store's own API; its writes are refused and the file is never migrated."""

    async def body() -> None:
        await store.create_table("t1", "AAAAAA", FIRST)
        reader = SqliteStore(path, read_only=True)
        try:
            assert [r.code for r in await reader.tables()] == ["AAAAAA"]
            assert await store.append("t1", 1, events(2)) == 3
            assert [e.version for e in await reader.load("t1")] == [1, 2, 3]
            found = await reader.find("AAAAAA")
            assert found is not None and found.table_id == "t1"
            with pytest.raises(sqlite3.ProgrammingError, match="read-only"):
                await reader.append("t1", 3, events(1))
            assert await store.append("t1", 3, events(1)) == 4  # the writer is not held up
        finally:
            await reader.close()

    run(body())
    old = path.with_name("old.sqlite3")
    conn = sqlite3.connect(old)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    conn.commit()
    conn.close()
    run(SqliteStore(old, read_only=True).close())
    conn = sqlite3.connect(old)
    tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    assert "events" not in tables  # not migrated
