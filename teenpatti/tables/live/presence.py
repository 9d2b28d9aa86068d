"""Presence: who has a socket open at a table, the reconnect grace after a person's last socket
closes, and handing a seat to the computer and back.

When a seated person's last socket closes at a table with a turn timer, the grace starts; if they
are not back when it runs out, the computer plays their seat until they return. A person who
reconnects takes their seat back at once.

With several processes, the grace counts from the last time *any* process saw the person (each
process records its sockets, and when each seat's last one closed, on the bus): a grace that runs
out while the person has been seen since (on another process, or a moment ago by a process whose
record lapsed during a bus pause) waits out the rest instead; a process taking a table over from
one that died gives an absent person what is left of their grace, neither a fresh one nor none.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..play.events import Control, Event
from ..play.table import Table
from .fanout import Fanout
from .time_source import Clock, Handle, Tasks
from .timers import RETRY_MAX
from .writer import Make

if TYPE_CHECKING:
    from .table import Connection, LiveTable, Timing

__all__ = ["Presence", "PresencePart", "give_back"]

log = logging.getLogger("teenpatti.tables")


@dataclass(eq=False, slots=True)
class PresencePart:
    """Presence's part of a live table (``live.presence``): only this module changes it."""

    connections: set[Connection] = field(default_factory=set)
    """The table's sockets in this process."""
    graces: dict[int, Handle] = field(default_factory=dict)
    """The reconnect grace running for each absent person's seat."""
    left: dict[int, float] = field(default_factory=dict)
    """When each absent seat's last socket in this process closed (shared with the others:
    the reconnect grace counts from the last time any process saw the person)."""

    def drop(self, conn: Connection) -> None:
        """Let a socket go without a grace: its person left the table or was removed (the
        fan-out found it so, and closes it)."""
        self.connections.discard(conn)

    def back(self, seats: Iterable[int]) -> None:
        """Call off the graces of these seats: their persons are online on another process."""
        for seat in seats:
            grace = self.graces.pop(seat, None)
            if grace is not None:
                grace.cancel()

    def close(self) -> None:
        """Call off every grace and close every socket (the service stops)."""
        for grace in self.graces.values():
            grace.cancel()
        for conn in list(self.connections):
            conn.close()


