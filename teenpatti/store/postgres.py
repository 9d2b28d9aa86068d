"""The PostgreSQL event store, for several server processes on several machines (asyncpg).

The same two tables as the SQLite store. The schema is created and migrated by the project itself
when a process opens the store, under an advisory lock so that processes starting together do not
race. The primary key ``(table_id, version)`` is the fence: of two processes appending after the
same version, exactly one insert succeeds and the other gets :class:`VersionConflict`.
"""

from __future__ import annotations

import json
import time
from typing import Any

import asyncpg

from .base import (
    PUSH_TABLES,
    CodeTaken,
    DamagedLog,
    StoredEvent,
    TableRecord,
    VersionConflict,
    encode_event,
)

__all__ = ["MIGRATIONS", "PostgresStore"]

MIGRATIONS: list[str] = [
    """
    CREATE TABLE IF NOT EXISTS tables (
        table_id TEXT PRIMARY KEY,
        code TEXT NOT NULL UNIQUE,
        created DOUBLE PRECISION NOT NULL
    );
    CREATE TABLE IF NOT EXISTS events (
        table_id TEXT NOT NULL REFERENCES tables (table_id),
        version INTEGER NOT NULL,
        data JSONB NOT NULL,
        at DOUBLE PRECISION NOT NULL,
        PRIMARY KEY (table_id, version)
    );
    """,
    # the turn alerts' (as an earlier version kept them in this database: taken as they are)
    PUSH_TABLES.format(time="DOUBLE PRECISION"),
]
"""Schema steps in order; step ``n`` brings the schema to version ``n + 1``."""

_LOCK = 7_163_616_161  # the advisory lock that serialises migrations

CONNECT_TIMEOUT = 3.0
"""Seconds to open a connection (or wait for a free one in the pool)."""
COMMAND_TIMEOUT = 5.0
"""Seconds a statement may take before it is given up (a silently dead connection)."""


