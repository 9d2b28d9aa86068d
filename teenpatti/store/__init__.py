"""Event-log persistence: SQLite (the default, embedded) or PostgreSQL, chosen by URL."""

from __future__ import annotations

from pathlib import Path

from .base import CodeTaken, EventStore, StoredEvent, TableRecord, VersionConflict

__all__ = [
    "CodeTaken",
    "EventStore",
    "StoredEvent",
    "TableRecord",
    "VersionConflict",
    "open_store",
]


async def open_store(database: str | None, data: Path) -> EventStore:
    """The store for ``database``: ``None`` (SQLite in ``data``), ``sqlite:///path/file``, or
    ``postgresql://user@host:port/db``."""
    if database is None:
        from .sqlite import SqliteStore

        return SqliteStore(data / "teenpatti.sqlite3")
    if database.startswith("sqlite:///"):
        from .sqlite import SqliteStore

        return SqliteStore(database.removeprefix("sqlite:///"))
    if database.startswith(("postgresql://", "postgres://")):
        from .postgres import PostgresStore

        return await PostgresStore.open(database)
    raise ValueError(f"unknown database {database!r}: use sqlite:///path or postgresql://...")
