"""The reconciler: every few seconds, make each table in memory what its log and state say.

One round (:meth:`Reconciler.round`):

- tables marked stale (an append whose outcome is unknown), and, with other processes, every
  table this process runs or has sockets for, are compared with the store's last versions (one
  query for all) and caught up where behind: a missed announcement costs a few seconds at most;
- announcements the bus refused are sent again;
- every table whose clocks this process runs gets the clock its state needs if none is set (a
  clock lost to an error, a table taken over), and a reconnect grace for each seated person with
  no socket (after a restart, or when their socket closed on another process);
- tables nobody needs leave memory: no socket, no clock, no grace, and idle for a while
  (finished, abandoned and computer-only tables nobody watches); the log keeps them;
- once in a while (``purge_every``), tables whose last event is older than ``keep_for`` are
  removed from the store (until then their hand histories can be fetched).

Store errors are logged once per outage and the round goes on with what it can do.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .time_source import Clock, Rounds

if TYPE_CHECKING:
    from .cluster import Cluster
    from .presence import Presence
    from .registry import Registry
    from .table import LiveTable
    from .timers import Clocks
    from .writer import Writer

__all__ = ["Reconciler", "ReconcilerPart"]

log = logging.getLogger("teenpatti.tables")


@dataclass(eq=False, slots=True)
class ReconcilerPart:
    """The reconciler's part of a live table (``live.reconciler``): only this module changes
    it."""

    touched: float = 0.0
    """When the table was last seen in use (it leaves memory after a while unused)."""


class Reconciler:
    """Catches tables up, re-arms what is missing, and lets idle tables go."""

    def __init__(
        self,
        *,
        registry: Registry,
        writer: Writer,
        clocks: Clocks,
        presence: Presence,
        cluster: Cluster,
        clock: Clock,
        every: float = 2.0,
        idle: float = 60.0,
        keep_for: float = 30 * 86400.0,
        purge_every: float = 3600.0,
    ) -> None:
        self.registry = registry
        self.writer = writer
        self.clocks = clocks
        self.presence = presence
        self.cluster = cluster
        self.clock = clock
        self.every = every
        self.idle = idle
        self.keep_for = keep_for
        self.purge_every = purge_every
        self._purged = 0.0
        self._store_down = False
        self.rounds = Rounds()
        """The rounds :meth:`run` has finished (tests wait on them)."""

    async def run(self) -> None:
        """A round every ``every`` seconds, for as long as the process runs."""
        while True:
            try:
                await self.round()
            except Exception:  # pragma: no cover - a bug; the next round tries again
                log.exception("reconciler round failed")
            self.rounds.done()
            await self.clock.sleep(self.every)

    async def round(self) -> None:
        """One round over every table in memory."""
        tables = list(self.registry.tables.values())
        await self._catch_up(tables)
        if self.cluster.unsent:
            await self.cluster.resend()
        now = self.clock.time()
        for live in tables:
            if live.cluster.owned:
                self.clocks.ensure(live)
                self.presence.ensure(live)
            here = live.presence
            busy = (
                here.connections
                or live.clocks.timer is not None
                or here.graces
                or live.writer.stale
            )
            mine = live.reconciler
            if busy or not mine.touched:
                mine.touched = now
            elif now - mine.touched >= self.idle and not live.lock.locked():
                self.clocks.cancel(live)
                self.registry.drop(live)
        if now - self._purged >= self.purge_every:
            await self.purge(now)

    async def purge(self, now: float) -> None:
        """Remove from the store the tables whose last event is older than ``keep_for``."""
        try:
            codes = await self.writer.store.purge(now - self.keep_for)
        except Exception as error:
            log.warning("old tables not removed yet: %s", error)
            return
        self._purged = now
        for code in codes:
            live = self.registry.tables.get(code)
            if live is not None and not live.presence.connections:
                self.clocks.cancel(live)
                self.registry.drop(live)
        if codes:
            log.info("removed %d tables unused for %.0f days", len(codes), self.keep_for / 86400)

    async def _catch_up(self, tables: list[LiveTable]) -> None:
        shared = self.cluster.clustered
        check = [
            t
            for t in tables
            if t.writer.stale or (shared and (t.cluster.owned or t.presence.connections))
        ]
        if not check:
            return
        try:
            latest = await self.writer.store.versions([t.table.table_id for t in check])
        except Exception as error:
            if not self._store_down:
                log.warning("reconciler: the store cannot be read: %s", error)
            self._store_down = True
            return
        if self._store_down:
            log.warning("reconciler: the store answers again")
            self._store_down = False
        for live in check:
            if live.writer.stale or latest.get(live.table.table_id, 0) > live.table.version:
                try:
                    async with live.lock:
                        await self.writer.catch_up(live)
                except Exception as error:  # the writer marked the table stale: next round
                    log.warning("table %s: catching up failed: %s", live.table.code, error)
