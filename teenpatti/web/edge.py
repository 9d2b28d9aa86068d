"""The server's edge: every TCP connection under a budget before the app sees a byte of it.

uvicorn's own protocols (httptools for HTTP, websockets' sans-I/O machine for sockets) do the
parsing; the subclasses here add what a public server needs and uvicorn leaves out:

- a cap on open connections in total and per client address (a new connection over a cap first
  closes the same address's, or anyone's, oldest connection that has not yet sent a request;
  else it is answered ``503 server/busy`` and closed);
- a deadline for a request's headers (from the connection, or from the end of the previous
  response) and for its body, answered ``408`` and closed (idle keep-alive connections are
  closed by uvicorn's keep-alive timeout);
- a high-water mark on each transport's write buffer: a connection that stays above it (its
  client stopped reading) for the stall time is cut, and one that closed but could not flush is
  cut after the same time, so its memory is freed within seconds;
- on sockets, a :class:`Wire` (shared with the app through the scope) through which the app
  writes its frames straight to the transport while its buffer is under the high-water mark,
  past uvicorn's ASGI ``send`` and the ``websockets`` frame writer (server frames need no mask,
  and per-message deflate is off);
- on sockets, every frame the client sends (messages, pings and pongs) takes a token from one
  budget per connection (:class:`Budget`, shared with the app through the scope); a ping over
  the budget gets no pong, and a connection that goes on past a bounded number of refusals is
  closed with code 1008.

One sweep a second checks every connection's deadlines (one timer for all, not one each).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import socket
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode

__all__ = ["BUDGET", "SINK", "Budget", "Edge", "EdgeLimits", "Wire", "address_key", "protocols"]

BUDGET = "teenpatti.budget"
"""The scope extension under which a socket's :class:`Budget` reaches the app."""
SINK = "teenpatti.sink"
"""The scope extension under which a socket's :class:`Wire` reaches the app."""


