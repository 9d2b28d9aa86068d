"""Several processes serving the same tables: announcements on the bus, catching up from the
store, and the leases that decide which process runs a table's clocks.

Any process accepts any client; each appends with the version it has (a stale copy loses the
compare-and-set and catches up). After an append a process announces the new version on the bus;
the others catch up from the store and send their own sockets their views. Only
``(code, version)`` crosses the bus, so hidden cards never do; it goes only to the processes
that hold the table (sockets there, or its lease), each of which records its sockets on the bus
(:meth:`moved` on a table's first socket, a seat's coming and going, the last socket's close).
An announcement the bus refused is sent again by the reconciler. A process that has not the
table in memory ignores it.

A table's clocks run in the one process holding its lease. The lease keeper renews the leases of
every table this process runs in one round trip (:meth:`Bus.leases`), and takes over the clocks of
tables whose process has gone, keeping the turn's deadline (it counts from the stored event).
No bus call is made under a table's lock, so a slow bus never holds up a table's moves.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ...bus.base import MISSED, PRESENCE, Bus
from .time_source import Clock, Rounds, Tasks

if TYPE_CHECKING:
    from .registry import Registry
    from .table import LiveTable, Timing

__all__ = ["PRESENCE_TTL", "Cluster", "ClusterPart"]

log = logging.getLogger("teenpatti.tables")

PRESENCE_TTL = 10.0
"""Seconds a process's record of its sockets lives unless renewed (every lease round, each
second): long enough to ride out a Redis pause of several seconds without showing anyone offline,
short beside the reconnect grace, so a dead process's sockets stop counting well before it ends."""


