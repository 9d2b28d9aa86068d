"""Several processes serving the same tables: announcements on the bus, catching up from the
store, and the leases that decide which process runs a table's clocks.

Any process accepts any client; each appends with the version it has (a stale copy loses the
compare-and-set and catches up). After an append a process announces the new version on the bus;
the others catch up from the store and send their own sockets their views. Only
``(code, version)`` crosses the bus, so hidden cards never do. A table's clocks run in the one
process holding its lease; the lease keeper renews it, and takes over the clocks of tables whose
process has gone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from ..bus.base import MISSED, Bus
from .clock import Clock
from .live import LiveTable, Timing
from .registry import Registry

__all__ = ["Cluster"]

log = logging.getLogger("teenpatti.tables")


class Cluster:
    """This process's side of the bus: what it announces, what it hears, the leases it holds."""

    def __init__(
        self,
        bus: Bus,
        *,
        clustered: bool,
        registry: Registry,
        clock: Clock,
        timing: Timing,
        catch_up: Callable[[LiveTable], Awaitable[bool]],
        schedule: Callable[[LiveTable], None],
    ) -> None:
        self.bus = bus
        self.clustered = clustered
        """Whether other processes share the tables (then clocks need a lease)."""
        self.registry = registry
        self.clock = clock
        self.timing = timing
        self._catch_up = catch_up
        self._schedule = schedule

    async def announce(self, code: str, version: int) -> None:
        """Tell the other processes; the events are stored already, so a bus that is down only
        delays them (they catch up at the next announcement, or when their bus is back)."""
        try:
            await self.bus.publish(code, version)
        except Exception as error:
            log.warning("table %s: version %d not announced: %s", code, version, error)

    async def heard(self, code: str, version: int) -> None:
        """Another process appended to ``code``'s log up to ``version`` (``MISSED``: the bus
        may have lost announcements, so every table catches up from the store)."""
        tables = self.registry.tables
        if code == MISSED:
            for each in list(tables.values()):
                async with each.lock:
                    await self._catch_up(each)
            return
        live = tables.get(code)
        if live is None:
            record = await self.registry.store.find(code)
            if record is not None:
                await self.registry.load(record.table_id, record.code)
            return
        if version > live.table.version:
            async with live.lock:
                await self._catch_up(live)

    async def won(self, live: LiveTable) -> None:
        """After this process wrote to a playing table, it takes the table's clocks if free
        (called under the table's lock)."""
        if self.clustered and not live.owned and live.table.status == "playing":
            try:
                live.owned = await self.bus.lease(live.table.code, self.timing.lease_ttl)
            except Exception as error:  # the bus is down: the lease keeper tries again
                log.warning("lease of table %s: %s", live.table.code, error)

    async def keep_leases(self) -> None:
        """Hold the leases of the tables whose clocks this process runs; take over the clocks
        of tables whose process has gone."""
        timing = self.timing
        while True:
            for live in list(self.registry.tables.values()):
                playing = live.table.status == "playing"
                try:
                    if playing:
                        held = await self.bus.lease(live.table.code, timing.lease_ttl)
                    elif live.owned:
                        await self.bus.release(live.table.code)
                        held = False
                    else:
                        continue
                except Exception as error:  # the bus is down: keep what we have, try again
                    log.warning("lease of table %s: %s", live.table.code, error)
                    continue
                if held != live.owned:
                    live.owned = held
                    if held:
                        async with live.lock:
                            await self._catch_up(live)
                    self._schedule(live)
            await self.clock.sleep(timing.lease_every)
