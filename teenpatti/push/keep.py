"""Where the sender finds a seat holder's push subscriptions and claims the alerts it sends: in
the event store itself (:mod:`teenpatti.store`: the SQLite file or the PostgreSQL database of the
tables, its tables ``push_subscriptions`` and ``push_alerts``), never a second store of its own.

- Subscriptions are kept by the table, the hash of the holder's seat token and the endpoint. A
  seat's alerts go to the subscriptions of its holder's token only, so a seat given to someone
  else (a person who left, a latecomer) never reaches the earlier holder's phone. At most
  :data:`PER_HOLDER` are kept a holder (the oldest goes).
- :meth:`PushKeep.claim` records an alert's key and tells whether this caller was first: of two
  processes (or a process and its restarted self) that see the same turn, one sends.

A table purged from the store takes its subscriptions and claims with it. What an earlier
version kept in a SQLite file of its own is taken in once (:func:`adopt`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path
from typing import Any, Protocol

from ..store.base import EventStore
from .subscription import Subscription

__all__ = ["PER_HOLDER", "PushKeep", "StoreKeep", "adopt"]

PER_HOLDER = 5
"""The most subscriptions kept for one seat holder (their phone, tablet, laptop...)."""


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
        """Each holder's subscriptions at the table, oldest first."""
        ...

    async def gone(self, endpoint: str) -> None:
        """Forget an endpoint the push service says is no more (404, 410)."""
        ...

    async def claim(self, table_id: str, key: str) -> bool:
        """Mark the alert ``key`` as sent; ``True`` if no one had (the caller sends it)."""
        ...


class StoreKeep:
    """The :class:`PushKeep` of an event store (its ``push_...`` methods)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    async def add(self, table_id: str, holder: str, sub: Subscription) -> None:
        await self.store.push_subscribe(
            table_id, holder, sub.endpoint, sub.p256dh, sub.auth, PER_HOLDER
        )

    async def remove(self, table_id: str, holder: str, endpoint: str) -> bool:
        return await self.store.push_unsubscribe(table_id, holder, endpoint)

    async def subscriptions(
        self, table_id: str, holders: list[str]
    ) -> dict[str, list[Subscription]]:
        out: dict[str, list[Subscription]] = {h: [] for h in holders}
        if holders:
            for holder, endpoint, p256dh, auth in await self.store.push_subscriptions(
                table_id, holders
            ):
                out[holder].append(Subscription(endpoint, p256dh, auth))
        return out

    async def gone(self, endpoint: str) -> None:
        await self.store.push_forget(endpoint)

    async def claim(self, table_id: str, key: str) -> bool:
        return await self.store.push_claim(table_id, key)


async def adopt(old: Path, store: EventStore) -> int:
    """Take into ``store`` the subscriptions and claims an earlier version kept in a file of
    their own (``push.sqlite3`` in the data folder), once: the file is then renamed
    ``push.sqlite3.taken``. Returns how many subscriptions were taken (0: no such file)."""
    if not old.is_file():
        return 0

    def read() -> tuple[list[Any], list[Any]]:
        conn = sqlite3.connect(f"file:{old}?mode=ro", uri=True)
        try:
            subs = conn.execute(
                "SELECT table_id, holder, endpoint, p256dh, auth FROM push_subscriptions"
                " ORDER BY at"
            ).fetchall()
            claims = conn.execute("SELECT table_id, key FROM push_alerts").fetchall()
        except sqlite3.DatabaseError:  # not the keep's file after all: left as it is
            return [], []
        finally:
            conn.close()
        return subs, claims

    subs, claims = await asyncio.to_thread(read)
    for table_id, holder, endpoint, p256dh, auth in subs:  # oldest first: the latest stay so
        await store.push_subscribe(table_id, holder, endpoint, p256dh, auth, PER_HOLDER)
    for i in range(0, len(claims), 500):  # the store's writer commits them a batch at a time
        await asyncio.gather(*(store.push_claim(t, k) for t, k in claims[i : i + 500]))
    old.rename(old.with_name(old.name + ".taken"))
    return len(subs)