@dataclass(eq=False, slots=True)
class ClusterPart:
    """The cluster's part of a live table (``live.cluster``): only this module changes it."""

    owned: bool = True
    """Whether this process runs the table's clocks (it holds the table's lease)."""
    remote: set[int] = field(default_factory=set)
    """Seats with a socket open in another process (read from the bus)."""


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
        tasks: Tasks,
        catch_up: Callable[[LiveTable], Awaitable[bool]],
        schedule: Callable[[LiveTable], None],
        wants_clocks: Callable[[LiveTable], bool],
        broadcast: Callable[[LiveTable], None],
    ) -> None:
        self.bus = bus
        self.clustered = clustered
        """Whether other processes share the tables (then clocks need a lease)."""
        self.registry = registry
        self.clock = clock
        self.timing = timing
        self.tasks = tasks
        self._catch_up = catch_up
        self._schedule = schedule
        self._wants_clocks = wants_clocks
        self._broadcast = broadcast
        self._shown: set[str] = set()
        """Tables whose presence this process has recorded on the bus."""
        self.unsent: dict[str, int] = {}
        """Announcements the bus refused, by table: sent again by :meth:`resend`."""
        self._bus_down = False
        self.rounds = Rounds()
        """The lease rounds :meth:`keep_leases` has finished (tests wait on them)."""

    # ------------------------------------------------------------------ announcements
    async def announce(self, code: str, version: int) -> None:
        """Tell the other processes; the events are stored already, so a bus that is down only
        delays them (the reconciler sends it again; others also catch up on their own)."""
        if not self.clustered:
            return
        try:
            await self.bus.publish(code, version)
        except Exception as error:
            if self.unsent.get(code, 0) < version:
                self.unsent[code] = version
            log.warning("table %s: version %d not announced yet: %s", code, version, error)
        else:
            if self.unsent.get(code, version + 1) <= version:
                del self.unsent[code]

    async def resend(self) -> None:
        """Send the announcements the bus refused."""
        for code, version in list(self.unsent.items()):
            live = self.registry.tables.get(code)
            await self.announce(code, max(version, live.table.version if live else 0))

    async def heard(self, code: str, version: int) -> None:
        """Another process appended to ``code``'s log up to ``version`` (``MISSED``: the bus
        may have lost announcements, so every table catches up from the store)."""
        tables = self.registry.tables
        if code == MISSED:
            for each in list(tables.values()):
                await self._catch_up_safely(each)
            return
        live = tables.get(code)
        if live is None:
            return
        if version == PRESENCE:
            await self._refresh([live])
        elif version > live.table.version:
            await self._catch_up_safely(live)

    # ------------------------------------------------------------------ presence
    def moved(self, live: LiveTable) -> None:
        """A seat came online or went offline here: record it and tell the others."""
        if self.clustered:
            self.tasks.spawn(self._show(live), f"table {live.table.code} presence")

    async def _show(self, live: LiveTable) -> None:
        code = live.table.code
        try:
            seats = _seats(live) if live.presence.connections else None
            await self.bus.present(
                {code: seats}, PRESENCE_TTL, {code: self._left(live)}, self._keep
            )
            self._shown.add(code)
            await self.bus.publish(code, PRESENCE)
        except Exception as error:  # the next lease round records it
            log.warning("table %s: presence not shared: %s", code, error)

    @property
    def _keep(self) -> float:
        """How long a departure is worth recording: the reconnect grace."""
        return self.timing.reconnect_grace

    def _left(self, live: LiveTable) -> dict[int, float]:
        """The departures from this process still inside their grace."""
        now = self.clock.time()
        return {s: t for s, t in live.presence.left.items() if now - t < self._keep}

    async def last_seen(self, live: LiveTable) -> dict[int, float]:
        """When other processes last saw each seat of the table (epoch seconds), read now."""
        if not self.clustered:
            return {}
        code = live.table.code
        return (await self.bus.last_seen([code])).get(code, {})

    async def elsewhere(self, live: LiveTable) -> set[int]:
        """The seats online in other processes, read now."""
        if not self.clustered:
            return set()
        await self._refresh([live])
        return live.cluster.remote

    async def _refresh(self, tables: list[LiveTable]) -> None:
        """Read the other processes' presence for these tables; resend the states that change."""
        online = await self.bus.online([t.table.code for t in tables])
        for live in tables:
            remote = online.get(live.table.code, set())
            if remote != live.cluster.remote:
                live.cluster.remote = remote
                live.presence.back(remote)  # back, on another process: no grace
                self._broadcast(live)

    async def share_presence(self, tables: list[LiveTable]) -> None:
        """Renew this process's presence records and read the others' (the lease round)."""
        left = {t.table.code: gone for t in tables if (gone := self._left(t))}
        mine: dict[str, list[int] | None] = {
            t.table.code: _seats(t) if t.presence.connections else None
            for t in tables
            if t.presence.connections or t.table.code in left
        }
        for code in self._shown - set(mine):
            mine[code] = None  # no socket left here, and nobody left recently
        await self.bus.present(mine, PRESENCE_TTL, left, self._keep)
        self._shown = {code for code, seats in mine.items() if seats is not None or code in left}
        await self._refresh([t for t in tables if t.presence.connections or t.cluster.owned])

    async def _catch_up_safely(self, live: LiveTable) -> None:
        try:
            async with live.lock:
                await self._catch_up(live)
        except Exception as error:  # the store is down: the writer marked the table stale,
            # and the reconciler catches it up later
            log.warning("table %s: catching up failed: %s", live.table.code, error)

    # ------------------------------------------------------------------ leases
    def won(self, live: LiveTable) -> None:
        """After this process wrote to a playing table, it takes the table's clocks if free
        (in the background: a slow bus must not hold the table's lock)."""
        if self.clustered and not live.cluster.owned and live.table.status == "playing":
            self.tasks.spawn(self._take(live), f"table {live.table.code} lease")

    async def _take(self, live: LiveTable) -> None:
        try:
            held = await self.bus.lease(live.table.code, self.timing.lease_ttl)
        except Exception as error:  # the bus is down: the lease keeper tries again
            log.warning("lease of table %s: %s", live.table.code, error)
            return
        if held and not live.cluster.owned:
            live.cluster.owned = True
            self._schedule(live)

    async def keep_leases(self) -> None:
        """Renew the leases every ``lease_every`` seconds, for as long as the process runs."""
        while True:
            try:
                await self.renew()
            except Exception:  # pragma: no cover - a bug; the next round tries again
                log.exception("lease round failed")
            self.rounds.done()
            await self.clock.sleep(self.timing.lease_every)

    async def renew(self) -> None:
        """One round: hold the leases of the playing tables that want clocks (one round trip),
        release the others, and start or stop running clocks where that changed; renew and
        read presence (one round trip each)."""
        tables = list(self.registry.tables.values())
        wanted = [t for t in tables if t.table.status == "playing" and self._wants_clocks(t)]
        try:
            held = await self.bus.leases([t.table.code for t in wanted], self.timing.lease_ttl)
            await self.share_presence(tables)
        except Exception as error:  # the bus is down: keep what we have, try again
            if not self._bus_down:
                log.warning("leases not renewed: %s", error)
            self._bus_down = True
            return
        if self._bus_down:
            log.warning("leases renewed again")
            self._bus_down = False
        wanted_set = set(map(id, wanted))
        for live in tables:
            keep = id(live) in wanted_set and live.table.code in held
            if keep == live.cluster.owned:
                continue
            if not keep and id(live) not in wanted_set:
                try:
                    await self.bus.release(live.table.code)
                except Exception as error:
                    log.warning("lease of table %s not released: %s", live.table.code, error)
            live.cluster.owned = keep
            if keep:  # taking over: what the last holder stored comes first
                log.info("table %s: running its clocks", live.table.code)
                await self._catch_up_safely(live)
            self._schedule(live)


def _seats(live: LiveTable) -> list[int]:
    return sorted({c.seat for c in live.presence.connections if c.seat is not None})
