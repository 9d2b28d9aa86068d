"""The PostgreSQL event store on a real PostgreSQL (a private cluster, a fresh database per test):
the schema is created and migrated by the store itself, idempotently, even by several processes
opening it at once; the log's compare-and-set lets exactly one of several racing writers in
(from one pool or from several, as from several processes) and stores nothing for the others."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from support.push_records import check_push_records

from teenpatti.store import open_store
from teenpatti.store.base import CodeTaken, EventStore, VersionConflict
from teenpatti.store.postgres import MIGRATIONS, PostgresStore

FIRST: dict[str, Any] = {"type": "created", "settings": {"seats": 4}, "host": {"name": "Asha"}}
TABLES = ["events", "meta", "push_alerts", "push_subscriptions", "tables"]


def run(coro: Any, timeout: float = 30.0) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


def events(n: int, start: int = 0) -> list[dict[str, Any]]:
    return [{"type": "act", "n": start + i} for i in range(n)]


async def schema(url: str) -> tuple[str | None, list[str]]:
    """The schema version ``meta`` records, and the tables of the database."""
    conn = await asyncpg.connect(url)
    try:
        version = await conn.fetchval("SELECT value FROM meta WHERE key = 'schema_version'")
        names = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
        )
    finally:
        await conn.close()
    return version, [r["tablename"] for r in names]


# ---------------------------------------------------------------------- the schema
def test_the_store_migrates_its_schema_and_is_an_event_store(pg_url: str) -> None:
    async def body() -> None:
        store = await open_store(pg_url, Path("unused"))
        assert isinstance(store, PostgresStore)

        def needs(s: EventStore) -> EventStore:
            return s

        assert needs(store) is store
        await store.close()
        assert await schema(pg_url) == (str(len(MIGRATIONS)), TABLES)

    run(body())


def test_the_turn_alerts_records(pg_url: str) -> None:
    async def body() -> None:
        store = await PostgresStore.open(pg_url)
        try:
            await check_push_records(store)
        finally:
            await store.close()

    run(body())


def test_migrations_are_idempotent_and_keep_the_data(pg_url: str) -> None:
    async def body() -> None:
        store = await PostgresStore.open(pg_url)
        await store.create_table("t1", "K7WQ3M", FIRST)
        await store.append("t1", 1, events(2))
        assert await store.migrate() == len(MIGRATIONS)  # again, on the same pool
        assert await store.migrate() == len(MIGRATIONS)
        await store.close()
        again = await PostgresStore.open(pg_url)  # and from a new process's pool
        assert [e.version for e in await again.load("t1")] == [1, 2, 3]
        await again.close()
        assert await schema(pg_url) == (str(len(MIGRATIONS)), TABLES)

    run(body())


def test_migrations_run_by_several_stores_at_once(pg_url: str) -> None:
    async def body() -> None:
        stores = await asyncio.gather(*(PostgresStore.open(pg_url) for _ in range(4)))
        await stores[0].create_table("t1", "K7WQ3M", FIRST)
        for store in stores:  # every one of them sees the same tables
            record = await store.find("K7WQ3M")
            assert record is not None and record.table_id == "t1"
        await asyncio.gather(*(s.close() for s in stores))
        assert await schema(pg_url) == (str(len(MIGRATIONS)), TABLES)

    run(body())


def test_migrations_run_by_two_processes_at_once(pg_url: str) -> None:
    """Two Python processes open the store on an empty database at the same moment."""
    code = (
        "import asyncio, sys\n"
        "from teenpatti.store.postgres import PostgresStore\n"
        "async def main():\n"
        "    store = await PostgresStore.open(sys.argv[1])\n"
        "    print(await store.migrate())\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
    )
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", code, pg_url],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        assert out.strip() == str(len(MIGRATIONS))
    assert run(schema(pg_url)) == (str(len(MIGRATIONS)), TABLES)


def test_a_schema_newer_than_the_code_is_refused(pg_url: str) -> None:
    async def body() -> None:
        store = await PostgresStore.open(pg_url)
        await store.pool.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
        await store.close()
        with pytest.raises(RuntimeError, match="newer"):
            await PostgresStore.open(pg_url)

    run(body())


# ---------------------------------------------------------------------- tables and logs
def test_create_find_tables_load(pg_url: str) -> None:
    async def body() -> None:
        store = await PostgresStore.open(pg_url)
        try:
            assert await store.tables() == []
            assert await store.find("K7WQ3M") is None
            await store.create_table("t1", "K7WQ3M", FIRST)
            await store.create_table("t2", "ABCDEF", {**FIRST, "n": 2})
            record = await store.find("K7WQ3M")
            assert record is not None and (record.table_id, record.code) == ("t1", "K7WQ3M")
            assert [r.code for r in await store.tables()] == ["K7WQ3M", "ABCDEF"]  # oldest first
            with pytest.raises(CodeTaken):
                await store.create_table("t3", "K7WQ3M", FIRST)  # the code is taken
            with pytest.raises(CodeTaken):
                await store.create_table("t1", "ZZZZZZ", FIRST)  # so is the id
            assert await store.find("ZZZZZZ") is None  # nothing of either was stored
            assert len(await store.tables()) == 2

            name = 'दीपा 🂡 <b>"x"</b>'
            assert await store.append("t1", 1, [{"type": "joined", "name": name}]) == 2
            assert await store.append("t1", 2, events(3)) == 5  # several events: one version each
            loaded = await store.load("t1")
            assert [e.version for e in loaded] == [1, 2, 3, 4, 5]
            assert loaded[0].data == FIRST
            assert loaded[1].data == {"type": "joined", "name": name}  # the text comes back whole
            assert [e.data for e in loaded[2:]] == events(3)
            assert all(e.at > 0 for e in loaded)
            assert [e.version for e in await store.load("t1", after=3)] == [4, 5]
            assert await store.load("t1", after=5) == []
            assert [e.version for e in await store.load("t2")] == [1]  # logs are per table
        finally:
            await store.close()

    run(body())


def test_a_stale_append_is_refused_and_stores_nothing(pg_url: str) -> None:
    async def body() -> None:
        store = await PostgresStore.open(pg_url)
        try:
            await store.create_table("t1", "K7WQ3M", FIRST)
            assert await store.append("t1", 1, events(1)) == 2
            for stale in (0, 1, 3, 7):  # behind, or ahead of, the log's last version
                with pytest.raises(VersionConflict):
                    await store.append("t1", stale, events(2, 100))
            assert [e.version for e in await store.load("t1")] == [1, 2]
            assert await store.append("t1", 2, events(1, 1)) == 3
        finally:
            await store.close()

    run(body())


def test_of_two_concurrent_appenders_exactly_one_wins(pg_url: str) -> None:
    """The same expected version from two pools (two processes), many times over; and from one
    pool, eight writers at once."""

    async def body() -> None:
        one, two = await PostgresStore.open(pg_url), await PostgresStore.open(pg_url)
        try:
            await one.create_table("t1", "K7WQ3M", FIRST)
            version = 1
            for round_ in range(40):
                results = await asyncio.gather(
                    one.append("t1", version, [{"type": "act", "by": "one", "round": round_}]),
                    two.append("t1", version, [{"type": "act", "by": "two", "round": round_}]),
                    return_exceptions=True,
                )
                won = [r for r in results if isinstance(r, int)]
                lost = [r for r in results if isinstance(r, VersionConflict)]
                assert len(won) == 1 and len(lost) == 1, results
                assert won == [version + 1]
                version += 1
            results = await asyncio.gather(
                *(one.append("t1", version, events(2, 10 * i)) for i in range(8)),
                return_exceptions=True,
            )
            assert sum(isinstance(r, int) for r in results) == 1, results
            assert sum(isinstance(r, VersionConflict) for r in results) == 7, results
            loaded = await two.load("t1")
            assert [e.version for e in loaded] == list(range(1, version + 3))
            rounds = [e.data["round"] for e in loaded[1:41]]
            assert rounds == list(range(40))  # one event per round: the winner's
            assert len({json.dumps(e.data) for e in loaded[41:]}) == 2  # one writer's two events
        finally:
            await one.close()
            await two.close()

    run(body(), 60)