class Budget:
    """A socket's allowance of frames: ``rate`` a second, ``burst`` at most; and its patience
    with refused ones (``refusals`` at most, forgiven at one a second).

    >>> budget = Budget(1.0, 2.0, refusals=3)
    >>> [budget.take() for _ in range(3)]
    [True, True, False]
    >>> [budget.refuse() for _ in range(3)]
    [False, False, True]
    """

    def __init__(self, rate: float, burst: float, refusals: int = 60) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.last = burst, time.monotonic()
        self.limit = refusals
        self.patience, self.refused_at = float(refusals), self.last

    def take(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refuse(self) -> bool:
        """Count a refused frame; ``True`` once the client has been refused too often (then
        the connection is closed)."""
        now = time.monotonic()
        self.patience = min(self.limit, self.patience + (now - self.refused_at))
        self.refused_at = now
        self.patience -= 1
        return self.patience < 1


class Wire:
    """A socket's direct way out (a :class:`~teenpatti.tables.wire.outgoing.Sink`): whole frames
    written to its transport while the socket is open and its write buffer is under the
    high-water mark. It writes only data frames, which the ``websockets`` state machine does not
    track; closing still goes through uvicorn (after a close frame, :meth:`ready` is false).
    """

    __slots__ = ("protocol",)

    def __init__(self, protocol: WebSocketsSansIOProtocol) -> None:
        self.protocol = protocol

    def ready(self) -> bool:
        p = self.protocol
        return (
            p.writable.is_set()
            and p.handshake_complete
            and not p.close_sent
            and not p.disconnected
            and not p.transport.is_closing()
        )

    def write(self, data: bytes) -> None:
        self.protocol.transport.write(data)

    async def drained(self) -> None:
        await self.protocol.writable.wait()


def address_key(host: str) -> str:
    """What limits count per address: an IPv4 address, or an IPv6 address's /64 (one home or
    phone holds a whole /64, so counting its addresses one by one would count nothing).

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:aa::5")
    ('203.0.113.7', '2001:db8:1:2::/64')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((int(ip) >> 64 << 64, 64)))
    return str(ip)


@dataclass(frozen=True, slots=True)
class EdgeLimits:
    """What the edge allows (``teenpatti serve`` options)."""

    max_connections: int = 4096
    """Open connections in all (lowered at start to fit the process's descriptor limit)."""
    per_address: int = 256
    """Open connections from one client address (a trusted proxy's are counted in all only)."""
    timeout: float = 10.0
    """Seconds for a request's headers, for its body, and for a stalled write."""
    write_high: int = 64 * 1024
    """A transport's write-buffer high-water mark, in bytes."""
    send_buffer: int = 0
    """The kernel's send buffer of each connection (``SO_SNDBUF``), in bytes; 0 leaves it to
    the kernel's autotuning (on Linux up to ``net.ipv4.tcp_wmem``'s maximum, 4 MiB by default:
    that much of a client that stops reading is held before the transport's buffer fills)."""
    frame_rate: tuple[float, float] = (10.0, 30.0)
    """Frames a socket may send: a second, burst (messages, pings and pongs alike)."""
    refusals: int = 60
    """Refused frames a socket may send before it is closed (forgiven at one a second)."""
    trusted: tuple[str, ...] = ()
    """Proxies' addresses (``--forwarded-allow-ips``): not capped per address."""


@dataclass(eq=False, slots=True)
class _Entry:
    """One open connection as the edge sees it."""

    key: str
    protocol: Any
    transport: asyncio.Transport
    deadline: float | None = None
    stalled: float | None = None
    closing: float | None = None
    waiting: bool = field(default=True)
    """No request under way: it may be closed to make room."""


class Edge:
    """The open connections of one server process, by address, and their deadlines."""

    def __init__(self, limits: EdgeLimits) -> None:
        self.limits = limits
        self.entries: dict[asyncio.Transport, _Entry] = {}
        self.by_key: dict[str, int] = {}
        self.idle: OrderedDict[asyncio.Transport, _Entry] = OrderedDict()
        self.trusted = _networks(limits.trusted)
        self.refused = 0
        """Connections refused over a cap since start (for the operator and the tests)."""
        self._sweeper: asyncio.Task[None] | None = None

    # ------------------------------------------------------------------ admission
    def admit(self, protocol: Any, transport: asyncio.Transport) -> bool:
        """Count a new connection; ``False`` if it must be refused (over a cap, nothing to
        close to make room)."""
        if transport in self.entries:  # an HTTP connection upgraded to a socket
            entry = self.entries[transport]
            entry.protocol = protocol
            self._busy(entry)
            return True
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        peer = transport.get_extra_info("peername")
        host = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        key = "" if self._is_trusted(host) else address_key(host)
        crowded = key and self.by_key.get(key, 0) >= self.limits.per_address
        if crowded and not self._make_room(key):
            self.refused += 1
            return False
        if len(self.entries) >= self.limits.max_connections and not self._make_room(None):
            self.refused += 1
            return False
        entry = _Entry(key, protocol, transport)
        self.entries[transport] = entry
        self.by_key[key] = self.by_key.get(key, 0) + 1
        self.idle[transport] = entry
        transport.set_write_buffer_limits(high=self.limits.write_high)
        if self.limits.send_buffer:
            sock = transport.get_extra_info("socket")
            if sock is not None:
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)
        return True

    def release(self, transport: asyncio.Transport) -> None:
        """The connection is gone."""
        entry = self.entries.pop(transport, None)
        if entry is None:
            return
        self.idle.pop(transport, None)
        left = self.by_key[entry.key] - 1
        if left:
            self.by_key[entry.key] = left
        else:
            del self.by_key[entry.key]

    def _make_room(self, key: str | None) -> bool:
        """Close the oldest connection waiting for a request (of ``key``, or anyone's)."""
        for transport, entry in self.idle.items():
            if key is None or entry.key == key:
                self.idle.pop(transport)
                self.release(transport)
                transport.abort()
                return True
        return False

    # ------------------------------------------------------------------ deadlines
    def expect(self, transport: asyncio.Transport, seconds: float | None) -> None:
        """The connection must make progress within ``seconds`` (``None``: no deadline)."""
        entry = self.entries.get(transport)
        if entry is not None:
            entry.deadline = None if seconds is None else time.monotonic() + seconds

    def waiting(self, transport: asyncio.Transport) -> None:
        """The connection waits for its next request (it may be closed to make room)."""
        entry = self.entries.get(transport)
        if entry is not None:
            entry.waiting = True
            self.idle[transport] = entry

    def busy(self, transport: asyncio.Transport) -> None:
        """A request is under way (or the connection is a socket): it is not closed to make
        room."""
        entry = self.entries.get(transport)
        if entry is not None:
            self._busy(entry)

    def _busy(self, entry: _Entry) -> None:
        entry.waiting = False
        self.idle.pop(entry.transport, None)

    def stalled(self, transport: asyncio.Transport, stalled: bool) -> None:
        """The transport's write buffer went over (or back under) the high-water mark."""
        entry = self.entries.get(transport)
        if entry is not None:
            entry.stalled = time.monotonic() if stalled else None

    async def _sweep(self) -> None:
        """Once a second: cut what missed a deadline, stayed stalled, or could not close."""
        timeout = self.limits.timeout
        while True:
            await asyncio.sleep(min(1.0, timeout / 4))
            now = time.monotonic()
            for transport, entry in list(self.entries.items()):
                if transport.is_closing():
                    if entry.closing is None:
                        entry.closing = now
                    elif now - entry.closing > timeout:
                        self.release(transport)
                        transport.abort()  # it could not flush: its client is not reading
                elif entry.stalled is not None and now - entry.stalled > timeout:
                    self.release(transport)
                    transport.abort()
                elif entry.deadline is not None and now > entry.deadline:
                    entry.deadline = None
                    entry.protocol.timed_out()

    # ------------------------------------------------------------------ addresses
    def _is_trusted(self, host: str) -> bool:
        if not self.trusted:
            return False
        if "*" in self.limits.trusted:
            return True
        try:
            ip = ipaddress.ip_address(host)
        except ValueError:
            return host in self.limits.trusted  # a unix socket's path
        return any(ip in net for net in self.trusted)

    def stop(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()


def _networks(names: tuple[str, ...]) -> list[ipaddress.IPv4Network | ipaddress.IPv6Network]:
    out = []
    for name in names:
        with contextlib.suppress(ValueError):
            out.append(ipaddress.ip_network(name, strict=False))
    return out


def _busy_reply() -> bytes:
    body = json.dumps(
        {"error": {"code": "server/busy", "reason": "too many connections: try again soon"}}
    ).encode()
    return (
        b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
        b"retry-after: 5\r\nconnection: close\r\ncontent-length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )


_TIMEOUT_REPLY = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\nconnection: close\r\n"
    b'content-length: 83\r\n\r\n{"error": {"code": "http/timeout", "reason": "the request took too'
    b' long to arrive"}}'
)


def protocols(edge: Edge) -> tuple[type[HttpToolsProtocol], type[WebSocketsSansIOProtocol]]:
    """uvicorn's HTTP and socket protocols under ``edge`` (give them to uvicorn as ``http=``
    and ``ws=``)."""
    limits = edge.limits

    class EdgeHttp(HttpToolsProtocol):
        """HTTP with caps, header and body deadlines, and stalled writes cut."""

        heard = False
        """Whether a byte of the current request has arrived."""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not edge.admit(self, transport):
                transport.write(_busy_reply())
                transport.close()
                return
            edge.expect(transport, limits.timeout)

        def connection_lost(self, exc: Exception | None) -> None:
            edge.release(self.transport)
            super().connection_lost(exc)

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The connection is the socket protocol's now, and this one is never told it is
            # lost: it lets go of its parser here, as on a loss (the parser holds this
            # protocol's methods, a cycle that the server's frequent ``gc.freeze`` would keep).
            self.parser = None  # type: ignore[assignment]

        def on_headers_complete(self) -> None:
            edge.busy(self.transport)
            super().on_headers_complete()
            # Now the body, if any, has the same time to arrive (no deadline for a socket).
            upgrade = self.parser.should_upgrade() and self._should_upgrade()
            edge.expect(self.transport, None if upgrade else limits.timeout)

        def on_message_complete(self) -> None:
            super().on_message_complete()
            edge.expect(self.transport, None)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self.heard = False
            if not self.transport.is_closing():
                edge.waiting(self.transport)
                edge.expect(self.transport, limits.timeout)

        def pause_writing(self) -> None:
            super().pause_writing()
            edge.stalled(self.transport, True)

        def resume_writing(self) -> None:
            super().resume_writing()
            edge.stalled(self.transport, False)

        def data_received(self, data: bytes) -> None:
            self.heard = True
            super().data_received(data)

        def timed_out(self) -> None:
            """The headers or the body did not arrive in time (a connection that sent nothing
            is closed without a word)."""
            started = self.cycle is not None and self.cycle.response_started
            if self.heard and not started:
                self.transport.write(_TIMEOUT_REPLY)
            self.transport.close()

    class EdgeWebSocket(WebSocketsSansIOProtocol):
        """Sockets whose every frame counts against one budget, closed when it runs out."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.budget = Budget(*limits.frame_rate, refusals=limits.refusals)
            self.cut_off = False
            self.after_cut = 0

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            if not edge.admit(self, transport):  # pragma: no cover - upgrades are admitted
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            edge.release(self.transport)
            super().connection_lost(exc)
            # The socket's scope holds its way out (a Wire), which holds this protocol: a
            # session that wanted it has it by now, and without it nothing is left in a cycle
            # (which the server's frequent ``gc.freeze`` would keep).
            scope: Any = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"].pop(SINK, None)

        def handle_connect(self, event: Any) -> None:
            super().handle_connect(event)
            scope: Any = getattr(self, "scope", None)
            if scope is not None:
                scope["extensions"][BUDGET] = self.budget
                scope["extensions"][SINK] = Wire(self)

        def handle_events(self) -> None:
            if not self.cut_off:
                super().handle_events()
                return
            events = self.conn.events_received()
            self.conn.data_to_send()  # closing: nothing more is sent
            self.after_cut += len(events)
            if any(isinstance(e, Frame) and e.opcode == Opcode.CLOSE for e in events):
                self.transport.close()  # it answered the close frame
            elif self.after_cut > limits.refusals:
                self.transport.abort()  # it floods on, not listening: drop it now

        def handle_ping(self) -> None:
            if self.close_sent:
                self.conn.data_to_send()  # closing: nothing more is sent
            elif not self.budget.take():
                self.conn.data_to_send()  # no pong for a ping over the budget
                self.refuse()
            elif self.writable.is_set():
                super().handle_ping()
            else:
                self.conn.data_to_send()  # the client is not reading: no pong piles up

        def handle_pong(self, event: Frame) -> None:
            if self.close_sent:
                return
            if not self.budget.take():
                self.refuse()
                return
            super().handle_pong(event)

        def refuse(self) -> None:
            if self.budget.refuse():
                self.cut(1008, "too many messages")

        def cut(self, code: int, reason: str) -> None:
            """Close with ``code`` at once: send the close frame, read (and drop) what still
            comes until the client answers it, and drop the connection if it has not after
            the timeout. A client that reads gets the code; one that does not is cut all the
            same."""
            if self.close_sent or self.transport.is_closing():
                return
            self.conn.fail(code, reason)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = self.cut_off = True
            self.queue.put_nowait({"type": "websocket.disconnect", "code": code, "reason": reason})
            if not self.writable.is_set():
                self.transport.abort()  # it is not reading: nothing more will reach it
                return
            if self.read_paused:
                self.read_paused = False
                self.transport.resume_reading()
            self.close_timer = self.loop.call_later(limits.timeout, self.transport.abort)

        def pause_writing(self) -> None:
            super().pause_writing()
            edge.stalled(self.transport, True)

        def resume_writing(self) -> None:
            super().resume_writing()
            edge.stalled(self.transport, False)

        def timed_out(self) -> None:  # pragma: no cover - sockets have no deadline
            self.transport.abort()

    return EdgeHttp, EdgeWebSocket
