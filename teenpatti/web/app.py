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
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bus.base import Bus
from ..engine import EngineError
from ..engine.rules import catalogue
from ..metrics import CONTENT_TYPE, NOT_READY
from ..push.keep import PushKeep
from ..push.sender import PushConfig, Pusher
from ..store.base import EventStore
from ..tables import commands, messages
from ..tables.clock import Clock
from ..tables.commands import ID_MAX
from ..tables.errors import Refusal, TableError
from ..tables.outgoing import frame
from ..tables.service import Connection, LiveTable, TableService, Timing
from ..tables.table import HANDS_MAX, token_hash
from . import logs
from .edge import BUDGET, SINK, Budget, address_key
from .headers import SecurityHeaders
from .limits import Lobby, Refused, retry_after
from .push import push_routes
from .reach import Reach
from .shell import shell_routes

__all__ = ["TableLimits", "create_app", "send_queued"]

STATIC = Path(__file__).parent / "static"
MAX_MESSAGE = 4096
"""The largest message a client may send, in bytes (HTTP bodies and socket messages)."""
READY_TIMEOUT = 2.0
"""How long ``/readyz`` waits for the store and the bus to answer."""
log = logging.getLogger("teenpatti.web")


@dataclass(frozen=True, slots=True)
class TableLimits:
    """How many tables may be live (not finished) at once: in this process, and opened from one
    client address."""

    per_process: int = 10_000
    per_address: int = 20


def _error_response(
    code: str, reason: str, status: int = 400, headers: dict[str, str] | None = None
) -> Response:
    # ASCII JSON: a code or reason may quote what the client sent (an unknown rule's name), and
    # text that cannot be written as UTF-8 (a lone surrogate) must not turn the reply into a 500.
    body = json.dumps({"error": {"code": code, "reason": reason}})
    return Response(body, status_code=status, media_type="application/json", headers=headers)


class _Gone(Exception):
    """The client went away while it sent its request: there is no one to answer."""


async def _body(request: Request) -> Any:
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError("message/content_type", "send the request as application/json")
    raw = b""
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > MAX_MESSAGE:
                raise TableError("message/too_large", "that request is too large")
    except ClientDisconnect:
        raise _Gone from None
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # bad JSON or UTF-8, or nested too deep to parse
        raise TableError("message/json", "send the request as a JSON object") from None


def _status(error: EngineError | TableError, status: int = 400) -> int:
    """The HTTP status for a refusal: 503 when the store cannot be reached (try again), 404 for
    an unknown table, 415 for a body that is not JSON, 403 for a removed person sitting down
    again, else ``status``."""
    if getattr(error, "retryable", False):
        return 503
    return {"table/unknown": 404, "message/content_type": 415, "seat/removed": 403}.get(
        error.code, status
    )


