"""The tables this process has in memory, by code: loaded from their logs on first use, and let
go when nobody needs them.

A table is rebuilt by replaying its events, each decoded once into its type
(:mod:`teenpatti.tables.play.events`) as it is read. Nothing is loaded at start-up: a table comes
into memory when a client or an announcement asks for it (or the reconciler revives a table that
was playing), so start-up costs the same with ten tables or ten thousand.

A table whose log cannot be replayed (a damaged row, an event that does not decode or does not
apply) is quarantined: it is refused with ``table/damaged``, logged once, and every other table
serves. ``teenpatti doctor`` lists such tables.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ...store.base import DamagedLog, EventStore
from ..play.events import decode
from ..play.table import Table, TableError, Unavailable
from ..play.turns import looks_only
from .codes import looks_like_code
from .table import LiveTable

__all__ = ["Registry", "replay"]

log = logging.getLogger("teenpatti.tables")


async def replay(store: EventStore, table_id: str, code: str) -> tuple[Table, float]:
    """The table rebuilt from its log, and when its last game event was stored.

    Raises :class:`DamagedLog` if the log cannot be replayed; any other error is the store's."""
    stored = await store.load(table_id)
    table = Table(table_id, code)
    since = 0.0
    for event in stored:
        try:
            applied = decode(event.data)
            table.apply(applied)
        except Exception as error:
            raise DamagedLog(table_id, event.version, f"{type(error).__name__}: {error}") from None
        if table.version != event.version:
            raise DamagedLog(table_id, event.version, f"expected version {table.version}")
        # a chat message does not restart a turn, nor does a player looking at their cards
        if table.game_version == table.version and not looks_only([applied]):
            since = event.at
    if table.version == 0:
        raise DamagedLog(table_id, None, "the log is empty")
    return table, since


class Registry:
    """Every table in this process's memory, by code, and the ones found damaged."""

    def __init__(
        self, store: EventStore, loaded: Callable[[LiveTable], None], *, owned: bool
    ) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self.damaged: dict[str, str] = {}
        """Quarantined tables: code -> what is wrong with the log."""
        self._loaded = loaded
        self.owned = owned
        """Whether a table loaded here runs its clocks at once (no other process shares it)."""

    async def load(self, table_id: str, code: str) -> LiveTable:
        """Rebuild a table from its log and keep it (or the copy another task loaded first).

        Raises :class:`TableError` ``table/damaged`` for a quarantined table, or
        :class:`Unavailable` if the store cannot be read."""
        if code in self.damaged:
            raise _damaged()
        try:
            table, since = await replay(self.store, table_id, code)
        except DamagedLog as error:
            self.damaged[code] = str(error)
            log.error("table %s quarantined: %s", code, error)
            raise _damaged() from None
        except Exception as error:
            raise Unavailable() from error
        live = self.tables.get(code)
        if live is not None:  # loaded meanwhile by another task
            return live
        return self.add(table, since)

    def add(self, table: Table, since: float) -> LiveTable:
        """Keep a table that is in memory already (just created or just replayed)."""
        live = self.tables[table.code] = LiveTable(table, owned=self.owned, since=since)
        self._loaded(live)
        return live

    def drop(self, live: LiveTable) -> None:
        """Let a table go from memory (its log keeps it)."""
        if self.tables.get(live.table.code) is live:
            del self.tables[live.table.code]

    def get(self, code: Any) -> LiveTable:
        """The table with this code in memory, or :class:`TableError` ``table/unknown``."""
        live = self.tables.get(code.strip().upper()) if isinstance(code, str) else None
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live

    async def find(self, code: Any) -> LiveTable:
        """The table with this code, loaded from the store if it is not in memory."""
        if not isinstance(code, str):
            raise TableError("table/unknown", "there is no table with that code")
        code = code.strip().upper()
        live = self.tables.get(code)
        if live is not None:
            return live
        if code in self.damaged:
            raise _damaged()
        if looks_like_code(code):
            try:
                record = await self.store.find(code)
            except Exception as error:
                raise Unavailable() from error
            if record is not None:
                return await self.load(record.table_id, record.code)
        raise TableError("table/unknown", "there is no table with that code")


def _damaged() -> TableError:
    return TableError(
        "table/damaged", "this table's records are damaged and it cannot be played; sorry"
    )
