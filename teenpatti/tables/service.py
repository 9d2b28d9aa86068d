"""The table service: one writer per table, the event log, the clocks, and every seat's updates.

Each live table has one lock; a change is made under it in three steps: the table turns the command
into events (checking it with the engine), the store appends them with the expected version
(compare-and-set), and only then are they applied and every connection sent its own view. The
service owns the clock: the deal after a short pause, computer players' moves after a human-looking
delay, the turn timer (on expiry the player packs, or declines a side show), and the reconnect grace
after which the computer plays a seat until its person returns.

A restarted service rebuilds every table by replaying its log, then starts its clocks again.

Several processes may serve the same tables (``--database postgresql://... --bus redis://...``):
any of them accepts any client; each appends with the version it has and, on a conflict, catches
up from the store and checks the command again; after an append it announces the new version on
the bus, and the others catch up and send their own sockets their views. A table's clocks run in
the one process holding its lease (see :mod:`teenpatti.bus`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from ..bots import DecidesActions, load_bot
from ..bus.base import MISSED, Bus
from ..bus.memory import MemoryBus
from ..engine import EngineError, IllegalAction, view
from ..metrics import CLOCK_REFUSED, Metrics
from ..store.base import CodeTaken, EventStore, VersionConflict
from .codes import looks_like_code, new_code, new_seed, new_token
from .table import Settings, Table, TableError, clean_name, token_hash

__all__ = ["Clock", "Connection", "LiveTable", "TableService", "Timing"]

log = logging.getLogger("teenpatti.tables")
_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class Timing:
    """The service's clock settings, in seconds. Tests set the delays to zero."""

    bot_delay: tuple[float, float] = (0.8, 2.0)
    result_pause: float = 4.0
    first_deal: float = 0.5
    reconnect_grace: float = 45.0
    lease_ttl: float = 3.0
    lease_every: float = 1.0


Clock = Callable[[], float]


class Connection:
    """One client's socket, as the service sees it: its seat and a bounded queue of messages.

    A writer task per connection drains the queue; a client whose queue overflows is dropped (it
    resyncs when it returns), so one slow reader never slows its table.
    """

    def __init__(self, seat: int | None, limit: int = 64) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limit)
        self.dropped = False

    def push(self, message: str) -> None:
        """Queue a message, or drop the connection if it is not keeping up."""
        if self.dropped:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.dropped = True
            self.close()

    def close(self) -> None:
        """Ask the writer to stop (the socket is then closed)."""
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.queue.get_nowait()
            self.queue.put_nowait(None)


@dataclass(eq=False)
class LiveTable:
    """A table in memory: its state, its lock, its connections and its pending clocks."""

    table: Table
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    timer: asyncio.TimerHandle | None = None
    deadline: float | None = None
    graces: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    bots: dict[int, DecidesActions] = field(default_factory=dict)
    owned: bool = True
    """Whether this process runs the table's clocks (it holds the table's lease)."""


