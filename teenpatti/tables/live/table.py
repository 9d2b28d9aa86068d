"""What the service keeps of a table in memory: its state, its lock, its sockets and its clocks;
and the service's clock settings.

:class:`LiveTable` is plain data: the parts of :mod:`teenpatti.tables.live.service` (registry,
writer, clocks, fan-out, presence, cluster) each change only their own fields of it.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..play.chat import Limiter
from ..play.table import Table
from ..wire.messages import SeatRow, State
from ..wire.outgoing import Sink, frame
from ..wire.render import Render
from .time_source import Handle

if TYPE_CHECKING:  # the computer players are imported when one first moves (a quick start-up)
    from ...bots import DecidesActions

__all__ = ["Connection", "LiveTable", "Sent", "Timing"]


@dataclass(frozen=True, slots=True)
class Timing:
    """The service's clock settings, in seconds. Tests set the delays to zero."""

    bot_delay: tuple[float, float] = (0.8, 2.0)
    think_limit: float = 10.0
    """Seconds a computer player may take for its move, its wait for the computers' thread
    included; past it, it packs (or declines a side show), as on a timeout."""
    result_pause: float = 4.0
    first_deal: float = 1.5
    reconnect_grace: float = 45.0
    lease_ttl: float = 3.0
    lease_every: float = 1.0
    reconcile_every: float = 2.0
    """Seconds between two rounds of the reconciler (catch up, re-arm, let idle tables go)."""
    idle_after: float = 120.0
    """Seconds a table stays in memory with no socket, clock or grace."""
    keep_for: float = 30 * 86400.0
    """Seconds a table's log is kept after its last event (its hand histories can be fetched
    until then); older tables are removed from the store."""
    purge_every: float = 3600.0
    """Seconds between two sweeps for tables past ``keep_for``."""


class Connection:
    """One client's socket, as the service sees it: its seat and a bounded queue of messages.

    With a :class:`~.outgoing.Sink` (a socket of ``teenpatti serve``), a message is framed and
    written straight to the transport when nothing waits before it: the queue is empty, the
    writer holds no message, and the transport's buffer is under its high-water mark. Otherwise
    it is queued, and the connection's one writer task sends the queue in order as the buffer
    drains. A client whose queue overflows is dropped (it resyncs when it returns), so one slow
    reader never slows its table.
    """

    def __init__(
        self,
        seat: int | None,
        limit: int = 64,
        token_hash: str | None = None,
        sink: Sink | None = None,
        patches: bool = False,
    ) -> None:
        self.seat = seat
        self.patches = patches
        """The client applies patches (it did not say ``"patches": false`` in its hello): it is
        sent what changed since the state it holds rather than each whole state."""
        self.held = -1
        """The broadcast whose state this socket was sent last (:attr:`LiveTable.sent`), -1
        when it was sent a state outside a broadcast (its hello, a sync) or none."""
        self.token_hash = token_hash
        """The hash of the seat token this socket said hello with: when it no longer holds a
        seat (its person left or was removed) the socket is told and closed."""
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limit)
        self.dropped = False
        self.sink = sink
        self.writing = False
        """The writer holds a message it has taken from the queue but not written yet."""

    def push(self, message: str) -> None:
        """Send a message (straight to the transport if nothing waits before it), or queue
        it, or drop the connection if it is not keeping up."""
        if self.dropped:
            return
        sink = self.sink
        if sink is not None and not self.writing and self.queue.empty() and sink.ready():
            sink.write(frame(message))
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
    timer: Handle | None = None
    deadline: float | None = None
    armed: tuple[int, bool] = (-1, False)
    """The game version the clock was set for, and whether this process ran the clocks then."""
    graces: dict[int, Handle] = field(default_factory=dict)
    bots: dict[int, DecidesActions] = field(default_factory=dict)
    observed: object | None = None
    """The last finished hand the computer players were shown (each is shown a hand once)."""
    owned: bool = True
    """Whether this process runs the table's clocks (it holds the table's lease)."""
    since: float = 0.0
    """When the table's last event other than a part of the next deal was stored (the turn's
    deadline and the pause before a deal count from it)."""
    stale: bool = False
    """An append's outcome is unknown (the store failed mid-way): reload before going on."""
    failures: int = 0
    """Store errors in a row for this table's clock (logged once, retried with back-off)."""
    remote: set[int] = field(default_factory=set)
    """Seats with a socket open in another process (read from the bus)."""
    left: dict[int, float] = field(default_factory=dict)
    """When each absent seat's last socket in this process closed (shared with the others:
    the reconnect grace counts from the last time any process saw the person)."""
    touched: float = 0.0
    """When the table was last seen in use (it leaves memory after a while unused)."""
    chat_limit: Limiter = field(default_factory=Limiter)
    """Chat messages per seat, counted in this process."""
    sent: Sent | None = None
    """The last broadcast: what a patch to its sockets starts from."""
    rows: dict[int, tuple[SeatRow, bool, SeatRow]] = field(default_factory=dict)
    """Each seat's row as last sent, with the table's row it was made from and whether the
    seat was online (the fan-out reuses it while both are the same)."""
    render: Render = field(init=False)
    """What each viewer sees of the table, as the wire's types, with the caches that let
    consecutive states share their parts (the fan-out's)."""

    def __post_init__(self) -> None:
        self.render = Render(self.table)


@dataclass(eq=False, slots=True)
class Sent:
    """One broadcast of a table: its number, the public state it sent and each seat's state
    (the seats of the sockets it went to)."""

    serial: int
    public: State
    states: dict[int | None, State]
