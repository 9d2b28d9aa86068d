"""The SQLite event store: one file in the data folder, no other service to install.

The standard library's ``sqlite3`` in WAL mode. A committed append survives the process being
killed at any moment; the primary key ``(table_id, version)`` makes a stale writer's insert fail.

Writes never run on the event loop: a writer thread takes every write waiting (creates, appends,
purges) and commits them as one transaction (a group commit: one commit per tick, whatever the
number of tables that moved), each write inside its own savepoint so that one stale append fails
alone (a write alone in its batch needs none; an append of one event checks the version and
inserts in one statement). A caller's write completes only once its batch is committed. Reads
(loads, look-ups) run on the loop with their own connection: under WAL a reader never waits for
a writer, so another process holding the file's write lock delays writes, not reads.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import (
    PUSH_TABLES,
    CodeTaken,
    DamagedLog,
    StoredEvent,
    TableRecord,
    VersionConflict,
    encode_event,
)

__all__ = ["SCHEMA_VERSION", "SqliteStore", "pending_writes"]

SCHEMA_VERSION = 2
"""The schema this code writes; older files are migrated on open (2: the turn alerts' tables)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    table_id TEXT PRIMARY KEY,
    code TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    table_id TEXT NOT NULL REFERENCES tables (table_id),
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    at REAL NOT NULL,
    PRIMARY KEY (table_id, version)
) WITHOUT ROWID;
""" + PUSH_TABLES.format(time="REAL")

_APPEND_ONE = (
    "INSERT INTO events (table_id, version, data, at) SELECT ?, ?, ?, ?"
    " WHERE (SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?) = ?"
)
"""One event appended after the expected version, in one statement (no row when the log has
moved on)."""


_PUSH_TRIM = (
    "DELETE FROM push_subscriptions WHERE table_id = ? AND holder = ? AND endpoint NOT IN"
    " (SELECT endpoint FROM push_subscriptions WHERE table_id = ? AND holder = ?"
    " ORDER BY at DESC LIMIT ?)"
)
"""A holder's subscriptions past the latest ``keep`` forgotten."""


class _Write:
    """One write waiting for the writer thread: what to do, and where its outcome goes."""

    __slots__ = ("future", "loop", "run")

    def __init__(
        self,
        run: Callable[[sqlite3.Connection], Any],
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
    ) -> None:
        self.run = run
        self.loop = loop
        self.future = future


_PENDING: set[asyncio.Future[Any]] = set()
"""Writes handed to a writer thread and not yet answered, in every store of this process."""