def _same_origin(request: Request, public_url: str | None) -> bool:
    """Whether a browser says this request comes from a page of this server: its ``Origin`` is
    the address it asked (``Host``) or the public address (a request with neither ``Origin``
    nor ``Sec-Fetch-Site`` is not a browser's cross-site request: a command-line client's)."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    if origin is None:
        return True
    origin = origin.rstrip("/").lower()
    if public_url is not None and origin == public_url.rstrip("/").lower():
        return True
    host = request.headers.get("host", "")
    return origin.split("://", 1)[-1] == host.lower()


def create_app(
    store: EventStore | Callable[[], Awaitable[EventStore]],
    *,
    bus: Callable[[], Awaitable[Bus]] | None = None,
    timing: Timing | None = None,
    lobby_rate: tuple[float, float] = (5.0, 100.0),
    lookup_misses: tuple[float, float] = (0.1, 10.0),
    message_rate: tuple[float, float] = (10.0, 30.0),
    refusals: int = 60,
    hello_timeout: float = 5.0,
    tables: TableLimits | None = None,
    freeze_every: float | None = None,
    reach: Reach | None = None,
    clock: Clock | None = None,
    push: Callable[[], Awaitable[tuple[PushConfig, PushKeep]]] | None = None,
) -> Starlette:
    """The app over ``store`` (or an async function that opens it when the app starts) and
    ``bus`` (an async function that opens it; in-process when ``None``).

    ``lobby_rate`` limits the requests per client address that name a table, create one or open
    a socket, and ``lookup_misses`` the codes per address that name no table (see
    :class:`~teenpatti.web.limits.Lobby`); ``message_rate`` limits each socket's messages (a
    second, burst; under ``teenpatti serve`` its pings and pongs too), and a socket refused
    ``refusals`` times is closed (1008); a socket has ``hello_timeout`` seconds to say hello.
    ``tables`` caps the live tables. ``freeze_every`` (seconds) moves the objects alive then out
    of the garbage collector's sight (``gc.freeze``): with thousands of tables, a full
    collection of long-lived tables would otherwise pause every table for hundreds of
    milliseconds. ``reach`` says where friends reach the server: the links and QR codes to share
    are built from it (see :mod:`teenpatti.web.reach`). ``clock`` is the service's time: turn
    timers, graces, deals and the reconciler's and lease keeper's rounds (the system's clock when
    ``None``; tests hand in a :class:`~teenpatti.tables.clock.ManualClock` and move it).
    ``push`` (an async function giving the VAPID keys and settings and the subscriptions' keep)
    turns on turn alerts for play-anytime tables (see :mod:`teenpatti.push`)."""
    opened: list[EventStore] = []
    service = TableService(store if not callable(store) else _NotOpen(), timing, clock)
    metrics = service.metrics
    rules = catalogue()  # the same for every request: built once
    rules["options"]["hands"]["max"] = HANDS_MAX  # the most a game here may have
    reach = reach or Reach()
    ready: list[bool] = []
    lobby = Lobby(lobby_rate, lookup_misses)
    caps = tables or TableLimits()
    opened_by: dict[str, list[str]] = {}
    pushers: list[Pusher] = []

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if callable(store):
            service.store = await store()
        opened.append(service.store)
        if bus is not None:
            service.use_bus(await bus())
        if push is not None:
            config, keep = await push()
            pushers.append(Pusher(config, keep, metrics, service.fanout.connected))
            service.alerts = pushers[0]
        await service.start()
        ready.append(True)
        freezer = asyncio.create_task(_freeze_every(freeze_every)) if freeze_every else None
        try:
            yield
        finally:
            if freezer is not None:
                freezer.cancel()
            await service.stop()
            for pusher in pushers:
                await pusher.close()
            await opened[0].close()

    def _error(
        code: str, reason: str, status: int = 400, headers: dict[str, str] | None = None
    ) -> Response:
        metrics.error(code)
        return _error_response(code, reason, status, headers)

    def _refused(refused: Refused) -> Response:
        wait = retry_after(refused.retry_after)
        return _error(refused.code, refused.reason, 429, {"Retry-After": wait})

    def share(request: Request, code: str) -> dict[str, Any]:
        """The link to share for table ``code``, as seen from this request."""
        found = reach.link(request.url.scheme, request.headers.get("host"))
        return {"url": f"{found.base}/t/{code}", "local_only": found.local_only}

    def client_host(request: Request | WebSocket) -> str:
        return request.client.host if request.client else "?"

    async def look_up(request: Request, token: str | None = None) -> LiveTable | Response:
        """The table a route names, under the lobby's limits; or the reply refusing it."""
        host, code = client_host(request), request.path_params["code"]
        try:
            lobby.check(host, code, token, read=request.method == "GET")
            return await service.find(code)
        except Refused as refused:
            return _refused(refused)
        except Refusal as error:
            if error.code == "table/unknown":
                lobby.missed(host)
            return _error(error.code, error.reason, _status(error, 404))

    def live_tables(key: str | None = None) -> int:
        if key is None:
            return sum(live.table.status != "finished" for live in service.tables.values())
        codes = opened_by.get(key, [])
        codes[:] = [
            c for c in codes if c in service.tables and service.tables[c].table.status != "finished"
        ]
        if not codes:
            opened_by.pop(key, None)
        return len(codes)

    async def create_table(request: Request) -> Response:
        if not _same_origin(request, reach.public_url):
            return _error("origin/forbidden", "tables are opened from this server's own page", 403)
        host = client_host(request)
        try:
            lobby.check(host)
        except Refused as refused:
            return _refused(refused)
        key = address_key(host)
        if live_tables(key) >= caps.per_address:
            return _error(
                "table/limit", "too many tables open from your address: finish one first", 429
            )
        if live_tables() >= caps.per_process:
            return _error("server/full", "this server has all the tables it can hold", 503)
        try:
            code, token, seat = await service.create(await _body(request))
        except Refusal as error:
            return _error(error.code, error.reason, _status(error))
        except _Gone:
            return _error("message/incomplete", "the request did not arrive whole")
        opened_by.setdefault(key, []).append(code)
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
        live = await look_up(request)
        if isinstance(live, Response):
            return live
        state = live.table.state(None)
        hand = state["hand"]
        turn = None if hand is None or hand["finished"] else hand["actor"]
        # the shown cards' proofs belong to the table's own states and histories, not the lobby
        seats = [{k: v for k, v in row.items() if k != "proof"} for row in state["seats"]]
        # how long the table has stood since its last move (My tables: "waiting 3 h")
        waited = round(max(0.0, service.clock.time() - live.since)) if live.since else None
        return JSONResponse(
            {k: state[k] for k in ("code", "status", "settings", "version")}
            | {"seats": seats, "share": share(request, live.table.code), "turn": turn}
            | {"waited": waited}
        )

    async def join_table(request: Request) -> Response:
        if not _same_origin(request, reach.public_url):
            return _error("origin/forbidden", "tables are joined from this server's own page", 403)
        live = await look_up(request)
        if isinstance(live, Response):
            return live
        try:
            body = await _body(request)
            name = body.get("name") if isinstance(body, dict) else None
            token, seat = await service.join(live.table.code, name, _bearer(request))
        except Refusal as error:
            return _error(error.code, error.reason, _status(error))
        except _Gone:
            return _error("message/incomplete", "the request did not arrive whole")
        return JSONResponse({"token": token, "seat": seat})

    async def hand_histories(request: Request) -> Response:
        token = _bearer(request)
        live = await look_up(request, token)
        if isinstance(live, Response):
            return live
        seat = None
        if live.table.status != "finished":
            try:
                seat = service.seat_for(live, token)
            except Refusal as error:
                return _error(error.code, error.reason, 403)
            if token is None:
                return _error(
                    "hands/private",
                    "the hands of a game in play go to its players (send your seat token)",
                    403,
                )
        return JSONResponse(
            live.table.histories(seat),
            headers={"Content-Disposition": 'attachment; filename="hands.json"'},
        )

    async def qr_code(request: Request) -> Response:
        live = await look_up(request)
        if isinstance(live, Response):
            return live
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
        logs.set_table(str(websocket.path_params["code"])[:16])
        budget = websocket.scope.get("extensions", {}).get(BUDGET)
        if not isinstance(budget, Budget):  # under another server than ``teenpatti serve``
            budget = Budget(*message_rate, refusals=refusals)
        host = client_host(websocket)

        async def refuse(code: str, reason: str) -> None:
            metrics.error(code)
            await websocket.send_text(_socket_error(code, reason))
            await websocket.close(4000)

        try:
            lobby.check(host, websocket.path_params["code"])
            live = await service.find(websocket.path_params["code"])
        except Refused as refused:
            await refuse(refused.code, refused.reason)
            return
        except Refusal as error:
            if error.code == "table/unknown":
                lobby.missed(host)
            await refuse(error.code, error.reason)
            return
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), hello_timeout)
            if len(raw) > MAX_MESSAGE:
                raise TableError(
                    "message/hello", "say hello first, with your seat token if you have one"
                )
            hello = commands.decode_hello(raw)
            if hello.token is not None:
                lobby.check(host, token=hello.token)
            seat = service.seat_for(live, hello.token)
        except Refused as refused:
            await refuse(refused.code, refused.reason)
            return
        except Refusal as error:
            await refuse(error.code, error.reason)
            return
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await refuse(
                    "message/hello", "say hello first, with your seat token if you have one"
                )
            return
        conn = Connection(
            seat,
            token_hash=token_hash(hello.token) if hello.token is not None else None,
            sink=websocket.scope.get("extensions", {}).get(SINK),
            patches=hello.patches,
        )
        closing: list[int] = []
        writer = asyncio.create_task(send_queued(websocket, conn, closing, metrics.queued.inc))
        await service.connect(live, conn)
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                if not budget.take():
                    metrics.error("rate/limited")
                    conn.push(_socket_error("rate/limited", "too many messages: slow down"))
                    if budget.refuse():  # a flood: it is told once more, then closed
                        closing.append(1008)
                        conn.close()
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(asyncio.shield(writer), 2.0)
                        break
                    await asyncio.sleep(0)
                    continue
                text = message.get("text")
                if text is None:
                    text = (message.get("bytes") or b"").decode("utf-8", "replace")
                reply = await _handle(service, live, conn, text)
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

    async def rules_catalogue(request: Request) -> Response:
        return JSONResponse(rules)

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
        Route("/api/rules", rules_catalogue),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{code}", table_info),
        Route("/api/tables/{code}/join", join_table, methods=["POST"]),
        Route("/api/tables/{code}/hands", hand_histories),
        Route("/api/tables/{code}/qr.svg", qr_code),
        WebSocketRoute("/ws/{code}", socket),
        *push_routes(
            service,
            lambda: pushers[0] if pushers else None,
            look_up=look_up,
            body=_body,
            error=lambda code, reason, status: _error(code, reason, status),
            same_origin=lambda request: _same_origin(request, reach.public_url),
            bearer=_bearer,
        ),
    ]
    if STATIC.is_dir():
        routes += shell_routes(STATIC)
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(SecurityHeaders), Middleware(_NoCache)]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.service = service
    return app


