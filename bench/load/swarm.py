"""The load swarm: N live tables of 6 WebSocket clients on loopback, one action a second per table.

Run by ``bench/load/run.py`` (against ``teenpatti serve`` and against ``bare_app.py`` in the same
run), or on its own against a server that is already listening::

    .venv/bin/python bench/load/swarm.py --port 8000 --tables 50 --seconds 15

What it does, in order:

1. **Setup** over HTTP and WebSocket: for each table, ``POST /api/tables`` (6 seats,
   ``"turn_seconds": null``, so no clock acts for anyone), 5 joins, 6 sockets that say ``hello``
   with their seat tokens, and the host's ``start``. One extra table (the *slow table*) is set up
   first, with a 7th socket for seat 5's token (the player's second device) whose receive buffer
   is small; once it is set up, ``{"event": "baseline"}`` is printed (the server's memory before
   the N tables), then ``{"event": "setup-done"}`` once all N are live.
2. **Play**: every table (the slow one too) gets a tick once a second, the N+1 ticks spread evenly
   over the second. At its tick the seat whose turn it is sends one ``act`` chosen among the
   ``legal`` moves of the state that seat holds (chaal, raise, pack and show preferred, so hands
   end), with the version it saw; if no hand is in play (the pause after a result), the table acts
   as soon as a state offers a move again. A finished game is restarted by the host (``again``,
   counted as an action). After ``--warmup`` seconds, ``{"event": "window-start"}``; after
   ``--seconds`` more, ``{"event": "window-end"}`` and the ticks stop.
3. **Latency** of an action: from just before its frame is written to the moment the last of the
   table's 6 seat sockets has received a ``state`` with a higher version than the one the actor
   acted on (timestamps taken when the client's event loop reads the socket).
4. **The client that stops reading**: at the window's start the slow table's 7th socket stops
   reading (``pause_reading``: the kernel's buffers fill, then the server's) and, with
   ``--stall-sync`` above 0, keeps asking for ``sync`` so that more piles up for it. The slow
   table keeps playing; its latencies (to its 6 reading sockets) are reported apart. While it is
   stalled, the server's end of its connection is watched in ``/proc/net/tcp`` (when did the
   server close it?); after the window it reads again and reports what it finds: the messages
   still buffered, and the close code (4008: dropped by the server's queue; 1011: keepalive) or
   the reset that ended it.
5. The last line is ``{"event": "result", ...}``; progress goes to stderr.

The clients are a small hand-written RFC 6455 client over ``asyncio.Protocol`` (uvloop): masked
frames out, unmasked frames in, pings answered. It takes each timestamp in ``data_received`` (no
reader task per socket between the socket and the clock), and lets the stalled socket stop reading
at the transport with a small receive buffer. It costs about 7-10 us of CPU per message received,
against about 11 us for the ``websockets`` library's asyncio client with a reader task per socket.
Messages are not parsed as JSON unless needed: the version is read from the message's prefix, and
only the host's and the actor's latest states are parsed when the table acts.

Bounded: every wait has a timeout, the ticks stop after ``--warmup + --seconds``, and the whole run
is cut off at a budget computed from its options. Only loopback addresses are accepted.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import gc
import hashlib
import ipaddress
import json
import math
import os
import random
import resource
import socket
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

import httpx

from teenpatti.tables.wire.patch import apply

STATE_PREFIX = b'{"type":"state","version":'
PATCH_PREFIX = b'{"type":"patch","version":'
"""How a ``patch`` starts (the server's default; ``--whole``: the swarm's sockets say
``"patches": false`` in their hello and get whole states)."""
"""How every ``state`` message starts (both servers): the version is read without parsing JSON."""
WS_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
SEATS = 6
STALLED_SEAT = 5
"""The seat whose second device (the slow table's 7th socket) stops reading."""
LOST_AFTER = 10.0
"""An action with no complete update after this many seconds is counted lost."""
MOVE_WEIGHTS = {
    "chaal": 4.0,
    "raise": 1.0,
    "show": 4.0,
    "pack": 2.0,
    "accept": 1.0,
    "decline": 1.0,
    "see": 0.5,
    "sideshow": 0.3,
    "allin": 0.05,
}


def log(text: str) -> None:
    """Progress for a person, on stderr."""
    print(f"[swarm {time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def emit(event: str, **fields: Any) -> None:
    """One JSON line on stdout for ``run.py``, flushed at once (it samples the server then)."""
    print(json.dumps({"event": event, "at": time.time(), **fields}), flush=True)


def percentiles(values: list[float]) -> dict[str, float | int | None]:
    """Count, p50, p90, p99, p99.9, max and mean of ``values`` (seconds) in milliseconds."""
    if not values:
        return {"count": 0, "p50": None, "p90": None, "p99": None, "p999": None, "max": None}
    ordered = sorted(values)
    n = len(ordered)

    def rank(q: float) -> float:
        return round(ordered[max(0, math.ceil(q * n) - 1)] * 1000, 3)

    return {
        "count": n,
        "p50": rank(0.50),
        "p90": rank(0.90),
        "p99": rank(0.99),
        "p999": rank(0.999),
        "max": round(ordered[-1] * 1000, 3),
        "mean": round(sum(ordered) / n * 1000, 3),
    }


# ---------------------------------------------------------------------------------- the client
def _mask(payload: bytes, key: bytes) -> bytes:
    n = len(payload)
    if n == 0:
        return b""
    stream = (key * (n // 4 + 1))[:n]
    return (int.from_bytes(payload, "little") ^ int.from_bytes(stream, "little")).to_bytes(
        n, "little"
    )


def frame(opcode: int, payload: bytes) -> bytes:
    """A client frame (FIN set, masked with a fresh key, as RFC 6455 requires of clients)."""
    n = len(payload)
    if n < 126:
        header = bytes((0x80 | opcode, 0x80 | n))
    elif n < 65536:
        header = bytes((0x80 | opcode, 0x80 | 126)) + n.to_bytes(2, "big")
    else:
        header = bytes((0x80 | opcode, 0x80 | 127)) + n.to_bytes(8, "big")
    key = os.urandom(4)
    return header + key + _mask(payload, key)


class Client(asyncio.Protocol):
    """One WebSocket client: the HTTP upgrade, then frames parsed by hand.

    ``on_state(client, version, now)`` is called for each ``state`` message; any other message
    goes to ``on_other(client, message)``. The latest state is kept as bytes and parsed on demand.
    """

    def __init__(
        self,
        host: str,
        port: int,
        path: str,
        seat: int,
        on_state: Callable[[Client, int, float], None],
        on_other: Callable[[Client, dict[str, Any]], None],
    ) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        ).encode()
        self.key = base64.b64encode(os.urandom(16))
        self.seat = seat
        self.on_state = on_state
        self.on_other = on_other
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.first_state: asyncio.Future[None] = loop.create_future()
        self.closed: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.upgraded = False
        self.fragments: list[bytes] | None = None
        self.close_code: int | None = None
        self.close_sent = False
        self.lost_at: float | None = None
        self.lost_error: str | None = None
        self.version = -1
        self.raw = b""
        self.patches: list[bytes] = []
        """The patches received since the last whole state (applied when the state is read)."""
        self.parsed_version = -2
        self.parsed: dict[str, Any] = {}
        self.done = False
        self.states = 0
        self.state_bytes = 0
        self.others = 0

    # -------------------------------------------------------------- asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is no subclass
        transport = self.transport
        transport.write(self.request + b"Sec-WebSocket-Key: " + self.key + b"\r\n\r\n")

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost_at = time.perf_counter()
        self.lost_error = None if exc is None else type(exc).__name__
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"closed during the upgrade: {exc}"))
        if not self.closed.done():
            self.closed.set_result(None)

    def data_received(self, data: bytes) -> None:
        now = time.perf_counter()
        if self.buffer:
            data = self.buffer + data
            self.buffer = b""
        if not self.upgraded:
            end = data.find(b"\r\n\r\n")
            if end < 0:
                if len(data) > 16384:
                    self._fail("the upgrade reply is too long")
                else:
                    self.buffer = data
                return
            self._upgrade(data[:end])
            data = data[end + 4 :]
        pos, n = 0, len(data)
        while n - pos >= 2:
            b0, b1 = data[pos], data[pos + 1]
            length, head = b1 & 0x7F, 2
            if b1 & 0x80:
                self._fail("the server masked a frame")
                return
            if length == 126:
                if n - pos < 4:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 4], "big"), 4
            elif length == 127:
                if n - pos < 10:
                    break
                length, head = int.from_bytes(data[pos + 2 : pos + 10], "big"), 10
            end = pos + head + length
            if end > n:
                break
            self._frame(b0 & 0x0F, bool(b0 & 0x80), data[pos + head : end], now)
            pos = end
        if pos < n:
            self.buffer = data[pos:]

    # -------------------------------------------------------------- frames
    def _upgrade(self, head: bytes) -> None:
        lines = head.split(b"\r\n")
        if not lines[0].startswith(b"HTTP/1.1 101"):
            self._fail(f"no upgrade: {lines[0][:80]!r}")
            return
        expected = base64.b64encode(hashlib.sha1(self.key + WS_GUID).digest())
        accept = b""
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"sec-websocket-accept":
                accept = value.strip()
        if accept != expected:
            self._fail("wrong Sec-WebSocket-Accept")
            return
        self.upgraded = True
        self.opened.set_result(None)

    def _frame(self, opcode: int, fin: bool, payload: bytes, now: float) -> None:
        if opcode in (1, 2):
            if fin:
                self._message(payload, now)
            else:
                self.fragments = [payload]
        elif opcode == 0 and self.fragments is not None:
            self.fragments.append(payload)
            if fin:
                whole, self.fragments = b"".join(self.fragments), None
                self._message(whole, now)
        elif opcode == 8:
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            if not self.close_sent:
                self.send_frame(8, payload[:2])
                self.close_sent = True
            if self.transport is not None:
                self.transport.close()
        elif opcode == 9:
            self.send_frame(10, payload)

    def _message(self, payload: bytes, now: float) -> None:
        if payload.startswith(PATCH_PREFIX):
            start = len(PATCH_PREFIX)
            version = int(payload[start : payload.index(b",", start)])
            self.patches.append(payload)
            self.states += 1
            self.state_bytes += len(payload)
            self.on_state(self, version, now)
            return
        if payload.startswith(STATE_PREFIX):
            start = len(STATE_PREFIX)
            version = int(payload[start : payload.index(b",", start)])
            self.raw = payload
            self.patches = []
            self.parsed_version = -2
            self.states += 1
            self.state_bytes += len(payload)
            if not self.first_state.done():
                self.first_state.set_result(None)
            self.on_state(self, version, now)
            return
        try:
            message = json.loads(payload)
        except ValueError:
            message = {"type": "garbled"}
        if isinstance(message, dict) and message.get("type") == "state":  # another key order
            self.raw = payload
            self.patches = []
            self.parsed_version = -2
            self.states += 1
            self.state_bytes += len(payload)
            if not self.first_state.done():
                self.first_state.set_result(None)
            self.on_state(self, int(message["version"]), now)
            return
        self.others += 1
        self.on_other(self, message if isinstance(message, dict) else {"type": "garbled"})

    def _fail(self, reason: str) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(reason))
        if self.transport is not None:
            self.transport.abort()

    # -------------------------------------------------------------- use
    def send_frame(self, opcode: int, payload: bytes) -> None:
        """Write one frame (if the socket is still open)."""
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(frame(opcode, payload))

    def send_json(self, message: dict[str, Any]) -> None:
        """Send a JSON text message."""
        self.send_frame(1, json.dumps(message, separators=(",", ":")).encode())

    def state(self) -> dict[str, Any]:
        """The latest state this socket received, parsed (once per version)."""
        if self.parsed_version != self.version:
            if self.parsed_version == -2:  # a whole state came since: start from it
                self.parsed = json.loads(self.raw) if self.raw else {}
            for patch in self.patches:
                self.parsed = apply(self.parsed, json.loads(patch)["ops"])
            self.patches = []
            self.parsed_version = self.version
        return self.parsed

    async def close(self, timeout: float) -> None:
        """Say goodbye and wait (at most ``timeout``) for the server to close."""
        if self.transport is None or self.transport.is_closing():
            return
        if not self.close_sent:
            self.send_frame(8, (1000).to_bytes(2, "big"))
            self.close_sent = True
        try:
            await asyncio.wait_for(asyncio.shield(self.closed), timeout)
        except TimeoutError:
            self.transport.abort()


