"""Where subscriptions and claimed alerts are kept: SQLite (beside the event store) or
PostgreSQL (the event store's database), chosen as the event store is.

- ``push_subscriptions``: each seat holder's subscriptions at a table, keyed by the table, the
  hash of the holder's seat token and the endpoint. A seat's alerts go to the subscriptions of
  its holder's token only, so a seat given to someone else (a person who left, a latecomer)
  never reaches the earlier holder's phone. At most :data:`PER_HOLDER` are kept a holder (the
  oldest goes).
- ``push_alerts``: the alerts sent, by table and key. :meth:`claim` inserts the key and tells
  whether this caller was first: of two processes (or a process and its restarted self) that
  see the same turn, one sends.

The SQLite keep is a file of its own (``push.sqlite3`` in the data folder): its writes never
wait for the event log's, nor the log's for them. Its calls run on a thread of their own.
The PostgreSQL keep has its own small pool, so alerts never take the event store's connections.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .subscription import Subscription

__all__ = ["PER_HOLDER", "PostgresKeep", "PushKeep", "SqliteKeep", "open_keep"]

PER_HOLDER = 5
"""The most subscriptions kept for one seat holder (their phone, tablet, laptop...)."""

_T = TypeVar("_T")

_SQLITE = """
CREATE TABLE IF NOT EXISTS push_subscriptions (
    table_id TEXT NOT NULL,
    holder TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, holder, endpoint)
);
CREATE INDEX IF NOT EXISTS push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE TABLE IF NOT EXISTS push_alerts (
    table_id TEXT NOT NULL,
    key TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, key)
);
"""

_POSTGRES = """
CREATE TABLE IF NOT EXISTS push_subscriptions (
    table_id TEXT NOT NULL,
    holder TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, holder, endpoint)
);
CREATE INDEX IF NOT EXISTS push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE TABLE IF NOT EXISTS push_alerts (
    table_id TEXT NOT NULL,
    key TEXT NOT NULL,
    at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (table_id, key)
);
"""

_LOCK = 7_163_616_162  # the advisory lock that serialises the push tables' creation


class PushKeep(Protocol):
    """Subscriptions per seat holder, and the alerts claimed."""

    async def add(self, table_id: str, holder: str, sub: Subscription) -> None:
        """Keep ``sub`` for the holder (again: refreshed), dropping their oldest past
        :data:`PER_HOLDER`."""
        ...

    async def remove(self, table_id: str, holder: str, endpoint: str) -> bool:
        """Forget one of the holder's subscriptions; whether it was kept."""
        ...

    async def subscriptions(
        self, table_id: str, holders: list[str]
    ) -> dict[str, list[Subscription]]:
        """Each holder's subscriptions at the table."""
        ...

    async def gone(self, endpoint: str) -> None:
        """Forget an endpoint the push service says is no more (404, 410)."""
        ...

    async def claim(self, table_id: str, key: str) -> bool:
        """Mark the alert ``key`` as sent; ``True`` if no one had (the caller sends it)."""
        ...

    async def close(self) -> None: ...


