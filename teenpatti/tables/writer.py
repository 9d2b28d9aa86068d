"""The command writer: the one way events get into a table's log and its state.

A change is made under the table's lock in three steps: the command is turned into events against
the latest state (the table checks it with the engine), the store appends them with the expected
version (compare-and-set), and only then are they applied. If another writer appended first, the
table catches up from the store and the command is checked again: it applies if it is still legal,
and is refused with the engine's reason if not.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from ..store.base import EventStore, VersionConflict
from .events import Event, decode, encode
from .live import LiveTable
from .table import Table, TableError

__all__ = ["Make", "Writer"]

Make = Callable[[Table], list[Event]]
"""Turns a command into events against the table's current state (or raises the refusal)."""

ATTEMPTS = 5
"""How many times a command is checked again after losing the compare-and-set."""


class Writer:
    """Appends commands' events to the log and applies them to the table in memory."""

    def __init__(
        self,
        store: EventStore,
        *,
        changed: Callable[[LiveTable], None],
        won: Callable[[LiveTable], Awaitable[None]],
        stored: Callable[[LiveTable, int], Awaitable[None]],
        caught_up: Callable[[LiveTable], None],
    ) -> None:
        self.store = store
        self._changed = changed
        """Called after each version applied (clocks and sockets follow the state)."""
        self._won = won
        """Awaited under the lock once this process's append is applied, before ``changed``."""
        self._stored = stored
        """Awaited after this process appended, outside the lock (tell the other processes)."""
        self._caught_up = caught_up
        """Called after events of other writers were applied."""

    async def commit(self, live: LiveTable, make: Make) -> None:
        """Turn a command into events and append them (compare-and-set, checked again on a
        conflict); :class:`TableError` ``state/conflict`` if the table stays too busy."""
        table = live.table
        for _ in range(ATTEMPTS):
            async with live.lock:
                events = make(table)
                if not events:
                    return
                try:
                    version = await self.store.append(
                        table.table_id, table.version, [encode(e) for e in events]
                    )
                except VersionConflict:
                    await self.catch_up(live)
                    continue
                for event in events:
                    table.apply(event)
                await self._won(live)
                self._changed(live)
            await self._stored(live, version)
            return
        raise TableError("state/conflict", "the table is busy: try again")

    async def catch_up(self, live: LiveTable) -> bool:
        """Apply the events other writers appended (the table's lock is held); ``True`` if any.

        Each version is passed on as its writer passes it on: one state per version, so a client
        never misses a version because another process wrote it.
        """
        table = live.table
        events = await self.store.load(table.table_id, after=table.version)
        for stored in events:
            table.apply(decode(stored.data))
            self._changed(live)
        if events:
            self._caught_up(live)
        return bool(events)
