"""How much CPU the server spends writing one move's message to a table's six sockets, by way
of writing: uvicorn with a writer task per socket (``queue``, what every socket did before),
uvicorn with frames written straight to the transport (``direct``, what ``teenpatti serve`` does
now), and a native WebSocket server, picows (``picows``, if installed), in the same run.

Each way runs as its own server process on loopback with ``--tables`` tables of six sockets; the
client (this process) connects them all, then tells the server to play: ``--moves`` moves a
second spread over the tables for ``--seconds``, each one message of ``--bytes`` bytes to the
table's six sockets (the same text for all six, as a patch's public part). The server's CPU
(``/proc``) over the play, divided by the moves, is the figure; the client checks that every
socket got every byte. No rules, no store: only the writing.

    .venv/bin/python bench/transport.py --tables 500 --moves 1000 --seconds 10 --bytes 300

Linux only; everything stays on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from proc import cpu_seconds

SEATS = 6
ROOT = Path(__file__).resolve().parents[1]


# ---------------------------------------------------------------------------- the servers
def _play_plan(args: argparse.Namespace) -> tuple[bytes, int, float]:
    text = json.dumps({"type": "patch", "pad": "x" * max(0, args.bytes - 30)})[: args.bytes]
    moves = int(args.moves * args.seconds)
    return text.encode(), moves, 1.0 / args.moves


async def _drive(tables: list[list[Any]], send: Any, args: argparse.Namespace) -> None:
    """``moves`` moves, spread evenly in time, round the tables."""
    payload, moves, gap = _play_plan(args)
    loop = asyncio.get_running_loop()
    start = loop.time()
    for n in range(moves):
        delay = start + n * gap - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        send(tables[n % len(tables)], payload)


def serve_uvicorn(args: argparse.Namespace, direct: bool) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket

    from teenpatti.tables.live.table import Connection
    from teenpatti.tables.wire.outgoing import Shared
    from teenpatti.web.app import send_queued
    from teenpatti.web.edge import SINK, Edge, EdgeLimits, protocols

    conns: list[Connection] = []

    def send(table: list[Connection], payload: bytes) -> None:
        message = Shared(payload.decode())
        for conn in table:
            conn.push(message)

    async def socket_route(websocket: WebSocket) -> None:
        await websocket.accept()
        sink = websocket.scope.get("extensions", {}).get(SINK) if direct else None
        conn = Connection(0, limit=1024, sink=sink)
        writer = asyncio.create_task(send_queued(websocket, conn))
        conns.append(conn)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if message.get("text") == "play":
                    tables = [conns[i : i + SEATS] for i in range(0, len(conns), SEATS)]
                    await _drive(tables, send, args)
        finally:
            conn.close()
            writer.cancel()

    app = Starlette(routes=[WebSocketRoute("/ws", socket_route)])
    limits = EdgeLimits(max_connections=10**6, per_address=10**6, frame_rate=(1e6, 1e6))
    http, ws = protocols(Edge(limits))
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=args.port,
        loop="uvloop",
        http=http,
        ws=ws,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )
    uvicorn.Server(config).run()


def serve_picows(args: argparse.Namespace) -> None:
    import uvloop
    from picows import WSListener, WSMsgType, WSTransport, ws_create_server

    transports: list[WSTransport] = []

    def send(table: list[WSTransport], payload: bytes) -> None:
        for transport in table:
            transport.send(WSMsgType.TEXT, payload)

    class Listener(WSListener):  # type: ignore[misc]
        def on_ws_connected(self, transport: WSTransport) -> None:
            transports.append(transport)

        def on_ws_frame(self, transport: WSTransport, frame: Any) -> None:
            if frame.msg_type == WSMsgType.TEXT and frame.get_payload_as_bytes() == b"play":
                tables = [transports[i : i + SEATS] for i in range(0, len(transports), SEATS)]
                asyncio.get_running_loop().create_task(_drive(tables, send, args))
            elif frame.msg_type == WSMsgType.CLOSE:
                transport.send_close(frame.get_close_code())
                transport.disconnect()

    async def main() -> None:
        server = await ws_create_server(lambda _: Listener(), "127.0.0.1", args.port)
        await server.serve_forever()

    uvloop.run(main())


# ---------------------------------------------------------------------------- the client
class Reader(asyncio.Protocol):
    """A socket that upgrades, then only counts the bytes it receives."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.head = b""
        self.got = 0
        self.upgraded = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        transport.write(
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )

    def data_received(self, data: bytes) -> None:
        if self.upgraded.done():
            self.got += len(data)
            return
        self.head += data
        if b"\r\n\r\n" in self.head:
            head, _, rest = self.head.partition(b"\r\n\r\n")
            self.got += len(rest)
            if head.startswith(b"HTTP/1.1 101"):
                self.upgraded.set_result(None)
            else:
                self.upgraded.set_exception(ConnectionError(head[:80].decode()))

    def send_text(self, text: bytes) -> None:
        """One masked text frame (the mask is zero: the payload goes as it is)."""
        assert self.transport is not None and len(text) < 126
        self.transport.write(bytes((0x81, 0x80 | len(text))) + b"\0\0\0\0" + text)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def measure(way: str, args: argparse.Namespace) -> dict[str, Any]:
    port = _free_port()
    cmd = [sys.executable, __file__, "--serve", way, "--port", str(port)]
    cmd += ["--moves", str(args.moves), "--seconds", str(args.seconds), "--bytes", str(args.bytes)]
    server = subprocess.Popen(cmd, cwd=ROOT)
    loop = asyncio.get_running_loop()
    try:
        for _ in range(200):
            try:
                probe = socket.create_connection(("127.0.0.1", port), timeout=1)
                probe.close()
                break
            except OSError:
                await asyncio.sleep(0.05)
        readers: list[Reader] = []
        for _ in range(args.tables * SEATS):
            _, reader = await loop.create_connection(lambda: Reader(port), "127.0.0.1", port)
            readers.append(reader)
        await asyncio.wait_for(asyncio.gather(*(r.upgraded for r in readers)), 60)
        await asyncio.sleep(0.5)
        payload, moves, _ = _play_plan(args)
        frame_size = len(payload) + (2 if len(payload) < 126 else 4)
        expected = [0] * len(readers)
        for n in range(moves):
            table = n % args.tables
            for i in range(table * SEATS, table * SEATS + SEATS):
                expected[i] += frame_size
        before = cpu_seconds(server.pid)
        readers[0].send_text(b"play")
        deadline = loop.time() + args.seconds + 30
        while any(r.got < e for r, e in zip(readers, expected, strict=True)):
            if loop.time() > deadline:
                raise RuntimeError(f"{way}: not every message arrived")
            await asyncio.sleep(0.05)
        cpu = cpu_seconds(server.pid) - before
        return {
            "way": way,
            "moves": moves,
            "server_cpu_s": round(cpu, 3),
            "cpu_per_move_us": round(cpu / moves * 1e6, 1),
            "cpu_per_message_us": round(cpu / moves / SEATS * 1e6, 2),
        }
    finally:
        server.terminate()
        server.wait(10)
        for r in locals().get("readers", []):
            if r.transport is not None:
                r.transport.abort()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--moves", type=float, default=1000.0, help="moves a second in all")
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--bytes", type=int, default=300, help="one move's message")
    parser.add_argument("--ways", default="queue,direct,picows")
    parser.add_argument("--serve", choices=("queue", "direct", "picows"))
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    if args.serve == "picows":
        serve_picows(args)
        return
    if args.serve:
        serve_uvicorn(args, direct=args.serve == "direct")
        return
    print(f"[transport] {time.strftime('%H:%M:%S')} {os.getloadavg()}", flush=True)
    ways = args.ways.split(",")
    if "picows" in ways:
        try:
            import picows  # noqa: F401
        except ImportError:
            print("[transport] picows is not installed (pip install picows): left out")
            ways.remove("picows")
    results = []
    for way in ways:
        result = asyncio.run(measure(way, args))
        print(json.dumps(result), flush=True)
        results.append(result)
    base = results[0]["cpu_per_move_us"]
    for r in results:
        print(
            f"{r['way']:8} {r['cpu_per_move_us']:8.1f} us a move",
            f"{r['cpu_per_move_us'] / base:.2f}x",
        )
    print(f"[transport] {time.strftime('%H:%M:%S')} {os.getloadavg()}", flush=True)


if __name__ == "__main__":
    main()
