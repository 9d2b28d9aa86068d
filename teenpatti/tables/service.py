"""The table service: one writer per table, the event log, the clocks, and every seat's updates.

Each live table has one lock; a change is made under it in three steps: the table turns the command
into events (checking it with the engine), the store appends them with the expected version
(compare-and-set), and only then are they applied and every connection sent its own view. The
service owns the clock: the deal after a short pause, computer players' moves after a human-looking
delay, the turn timer (on expiry the player packs, or declines a side show), and the reconnect grace
after which the computer plays a seat until its person returns.

A restarted service rebuilds every table by replaying its log, then starts its clocks again.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..bots import DecidesActions, load_bot
from ..engine import EngineError, IllegalAction, view
from ..store.base import CodeTaken, EventStore, VersionConflict
from .codes import new_code, new_token
from .table import Settings, Table, TableError, clean_name, token_hash

__all__ = ["Clock", "Connection", "LiveTable", "TableService", "Timing"]

log = logging.getLogger("teenpatti.tables")


@dataclass(frozen=True, slots=True)
class Timing:
    """The service's clock settings, in seconds. Tests set the delays to zero."""

    bot_delay: tuple[float, float] = (0.8, 2.0)
    result_pause: float = 4.0
    first_deal: float = 0.5
    reconnect_grace: float = 45.0


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


class TableService:
    """Every table of this process, over one event store."""

    def __init__(
        self, store: EventStore, timing: Timing | None = None, clock: Clock = time.time
    ) -> None:
        self.store = store
        self.timing = timing or Timing()
        self.clock = clock
        self.tables: dict[str, LiveTable] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ life cycle
    async def start(self) -> None:
        """Rebuild every table from its log and start its clocks."""
        for record in await self.store.tables():
            table = Table(record.table_id, record.code)
            for event in await self.store.load(record.table_id):
                table.apply(event.data)
            live = LiveTable(table)
            self.tables[record.code] = live
            self._schedule(live)
        log.info("rebuilt %d tables", len(self.tables))

    async def stop(self) -> None:
        """Cancel every clock and close every connection."""
        for live in self.tables.values():
            self._cancel(live)
            for handle in live.graces.values():
                handle.cancel()
            for conn in list(live.connections):
                conn.close()
        for task in list(self._tasks):
            task.cancel()

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
        live = LiveTable(table)
        self.tables[code] = live
        if data.get("computer"):
            await self.command(code, 0, {"type": "start"})
        return code, token, 0

    def get(self, code: str) -> LiveTable:
        """The table with this code, or :class:`TableError` ``table/unknown``."""
        live = self.tables.get(code.strip().upper()) if isinstance(code, str) else None
        if live is None:
            raise TableError("table/unknown", "there is no table with that code")
        return live

    async def join(self, code: str, name: Any) -> tuple[str, int]:
        """Seat a person at a table that has not started; returns ``(token, seat)``."""
        live = self.get(code)
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
        live = self.get(code)
        kind = message.get("type")
        if kind == "start":
            await self._commit(live, lambda t: [t.start_event(seat)])
        elif kind == "again":
            await self._commit(live, lambda t: [t.again_event(seat)])
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
        async with live.lock:
            table = live.table
            events = make(table)
            if not events:
                return
            try:
                await self.store.append(table.table_id, table.version, events)
            except VersionConflict:
                await self._reload(live)
                raise TableError("state/conflict", "someone else moved first: look again") from None
            for event in events:
                table.apply(event)
            self._schedule(live)
            self._broadcast(live)

    async def _reload(self, live: LiveTable) -> None:
        table = live.table
        for event in await self.store.load(table.table_id, after=table.version):
            table.apply(event.data)
        self._schedule(live)
        self._broadcast(live)

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
                await self._commit(
                    live,
                    lambda t: (
                        [{"type": "control", "seat": seat, "bot": False}]
                        if t.seats[seat].bot
                        else []
                    ),
                )
                return
        conn.push(self.render(live, seat))

    def disconnect(self, live: LiveTable, conn: Connection) -> None:
        """Remove a socket; if its seat has no socket left, start the reconnect grace."""
        live.connections.discard(conn)
        seat = conn.seat
        if seat is None or any(c.seat == seat for c in live.connections):
            return
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
        state = live.table.state(seat)
        state["deadline"] = live.deadline
        for row, online in zip(state["seats"], self.connected(live), strict=False):
            row["connected"] = online or row["bot"]
        return json.dumps(state, separators=(",", ":"), ensure_ascii=False)

    def _broadcast(self, live: LiveTable) -> None:
        rendered: dict[int | None, str] = {}
        for conn in list(live.connections):
            if conn.seat not in rendered:
                rendered[conn.seat] = self.render(live, conn.seat)
            conn.push(rendered[conn.seat])

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
        live.timer = loop.call_later(
            max(0.0, delay), lambda: self._spawn(self._run(live, version, job))
        )

    async def _run(self, live: LiveTable, version: int, job: Callable[[], Any]) -> None:
        if live.table.version != version:
            return  # the table moved on; this clock is stale
        try:
            await self._commit(live, lambda t: job() if t.version == version else [])
        except (EngineError, VersionConflict) as error:  # pragma: no cover - logged, not fatal
            log.warning("table %s: automatic move refused: %s", live.table.code, error)

    def _schedule(self, live: LiveTable) -> None:
        """Set the one clock a table needs next, from its state."""
        self._cancel(live)
        table = live.table
        game = table.game
        timing = self.timing
        if game is None or game.finished:
            return
        hand = game.hand
        if hand is None or hand.finished:
            pause = timing.first_deal if hand is None else timing.result_pause
            self._later(live, pause, lambda: [table.hand_event()])
            return
        seat = hand.actor
        assert seat is not None
        if table.seats[seat].bot:
            low, high = timing.bot_delay
            delay = low + (high - low) * secrets.randbelow(1000) / 1000
            self._later(live, delay, lambda: [self._bot_event(live, seat)])
        elif table.settings.turn_seconds is not None:
            seconds = table.settings.turn_seconds
            live.deadline = self.clock() + seconds
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
    def histories(self, code: str) -> list[dict[str, Any]]:
        """Every finished hand of the current game, as ``teenpatti-hand/1`` histories."""
        game = self.get(code).table.game
        if game is None:
            return []
        return list(game.histories)