async def send_queued(
    websocket: WebSocket,
    conn: Connection,
    closing: list[int] | None = None,
    waited: Callable[[], object] | None = None,
) -> None:
    """The connection's one writer: drains its queue in order (straight to the transport once
    its buffer is under the high-water mark, when the connection has a sink, calling ``waited``
    as it takes each such message), closes when told (with the last code in ``closing``, else
    4008 for a client dropped as too slow, else 1000)."""
    try:
        while True:
            message = await conn.queue.get()
            if message is None:
                break
            sink = conn.sink
            if sink is None:
                await websocket.send_text(message)
                continue
            conn.writing = True
            if waited is not None:
                waited()
            await sink.drained()
            if not sink.ready():
                break  # closed or closing: nothing more goes out
            sink.write(frame(message))
            conn.writing = False
    finally:
        code = closing[-1] if closing else 4008 if conn.dropped else 1000
        with contextlib.suppress(Exception):
            await websocket.close(code)


def _bearer(request: Request) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``, if sent."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def _socket_error(code: str, reason: str) -> str:
    return messages.encode(messages.Error(code=code, reason=reason)).decode()


async def _handle(service: TableService, live: Any, conn: Connection, text: str) -> str | None:
    """One client message -> ``None`` (the state update follows) or an error to send back."""

    def error(code: str, reason: str, echo: str | None = None, retryable: bool = False) -> str:
        service.metrics.error(code)
        out = messages.Error(code=code, reason=reason)
        if retryable:
            out.retryable = True
        if echo is not None and len(echo) <= ID_MAX:
            out.id = echo  # which command this answers
        return messages.encode(out).decode()

    if len(text) > MAX_MESSAGE:
        return error("message/too_large", "that message is too large")
    try:
        message = commands.decode(text)
    except TableError as refused:
        return error(refused.code, refused.reason, commands.echo(text))
    if isinstance(message, commands.Ping):
        return messages.encode(messages.Pong(version=live.table.version)).decode()
    cid = None if isinstance(message, commands.Sync) else message.id
    try:
        if isinstance(message, commands.Sync):
            await service.find(live.table.code)  # catch up from the store if need be
            service.send_state(live, conn)
        elif not await service.command(live.table.code, conn.seat, message):
            service.send_state(live, conn)  # a repeat: the state it made
    except Refusal as err:
        return error(err.code, err.reason, cid, getattr(err, "retryable", False))
    except Exception:  # a fault of ours must cost this message only, never the socket
        kind = type(message).__name__.lower()
        log.exception("table %s: %s message failed", live.table.code, kind)
        return error("server/error", "that did not work: try again", cid, True)
    return None


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


async def _ping_store(service: TableService) -> None:
    await service.store.find("-")  # a look-up by a code no table has: one round trip


async def _ping_bus(service: TableService) -> None:
    await service.bus.ping()
