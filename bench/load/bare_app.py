"""The yardstick: a bare Starlette app that broadcasts what our server would, and nothing else.

It speaks just enough of ``docs/protocol.md`` for ``swarm.py`` to drive it exactly as it drives
``teenpatti serve``: ``POST /api/tables`` and ``/api/tables/{code}/join`` hand out codes, seats and
tokens (kept in dicts), and ``/ws/{code}`` answers ``hello`` with a ``state``. Any ``act``,
``start`` or ``again`` bumps the table's version, passes the turn to the next seat and sends one
``state`` message of ``--message-bytes`` bytes (``run.py`` passes the mean size of our server's
state messages, measured in the same run) to all 6 sockets of the table. No rules, no store, no
per-seat views: what is left is the cost of the socket layer and of sending the bytes.

It runs on the same uvicorn settings as ``teenpatti serve`` (uvloop, httptools,
``ws="websockets-sansio"``, per-message deflate off, 64 KiB frames, the same GC thresholds) and
sends the same way, with our server's own ``Connection`` and writer: one bounded queue (64) and one
writer task per connection; a connection whose queue overflows is dropped and closed with 4008.

    .venv/bin/python bench/load/bare_app.py --port 8001 --message-bytes 2000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import secrets
import sys
import time
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from teenpatti.tables.live.service import Connection  # the same queue and writer as our server
from teenpatti.web.app import send_queued

MAX_MESSAGE = 4096
LEGAL = [
    {"do": "chaal", "cost": 20, "max": 20, "label": "Chaal 20", "targets": []},
    {"do": "raise", "cost": 40, "max": 40, "label": "Raise 40", "targets": []},
    {"do": "pack", "cost": 0, "max": 0, "label": "Pack", "targets": []},
    {"do": "show", "cost": 20, "max": 20, "label": "Show 20", "targets": []},
]


class Table:
    """A table: its seats' tokens, its sockets, a version and whose turn it is."""

    def __init__(self, code: str, seats: int) -> None:
        self.code = code
        self.seats = seats
        self.tokens: dict[str, int] = {}
        self.connections: set[Connection] = set()
        self.version = 1
        self.actor = 0

    def render(self, size: int) -> str:
        """The one state message every socket of the table gets, padded to ``size`` bytes."""
        message = {
            "type": "state",
            "version": self.version,
            "code": self.code,
            "status": "playing",
            "hand": {"actor": self.actor, "finished": False},
            "legal": LEGAL,
        }
        text = json.dumps(message, separators=(",", ":"))
        pad = max(0, size - len(text) - 9)  # 9: the bytes of ',"pad":""'
        return f'{text[:-1]},"pad":"{"x" * pad}"}}'

    def broadcast(self, size: int) -> None:
        """Send the table's state to every socket (without waiting for any of them)."""
        message = self.render(size)
        for conn in list(self.connections):
            conn.push(message)


def create_app(message_bytes: int) -> Starlette:
    """The bare app; every broadcast is ``message_bytes`` long."""
    tables: dict[str, Table] = {}

    async def body(request: Request) -> Any:
        raw = await request.body()
        return json.loads(raw or b"{}") if len(raw) <= MAX_MESSAGE else {}

    async def create_table(request: Request) -> Response:
        data = await body(request)
        code = secrets.token_hex(4).upper()
        table = tables[code] = Table(code, int(data.get("seats", 6)))
        token = secrets.token_urlsafe(32)
        table.tokens[token] = 0
        return JSONResponse(
            {"code": code, "token": token, "seat": 0, "link": f"/t/{code}"}, status_code=201
        )

    async def join_table(request: Request) -> Response:
        await body(request)
        table = tables.get(request.path_params["code"])
        if table is None:
            return JSONResponse({"error": {"code": "table/unknown"}}, status_code=404)
        seat = len(table.tokens)
        if seat >= table.seats:
            return JSONResponse({"error": {"code": "table/full"}}, status_code=400)
        token = secrets.token_urlsafe(32)
        table.tokens[token] = seat
        return JSONResponse({"token": token, "seat": seat})

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        table = tables.get(websocket.path_params["code"])
        if table is None:
            await websocket.close(4000)
            return
        try:
            hello = json.loads(await asyncio.wait_for(websocket.receive_text(), 15.0))
        except (TimeoutError, ValueError, WebSocketDisconnect, RuntimeError):
            with contextlib.suppress(Exception):
                await websocket.close(4000)
            return
        conn = Connection(table.tokens.get(hello.get("token") or ""))
        writer = asyncio.create_task(send_queued(websocket, conn))
        table.connections.add(conn)
        conn.push(table.render(message_bytes))
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text") or ""
                try:
                    data = json.loads(text)
                except ValueError:
                    continue
                kind = data.get("type") if isinstance(data, dict) else None
                if kind in ("act", "start", "again"):
                    table.version += 1
                    table.actor = (table.actor + 1) % table.seats
                    table.broadcast(message_bytes)
                elif kind == "sync":
                    conn.push(table.render(message_bytes))
                elif kind == "ping":
                    conn.push(json.dumps({"type": "pong", "version": table.version}))
                if conn.dropped:
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            table.connections.discard(conn)
            conn.close()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return Starlette(
        routes=[
            Route("/api/tables", create_table, methods=["POST"]),
            Route("/api/tables/{code}/join", join_table, methods=["POST"]),
            WebSocketRoute("/ws/{code}", socket),
        ]
    )


def log_gc_pauses(threshold_ms: float = 5.0) -> None:
    """Print every collection of the oldest generation, and any other that takes at least
    ``threshold_ms``, to stderr as ``gc-pause gen=G ms=WALL cpu=CPU at=EPOCH`` (``run.py`` reads
    them). On a busy machine the wall time includes time the process waited for a CPU; the CPU
    time is the collector's own."""
    started = [0.0, 0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
            return
        ms = (time.perf_counter() - started[0]) * 1000
        cpu = (time.thread_time() - started[1]) * 1000
        if ms >= threshold_ms or info["generation"] == 2:
            print(
                f"gc-pause gen={info['generation']} ms={ms:.1f} cpu={cpu:.1f} at={time.time():.3f}",
                file=sys.stderr,
                flush=True,
            )

    gc.callbacks.append(callback)


def main() -> None:
    """Serve the bare app on loopback."""
    import uvicorn

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8001)
    parser.add_argument("--message-bytes", type=int, default=2000)
    parser.add_argument("--gc-log", action="store_true", help="print the collector's pauses")
    args = parser.parse_args()
    if args.gc_log:
        log_gc_pauses()
    if not ipaddress.ip_address(args.host).is_loopback:
        parser.error("--host must be a loopback address")
    # The same collector settings as ``teenpatti serve``.
    gc.set_threshold(50_000, 20, 100)
    uvicorn.run(
        create_app(args.message_bytes),
        host=args.host,
        port=args.port,
        loop="uvloop",
        http="httptools",
        ws="websockets-sansio",
        ws_max_size=64 * 1024,  # as ``teenpatti serve`` (which refuses > 4 KiB itself)
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="off",
    )


if __name__ == "__main__":
    main()
