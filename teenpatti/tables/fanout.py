"""Fan-out: every socket of a table gets its own view of each version, rendered once per seat.

The public state is built once per version by the table; what this process adds (the turn's
deadline, the time now, who is online) is laid over it here, and each seat's cards are added for
that seat only (:meth:`Table.state_for`, through the engine's view gate).

A state message is encoded in two parts: what is the same for every socket of the version (the
hand's public log, the settings, the clock: most of the message) is encoded once per broadcast,
and each seat's own part (``you``, the seat rows with its cards, its legal moves) is encoded per
seat and joined in front of it, so a move costs one big encoding, not one per seat.
"""

from __future__ import annotations

import time
from typing import Any

import msgspec

from ..metrics import Metrics
from .clock import Clock
from .live import Connection, LiveTable

__all__ = ["Fanout"]

_encode = msgspec.json.Encoder().encode

_OWN = ("you", "seats", "legal")
"""The keys of a state that differ from seat to seat (see :meth:`Table.state_for`)."""


def _shared(public: dict[str, Any]) -> bytes:
    """The part of every seat's state that is the same for all, encoded once."""
    return _encode({k: v for k, v in public.items() if k not in _OWN})


def _join(own: dict[str, Any], shared: bytes) -> str:
    """One state message: a seat's own keys, then the shared ones (one JSON object)."""
    head = _encode({k: own[k] for k in _OWN})
    return (head[:-1] + b"," + shared[1:]).decode()


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
        public = self._public(live)
        return self._render(live, seat, public, _shared(public))

    def broadcast(self, live: LiveTable, but: Connection | None = None) -> None:
        """Send every socket its own state (each seat's rendered once)."""
        if not live.connections:
            return
        started = time.perf_counter()
        public = self._public(live)
        shared = _shared(public)
        rendered: dict[int | None, str] = {}
        for conn in list(live.connections):
            if conn.seat is not None and not self._still_seated(live, conn):
                continue
            if conn is but:
                continue
            message = rendered.get(conn.seat)
            if message is None:
                message = rendered[conn.seat] = self._render(live, conn.seat, public, shared)
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

    def _render(
        self, live: LiveTable, seat: int | None, public: dict[str, Any], shared: bytes
    ) -> str:
        return _join(live.table.state_for(seat, public), shared)
