"""The ASGI app: the lobby over HTTP (JSON), one WebSocket per client, and the static UI.

The socket layer knows no rules: it checks the size and rate of what a client sends, parses it,
and hands commands to the :class:`~teenpatti.tables.service.TableService`. Every reply a client
gets is either its own view of the table (``state``) or an ``error`` with a stable code and a
sentence; nothing a client sends can crash the server or change a table it may not change.
See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import io
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bus.base import Bus
from ..engine import EngineError
from ..metrics import CONTENT_TYPE, NOT_READY
from ..store.base import EventStore
from ..tables.service import Connection, TableService, Timing
from . import logs
from .headers import SecurityHeaders
from .reach import Reach
from .shell import shell_routes

__all__ = ["RateLimiter", "create_app", "send_queued"]

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""The largest message a client may send, in bytes (HTTP bodies and socket messages)."""
HELLO_TIMEOUT = 15.0
READY_TIMEOUT = 2.0
"""How long ``/readyz`` waits for the store and the bus to answer."""
log = logging.getLogger("teenpatti.web")


class RateLimiter:
    """A token bucket per key (a client address, a connection): ``rate`` a second, ``burst`` at
    most."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        """Take one token for ``key`` if there is one."""
        now = time.monotonic()
        tokens, last = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > 100_000:  # forget idle clients rather than grow without bound
            self.buckets.clear()
        return True


def _error_response(code: str, reason: str, status: int = 400) -> Response:
    # ASCII JSON: a code or reason may quote what the client sent (an unknown rule's name), and
    # text that cannot be written as UTF-8 (a lone surrogate) must not turn the reply into a 500.
    body = json.dumps({"error": {"code": code, "reason": reason}})
    return Response(body, status_code=status, media_type="application/json")


async def _body(request: Request) -> Any:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_MESSAGE:
            raise EngineError("message/too_large", "that request is too large")
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # bad JSON or UTF-8, or nested too deep to parse
        raise EngineError("message/json", "send the request as a JSON object") from None


def create_app(
    store: EventStore | Callable[[], Awaitable[EventStore]],
    *,
    bus: Callable[[], Awaitable[Bus]] | None = None,
    timing: Timing | None = None,
    lobby_rate: tuple[float, float] = (1.0, 30.0),
    message_rate: tuple[float, float] = (10.0, 30.0),
    freeze_every: float | None = None,
    reach: Reach | None = None,
) -> Starlette:
    """The app over ``store`` (or an async function that opens it when the app starts) and
    ``bus`` (an async function that opens it; in-process when ``None``). ``lobby_rate`` limits
    creates, joins and code look-ups per client address; ``message_rate`` limits each socket's
    messages (a second, burst). ``freeze_every`` (seconds) moves the objects alive then out of the
    garbage collector's sight (``gc.freeze``): with thousands of tables, a full collection of
    long-lived tables would otherwise pause every table for hundreds of milliseconds.
    ``reach`` says where friends reach the server: the links and QR codes to share are built
    from it (see :mod:`teenpatti.web.reach`)."""
    opened: list[EventStore] = []
    service = TableService(store if not callable(store) else _NotOpen(), timing)
    metrics = service.metrics
    lobby = RateLimiter(*lobby_rate)
    reach = reach or Reach()
    ready: list[bool] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if callable(store):
            service.store = await store()
        opened.append(service.store)
        if bus is not None:
            service.use_bus(await bus())
        await service.start()
        ready.append(True)
        freezer = asyncio.create_task(_freeze_every(freeze_every)) if freeze_every else None
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
            await service.stop()
            await opened[0].close()

    def client_key(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    def _error(code: str, reason: str, status: int = 400) -> Response:
        metrics.error(code)
        return _error_response(code, reason, status)

    def share(request: Request, code: str) -> dict[str, Any]:
        """The link to share for table ``code``, as seen from this request."""
        found = reach.link(request.url.scheme, request.headers.get("host"))
        return {"url": f"{found.base}/t/{code}", "local_only": found.local_only}

    async def create_table(request: Request) -> Response:
        if not lobby.allow(client_key(request)):
            return _error("rate/limited", "too many requests: wait a moment", 429)
        try:
            code, token, seat = await service.create(await _body(request))
        except EngineError as error:
            return _error(error.code, error.reason)
        logs.set_table(code)
        log.info("table %s opened", code)
        return JSONResponse(
            {
                "code": code,
                "token": token,
                "seat": seat,
                "link": f"/t/{code}",
                "share": share(request, code),
            },
            status_code=201,
        )

    async def table_info(request: Request) -> Response:
        if not lobby.allow(client_key(request)):
            return _error("rate/limited", "too many requests: wait a moment", 429)
        try:
            live = await service.find(request.path_params["code"])
        except EngineError as error:
            return _error(error.code, error.reason, 404)
        state = live.table.state(None)
        hand = state["hand"]
        turn = None if hand is None or hand["finished"] else hand["actor"]
        return JSONResponse(
            {k: state[k] for k in ("code", "status", "settings", "seats", "version")}
            | {"share": share(request, live.table.code), "turn": turn}
        )

    async def join_table(request: Request) -> Response:
        if not lobby.allow(client_key(request)):
            return _error("rate/limited", "too many requests: wait a moment", 429)
        try:
            body = await _body(request)
            name = body.get("name") if isinstance(body, dict) else None
            token, seat = await service.join(request.path_params["code"], name)
        except EngineError as error:
            status = 404 if error.code == "table/unknown" else 400
            return _error(error.code, error.reason, status)
        return JSONResponse({"token": token, "seat": seat})

    async def hand_histories(request: Request) -> Response:
        try:
            hands = await service.histories(request.path_params["code"])
        except EngineError as error:
            return _error(error.code, error.reason, 404)
        return JSONResponse(
            hands,
            headers={"Content-Disposition": 'attachment; filename="hands.json"'},
        )

    async def qr_code(request: Request) -> Response:
        code = request.path_params["code"]
        try:
            live = await service.find(code)
        except EngineError as error:
            return _error(error.code, error.reason, 404)
        link = share(request, live.table.code)["url"]
        out = io.BytesIO()
        segno.make(link, error="m").save(out, kind="svg", xmldecl=False, scale=6, border=2)
        return Response(out.getvalue(), media_type="image/svg+xml")

    async def socket(websocket: WebSocket) -> None:
        await websocket.accept()
        metrics.sockets.inc()
        try:
            await play(websocket)
        finally:
            metrics.sockets.dec()

    async def play(websocket: WebSocket) -> None:
        limiter = RateLimiter(*message_rate)
        logs.set_table(str(websocket.path_params["code"])[:16])

        async def refuse(code: str, reason: str) -> None:
            metrics.error(code)
            await websocket.send_text(json.dumps({"type": "error", "code": code, "reason": reason}))
            await websocket.close(4000)

        if not lobby.allow(client_key(websocket)):
            await refuse("rate/limited", "too many requests: wait a moment")
            return
        try:
            live = await service.find(websocket.path_params["code"])
        except EngineError as error:
            await refuse(error.code, error.reason)
            return
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), HELLO_TIMEOUT)
            hello = json.loads(raw) if len(raw) <= MAX_MESSAGE else None
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                await refuse(
                    "message/hello", "say hello first, with your seat token if you have one"
                )
                return
            seat = service.seat_for(live, hello.get("token"))
        except EngineError as error:
            await refuse(error.code, error.reason)
            return
        except (TimeoutError, json.JSONDecodeError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await refuse(
                    "message/hello", "say hello first, with your seat token if you have one"
                )
            return
        conn = Connection(seat)
        writer = asyncio.create_task(send_queued(websocket, conn))
        await service.connect(live, conn)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                reply = await _handle(service, live, conn, text, limiter)
                if reply is not None:
                    conn.push(reply)
                if conn.dropped:
                    break
                # Let the writer send: with messages already received, nothing above waits, and
                # a client sending fast (a flood answered by rate/limited errors) would fill its
                # queue and be dropped as a slow reader though it reads everything.
                await asyncio.sleep(0)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            service.disconnect(live, conn)
            conn.close()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    async def index(request: Request) -> Response:
        page = STATIC / "index.html"
        if page.is_file():
            return FileResponse(page)
        return JSONResponse(
            {"teenpatti": "table server", "api": "/api/tables", "docs": "docs/protocol.md"}
        )

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        checks: dict[str, str] = {}
        for name, probe in (("store", _ping_store), ("bus", _ping_bus)):
            try:
                await asyncio.wait_for(probe(service), READY_TIMEOUT)
                checks[name] = "ok"
            except Exception as error:  # down, slow or not opened yet: not ready
                checks[name] = f"{type(error).__name__}: {error}"[:200]
        checks["tables"] = "loaded" if ready else "loading"
        up = all(v in ("ok", "loaded") for v in checks.values())
        if not up:
            metrics.error(NOT_READY)
        body = {"status": "ready" if up else "not ready", **checks}
        return JSONResponse(
            body | {"live_tables": len(service.tables)}, status_code=200 if up else 503
        )

    async def prometheus(request: Request) -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE)

    routes: list[Any] = [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", prometheus),
        Route("/", index),
        Route("/t/{code}", index),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_info),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/hands", hand_histories),
        Route("/api/tables/{code}/qr.svg", qr_code),
        WebSocketRoute("/ws/{code}", socket),
    ]
    if STATIC.is_dir():
        routes += shell_routes(STATIC)
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(SecurityHeaders), Middleware(_NoCache)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.service = service
    return app


async def send_queued(websocket: WebSocket, conn: Connection) -> None:
    """The connection's one writer: drains its queue in order, closes when told."""
    try:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            await websocket.send_text(message)
    finally:
        with contextlib.suppress(Exception):
            await websocket.close(4008 if conn.dropped else 1000)


