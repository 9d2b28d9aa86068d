"""Fan-out: every socket of a table gets its own view of each version, rendered once per seat.

The public state is built once per version by the table; what this process adds (the turn's
deadline, the time now, who is online) is laid over it here, and each seat's cards are added for
that seat only (:meth:`Table.state_for`, through the engine's view gate).
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from ..metrics import Metrics
from .clock import Clock
from .live import Connection, LiveTable
from .outgoing import Shared

__all__ = ["Fanout"]

_encode = msgspec.json.Encoder().encode


class Fanout:
    """Renders tables' states and sends them to their sockets."""

    def __init__(self, clock: Clock, metrics: Metrics) -> None:
        self.clock = clock
        self.metrics = metrics

    def connected(self, live: LiveTable) -> list[bool]:
        """Which seats have a socket open now, in this process or another."""
        seats = {c.seat for c in live.connections} | live.remote
        return [i in seats for i in range(len(live.table.seats))]

    def render(self, live: LiveTable, seat: int | None) -> str:
        """The ``state`` message for ``seat``, as JSON text."""
        return self._render(live, seat, self._public(live))

    def broadcast(self, live: LiveTable, but: Connection | None = None) -> None:
        """Send every socket its own state (each seat's rendered once)."""
        if not live.connections:
            return
        started = time.perf_counter()
        public = self._public(live)
        rendered: dict[int | None, Shared] = {}  # each seat's view, framed once for its sockets
        for conn in list(live.connections):
            if conn.seat is not None and not self._still_seated(live, conn):
                continue
            if conn is but:
                continue
            message = rendered.get(conn.seat)
            if message is None:
                message = rendered[conn.seat] = Shared(self._render(live, conn.seat, public))
            conn.push(message)
        self.metrics.broadcast.observe(time.perf_counter() - started)

    @staticmethod
    def _still_seated(live: LiveTable, conn: Connection) -> bool:
        """Follow a socket's person to their seat (seats before the start move up when someone
        leaves); a person who left or was removed is told so, and their socket is closed."""
        table = live.table
        seat = conn.seat
        assert seat is not None
        if conn.token_hash is None:  # made without its token (in tests): the seat is trusted
            return True
        if seat < len(table.seats) and table.seats[seat].token_hash == conn.token_hash:
            return True
        found = next(
            (i for i, s in enumerate(table.seats) if s.token_hash == conn.token_hash), None
        )
        if found is not None:
            conn.seat = found
            return True
        live.connections.discard(conn)
        conn.seat = None  # its closing starts no reconnect grace
        removed = conn.token_hash is not None and table.removed.get(conn.token_hash)
        code, reason = (
            ("seat/removed", "the host has removed you from this table")
            if removed
            else ("seat/left", "you have left this table")
        )
        conn.push(_encode({"type": "error", "code": code, "reason": reason}).decode())
        conn.close()
        return False

    def _public(self, live: LiveTable) -> dict[str, Any]:
        """The public state with what this process adds: the clock and who is online."""
        public = dict(live.table.public_state())
        public["deadline"] = live.deadline
        public["now"] = self.clock.time()
        online = self.connected(live)
        public["seats"] = [
            {**row, "connected": row["bot"] or online[row["seat"]]} for row in public["seats"]
        ]
        return public

    def _render(self, live: LiveTable, seat: int | None, public: dict[str, Any]) -> str:
        return _encode(live.table.state_for(seat, public)).decode()