class SqliteKeep:
    """The keep in its own SQLite file, every call on one thread of its own."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 5.0) -> None:
        self.path = str(path)
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="push-keep")
        self._lock = threading.Lock()
        self._busy = busy_timeout
        self._db: sqlite3.Connection | None = None

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=self._busy
            )
            db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SQLITE)
            self._db = db
        return self._db

    async def _run(self, job: Any, *args: Any) -> Any:
        def call() -> Any:
            with self._lock:
                return job(self._conn(), *args)

        return await asyncio.get_running_loop().run_in_executor(self._pool, call)

    async def add(self, table_id: str, holder: str, sub: Subscription) -> None:
        def job(db: sqlite3.Connection) -> None:
            with db:
                db.execute("BEGIN IMMEDIATE")
                db.execute(
                    "INSERT OR REPLACE INTO push_subscriptions VALUES (?, ?, ?, ?, ?, ?)",
                    (table_id, holder, sub.endpoint, sub.p256dh, sub.auth, time.time()),
                )
                db.execute(
                    "DELETE FROM push_subscriptions WHERE table_id = ? AND holder = ? AND"
                    " endpoint NOT IN (SELECT endpoint FROM push_subscriptions WHERE"
                    " table_id = ? AND holder = ? ORDER BY at DESC LIMIT ?)",
                    (table_id, holder, table_id, holder, PER_HOLDER),
                )

        await self._run(job)

    async def remove(self, table_id: str, holder: str, endpoint: str) -> bool:
        def job(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "DELETE FROM push_subscriptions WHERE table_id = ? AND holder = ? AND endpoint = ?",
                (table_id, holder, endpoint),
            )
            return cur.rowcount > 0

        return bool(await self._run(job))

    async def subscriptions(
        self, table_id: str, holders: list[str]
    ) -> dict[str, list[Subscription]]:
        def job(db: sqlite3.Connection) -> dict[str, list[Subscription]]:
            out: dict[str, list[Subscription]] = {h: [] for h in holders}
            marks = ",".join("?" * len(holders))
            rows = db.execute(
                "SELECT holder, endpoint, p256dh, auth FROM push_subscriptions"
                f" WHERE table_id = ? AND holder IN ({marks}) ORDER BY at",
                (table_id, *holders),
            )
            for holder, endpoint, p256dh, auth in rows:
                out[holder].append(Subscription(endpoint, p256dh, auth))
            return out

        if not holders:
            return {}
        result: dict[str, list[Subscription]] = await self._run(job)
        return result

    async def gone(self, endpoint: str) -> None:
        await self._run(
            lambda db: db.execute("DELETE FROM push_subscriptions WHERE endpoint = ?", (endpoint,))
        )

    async def claim(self, table_id: str, key: str) -> bool:
        def job(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "INSERT OR IGNORE INTO push_alerts VALUES (?, ?, ?)", (table_id, key, time.time())
            )
            return cur.rowcount == 1

        return bool(await self._run(job))

    async def close(self) -> None:
        def job(db: sqlite3.Connection) -> None:
            db.close()
            self._db = None

        if self._db is not None:
            await self._run(job)
        self._pool.shutdown(wait=False)


class PostgresKeep:
    """The keep in the event store's PostgreSQL database, with a pool of its own."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool

    @classmethod
    async def open(cls, url: str) -> PostgresKeep:
        import asyncpg

        from ..store.postgres import COMMAND_TIMEOUT, CONNECT_TIMEOUT

        pool = await asyncpg.create_pool(
            url, min_size=0, max_size=2, timeout=CONNECT_TIMEOUT, command_timeout=COMMAND_TIMEOUT
        )
        async with pool.acquire(timeout=CONNECT_TIMEOUT) as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _LOCK)
            await conn.execute(_POSTGRES)
        return cls(pool)

    async def add(self, table_id: str, holder: str, sub: Subscription) -> None:
        async with self.pool.acquire() as conn, conn.transaction():
            await conn.execute(
                "INSERT INTO push_subscriptions VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT (table_id, holder, endpoint) DO UPDATE SET"
                " p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, at = EXCLUDED.at",
                table_id,
                holder,
                sub.endpoint,
                sub.p256dh,
                sub.auth,
                time.time(),
            )
            await conn.execute(
                "DELETE FROM push_subscriptions WHERE table_id = $1 AND holder = $2 AND"
                " endpoint NOT IN (SELECT endpoint FROM push_subscriptions WHERE"
                " table_id = $1 AND holder = $2 ORDER BY at DESC LIMIT $3)",
                table_id,
                holder,
                PER_HOLDER,
            )

    async def remove(self, table_id: str, holder: str, endpoint: str) -> bool:
        status = await self.pool.execute(
            "DELETE FROM push_subscriptions WHERE table_id = $1 AND holder = $2 AND endpoint = $3",
            table_id,
            holder,
            endpoint,
        )
        return bool(status != "DELETE 0")

    async def subscriptions(
        self, table_id: str, holders: list[str]
    ) -> dict[str, list[Subscription]]:
        out: dict[str, list[Subscription]] = {h: [] for h in holders}
        if not holders:
            return out
        rows = await self.pool.fetch(
            "SELECT holder, endpoint, p256dh, auth FROM push_subscriptions"
            " WHERE table_id = $1 AND holder = ANY($2::text[]) ORDER BY at",
            table_id,
            holders,
        )
        for row in rows:
            out[row["holder"]].append(Subscription(row["endpoint"], row["p256dh"], row["auth"]))
        return out

    async def gone(self, endpoint: str) -> None:
        await self.pool.execute("DELETE FROM push_subscriptions WHERE endpoint = $1", endpoint)

    async def claim(self, table_id: str, key: str) -> bool:
        status = await self.pool.execute(
            "INSERT INTO push_alerts VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
            table_id,
            key,
            time.time(),
        )
        return bool(status == "INSERT 0 1")

    async def close(self) -> None:
        await self.pool.close()


async def open_keep(database: str | None, data: Path) -> PushKeep:
    """The keep beside the event store ``database`` (as :func:`teenpatti.store.open_store`
    takes it)."""
    if database is None:
        return SqliteKeep(data / "push.sqlite3")
    if database.startswith("sqlite:///"):
        path = Path(database.removeprefix("sqlite:///"))
        return SqliteKeep(path.with_name(path.stem + "-push.sqlite3"))
    if database.startswith(("postgresql://", "postgres://")):
        return await PostgresKeep.open(database)
    raise ValueError(f"unknown database {database!r}")