def pending_writes() -> list[asyncio.Future[Any]]:
    """The writes of this event loop still waiting for their commit (a test's hand-driven clock
    waits for them before it moves on: a write's answer comes from another thread)."""
    loop = asyncio.get_running_loop()
    return [f for f in _PENDING if f.get_loop() is loop and not f.done()]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # the caller gave up waiting (cancelled)
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class SqliteStore:
    """Tables and their event logs in one SQLite file (``:memory:`` for a throwaway store).

    ``busy_timeout`` is how long (seconds) a write waits for another process's lock on the file
    before it fails (the writer thread waits, not the event loop). ``read_only``: the file of a
    server that is running (or stopped), read as it is written, with nothing in it changed (no
    migration, no writer; a write is refused).
    """

    def __init__(
        self, path: str | Path, *, busy_timeout: float = 5.0, read_only: bool = False
    ) -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        self.read_only = read_only and not memory
        if self.read_only:
            self.db = sqlite3.connect(
                Path(self.path).resolve().as_uri() + "?mode=ro",
                uri=True,
                isolation_level=None,
                check_same_thread=False,
                timeout=busy_timeout,
            )
        else:
            if not memory:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
            )
            """The writing connection (the writer thread's)."""
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            self._migrate()
        if memory or self.read_only:  # one connection: read through it, in turn
            self._reader = self.db
        else:
            self._reader = sqlite3.connect(
                self.path, isolation_level=None, check_same_thread=False, timeout=busy_timeout
            )
        self._lock = threading.Lock()
        """Held while a connection is in use when readers and the writer share one."""
        self._shared = memory or self.read_only
        self._writes: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._closed = False
        self.commits = 0
        """Transactions the writer thread has committed (each one a batch of writes)."""
        self._thread = threading.Thread(target=self._writer, name="sqlite-writer", daemon=True)
        if not self.read_only:
            self._thread.start()

    def _migrate(self) -> None:
        self.db.executescript(_SCHEMA)
        row = self.db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        current = int(row[0]) if row else 0
        if current > SCHEMA_VERSION:
            raise RuntimeError(
                f"{self.path} was written by a newer version (schema {current} > {SCHEMA_VERSION})"
            )
        if current < SCHEMA_VERSION:
            self.db.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)",
                (str(SCHEMA_VERSION),),
            )

    # ------------------------------------------------------------------ the writer thread
    async def _write(self, run: Callable[[sqlite3.Connection], Any]) -> Any:
        """Hand ``run`` to the writer thread; its result once its batch is committed."""
        if self._closed or self.read_only:
            raise sqlite3.ProgrammingError(
                f"the store is {'closed' if self._closed else 'read-only'}"
            )
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        _PENDING.add(future)
        future.add_done_callback(_PENDING.discard)
        self._writes.put(_Write(run, loop, future))
        return await future

    def _writer(self) -> None:
        """Take every write waiting and commit them at once.

        A write alone in its batch runs in the transaction itself; each of several runs in its own
        savepoint, so a failed one undoes only itself.
        """
        while True:
            first = self._writes.get()
            if first is None:
                return
            batch = [first]
            stop = False
            while True:
                try:
                    more = self._writes.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(batch)
            if stop:
                return

    def _commit(self, batch: list[_Write]) -> None:
        outcomes: list[tuple[Any, BaseException | None]] = []
        try:
            with self._lock if self._shared else contextlib.nullcontext():
                if len(batch) == 1:
                    outcomes.append(self._alone(batch[0]))
                else:
                    self._together(batch, outcomes)
        except Exception as failed:  # nothing of the batch is stored: each write fails
            outcomes = [(None, failed)] * len(batch)
        for write, (result, error) in zip(batch, outcomes, strict=True):
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                write.loop.call_soon_threadsafe(_settle, write.future, result, error)

    def _alone(self, write: _Write) -> tuple[Any, BaseException | None]:
        """A batch of one write: its own transaction, no savepoint (each statement costs the
        writer thread a turn of the interpreter's lock, which the event loop holds)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            result = write.run(db)
        except Exception as refused:
            if db.in_transaction:
                db.execute("ROLLBACK")
            return None, refused
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        try:
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        self.commits += 1
        return result, None

    def _together(
        self, batch: list[_Write], outcomes: list[tuple[Any, BaseException | None]]
    ) -> None:
        """Several writes in one transaction, each in its own savepoint (a refused one alone
        is undone)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for write in batch:
                db.execute("SAVEPOINT one")
                try:
                    result = write.run(db)
                except Exception as refused:
                    db.execute("ROLLBACK TO one")
                    outcomes.append((None, refused))
                else:
                    outcomes.append((result, None))
                db.execute("RELEASE one")
            db.execute("COMMIT")
            self.commits += 1
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    # ------------------------------------------------------------------ writes
    async def create_table(self, table_id: str, code: str, first: dict[str, Any]) -> None:
        """Register a table and store its first event as version 1."""
        now = time.time()
        data = encode_event(first)

        def run(db: sqlite3.Connection) -> None:
            try:
                db.execute(
                    "INSERT INTO tables (table_id, code, created) VALUES (?, ?, ?)",
                    (table_id, code, now),
                )
                db.execute(
                    "INSERT INTO events (table_id, version, data, at) VALUES (?, 1, ?, ?)",
                    (table_id, data, now),
                )
            except sqlite3.IntegrityError:
                raise CodeTaken(code) from None

        await self._write(run)

    async def append(
        self, table_id: str, expected_version: int, events: list[dict[str, Any]]
    ) -> int:
        """Append after ``expected_version`` or raise :class:`VersionConflict`."""
        now = time.time()
        rows = [
            (table_id, expected_version + i, encode_event(e), now) for i, e in enumerate(events, 1)
        ]

        def run(db: sqlite3.Connection) -> int:
            if len(rows) == 1:  # the check and the insert in one statement
                try:
                    inserted = db.execute(_APPEND_ONE, (*rows[0], table_id, expected_version))
                except sqlite3.IntegrityError:
                    raise VersionConflict(table_id) from None
                if inserted.rowcount != 1:
                    raise VersionConflict(table_id)
                return expected_version + 1
            (last,) = db.execute(
                "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?", (table_id,)
            ).fetchone()
            if last != expected_version:
                raise VersionConflict(table_id)
            try:
                db.executemany(
                    "INSERT INTO events (table_id, version, data, at) VALUES (?, ?, ?, ?)", rows
                )
            except sqlite3.IntegrityError:
                raise VersionConflict(table_id) from None
            return expected_version + len(events)

        result: int = await self._write(run)
        return result

    async def purge(self, before: float) -> list[str]:
        """Remove the tables whose last event is older than ``before``."""

        def run(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "SELECT t.table_id, t.code FROM tables t JOIN events e USING (table_id)"
                " GROUP BY t.table_id HAVING MAX(e.at) < ?",
                (before,),
            ).fetchall()
            ids = [(table_id,) for table_id, _ in rows]
            db.executemany("DELETE FROM push_subscriptions WHERE table_id = ?", ids)
            db.executemany("DELETE FROM push_alerts WHERE table_id = ?", ids)
            db.executemany("DELETE FROM events WHERE table_id = ?", ids)
            db.executemany("DELETE FROM tables WHERE table_id = ?", ids)
            return [code for _, code in rows]

        codes: list[str] = await self._write(run)
        return codes

    # ------------------------------------------------------------------ turn alerts
    async def push_subscribe(
        self, table_id: str, holder: str, endpoint: str, p256dh: str, auth: str, keep: int
    ) -> None:
        """Keep a subscription, and only the holder's ``keep`` latest."""
        row = (table_id, holder, endpoint, p256dh, auth, time.time())

        def run(db: sqlite3.Connection) -> None:
            db.execute("INSERT OR REPLACE INTO push_subscriptions VALUES (?, ?, ?, ?, ?, ?)", row)
            db.execute(_PUSH_TRIM, (table_id, holder, table_id, holder, keep))

        await self._write(run)

    async def push_unsubscribe(self, table_id: str, holder: str, endpoint: str) -> bool:
        """Forget one of the holder's subscriptions."""

        def run(db: sqlite3.Connection) -> bool:
            cur = db.execute(
                "DELETE FROM push_subscriptions WHERE table_id = ? AND holder = ? AND endpoint = ?",
                (table_id, holder, endpoint),
            )
            return cur.rowcount > 0

        return bool(await self._write(run))

    async def push_subscriptions(
        self, table_id: str, holders: list[str]
    ) -> list[tuple[str, str, str, str]]:
        """These holders' subscriptions at the table, oldest first."""
        out: list[tuple[str, str, str, str]] = []
        for i in range(0, len(holders), 500):
            chunk = holders[i : i + 500]
            out += self._read(
                "SELECT holder, endpoint, p256dh, auth FROM push_subscriptions WHERE table_id = ?"
                f" AND holder IN ({','.join('?' * len(chunk))}) ORDER BY at",
                (table_id, *chunk),
            )
        return out

    async def push_forget(self, endpoint: str) -> None:
        """Forget an endpoint everywhere."""
        await self._write(
            lambda db: db.execute("DELETE FROM push_subscriptions WHERE endpoint = ?", (endpoint,))
        )

    async def push_claim(self, table_id: str, key: str) -> bool:
        """Record an alert as sent; whether this caller was first."""
        row = (table_id, key, time.time())

        def run(db: sqlite3.Connection) -> bool:
            return (
                db.execute("INSERT OR IGNORE INTO push_alerts VALUES (?, ?, ?)", row).rowcount == 1
            )

        return bool(await self._write(run))

    async def push_claims(self, table_id: str) -> list[str]:
        """The alerts claimed at the table, oldest first."""
        rows = self._read(
            "SELECT key FROM push_alerts WHERE table_id = ? ORDER BY at, key", (table_id,)
        )
        return [row[0] for row in rows]

    # ------------------------------------------------------------------ reads
    def _read(self, sql: str, args: Any = ()) -> list[Any]:
        with self._lock if self._shared else contextlib.nullcontext():
            return self._reader.execute(sql, args).fetchall()

    async def load(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """The table's events above ``after``, in order."""
        try:
            rows = self._read(
                "SELECT version, data, at FROM events WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, after),
            )
        except sqlite3.OperationalError:
            raise
        except sqlite3.DatabaseError as error:  # a damaged page under this table's rows
            raise DamagedLog(table_id, None, str(error)) from None
        out = []
        for version, data, at in rows:
            try:
                out.append(StoredEvent(int(version), json.loads(data), float(at)))
            except (ValueError, TypeError) as error:
                raise DamagedLog(table_id, version, str(error)) from None
        return out

    async def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The last version of each of these tables' logs."""
        out: dict[str, int] = {}
        for i in range(0, len(table_ids), 500):
            chunk = table_ids[i : i + 500]
            marks = ",".join("?" * len(chunk))
            out.update(
                self._read(
                    f"SELECT table_id, MAX(version) FROM events WHERE table_id IN ({marks})"
                    " GROUP BY table_id",
                    chunk,
                )
            )
        return out

    async def find(self, code: str) -> TableRecord | None:
        """The table with this code."""
        rows = self._read("SELECT table_id, code, created FROM tables WHERE code = ?", (code,))
        return TableRecord(*rows[0]) if rows else None

    async def tables(self) -> list[TableRecord]:
        """Every table, oldest first."""
        rows = self._read("SELECT table_id, code, created FROM tables ORDER BY created")
        return [TableRecord(*row) for row in rows]

    async def close(self) -> None:
        """Let the writes already asked for finish, then close the file."""
        if self._closed:
            return
        self._closed = True
        if self._thread.is_alive():
            self._writes.put(None)
            await asyncio.to_thread(self._thread.join)
        if self._reader is not self.db:
            self._reader.close()
        self.db.close()