# ---------------------------------------------------------------------------------- the swarm
@dataclass
class Figures:
    """What is measured in the window, for one group of tables (the N, or the slow one)."""

    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    lost: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)
    ticks: int = 0
    ticks_waiting: int = 0
    ticks_busy: int = 0


class Swarm:
    """Every table and socket of this process, and the window's figures."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.tables: list[Table] = []
        self.slow: Table | None = None
        self.stalled: Client | None = None
        self.recording = False
        self.ticking = False
        self.figures = Figures()
        self.slow_figures = Figures()
        self.window_states = 0
        self.window_state_bytes = 0
        self.lags: list[float] = []
        self.stalled_at = 0.0
        self.window_started = 0.0
        self.worst = [0.0] * (int(args.seconds) + 1)
        self.opened = 0
        """Sockets opened so far (each takes the next source address in turn)."""
        """The worst latency of the actions sent in each second of the window."""

    def choose(self, legal: list[dict[str, Any]]) -> dict[str, Any]:
        """A move among ``legal`` (chaal/raise/pack/show preferred), as an ``action`` object."""
        weights = [MOVE_WEIGHTS.get(str(m.get("do")), 0.1) for m in legal]
        move = self.rng.choices(legal, weights)[0]
        action: dict[str, Any] = {"do": move["do"]}
        targets = move.get("targets") or []
        if move["do"] == "sideshow" and targets:
            action["with"] = targets[0]
        return action


class Table:
    """One table of the swarm: its 6 seat sockets and the action in flight."""

    def __init__(self, swarm: Swarm, index: int, figures: Figures) -> None:
        self.swarm = swarm
        self.index = index
        self.figures = figures
        self.code = ""
        self.clients: list[Client] = []
        self.pending_version: int | None = None
        self.pending_at = 0.0
        self.pending_recorded = False
        self.remaining = 0
        self.want = False

    def on_state(self, client: Client, version: int, now: float) -> None:
        """A state arrived on one of the seat sockets."""
        if version <= client.version:
            return  # a ``sync`` or ``hello`` answer at a version already seen
        client.version = version
        swarm = self.swarm
        if swarm.recording:
            swarm.window_states += 1
            swarm.window_state_bytes += len(client.raw)
        pending = self.pending_version
        if pending is not None:
            if version > pending and not client.done:
                client.done = True
                self.remaining -= 1
                if self.remaining == 0:
                    if self.pending_recorded:
                        latency = now - self.pending_at
                        self.figures.latencies.append(latency)
                        second = int(self.pending_at - swarm.window_started)
                        if 0 <= second < len(swarm.worst):
                            swarm.worst[second] = max(swarm.worst[second], latency)
                    self.pending_version = None
        elif self.want and swarm.ticking and self.try_act():
            self.want = False

    def on_other(self, client: Client, message: dict[str, Any]) -> None:
        """An error (or a pong) on a seat socket: an error ends the action in flight."""
        if message.get("type") == "error":
            if self.pending_recorded or not self.swarm.ticking:
                self.figures.errors[str(message.get("code"))] += 1
            self.pending_version = None

    def tick(self) -> None:
        """This table's turn in the second: act if the table waits for a move."""
        swarm = self.swarm
        if swarm.recording:
            self.figures.ticks += 1
        if self.pending_version is not None:
            if time.perf_counter() - self.pending_at > LOST_AFTER:
                if self.pending_recorded:
                    self.figures.lost += 1
                self.pending_version = None
            else:
                if swarm.recording:
                    self.figures.ticks_busy += 1
                return
        if self.try_act():
            self.want = False
        else:
            self.want = True
            if swarm.recording:
                self.figures.ticks_waiting += 1

    def try_act(self) -> bool:
        """Send the move of the seat whose turn it is, if every socket the move needs is current."""
        host = self.clients[0]
        if host.version < 0:
            return False
        state = host.state()
        version = host.version
        if state.get("status") == "finished":
            self._send(host, {"type": "again"}, version, "again")
            return True
        hand = state.get("hand")
        if not hand or hand.get("finished"):
            return False
        actor = hand.get("actor")
        if not isinstance(actor, int) or not 0 <= actor < len(self.clients):
            return False
        client = self.clients[actor]
        if client.version != version:
            return False  # the actor's socket has not got this version yet
        legal = client.state().get("legal") or []
        if not legal:
            return False
        action = self.swarm.choose(legal)
        self._send(client, {"type": "act", "action": action, "version": version}, version, "")
        return True

    def _send(self, client: Client, message: dict[str, Any], version: int, kind: str) -> None:
        for c in self.clients:
            c.done = c.version > version
        self.remaining = sum(1 for c in self.clients if not c.done)
        self.pending_version = version
        self.pending_recorded = self.swarm.recording
        if self.pending_recorded:
            self.figures.actions += 1
            self.figures.kinds[kind or str(message["action"]["do"])] += 1
        self.pending_at = time.perf_counter()
        client.send_json(message)


