"""The table service: every table of this process, made of parts with one job each.

- :mod:`~teenpatti.tables.live.registry`: the tables in memory, loaded from their logs;
- :mod:`~teenpatti.tables.live.writer`: commands into events, compare-and-set appends, catching up;
- :mod:`~teenpatti.tables.live.timers`: deals, computer players' moves, turn timers;
- :mod:`~teenpatti.tables.live.fanout`: each socket's view of each version;
- :mod:`~teenpatti.tables.live.presence`: sockets, the reconnect grace, seats the computer plays;
- :mod:`~teenpatti.tables.live.cluster`: other processes (bus announcements, clock leases).

Each keeps its part of every table in memory, a part of the
:class:`~teenpatti.tables.live.table.LiveTable` that it alone changes (``live.clocks`` is what
``self.clocks`` keeps of the table; see :mod:`~teenpatti.tables.live.table`).

This module holds the lobby (create, join, find) and the commands, and wires the parts together.
Time comes from an injectable :class:`~teenpatti.tables.live.time_source.Clock`, so tests drive
the clocks.

A restarted service rebuilds every table by replaying its log, then starts its clocks again.
Several processes may serve the same tables (``--database postgresql://... --bus redis://...``),
see :mod:`~teenpatti.tables.live.cluster`.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from importlib import import_module
from typing import Any, Protocol

from msgspec import UNSET

from ...bus.base import Bus
from ...bus.memory import MemoryBus
from ...engine import RULES_EDITION
from ...metrics import Metrics
from ...store.base import CodeTaken, EventStore
from ..play.chat import ChatError
from ..play.commands import (
    Again,
    Call,
    Chat,
    Command,
    Configure,
    Leave,
    Part,
    Pause,
    Ping,
    Readmit,
    Rebuy,
    Remove,
    Resume,
    Signal,
    Start,
    Sync,
)
from ..play.errors import TableError, Unavailable
from ..play.events import Created, Event, Host, encode
from ..play.settings import Settings, TableRequest
from ..play.table import Table, clean_name, token_hash
from .cluster import Cluster
from .codes import new_code, new_seed, new_token
from .fanout import Fanout
from .presence import Presence
from .reconciler import Reconciler
from .registry import Registry
from .table import Connection, LiveTable, Timing
from .thinker import Thinker
from .time_source import Clock, Rounds, SystemClock, Tasks
from .timers import Clocks, wants_clocks
from .writer import Applied, Writer

__all__ = ["Alerting", "Clock", "Connection", "LiveTable", "TableService", "Timing"]

log = logging.getLogger("teenpatti.tables")


class Alerting(Protocol):
    """What is told of a table's changes besides its sockets (:class:`teenpatti.push.Pusher`)."""

    def changed(self, live: LiveTable) -> None:
        """A version was applied, whoever wrote it."""

    def stored(self, live: LiveTable) -> None:
        """This process wrote the version just applied."""


def _load_computer_players() -> None:
    import_module("teenpatti.bots")