async def _handle(
    service: TableService, live: Any, conn: Connection, text: str, limiter: RateLimiter
) -> str | None:
    """One client message -> ``None`` (the state update follows) or an error to send back."""

    def error(code: str, reason: str) -> str:
        service.metrics.error(code)
        return json.dumps({"type": "error", "code": code, "reason": reason})

    if not limiter.allow("socket"):
        return error("rate/limited", "too many messages: slow down")
    if len(text) > MAX_MESSAGE:
        return error("message/too_large", "that message is too large")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):  # bad JSON, or nested too deep to parse
        return error("message/json", "send each message as a JSON object")
    if not isinstance(message, dict):
        return error("message/json", "send each message as a JSON object")
    kind = message.get("type")
    if kind == "ping":
        return json.dumps({"type": "pong", "version": live.table.version})
    if kind == "sync":
        await service.find(live.table.code)  # with other processes: catch up from the store
        conn.push(service.render(live, conn.seat))
        return None
    if kind not in ("act", "start", "again"):
        return error("message/unknown", f"{str(kind)[:40]!r} is not a message this table knows")
    try:
        await service.command(live.table.code, conn.seat, message)
    except EngineError as err:
        return error(err.code, err.reason)
    return None


async def _ping_store(service: TableService) -> None:
    await service.store.find("-")  # a look-up by a code no table has: one round trip


async def _ping_bus(service: TableService) -> None:
    await service.bus.ping()


class _NotOpen:
    """Stands for the store until the app's start-up opens it."""

    def __getattr__(self, name: str) -> Any:
        raise RuntimeError("the event store is opened when the app starts")


class _NoCache:
    """Pages and static files are served with ``Cache-Control: no-cache`` (there is no build
    step to put versions in file names, so a phone must check for a newer file each time)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] != "http" or path.startswith("/api/"):
            await self.app(scope, receive, send)
            return

        async def send_no_cache(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"cache-control", b"no-cache")]
            await send(message)

        await self.app(scope, receive, send_no_cache)


async def _freeze_every(seconds: float) -> None:
    """Freeze what is alive now, then again every ``seconds``: the tables' long-lived objects
    stop being scanned by the collector, so no full collection walks every table (a cycle of
    garbage frozen this way would only be freed at exit; there are few, as most garbage here is
    freed by reference counting)."""
    while True:
        gc.freeze()  # moves the generations' lists aside: it costs nothing, however many
        await asyncio.sleep(seconds)