class PostgresStore:
    """Tables and their event logs in PostgreSQL. Open with :meth:`open`."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str, *, min_size: int = 0, max_size: int = 10) -> PostgresStore:
        """Connect to ``url`` (``postgresql://user@host:port/db``) and migrate the schema.

        Every call has a deadline: :data:`CONNECT_TIMEOUT` to connect or get a connection,
        :data:`COMMAND_TIMEOUT` per statement; a server that stops answering gives an error
        (``TimeoutError``) instead of a call that hangs."""
        pool = await asyncpg.create_pool(
            url,
            min_size=min_size,
            max_size=max_size,
            timeout=CONNECT_TIMEOUT,
            command_timeout=COMMAND_TIMEOUT,
        )
        store = cls(pool)
        await store.migrate()
        return store

    async def migrate(self) -> int:
        """Bring the schema up to date; return its version."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK)
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
            )
            row = await conn.fetchval("SELECT value FROM meta WHERE key = 'schema_version'")
            current = int(row) if row else 0
            if current > len(MIGRATIONS):
                raise RuntimeError(f"the database schema ({current}) is newer than this code")
            for step in MIGRATIONS[current:]:
                await conn.execute(step)
            await conn.execute(
                "INSERT INTO meta (key, value) VALUES ('schema_version', $1)"
                " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                str(len(MIGRATIONS)),
            )
        return len(MIGRATIONS)

    async def create_table(self, table_id: str, code: str, first: dict[str, Any]) -> None:
        """Register a table and store its first event as version 1."""
        try:
            async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
                now = await conn.fetchval("SELECT extract(epoch FROM clock_timestamp())")
                await conn.execute(
                    "INSERT INTO tables (table_id, code, created) VALUES ($1, $2, $3)",
                    table_id,
                    code,
                    float(now),
                )
                await conn.execute(
                    "INSERT INTO events (table_id, version, data, at) VALUES ($1, 1, $2, $3)",
                    table_id,
                    encode_event(first),
                    float(now),
                )
        except asyncpg.UniqueViolationError:
            raise CodeTaken(code) from None

    async def append(
        self, table_id: str, expected_version: int, events: list[dict[str, Any]]
    ) -> int:
        """Append after ``expected_version`` or raise :class:`VersionConflict`."""
        try:
            async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
                last = await conn.fetchval(
                    "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = $1", table_id
                )
                if last != expected_version:
                    raise VersionConflict(table_id)
                now = await conn.fetchval("SELECT extract(epoch FROM clock_timestamp())")
                await conn.executemany(
                    "INSERT INTO events (table_id, version, data, at) VALUES ($1, $2, $3, $4)",
                    [
                        (table_id, expected_version + i, encode_event(e), float(now))
                        for i, e in enumerate(events, 1)
                    ],
                )
        except asyncpg.UniqueViolationError:
            raise VersionConflict(table_id) from None
        return expected_version + len(events)

    async def load(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """The table's events above ``after``, in order."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            rows = await conn.fetch(
                "SELECT version, data, at FROM events WHERE table_id = $1 AND version > $2"
                " ORDER BY version",
                table_id,
                after,
            )
        out = []
        for r in rows:
            try:
                out.append(StoredEvent(r["version"], json.loads(r["data"]), r["at"]))
            except (ValueError, TypeError) as error:
                raise DamagedLog(table_id, r["version"], str(error)) from None
        return out

    async def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The last version of each of these tables' logs."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            rows = await conn.fetch(
                "SELECT table_id, MAX(version) AS v FROM events"
                " WHERE table_id = ANY($1::text[]) GROUP BY table_id",
                table_ids,
            )
        return {r["table_id"]: r["v"] for r in rows}

    async def purge(self, before: float) -> list[str]:
        """Remove the tables whose last event is older than ``before``."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
            rows = await conn.fetch(
                "SELECT t.table_id, t.code FROM tables t JOIN events e USING (table_id)"
                " GROUP BY t.table_id HAVING MAX(e.at) < $1",
                before,
            )
            ids = [r["table_id"] for r in rows]
            for kept in ("push_subscriptions", "push_alerts", "events"):
                await conn.execute(f"DELETE FROM {kept} WHERE table_id = ANY($1::text[])", ids)
            await conn.execute("DELETE FROM tables WHERE table_id = ANY($1::text[])", ids)
        return [r["code"] for r in rows]

    async def find(self, code: str) -> TableRecord | None:
        """The table with this code."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            row = await conn.fetchrow(
                "SELECT table_id, code, created FROM tables WHERE code = $1", code
            )
        return TableRecord(row["table_id"], row["code"], row["created"]) if row else None

    async def tables(self) -> list[TableRecord]:
        """Every table, oldest first."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            rows = await conn.fetch("SELECT table_id, code, created FROM tables ORDER BY created")
        return [TableRecord(r["table_id"], r["code"], r["created"]) for r in rows]

    # ------------------------------------------------------------------ turn alerts
    async def push_subscribe(
        self, table_id: str, holder: str, endpoint: str, p256dh: str, auth: str, keep: int
    ) -> None:
        """Keep a subscription, and only the holder's ``keep`` latest."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO push_subscriptions VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT (table_id, holder, endpoint) DO UPDATE SET"
                " p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, at = EXCLUDED.at",
                table_id,
                holder,
                endpoint,
                p256dh,
                auth,
                time.time(),
            )
            await conn.execute(
                "DELETE FROM push_subscriptions WHERE table_id = $1 AND holder = $2 AND"
                " endpoint NOT IN (SELECT endpoint FROM push_subscriptions WHERE"
                " table_id = $1 AND holder = $2 ORDER BY at DESC LIMIT $3)",
                table_id,
                holder,
                keep,
            )

    async def push_unsubscribe(self, table_id: str, holder: str, endpoint: str) -> bool:
        """Forget one of the holder's subscriptions."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            status = await conn.execute(
                "DELETE FROM push_subscriptions"
                " WHERE table_id = $1 AND holder = $2 AND endpoint = $3",
                table_id,
                holder,
                endpoint,
            )
        return bool(status != "DELETE 0")

    async def push_subscriptions(
        self, table_id: str, holders: list[str]
    ) -> list[tuple[str, str, str, str]]:
        """These holders' subscriptions at the table, oldest first."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            rows = await conn.fetch(
                "SELECT holder, endpoint, p256dh, auth FROM push_subscriptions"
                " WHERE table_id = $1 AND holder = ANY($2::text[]) ORDER BY at",
                table_id,
                holders,
            )
        return [(r["holder"], r["endpoint"], r["p256dh"], r["auth"]) for r in rows]

    async def push_forget(self, endpoint: str) -> None:
        """Forget an endpoint everywhere."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            await conn.execute("DELETE FROM push_subscriptions WHERE endpoint = $1", endpoint)

    async def push_claim(self, table_id: str, key: str) -> bool:
        """Record an alert as sent; whether this caller was first."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            status = await conn.execute(
                "INSERT INTO push_alerts VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                table_id,
                key,
                time.time(),
            )
        return bool(status == "INSERT 0 1")

    async def push_claims(self, table_id: str) -> list[str]:
        """The alerts claimed at the table, oldest first."""
        async with self.pool.acquire(timeout=CONNECT_TIMEOUT) as conn:
            rows = await conn.fetch(
                "SELECT key FROM push_alerts WHERE table_id = $1 ORDER BY at, key", table_id
            )
        return [r["key"] for r in rows]

    async def close(self) -> None:
        """Close the pool."""
        await self.pool.close()
