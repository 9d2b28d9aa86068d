"""The event store's interface: an append-only log of events per table, with compare-and-set.

A table's state is the replay of its log. Storing events is "append with expected version": the
append succeeds only if the log's last version is the one the writer saw, so two writers can never
both win (the loser gets :class:`VersionConflict` and must reload). The unique key
``(table, version)`` is what enforces it, in every backend.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

__all__ = [
    "PUSH_TABLES",
    "CodeTaken",
    "DamagedLog",
    "EventStore",
    "StoredEvent",
    "TableRecord",
    "VersionConflict",
    "encode_event",
]

_ENCODER = msgspec.json.Encoder()

PUSH_TABLES = """
CREATE TABLE IF NOT EXISTS push_subscriptions (
    table_id TEXT NOT NULL,
    holder TEXT NOT NULL,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    at {time} NOT NULL,
    PRIMARY KEY (table_id, holder, endpoint)
);
CREATE INDEX IF NOT EXISTS push_subscriptions_endpoint ON push_subscriptions (endpoint);
CREATE TABLE IF NOT EXISTS push_alerts (
    table_id TEXT NOT NULL,
    key TEXT NOT NULL,
    at {time} NOT NULL,
    PRIMARY KEY (table_id, key)
);
"""
"""The turn alerts' tables (:mod:`teenpatti.push.keep`), in either backend's SQL (``time``:
the type of a time in epoch seconds)."""


def encode_event(event: Mapping[str, Any]) -> str:
    """An event as the compact JSON text every backend stores, so they all keep the same text.

    >>> encode_event({"type": "move", "seat": 1, "name": "सीता"})
    '{"type":"move","seat":1,"name":"सीता"}'
    """
    return _ENCODER.encode(event).decode()


class VersionConflict(Exception):
    """Another writer appended to the table's log first."""


class CodeTaken(Exception):
    """The table code (or id) is in use already."""


class DamagedLog(Exception):
    """A table's log holds a row that cannot be read (damaged storage, or a bad write)."""

    def __init__(self, table_id: str, version: int | None, reason: str) -> None:
        at = f" at version {version}" if version is not None else ""
        super().__init__(f"table {table_id}: damaged log{at}: {reason}")
        self.table_id = table_id
        self.version = version


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """One event of a table's log: its version (1, 2, ...), its data and when it was stored."""

    version: int
    data: dict[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class TableRecord:
    """A table's identity: its internal id, its short code and when it was created."""

    table_id: str
    code: str
    created: float


class EventStore(Protocol):
    """Where tables and their event logs are kept."""

    async def create_table(self, table_id: str, code: str, first: dict[str, Any]) -> None:
        """Register a table and append its first event (version 1); raise :class:`CodeTaken`."""
        ...

    async def append(
        self, table_id: str, expected_version: int, events: list[dict[str, Any]]
    ) -> int:
        """Append ``events`` after ``expected_version``; return the new version, or raise
        :class:`VersionConflict` (nothing stored)."""
        ...

    async def load(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        """The table's events with version above ``after``, in order; :class:`DamagedLog` if
        a row cannot be read."""
        ...

    async def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The last version of each of these tables' logs (one round trip)."""
        ...

    async def purge(self, before: float) -> list[str]:
        """Remove every table whose last event was stored before ``before`` (epoch seconds);
        returns their codes."""
        ...

    async def find(self, code: str) -> TableRecord | None:
        """The table with this code, if any."""
        ...

    async def tables(self) -> list[TableRecord]:
        """Every table, oldest first (a restarted server rebuilds them from their logs)."""
        ...

    # Turn alerts (:mod:`teenpatti.push`): the phones' subscriptions per seat holder, and the
    # alerts claimed; a purged table's go with it.
    async def push_subscribe(
        self, table_id: str, holder: str, endpoint: str, p256dh: str, auth: str, keep: int
    ) -> None:
        """Keep a subscription for ``holder`` (the hash of a seat token) at the table (again:
        its keys and time refreshed), and only their ``keep`` latest."""
        ...

    async def push_unsubscribe(self, table_id: str, holder: str, endpoint: str) -> bool:
        """Forget one of the holder's subscriptions; whether it was kept."""
        ...

    async def push_subscriptions(
        self, table_id: str, holders: list[str]
    ) -> list[tuple[str, str, str, str]]:
        """``(holder, endpoint, p256dh, auth)`` of these holders' subscriptions, oldest first."""
        ...

    async def push_forget(self, endpoint: str) -> None:
        """Forget an endpoint wherever it is kept (its push service said it is no more)."""
        ...

    async def push_claim(self, table_id: str, key: str) -> bool:
        """Record the alert ``key`` as sent; ``True`` if this caller was the first."""
        ...

    async def push_claims(self, table_id: str) -> list[str]:
        """The keys of the alerts claimed at the table, oldest first (what an operator looks
        at to see which changes were alerted, once each)."""
        ...

    async def close(self) -> None:
        """Release the connection."""
        ...