class TableService:
    """Every table of this process, over one event store."""

    def __init__(
        self,
        store: EventStore,
        timing: Timing | None = None,
        clock: Clock = time.time,
        bus: Bus | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        self.store = store
        self.metrics = metrics or Metrics()
        self.metrics.watch_tables(lambda: len(self.tables))
        self.timing = timing or Timing()
        self.clock = clock
        self.bus: Bus = bus or MemoryBus()
        self.clustered = not isinstance(self.bus, MemoryBus)
        """Whether other processes share the tables (then clocks need a lease)."""
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._keeper: asyncio.Task[None] | None = None

    def use_bus(self, bus: Bus) -> None:
        """Share the tables with other processes over ``bus`` (before :meth:`start`)."""
        self.bus = bus
        self.clustered = not isinstance(bus, MemoryBus)

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Rebuild every table from its log and start its clocks."""
        for record in await self.store.tables():
            await self._load(record.table_id, record.code)
        log.info("rebuilt %d tables", len(self.tables))
        await self.bus.start(self._announced)
        if self.clustered:
            self._keeper = asyncio.get_running_loop().create_task(self._keep_leases())

    async def _load(self, table_id: str, code: str) -> LiveTable:
        table = Table(table_id, code)
        for event in await self.store.load(table_id):
            table.apply(event.data)
        live = self.tables.get(code)
        if live is not None:  # loaded meanwhile by another task
            return live
        live = self.tables[code] = LiveTable(table, owned=not self.clustered)
        self._schedule(live)
        return live

    async def stop(self) -> None:
        """Cancel every clock, close every connection, release the leases."""
        if self._keeper is not None:
            self._keeper.cancel()
        for live in self.tables.values():
            self._cancel(live)
            for handle in live.graces.values():
                handle.cancel()
            for conn in list(live.connections):
                conn.close()
        for task in list(self._tasks):
            task.cancel()
        await self.bus.close()

    # ------------------------------------------------------------------ lobby
    async def create(self, data: Any) -> tuple[str, str, int]:
        """Open a table for a host; returns ``(code, token, seat)``. With ``"computer": true``
        the host plays the computer at once."""
        if not isinstance(data, dict):
            raise TableError("settings/invalid", "table settings must be an object")
        name = clean_name(data.get("name"))
        settings = Settings.from_json(data)
        token = new_token()
        first = {
            "type": "created",
            "settings": settings.to_json(),
            "host": {"name": name, "token_hash": token_hash(token)},
        }
        for _ in range(20):
            code = new_code()
            table_id = secrets.token_hex(8)
            try:
                await self.store.create_table(table_id, code, first)
            except CodeTaken:
                continue
            break
        else:  # pragma: no cover - 20 collisions in a billion codes
            raise TableError("table/busy", "could not find a free table code; try again")
        table = Table(table_id, code)
        table.apply(first)
        live = LiveTable(table, owned=not self.clustered)
        self.tables[code] = live
        await self._announce(code, table.version)
        if data.get("computer"):
            await self.command(code, 0, {"type": "start"})
        return code, token, 0

    def get(self, code: str) -> LiveTable:
        """The table with this code in this process, or :class:`TableError` ``table/unknown``."""
        live = self.tables.get(code.strip().upper()) if isinstance(code, str) else None
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live

    async def find(self, code: Any) -> LiveTable:
        """The table with this code, loaded from the store if another process opened it.

        With other processes, the table is first brought up to date from the store: a person
        may have joined through another process a moment ago, and their token must be known
        here before the announcement arrives (read your own writes, whichever process you hit).
        """
        live = await self._find(code)
        if self.clustered:
            async with live.lock:
                await self._catch_up(live)
        return live

    async def _find(self, code: Any) -> LiveTable:
        """The table with this code in this process, loaded from the store if another process
        opened it (commands need no catching up here: a stale copy fails its compare-and-set)."""
        if not isinstance(code, str):
            raise TableError("table/unknown", "there is no table with that code")
        code = code.strip().upper()
        live = self.tables.get(code)
        if live is None and self.clustered and looks_like_code(code):
            record = await self.store.find(code)
            if record is not None:
                live = await self._load(record.table_id, record.code)
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live

    async def join(self, code: str, name: Any) -> tuple[str, int]:
        """Seat a person at a table that has not started; returns ``(token, seat)``."""
        live = await self.find(code)
        token = new_token()
        await self._commit(live, lambda t: [t.join_event(name, token)])
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
        seat = live.table.seat_of(token)
        if seat is None:
            raise TableError("token/invalid", "that seat token is not valid at this table")
        return seat

    # ------------------------------------------------------------------ commands
    async def command(self, code: str, seat: int | None, message: dict[str, Any]) -> None:
        """Run a client's command (``start``, ``act``, ``again``) as ``seat`` (``None``: a
        spectator), whose token the caller has checked with :meth:`seat_for`."""
        live = await self._find(code)
        kind = message.get("type")
        if kind == "start":
            await self._commit(live, lambda t: [t.start_event(seat, new_seed())])
        elif kind == "again":
            await self._commit(live, lambda t: [t.again_event(seat, new_seed())])
        elif kind == "act":
            expected = message.get("version")

            def make(t: Table) -> list[dict[str, Any]]:
                if expected is not None and expected != t.version:
                    raise TableError(
                        "state/stale", "the table has moved on since you chose: look again"
                    )
                return [t.act_event(seat, message.get("action"))]

            await self._commit(live, make)
        else:
            raise TableError("message/unknown", f"{kind!r} is not a command")

    async def _commit(self, live: LiveTable, make: Callable[[Table], list[dict[str, Any]]]) -> None:
        """Turn a command into events against the latest state and append them (compare-and-set).

        If another writer appended first, catch up from the store and check the command again:
        it applies if it is still legal, and is refused with the engine's reason if not.
        """
        table = live.table
        for _ in range(5):
            async with live.lock:
                events = make(table)
                if not events:
                    return
                started = time.perf_counter()
                try:
                    version = await self.store.append(table.table_id, table.version, events)
                except VersionConflict:
                    await self._catch_up(live)
                    continue
                self.metrics.append.observe(time.perf_counter() - started)
                self.metrics.actions.inc()
                for event in events:
                    table.apply(event)
                if self.clustered and not live.owned and table.status == "playing":
                    try:
                        live.owned = await self.bus.lease(table.code, self.timing.lease_ttl)
                    except Exception as error:  # the bus is down: the lease keeper tries again
                        log.warning("lease of table %s: %s", table.code, error)
                self._schedule(live)
                self._broadcast(live)
            await self._announce(table.code, version)
            return
        raise TableError("state/conflict", "the table is busy: try again")

    async def _catch_up(self, live: LiveTable) -> bool:
        """Apply the events other writers appended (the table's lock is held); ``True`` if any.

        Each event is sent to this process's sockets as its writer sends it to its own: one
        state per version, so a client never misses a version because another process wrote it.
        """
        table = live.table
        events = await self.store.load(table.table_id, after=table.version)
        for event in events:
            table.apply(event.data)
            self._schedule(live)
            self._broadcast(live)
        if events:
            self._reclaim_seats(live)
        return bool(events)

    def _reclaim_seats(self, live: LiveTable) -> None:
        """A seat another process handed to the computer goes back to its person if they are
        connected here."""
        for seat in {c.seat for c in live.connections if c.seat is not None}:
            info = live.table.seats[seat]
            if info.bot and info.token_hash is not None:
                self._spawn(self._commit(live, _give_back(seat)))

    async def _announce(self, code: str, version: int) -> None:
        """Tell the other processes; the events are stored already, so a bus that is down only
        delays them (they catch up at the next announcement, or when their bus is back)."""
        try:
            await self.bus.publish(code, version)
        except Exception as error:
            log.warning("table %s: version %d not announced: %s", code, version, error)

    async def _announced(self, code: str, version: int) -> None:
        """Another process appended to ``code``'s log up to ``version`` (``MISSED``: the bus
        may have lost announcements, so every table catches up from the store)."""
        if code == MISSED:
            for each in list(self.tables.values()):
                async with each.lock:
                    await self._catch_up(each)
            return
        live = self.tables.get(code)
        if live is None:
            record = await self.store.find(code)
            if record is not None:
                await self._load(record.table_id, record.code)
            return
        if version > live.table.version:
            async with live.lock:
                await self._catch_up(live)

    async def _keep_leases(self) -> None:
        """Hold the leases of the tables whose clocks this process runs; take over the clocks
        of tables whose process has gone."""
        timing = self.timing
        while True:
            for live in list(self.tables.values()):
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
            await asyncio.sleep(timing.lease_every)

    # ------------------------------------------------------------------ connections
    async def connect(self, live: LiveTable, conn: Connection) -> None:
        """Add a socket; its person takes the seat back from the computer if it had it."""
        live.connections.add(conn)
        seat = conn.seat
        if seat is not None:
            grace = live.graces.pop(seat, None)
            if grace is not None:
                grace.cancel()
            if live.table.seats[seat].bot and live.table.seats[seat].token_hash is not None:
                await self._commit(live, _give_back(seat))
                return
        conn.push(self.render(live, seat))
        if seat is not None and sum(c.seat == seat for c in live.connections) == 1:
            self._broadcast(live, but=conn)  # the others see this seat come online

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Remove a socket; if its seat has no socket left, start the reconnect grace."""
        live.connections.discard(conn)
        seat = conn.seat
        if seat is None or any(c.seat == seat for c in live.connections):
            return
        self._broadcast(live)  # the others see this seat go offline
        if live.table.settings.turn_seconds is None:
            return  # a table with no timer waits for its players as long as they like
        loop = asyncio.get_running_loop()
        # The coroutine is made when the grace runs out: made now, a grace cancelled by the
        # person's return would leave it never awaited (a RuntimeWarning per reconnect).
        live.graces[seat] = loop.call_later(
            self.timing.reconnect_grace, lambda: self._spawn(self._take_over(live, seat))
        )

    async def _take_over(self, live: LiveTable, seat: int) -> None:
        live.graces.pop(seat, None)
        if any(c.seat == seat for c in live.connections):
            return
        await self._commit(
            live,
            lambda t: [] if t.seats[seat].bot else [{"type": "control", "seat": seat, "bot": True}],
        )

    def connected(self, live: LiveTable) -> list[bool]:
        """Which seats have a socket open now."""
        seats = {c.seat for c in live.connections}
        return [i in seats for i in range(len(live.table.seats))]

    def render(self, live: LiveTable, seat: int | None) -> str:
        """The ``state`` message for ``seat``, as JSON text."""
        return self._render(live, seat, self._public(live))

    def _public(self, live: LiveTable) -> dict[str, Any]:
        """The public state with what this process adds: the clock and who is online."""
        public = dict(live.table.public_state())
        public["deadline"] = live.deadline
        public["now"] = self.clock()
        online = self.connected(live)
        public["seats"] = [
            {**row, "connected": row["bot"] or online[row["seat"]]} for row in public["seats"]
        ]
        return public

    def _render(self, live: LiveTable, seat: int | None, public: dict[str, Any]) -> str:
        return _encode(live.table.state_for(seat, public)).decode()

    def _broadcast(self, live: LiveTable, but: Connection | None = None) -> None:
        """Send every socket its own state (each seat's rendered once)."""
        if not live.connections:
            return
        started = time.perf_counter()
        public = self._public(live)
        rendered: dict[int | None, str] = {}
        for conn in list(live.connections):
            if conn is but:
                continue
            message = rendered.get(conn.seat)
            if message is None:
                message = rendered[conn.seat] = self._render(live, conn.seat, public)
            conn.push(message)
        self.metrics.broadcast.observe(time.perf_counter() - started)

    # ------------------------------------------------------------------ the clock
    def _cancel(self, live: LiveTable) -> None:
        if live.timer is not None:
            live.timer.cancel()
        live.timer = None
        live.deadline = None

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _later(self, live: LiveTable, delay: float, job: Callable[[], Any]) -> None:
        loop = asyncio.get_running_loop()
        version = live.table.version
        due = loop.time() + max(0.0, delay)

        def fire() -> None:
            self.metrics.lateness.observe(loop.time() - due)
            self._spawn(self._run(live, version, job))

        live.timer = loop.call_later(max(0.0, delay), fire)

    async def _run(self, live: LiveTable, version: int, job: Callable[[], Any]) -> None:
        if live.table.version != version:
            return  # the table moved on; this clock is stale
        try:
            await self._commit(live, lambda t: job() if t.version == version else [])
        except (EngineError, VersionConflict) as error:  # pragma: no cover - logged, not fatal
            self.metrics.error(CLOCK_REFUSED)
            log.warning("table %s: automatic move refused: %s", live.table.code, error)

    def _schedule(self, live: LiveTable) -> None:
        """Set the one clock a table needs next, from its state.

        Every process shows the turn's deadline; only the lease holder sets the clocks.
        """
        self._cancel(live)
        table = live.table
        game = table.game
        timing = self.timing
        if game is None or game.finished:
            return
        hand = game.hand
        if hand is None or hand.finished:
            pause = timing.first_deal if hand is None else timing.result_pause
            if live.owned:
                self._later(live, pause, lambda: [table.hand_event(new_seed())])
            return
        seat = hand.actor
        assert seat is not None
        if table.seats[seat].bot:
            low, high = timing.bot_delay
            delay = low + (high - low) * secrets.randbelow(1000) / 1000
            if live.owned:
                self._later(live, delay, lambda: [self._bot_event(live, seat)])
        elif table.settings.turn_seconds is not None:
            seconds = table.settings.turn_seconds
            live.deadline = self.clock() + seconds
            if live.owned:
                self._later(live, seconds, lambda: [self._timeout_event(live, seat)])

    def _bot_event(self, live: LiveTable, seat: int) -> dict[str, Any]:
        table = live.table
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = load_bot(table.settings.bots, seed=secrets.randbits(32))
        assert table.game is not None and table.game.hand is not None
        action = bot.decide(view(table.game.hand, seat))
        try:
            return table.act_event(seat, action.to_json(), by="bot")
        except IllegalAction:  # a bot should never do this; pack rather than stall the table
            log.exception("bot at table %s seat %d chose an illegal action", table.code, seat)
            return self._timeout_event(live, seat)

    def _timeout_event(self, live: LiveTable, seat: int) -> dict[str, Any]:
        hand = live.table.game.hand if live.table.game else None
        assert hand is not None
        do = "decline" if hand.waiting_for == seat else "pack"
        return live.table.act_event(seat, {"do": do}, by="timer")

    # ------------------------------------------------------------------ histories
    async def histories(self, code: str) -> list[dict[str, Any]]:
        """Every finished hand of the current game, as ``teenpatti-hand/1`` histories."""
        game = (await self.find(code)).table.game
        if game is None:
            return []
        return list(game.histories)


def _give_back(seat: int) -> Callable[[Table], list[dict[str, Any]]]:
    """The command that hands ``seat`` back from the computer to its person."""

    def make(table: Table) -> list[dict[str, Any]]:
        return [{"type": "control", "seat": seat, "bot": False}] if table.seats[seat].bot else []

    return make