def _ignore(client: Client, message: dict[str, Any]) -> None:
    """Messages on the stalled socket are counted by the client itself."""


def _ignore_state(client: Client, version: int, now: float) -> None:
    client.version = max(client.version, version)


async def open_client(
    swarm: Swarm,
    code: str,
    seat: int,
    token: str,
    table: Table | None,
    rcvbuf: int | None = None,
) -> Client:
    """Connect, upgrade and say hello; wait for the first state."""
    args = swarm.args
    loop = asyncio.get_running_loop()

    def make() -> Client:
        if table is None:
            return Client(args.host, args.port, f"/ws/{code}", seat, _ignore_state, _ignore)
        return Client(args.host, args.port, f"/ws/{code}", seat, table.on_state, table.on_other)

    source = source_address(args.host, swarm.opened)
    swarm.opened += 1
    if rcvbuf is None:
        _, client = await loop.create_connection(make, args.host, args.port, local_addr=source)
    else:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        sock.setblocking(False)
        try:
            if source is not None:
                sock.bind(source)
            await loop.sock_connect(sock, (args.host, args.port))
        except BaseException:
            sock.close()
            raise
        _, client = await loop.create_connection(make, sock=sock)
    try:
        await asyncio.wait_for(asyncio.shield(client.opened), args.step_timeout)
        hello: dict[str, Any] = {"type": "hello", "token": token}
        if args.whole:  # else patches, the server's default
            hello["patches"] = False
        client.send_json(hello)
        await asyncio.wait_for(asyncio.shield(client.first_state), args.step_timeout)
    except BaseException:
        if client.transport is not None:
            client.transport.abort()
        raise
    return client