class Presence:
    """Sockets coming and going, and the seats the computer plays meanwhile."""

    def __init__(
        self,
        clock: Clock,
        timing: Timing,
        tasks: Tasks,
        fanout: Fanout,
        commit: Callable[[LiveTable, Make], Coroutine[Any, Any, int]],
        watched: Callable[[LiveTable], None],
        moved: Callable[[LiveTable], None],
        elsewhere: Callable[[LiveTable], Coroutine[Any, Any, set[int]]],
        last_seen: Callable[[LiveTable], Coroutine[Any, Any, dict[int, float]]],
    ) -> None:
        self.clock = clock
        self.timing = timing
        self.tasks = tasks
        self.fanout = fanout
        self._commit = commit
        self._watched = watched
        """Called when a socket joins a table (a sleeping table's clocks start again)."""
        self._moved = moved
        """Called when a seat comes online or goes offline in this process, or the table's first
        socket opens or its last closes (tell the others)."""
        self._elsewhere = elsewhere
        """The seats online in other processes now (read fresh before a seat is handed over)."""
        self._last_seen = last_seen
        """When other processes last saw each seat (read fresh before a seat is handed over)."""

    async def connect(self, live: LiveTable, conn: Connection) -> None:
        """Add a socket; its person takes the seat back from the computer if it had it."""
        here = live.presence
        here.connections.add(conn)
        self._watched(live)
        seat = conn.seat
        if seat is not None:
            here.left.pop(seat, None)
            here.back([seat])
        first = seat is not None and sum(c.seat == seat for c in here.connections) == 1
        if first or len(here.connections) == 1:  # a seat online, or the table's first socket
            self._moved(live)
        # Back from the computer (the new state goes to every socket); if the store is down, the
        # reconciler gives the seat back later.
        info = live.table.seats[seat] if seat is not None else None
        taken = info is not None and info.bot and info.token_hash is not None and not info.late
        if taken and seat is not None and await self._give_back(live, seat):
            return
        self.fanout.send(live, conn)
        if first:
            self.fanout.broadcast(live, but=conn)  # the others see this seat come online

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Remove a socket; if its seat has no socket left, start the reconnect grace."""
        here = live.presence
        here.connections.discard(conn)
        seat = conn.seat
        if seat is None or any(c.seat == seat for c in here.connections):
            if not here.connections:
                self._moved(live)  # the table's last socket here: no announcements needed
            return
        here.left[seat] = self.clock.time()
        self._moved(live)
        self.fanout.broadcast(live)  # the others see this seat go offline
        if live.table.settings.turn_seconds is None:
            return  # a table with no timer waits for its players as long as they like
        if live.table.status != "playing":
            # Before the start nobody's turn can wait on them (and the seats move up when someone
            # leaves, so a grace kept by seat number could hand another person's seat over);
            # the reconciler starts the graces of absent persons once the game is on.
            return
        # The coroutine is made when the grace runs out: made now, a grace cancelled by the
        # person's return would leave it never awaited (a RuntimeWarning per reconnect).
        self._grace(live, seat)

    def ensure(self, live: LiveTable) -> None:
        """The reconciler's check: seats the computer plays go back to their connected persons,
        and every seated person with no socket has a grace running (after a restart, or a
        takeover of the table's clocks)."""
        self.reclaim_seats(live)
        table = live.table
        if table.settings.turn_seconds is None or table.status != "playing" or table.paused:
            return
        online = {c.seat for c in live.presence.connections} | live.cluster.remote
        for seat, info in enumerate(table.seats):
            absent = info.token_hash is not None and not info.bot and seat not in online
            if absent and seat not in live.presence.graces:
                # Looked at at once: the bus says how much of the grace is left (the person
                # may have left a process that has since died); if nobody knows, all of it.
                self._grace(live, seat, 0.0)

    def _grace(
        self, live: LiveTable, seat: int, seconds: float | None = None, since: float | None = None
    ) -> None:
        """Look at ``seat`` again in ``seconds`` (the whole grace by default); ``since``: when
        this process first found the person absent (the grace's start if nobody saw them)."""
        code = live.table.code
        graces = live.presence.graces
        start = self.clock.time() if since is None else since

        def run_out() -> None:
            graces.pop(seat, None)
            self.tasks.spawn(self._take_over(live, seat, start), f"table {code} grace")

        old = graces.pop(seat, None)
        if old is not None:
            old.cancel()
        delay = self.timing.reconnect_grace if seconds is None else seconds
        graces[seat] = self.clock.call_later(delay, run_out)

    async def _take_over(self, live: LiveTable, seat: int, since: float) -> None:
        """The grace ran out: hand the seat over if nobody has seen the person for a whole
        grace (counted from the latest sighting by any process, else from ``since``)."""
        code = live.table.code
        here = live.presence
        if any(c.seat == seat for c in here.connections):
            return
        try:
            if seat in await self._elsewhere(live):
                log.info(
                    "table %s: seat %d kept: the person is online on another process", code, seat
                )
                return
            seen = (await self._last_seen(live)).get(seat)
        except Exception as error:  # the bus is down: the grace waits for it
            log.warning("table %s: presence unknown: %s", code, error)
            if seat not in here.graces:
                self._grace(live, seat, RETRY_MAX, since)
            return
        sightings = [t for t in (seen, here.left.get(seat)) if t is not None]
        last = max(sightings) if sightings else since
        remaining = last + self.timing.reconnect_grace - self.clock.time()
        if remaining > 0:
            if seat not in here.graces:
                self._grace(live, seat, remaining, since)
            return

        def hand_over(table: Table) -> list[Event]:
            # Checked again under the table's lock: the person may have come back while the
            # bus was asked.
            if any(c.seat == seat for c in here.connections):
                return []
            return self._hand_over(table, seat)

        try:
            done = await self._commit(live, hand_over)
        except Exception as error:  # the store is down: try again shortly
            log.warning("table %s: seat %d not handed over yet: %s", code, seat, error)
            if seat not in here.graces:
                self._grace(live, seat, RETRY_MAX, since)
            return
        if done and any(c.seat == seat for c in here.connections):
            # The person came back while the hand-over was being stored: their socket found the
            # seat still theirs, so it is given back now, before the computer can move for them.
            await self._give_back(live, seat)
        elif done:
            away = self.clock.time() - last
            log.info("table %s: seat %d handed to the computer (away %.0f s)", code, seat, away)

    @staticmethod
    def _hand_over(table: Table, seat: int) -> list[Event]:
        """The event that gives ``seat`` to the computer, if it still needs giving: a finished
        game is left as it ended (a person leaving afterwards writes nothing), and a table
        waiting for its start hands nothing over."""
        if table.status != "playing" or seat >= len(table.seats):
            return []
        if table.seats[seat].bot or table.paused:
            return []
        return [Control(seat=seat, bot=True)]

    def reclaim_seats(self, live: LiveTable) -> None:
        """A seat another process handed to the computer goes back to its person if they are
        connected here."""
        for seat in {c.seat for c in live.presence.connections if c.seat is not None}:
            info = live.table.seats[seat]
            if info.bot and info.token_hash is not None and not info.late:
                self.tasks.spawn(self._give_back(live, seat), f"table {live.table.code}")

    async def _give_back(self, live: LiveTable, seat: int) -> bool:
        """Hand ``seat`` back to its person; ``False`` if the store is down (the reconciler
        tries again)."""
        try:
            await self._commit(live, give_back(seat))
        except Exception as error:
            log.warning("table %s: seat %d not given back yet: %s", live.table.code, seat, error)
            return False
        return True


def give_back(seat: int) -> Callable[[Table], list[Event]]:
    """The command that hands ``seat`` back from the computer to its person."""

    def make(table: Table) -> list[Event]:
        info = table.seats[seat]
        return [Control(seat=seat, bot=False)] if info.bot and not info.late else []

    return make