class TableService:
    """Every table of this process, over one event store."""

    def __init__(
        self,
        store: EventStore,
        timing: Timing | None = None,
        clock: Clock | None = None,
        bus: Bus | None = None,
        metrics: Metrics | None = None,
        alerts: Alerting | None = None,
    ) -> None:
        self.metrics = metrics or Metrics()
        self.metrics.watch_tables(lambda: len(self.tables))
        self.timing = timing or Timing()
        self.clock: Clock = clock or SystemClock()
        self.tasks = Tasks()
        self.changes = Rounds()
        """Every new version of a table in memory, counted (tests wait on it, not on time)."""
        bus = bus or MemoryBus()
        clustered = not isinstance(bus, MemoryBus)
        self.fanout = Fanout(self.clock, self.metrics)
        self.registry = Registry(store, self._changed, owned=not clustered)
        self.writer = Writer(store, self.clock, self.metrics, self._applied)
        self.thinker = Thinker(self.metrics)
        self.clocks = Clocks(
            self.clock, self.timing, self.tasks, self.writer.commit, self.metrics, self.thinker
        )
        self.presence = Presence(
            self.clock,
            self.timing,
            self.tasks,
            self.fanout,
            self.writer.commit,
            watched=self.clocks.ensure,
            moved=lambda live: self.cluster.moved(live),
            elsewhere=lambda live: self.cluster.elsewhere(live),
            last_seen=lambda live: self.cluster.last_seen(live),
        )
        self.cluster = Cluster(
            bus,
            clustered=clustered,
            registry=self.registry,
            clock=self.clock,
            timing=self.timing,
            tasks=self.tasks,
            catch_up=self.writer.catch_up,
            schedule=self.clocks.schedule,
            wants_clocks=wants_clocks,
            broadcast=self.fanout.broadcast,
        )
        self.reconciler = Reconciler(
            registry=self.registry,
            writer=self.writer,
            clocks=self.clocks,
            presence=self.presence,
            cluster=self.cluster,
            clock=self.clock,
            every=self.timing.reconcile_every,
            idle=self.timing.idle_after,
            keep_for=self.timing.keep_for,
            purge_every=self.timing.purge_every,
        )
        self._loops: list[asyncio.Task[None]] = []
        self.alerts = alerts
        """Told of every change, and of this process's own appends (turn alerts)."""

    # ------------------------------------------------------------------ wiring
    def _changed(self, live: LiveTable) -> None:
        self.clocks.schedule(live)
        self.fanout.broadcast(live)
        if self.alerts is not None:
            self.alerts.changed(live)
        self.changes.done()

    def _applied(self, live: LiveTable, applied: Applied) -> None:
        """A version the writer applied: this process's own append takes the table's clocks
        (before they are set again), is told to the turn alerts and announced to the other
        processes; after other writers' versions, persons with a socket here reclaim their
        seats."""
        if applied.mine:
            self.cluster.won(live)
        self._changed(live)
        if applied.mine:
            if self.alerts is not None:
                self.alerts.stored(live)
            if self.cluster.clustered:  # else no other process to tell (and no task to make)
                code = live.table.code
                announce = self.cluster.announce(code, applied.version)
                self.tasks.spawn(announce, f"table {code} announcement")
        elif applied.last:
            self.presence.reclaim_seats(live)

    @property
    def store(self) -> EventStore:
        """The event store."""
        return self.registry.store

    @property
    def bus(self) -> Bus:
        """The bus shared with other processes."""
        return self.cluster.bus

    @property
    def clustered(self) -> bool:
        """Whether other processes share the tables (then clocks need a lease)."""
        return self.cluster.clustered

    @property
    def tables(self) -> dict[str, LiveTable]:
        """The tables in memory, by code."""
        return self.registry.tables

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Start listening to the other processes, the lease keeper and the reconciler.

        No table is loaded here: each comes into memory when first asked for."""
        log.info("started: each table is loaded from its log when first opened")
        await self.bus.start(self.cluster.heard)
        loop = asyncio.get_running_loop()
        # The computer players (and numpy under them) load in the background: a third of the
        # start-up that readiness need not wait for, nor the first computer move pay for.
        self._loops.append(loop.create_task(asyncio.to_thread(_load_computer_players)))
        self._loops.append(loop.create_task(self.reconciler.run()))
        if self.clustered:
            self._loops.append(loop.create_task(self.cluster.keep_leases()))

    async def stop(self) -> None:
        """Cancel every clock, close every connection, release the leases."""
        for task in self._loops:
            task.cancel()
        for live in self.tables.values():
            self.clocks.cancel(live)
            live.presence.close()
        self.tasks.cancel()
        self.thinker.close()
        await self.bus.close()

    # ------------------------------------------------------------------ lobby
    async def create(self, asked: TableRequest) -> tuple[str, str, int]:
        """Open a table for a host (a request typed where it arrived: the lobby decodes it, a
        Python caller reads its dict with :func:`~teenpatti.tables.play.settings.read_request`);
        returns ``(code, token, seat)``. With ``computer`` the host plays the computer at once."""
        name = clean_name(None if asked.name is UNSET else asked.name)
        settings = Settings.of(asked)
        token = new_token()
        first = Created(
            settings=settings,
            host=Host(name=name, token_hash=token_hash(token)),
            rules_edition=RULES_EDITION,
        )
        for _ in range(20):
            code = new_code()
            table_id = secrets.token_hex(8)
            try:
                await self.store.create_table(table_id, code, encode(first))
            except CodeTaken:
                continue
            except Exception as error:
                raise Unavailable() from error
            break
        else:  # pragma: no cover - 20 collisions in a billion codes
            raise TableError("table/busy", "could not find a free table code; try again")
        table = Table(table_id, code)
        table.apply(first)
        self.registry.add(table, self.clock.time())
        if asked.computer:
            await self.command(code, 0, Start())
        return code, token, 0

    def get(self, code: str) -> LiveTable:
        """The table with this code in this process, or :class:`TableError` ``table/unknown``."""
        return self.registry.get(code)

    async def find(self, code: Any) -> LiveTable:
        """The table with this code, loaded from the store if another process opened it.

        With other processes, the table is first brought up to date from the store: a person
        may have joined through another process a moment ago, and their token must be known
        here before the announcement arrives (read your own writes, whichever process you hit).
        """
        live = await self.registry.find(code)
        if self.clustered or live.writer.stale:
            async with live.lock:
                await self.writer.reload(live)
        return live

    async def join(self, code: str, name: Any, was: str | None = None) -> tuple[str, int]:
        """Seat a person; returns ``(token, seat)``. ``was`` is the seat token the phone held
        at this table before (a person the host removed is refused with it)."""
        live = await self.find(code)
        token = new_token()
        await self.writer.commit(live, lambda t: [t.join_event(name, token, was)])
        seat = live.table.seat_of(token)
        assert seat is not None
        return token, seat

    def seat_for(self, live: LiveTable, token: Any) -> int | None:
        """The seat a token holds; ``None`` for no token (a spectator); a wrong token is refused."""
        if token is None:
            return None
        if not isinstance(token, str) or len(token) > 100 or not token.isascii():
            # Tokens are URL-safe ASCII; anything else (a lone surrogate would not even hash)
            # is refused before it is hashed.
            raise TableError("token/invalid", "that seat token is not valid")
        return live.table.held_by(token_hash(token))

    # ------------------------------------------------------------------ commands
    async def command(
        self,
        code: str,
        seat: int | None,
        asked: Command,
        holder: str | None = None,
    ) -> bool:
        """Run a client's command (typed where it arrived: a socket's session decodes it with
        :func:`~teenpatti.tables.play.commands.decode`, a Python caller with
        :func:`~teenpatti.tables.play.commands.convert`) as ``seat`` (``None``: a spectator),
        whose token the caller has checked with :meth:`seat_for`. Returns ``False`` if the
        command's ``id`` was applied already (a retry: nothing is done again).

        ``holder`` is the hash of that token (a socket's): the seat is then the one it holds
        when the command is applied (:meth:`Table.held_by`), on the table as stored, so a
        command read before its person was removed (or on a process that had not heard of it)
        is refused, never made in the name of whoever holds the seat now.

        Commands need no catching up first: a stale copy fails its compare-and-set."""
        live = await self.registry.find(code)
        if holder is not None:
            seat = live.table.held_by(holder)
        if isinstance(asked, Sync | Ping | Call | Signal):  # (typed otherwise: a caller's mistake)
            raise TableError(
                "message/unknown", f"{type(asked).__name__.lower()!r} is not a command"
            )
        cid = asked.id
        if isinstance(asked, Chat):
            if seat is None:
                raise TableError("table/not_seated", "only the players at the table can chat")
            if not live.chat_limit.take(seat, self.clock.time()):
                raise ChatError("chat/rate", "too many chat messages: wait a few seconds")

        def make(t: Table) -> list[Event]:
            if cid is not None and cid in t.command_ids:
                return []  # applied already: the client did not hear back, and sent it again
            seat_now = seat if holder is None else t.held_by(holder)
            return events(t, seat_now)

        def events(t: Table, seat: int | None) -> list[Event]:
            match asked:
                case Start():
                    return [t.start_event(seat, new_seed(), cid)]
                case Again():
                    return list(t.again_event(seat, new_seed(), cid))
                case Leave():
                    return [t.leave_event(seat)]
                case Remove(seat=target):
                    return [t.remove_event(seat, target)]
                case Readmit(name=name):
                    return [t.readmit_event(seat, name)]
                case Rebuy():
                    return [t.rebuy_event(seat, cid)]
                case Pause() | Resume():
                    return [t.pause_event(seat, isinstance(asked, Pause))]
                case Configure():
                    return [t.configure_event(seat, asked)]
                case Chat():
                    return [t.chat_event(seat, asked, cid)]
                case Part():
                    return [t.part_event(seat, asked, cid)]
            # a chat message or a vote in between changes nothing the move was chosen from
            expected = asked.version
            fresh = expected is not None and t.game_version <= expected <= t.version
            if expected is not None and not fresh:
                raise TableError(
                    "state/stale", "the table has moved on since you chose: look again"
                )
            return [t.act_event(seat, asked.action, cid=cid)]

        return await self.writer.commit(live, make) > 0

    # ------------------------------------------------------------------ sockets
    async def connect(self, live: LiveTable, conn: Connection) -> None:
        """Add a socket (see :meth:`Presence.connect`)."""
        # A table found before the client said hello may have left memory meanwhile.
        self.registry.tables.setdefault(live.table.code, live)
        await self.presence.connect(live, conn)

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Remove a socket (see :meth:`Presence.disconnect`)."""
        self.presence.disconnect(live, conn)

    def render(self, live: LiveTable, seat: int | None) -> str:
        """The ``state`` message for ``seat``, as JSON text."""
        return self.fanout.render(live, seat)

    def send_state(self, live: LiveTable, conn: Connection) -> None:
        """Send ``conn`` its whole state now (see :meth:`Fanout.send`)."""
        self.fanout.send(live, conn)

    # ------------------------------------------------------------------ histories
    async def histories(
        self, code: str, seat: int | None = None, game: int | None = None
    ) -> list[dict[str, Any]]:
        """Every finished hand of the table's game ``game`` (by default the one in play or last
        played), as ``teenpatti-hand/1`` histories: as ``seat`` may have them while the game is
        in play, complete once it is over."""
        return (await self.find(code)).table.histories(seat, game)
