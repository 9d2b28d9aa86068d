"""The SQLite event store: one file in the data folder, no other service to install.

The standard library's ``sqlite3`` in WAL mode. A committed append survives the process being
killed at any moment. Calls are short and run on the event loop's thread; every write is one
transaction, and the primary key ``(table_id, version)`` makes a stale writer's insert fail.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path
from typing import Any

from .base import CodeTaken, DamagedLog, StoredEvent, TableRecord, VersionConflict

__all__ = ["SCHEMA_VERSION", "SqliteStore"]

SCHEMA_VERSION = 1
"""The schema this code writes; older files are migrated on open."""

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
"""


class SqliteStore:
    """Tables and their event logs in one SQLite file (``:memory:`` for a throwaway store)."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA foreign_keys=ON")
        self._migrate()

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

    async def create_table(self, table_id: str, code: str, first: dict[str, Any]) -> None:
        """Register a table and store its first event as version 1."""
        now = time.time()
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                self.db.execute(
                    "INSERT INTO tables (table_id, code, created) VALUES (?, ?, ?)",
                    (table_id, code, now),
                )
                self.db.execute(
                    "INSERT INTO events (table_id, version, data, at) VALUES (?, 1, ?, ?)",
                    (table_id, json.dumps(first, separators=(",", ":")), now),
                )
        except sqlite3.IntegrityError:
            raise CodeTaken(code) from None

    async def append(
        self, table_id: str, expected_version: int, events: list[dict[str, Any]]
    ) -> int:
        """Append after ``expected_version`` or raise :class:`VersionConflict`."""
        now = time.time()
        rows = [
            (table_id, expected_version + i, json.dumps(e, separators=(",", ":")), now)
            for i, e in enumerate(events, 1)
        ]
        try:
            with self.db:
                self.db.execute("BEGIN IMMEDIATE")
                (last,) = self.db.execute(
                    "SELECT COALESCE(MAX(version), 0) FROM events WHERE table_id = ?", (table_id,)
                ).fetchone()
                if last != expected_version:
                    raise VersionConflict(table_id)
                self.db.executemany(
                    "INSERT INTO events (table_id, version, data, at) VALUES (?, ?, ?, ?)", rows
                )
        except sqlite3.IntegrityError:
            raise VersionConflict(table_id) from None
        return expected_version + len(events)

    async def load(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """The table's events above ``after``, in order."""
        try:
            rows = self.db.execute(
                "SELECT version, data, at FROM events WHERE table_id = ? AND version > ?"
                " ORDER BY version",
                (table_id, after),
            ).fetchall()
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
                self.db.execute(
                    f"SELECT table_id, MAX(version) FROM events WHERE table_id IN ({marks})"
                    " GROUP BY table_id",
                    chunk,
                ).fetchall()
            )
        return out

    async def purge(self, before: float) -> list[str]:
        """Remove the tables whose last event is older than ``before``."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            rows = self.db.execute(
                "SELECT t.table_id, t.code FROM tables t JOIN events e USING (table_id)"
                " GROUP BY t.table_id HAVING MAX(e.at) < ?",
                (before,),
            ).fetchall()
            ids = [(table_id,) for table_id, _ in rows]
            self.db.executemany("DELETE FROM events WHERE table_id = ?", ids)
            self.db.executemany("DELETE FROM tables WHERE table_id = ?", ids)
        return [code for _, code in rows]

    async def find(self, code: str) -> TableRecord | None:
        """The table with this code."""
        row = self.db.execute(
            "SELECT table_id, code, created FROM tables WHERE code = ?", (code,)
        ).fetchone()
        return TableRecord(*row) if row else None

    async def tables(self) -> list[TableRecord]:
        """Every table, oldest first."""
        cursor = self.db.execute("SELECT table_id, code, created FROM tables ORDER BY created")
        return [TableRecord(*row) for row in cursor]

    async def close(self) -> None:
        """Close the file."""
        self.db.close()
