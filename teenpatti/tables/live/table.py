"""What the service keeps of a table in memory: its state, its lock, and one part for each
module of the live server that keeps something of the table; and the service's clock settings.

A :class:`LiveTable` is made of parts, each a small class in the module that owns it, and only
that module changes a part's fields (the others read them, or call the part's methods, which
live in the owner's module); ``tests/test_live_parts.py`` reads the source and holds that. Each
part is named as the service's component that keeps it (``live.clocks`` is what
``service.clocks`` keeps of the table):

========================  ==================  ==============================================
part                      owner               fields
========================  ==================  ==============================================
``live.writer``           :mod:`.writer`      ``since``, ``stale``
``live.clocks``           :mod:`.timers`      ``timer``, ``deadline``, ``armed``, ``failures``
``live.computers``        :mod:`.thinker`     ``bots``, ``observed``
``live.presence``         :mod:`.presence`    ``connections``, ``graces``, ``left``
``live.fanout``           :mod:`.fanout`      ``render``, ``sent``, ``rows``
``live.cluster``          :mod:`.cluster`     ``owned``, ``remote``
``live.reconciler``       :mod:`.reconciler`  ``touched``
``live.chat_limit``       :mod:`.service`     a :class:`~teenpatti.tables.play.chat.Limiter`
========================  ==================  ==============================================

This module imports the parts' modules; they import it for its types only (under
``TYPE_CHECKING``), so that no import goes round in a circle.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from ..play.chat import Limiter
from ..play.table import Table
from ..wire.outgoing import Sink, frame
from ..wire.render import Render
from .cluster import ClusterPart
from .fanout import FanoutPart
from .outbox import Outbox
from .presence import PresencePart
from .reconciler import ReconcilerPart
from .thinker import ComputersPart
from .timers import ClocksPart
from .writer import WriterPart

__all__ = ["Connection", "LiveTable", "Timing"]


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

    __slots__ = ("dropped", "held", "patches", "queue", "seat", "sink", "token_hash", "writing")

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
        """The broadcast whose state this socket was sent last (the fan-out's
        :attr:`~.fanout.FanoutPart.sent`), -1 when it was sent a state outside a broadcast (its
        hello, a sync) or none."""
        self.token_hash = token_hash
        """The hash of the seat token this socket said hello with: when it no longer holds a
        seat (its person left or was removed) the socket is told and closed."""
        self.queue = Outbox(limit)
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


class LiveTable:
    """A table in memory: its state, its lock, and the parts the service's components keep of
    it (see the module's docstring for who owns which). The parts are made with the table and
    never replaced."""

    __slots__ = (
        "chat_limit",
        "clocks",
        "cluster",
        "computers",
        "fanout",
        "lock",
        "presence",
        "reconciler",
        "table",
        "writer",
    )

    table: Table
    """The table's state (the writer applies its events to it)."""
    lock: asyncio.Lock
    """Held while a command is checked, stored and applied, and while the table catches up."""
    writer: WriterPart
    clocks: ClocksPart
    computers: ComputersPart
    presence: PresencePart
    fanout: FanoutPart
    cluster: ClusterPart
    reconciler: ReconcilerPart
    chat_limit: Limiter
    """Chat messages per seat, counted in this process (the service's commands)."""

    def __init__(self, table: Table, *, owned: bool = True, since: float = 0.0) -> None:
        """``owned``: this process runs the table's clocks; ``since``: when its last game event
        was stored (see :attr:`WriterPart.since <.writer.WriterPart.since>`)."""
        self.table = table
        self.lock = asyncio.Lock()
        self.writer = WriterPart(since=since)
        self.clocks = ClocksPart()
        self.computers = ComputersPart()
        self.presence = PresencePart()
        self.fanout = FanoutPart(Render(table))
        self.cluster = ClusterPart(owned=owned)
        self.reconciler = ReconcilerPart()
        self.chat_limit = Limiter()

    def connected(self) -> list[bool]:
        """Which seats have a socket open now, in this process or another."""
        seats = {c.seat for c in self.presence.connections} | self.cluster.remote
        return [i in seats for i in range(len(self.table.seats))]
