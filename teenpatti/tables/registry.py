"""The tables this process has in memory, by code, and how a table is loaded from its log.

A table is rebuilt by replaying its events, each decoded once into its type
(:mod:`teenpatti.tables.events`) as it is read.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ..store.base import EventStore
from .codes import looks_like_code
from .events import decode
from .live import LiveTable
from .table import Table, TableError

__all__ = ["Registry"]

log = logging.getLogger("teenpatti.tables")


class Registry:
    """Every table in this process's memory, by code."""

    def __init__(
        self, store: EventStore, loaded: Callable[[LiveTable], None], *, owned: bool
    ) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        self._loaded = loaded
        self.owned = owned
        """Whether a table loaded here runs its clocks at once (no other process shares it)."""

    async def load_all(self) -> None:
        """Rebuild every table of the store."""
        for record in await self.store.tables():
            await self.load(record.table_id, record.code)
        log.info("rebuilt %d tables", len(self.tables))

    async def load(self, table_id: str, code: str) -> LiveTable:
        """Rebuild a table from its log and keep it (or the copy another task loaded first)."""
        table = Table(table_id, code)
        for stored in await self.store.load(table_id):
            table.apply(decode(stored.data))
        live = self.tables.get(code)
        if live is not None:  # loaded meanwhile by another task
            return live
        return self.add(table)

    def add(self, table: Table) -> LiveTable:
        """Keep a table that is in memory already (just created)."""
        live = self.tables[table.code] = LiveTable(table, owned=self.owned)
        self._loaded(live)
        return live

    def get(self, code: Any) -> LiveTable:
        """The table with this code in memory, or :class:`TableError` ``table/unknown``."""
        live = self.tables.get(code.strip().upper()) if isinstance(code, str) else None
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live

    async def find(self, code: Any, *, shared: bool) -> LiveTable:
        """The table with this code, loaded from the store if another process opened it
        (``shared``: other processes write to the store too)."""
        if not isinstance(code, str):
            raise TableError("table/unknown", "there is no table with that code")
        code = code.strip().upper()
        live = self.tables.get(code)
        if live is None and shared and looks_like_code(code):
            record = await self.store.find(code)
            if record is not None:
                live = await self.load(record.table_id, record.code)
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live