SOURCES = 8
"""Loopback source addresses the sockets take in turn (127.0.0.1-8): one address reaches one
server port from about 28,000 ephemeral ports, and 10,000 tables are 60,000 sockets."""


def source_address(host: str, n: int) -> tuple[str, int] | None:
    """The local address of the ``n``-th socket (``None``: the system's choice).

    >>> source_address("127.0.0.1", 9), source_address("::1", 9)
    (('127.0.0.2', 0), None)
    """
    if host != "127.0.0.1":
        return None
    return (f"127.0.0.{1 + n % SOURCES}", 0)


async def post(http: httpx.AsyncClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """One lobby request; a refusal is an error with the server's code."""
    reply = await http.post(path, json=body)
    if reply.status_code >= 300:
        raise RuntimeError(f"POST {path}: {reply.status_code} {reply.text[:200]}")
    data: dict[str, Any] = reply.json()
    return data


async def set_up(swarm: Swarm, http: httpx.AsyncClient, table: Table, stalled: bool) -> None:
    """Create, join, connect, hello, start."""
    created = await post(
        http,
        "/api/tables",
        {"name": "Host", "seats": SEATS, "hands": 30, "turn_seconds": None, "bots": "random"},
    )
    table.code = code = created["code"]
    tokens = [created["token"]]
    for i in range(1, SEATS):
        joined = await post(http, f"/api/tables/{code}/join", {"name": f"Player {i}"})
        if joined["seat"] != i:
            raise RuntimeError(f"table {code}: joined seat {joined['seat']}, expected {i}")
        tokens.append(joined["token"])
    table.clients = list(
        await asyncio.gather(
            *(open_client(swarm, code, seat, tokens[seat], table) for seat in range(SEATS))
        )
    )
    if stalled:
        swarm.stalled = await open_client(
            swarm, code, STALLED_SEAT, tokens[STALLED_SEAT], None, rcvbuf=swarm.args.stall_rcvbuf
        )
    host = table.clients[0]
    before = max(c.version for c in table.clients)
    host.send_json({"type": "start"})
    deadline = time.monotonic() + swarm.args.step_timeout
    while min(c.version for c in table.clients) <= before:
        if time.monotonic() > deadline:
            raise TimeoutError(f"table {code}: the start did not reach every seat")
        await asyncio.sleep(0.02)


async def lag_monitor(swarm: Swarm, period: float = 0.05) -> None:
    """How late this process's event loop wakes up: if the client is the bottleneck, this shows."""
    limit = int((swarm.args.warmup + swarm.args.seconds + 30) / period)
    for _ in range(limit):
        if not swarm.ticking:
            return
        start = time.perf_counter()
        await asyncio.sleep(period)
        if swarm.recording:
            swarm.lags.append(time.perf_counter() - start - period)


async def stall(swarm: Swarm, until: float) -> dict[str, Any]:
    """Stop reading the 7th socket; with ``--stall-sync``, ask for ``sync`` until ``until``."""
    client = swarm.stalled
    assert client is not None and client.transport is not None
    received_before = client.states
    swarm.stalled_at = time.perf_counter()
    client.transport.pause_reading()
    rate = swarm.args.stall_sync
    sent = 0
    ended: float | None = None
    local = client.transport.get_extra_info("sockname")
    step = 1 / rate if rate > 0 else 0.5
    first = time.monotonic()
    checked = 0.0
    for k in range(int((until - first) / step) + 1):
        now = time.monotonic()
        if now >= until or client.transport.is_closing():
            break
        # Not reading, the client cannot see a close frame (it waits behind the unread data), but
        # the kernel shows when the server closed its end: no longer ESTABLISHED.
        if ended is None and local and now - checked >= 1.0:
            checked = now
            if server_side_state(swarm.args.port, local[1]) != "01":
                ended = time.perf_counter() - swarm.stalled_at
        if rate > 0:
            client.send_json({"type": "sync"})
            sent += 1
        await asyncio.sleep(max(0.0, first + (k + 1) * step - time.monotonic()))
    return {
        "states_before_stall": received_before,
        "syncs_sent": sent,
        "server_ended_it_after_s": None if ended is None else round(ended, 1),
    }


def server_side_state(server_port: int, client_port: int) -> str | None:
    """The TCP state (hex, ``01``: established) of the server's end of a loopback connection, from
    ``/proc/net/tcp``; ``None`` once it is gone."""
    key = f"0100007F:{server_port:04X} 0100007F:{client_port:04X} "
    try:
        text = Path("/proc/net/tcp").read_text()
    except OSError:
        return None
    at = text.find(key)
    return None if at < 0 else text[at + len(key) : at + len(key) + 2]


async def unstall(swarm: Swarm, report: dict[str, Any], timeout: float) -> dict[str, Any]:
    """Read the stalled socket again: what was buffered, and did the server close it?"""
    client = swarm.stalled
    assert client is not None and client.transport is not None
    stalled_for = time.perf_counter() - swarm.stalled_at
    before = client.states
    if not client.transport.is_closing():
        client.transport.resume_reading()
    deadline = time.monotonic() + timeout
    last = -1
    while time.monotonic() < deadline and not client.closed.done():
        if client.states == last:  # nothing new for a while: the backlog is drained
            break
        last = client.states
        await asyncio.sleep(1.0)
    if client.close_code is not None:
        note = {4008: "dropped by the server as too slow", 1011: "keepalive ping timed out"}.get(
            client.close_code, "closed by the server"
        )
    elif client.lost_at is not None:
        note = f"connection ended without a close frame ({client.lost_error or 'EOF'})"
    else:
        note = "still open"
    lost_while_stalled = (
        client.lost_at is not None and client.lost_at < swarm.stalled_at + stalled_for
    )
    if lost_while_stalled and report["server_ended_it_after_s"] is None:  # seen by a write
        assert client.lost_at is not None
        report["server_ended_it_after_s"] = round(client.lost_at - swarm.stalled_at, 1)
    report.update(
        stalled_s=round(stalled_for, 1),
        states_buffered=client.states - before,
        close_code=client.close_code,
        outcome=note,
    )
    return report


async def play(swarm: Swarm) -> dict[str, Any]:
    """Tick every table once a second for the warm-up and the window; measure."""
    args = swarm.args
    loop = asyncio.get_running_loop()
    tables = [*swarm.tables, *([swarm.slow] if swarm.slow else [])]
    period = 1.0 / args.rate
    total = args.warmup + args.seconds
    swarm.ticking = True
    monitor = asyncio.create_task(lag_monitor(swarm))
    base = loop.time() + 0.2
    ticks_each = int(total / period) + 1

    def tick(table: Table, first: float, k: int) -> None:
        if not swarm.ticking:
            return
        table.tick()
        if k + 1 < ticks_each:  # absolute times: no drift
            loop.call_at(first + (k + 1) * period, tick, table, first, k + 1)

    for i, t in enumerate(tables):  # spread evenly over the period
        first = base + i * period / len(tables)
        loop.call_at(first, tick, t, first, 0)
    await asyncio.sleep(0.2 + args.warmup)
    # The window: every counter starts now.
    swarm.figures, swarm.slow_figures = Figures(), Figures()
    for t in swarm.tables:
        t.figures = swarm.figures
        t.pending_recorded = False
    if swarm.slow is not None:
        swarm.slow.figures = swarm.slow_figures
        swarm.slow.pending_recorded = False
    swarm.window_states = swarm.window_state_bytes = 0
    emit("window-start")
    cpu_started = _cpu_seconds()
    started = swarm.window_started = time.perf_counter()
    swarm.recording = True
    stall_task = (
        asyncio.create_task(stall(swarm, time.monotonic() + args.seconds))
        if swarm.stalled is not None
        else None
    )
    await asyncio.sleep(args.seconds)
    swarm.recording = False
    window = time.perf_counter() - started
    client = {
        "client_cpu_s": round(_cpu_seconds() - cpu_started, 3),
        "client_cpu_share": round((_cpu_seconds() - cpu_started) / window, 3),
        "client_rss_kib": _rss_kib(),
        "client_fds": len(os.listdir("/proc/self/fd")),
    }
    emit("window-end", **client)
    swarm.ticking = False
    # Let the actions sent in the window finish (they are still timed).
    deadline = time.monotonic() + args.drain
    while time.monotonic() < deadline and any(t.pending_version is not None for t in tables):
        await asyncio.sleep(0.05)
    lost_in_drain = sum(1 for t in tables if t.pending_version is not None and t.pending_recorded)
    swarm.figures.lost += sum(
        1 for t in swarm.tables if t.pending_version is not None and t.pending_recorded
    )
    if swarm.slow is not None and swarm.slow.pending_version is not None:
        swarm.slow_figures.lost += int(swarm.slow.pending_recorded)
    monitor.cancel()
    stalled_report: dict[str, Any] = {}
    if stall_task is not None:
        stalled_report = await unstall(swarm, await stall_task, timeout=15.0)
    return {
        "window_s": round(window, 3),
        "lost_in_drain": lost_in_drain,
        "stalled": stalled_report,
        **client,
    }


def summary(figures: Figures, window: float) -> dict[str, Any]:
    """A group's figures as JSON."""
    return {
        "actions": figures.actions,
        "actions_per_s": round(figures.actions / window, 1) if window else None,
        "completed": len(figures.latencies),
        "lost": figures.lost,
        "errors": dict(figures.errors),
        "latency_ms": percentiles(figures.latencies),
        "ticks": figures.ticks,
        "ticks_waiting_for_a_deal": figures.ticks_waiting,
        "ticks_busy": figures.ticks_busy,
        "moves": dict(figures.kinds.most_common()),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    """Set up, play, report, close."""
    swarm = Swarm(args)
    # The server closes a keep-alive connection idle for 5 s: reuse one only while it is well
    # inside that (on a busy machine a reused connection the server just closed fails the POST).
    limits = httpx.Limits(
        max_connections=args.concurrency, max_keepalive_connections=32, keepalive_expiry=1.0
    )
    base = f"http://{args.host}:{args.port}"
    setup_started = time.perf_counter()
    async with httpx.AsyncClient(
        base_url=base, limits=limits, timeout=args.step_timeout, trust_env=False
    ) as http:
        # The slow table first: the server's one-off costs (imports, lookup tables, caches) are
        # then paid before the memory baseline.
        swarm.slow = Table(swarm, -1, swarm.slow_figures)
        await set_up(swarm, http, swarm.slow, stalled=True)
        await asyncio.sleep(1.0)  # the first deal
        emit("baseline")
        swarm.tables = [Table(swarm, i, swarm.figures) for i in range(args.tables)]
        gate = asyncio.Semaphore(args.concurrency)

        async def one(table: Table) -> None:
            async with gate:
                await set_up(swarm, http, table, stalled=False)
                if (table.index + 1) % 100 == 0:
                    log(f"{table.index + 1} tables set up")

        await asyncio.gather(*(one(t) for t in swarm.tables))
    await asyncio.sleep(1.0)  # every first deal
    setup_s = time.perf_counter() - setup_started
    sockets = sum(len(t.clients) for t in swarm.tables) + SEATS + 1
    log(f"{args.tables} tables + the slow table live, {sockets} sockets, in {setup_s:.1f} s")
    # The swarm's own garbage: collect once now, then rarely (its pauses would be our latency).
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    emit("setup-done", tables=args.tables, sockets=sockets, setup_s=round(setup_s, 2))
    played = await play(swarm)
    window = played["window_s"]
    closed_early = sum(1 for t in swarm.tables for c in t.clients if c.closed.done())
    result = {
        "target": args.target,
        "tables": args.tables,
        "sockets": sockets,
        "rate_per_table": args.rate,
        "setup_s": round(setup_s, 2),
        **summary(swarm.figures, window),
        "window_s": window,
        "lost_in_drain": played["lost_in_drain"],
        "client_cpu_s": played["client_cpu_s"],
        "client_rss_kib": played["client_rss_kib"],
        "client_fds": played["client_fds"],
        "state_messages": swarm.window_states,
        "state_bytes_mean": round(swarm.window_state_bytes / swarm.window_states)
        if swarm.window_states
        else None,
        "sockets_closed_by_server": closed_early,
        "client_loop_lag_ms": percentiles(swarm.lags),
        "worst_ms_by_second": [round(x * 1000, 1) for x in swarm.worst],
        "slow_table": {**summary(swarm.slow_figures, window), "stalled_client": played["stalled"]},
    }
    # Goodbye, bounded: every socket says close and waits a moment for the server.
    everyone = [c for t in [*swarm.tables, swarm.slow] if t for c in t.clients]
    if swarm.stalled is not None:
        everyone.append(swarm.stalled)
    for i in range(0, len(everyone), 500):
        await asyncio.gather(*(c.close(2.0) for c in everyone[i : i + 500]))
    return result


def loopback(host: str) -> str:
    """Refuse anything but a loopback address."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        raise SystemExit(f"--host must be a loopback address (127.0.0.1), not {host!r}") from None
    if not address.is_loopback:
        raise SystemExit(f"--host must be a loopback address (127.0.0.1), not {host!r}")
    return host


def raise_open_files(wanted: int = 0) -> int:
    """Raise this process's open-files limit to ``wanted`` (past the hard limit too, where the
    system allows it: as root, up to ``fs.nr_open``), else to the hard limit; return it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and wanted > hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1", type=loopback)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--tables", type=int, default=50, help="live tables besides the slow one")
    parser.add_argument("--seconds", type=float, default=15.0, help="the measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="play before the window")
    parser.add_argument("--rate", type=float, default=1.0, help="actions a second per table")
    parser.add_argument("--drain", type=float, default=3.0, help="wait for late updates")
    parser.add_argument("--concurrency", type=int, default=32, help="tables set up at once")
    parser.add_argument("--step-timeout", type=float, default=30.0, help="any one setup step")
    parser.add_argument("--stall-sync", type=float, default=0.0, help="syncs/s the stalled sends")
    parser.add_argument("--stall-rcvbuf", type=int, default=4096, help="its SO_RCVBUF (bytes)")
    parser.add_argument(
        "--whole",
        action="store_true",
        help='say "patches": false: whole states instead of patches (the default)',
    )
    parser.add_argument("--seed", type=int, default=1, help="for the choice of moves")
    parser.add_argument("--target", default="server", help="a label for the result")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 20_000 or not 1 <= args.seconds <= 3600 or not 0 < args.rate <= 5:
        parser.error("--tables 1-20000, --seconds 1-3600, --rate up to 5 (the server allows 10/s)")
    return args


def _cpu_seconds() -> float:
    """This client's own CPU time (user + system), so a figure can be checked against it: a
    client short of CPU would delay the replies it times."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _rss_kib() -> int:
    """This client's resident memory now (``VmRSS``), KiB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def main(argv: list[str] | None = None) -> None:
    """Run the swarm; the result is the last line on stdout."""
    args = parse(argv)
    limit = raise_open_files((args.tables + 1) * SEATS + 1024)
    if limit < (args.tables + 1) * SEATS + 64:
        raise SystemExit(f"the open-files limit ({limit}) is too low for {args.tables} tables")
    budget = (
        (args.tables / 5 + 60)  # setup
        + args.warmup
        + args.seconds
        + args.drain
        + 60  # the stalled socket, goodbyes
    )

    async def bounded() -> dict[str, Any]:
        return await asyncio.wait_for(run(args), budget)

    try:
        import uvloop

        result = uvloop.run(bounded())
    except ImportError:  # pragma: no cover - uvloop is in the project's dependencies
        result = asyncio.run(bounded())
    emit("result", **result)


if __name__ == "__main__":
    main()
