"""The socket's session: ``/ws/{code}``, one WebSocket per client (docs/protocol.md, "The
socket").

The session knows no rules: it checks the size and rate of what a client sends, decodes each
message once into its type (:mod:`teenpatti.tables.play.commands`) and hands commands to the
:class:`~teenpatti.tables.live.service.TableService`. Every reply a client gets is its own view of
the table (``state`` or ``patch``, sent by the fan-out) or an ``error`` with a stable code and a
sentence; nothing a client sends can crash the server or change a table it may not change.

A session: the hello (within ``hello_timeout``, or the socket is closed with 4000), then the
receive loop, while the connection's one writer (:func:`send_queued`) sends what the fan-out
could not write straight to the transport.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..tables.live.service import Connection, TableService
from ..tables.play import commands
from ..tables.play.commands import ID_MAX
from ..tables.play.errors import Refusal, TableError
from ..tables.play.table import token_hash
from ..tables.wire import messages
from ..tables.wire.outgoing import frame
from . import logs
from .call import MAX_SIGNAL, Calls
from .edge import BUDGET, SINK, Budget
from .limits import Refused
from .site import MAX_MESSAGE, Site, client_host, site_of

__all__ = ["send_queued", "session_route"]

log = logging.getLogger("teenpatti.web")
HELLO_FIRST = "say hello first, with your seat token if you have one"


def session_route(
    message_rate: tuple[float, float], refusals: int, hello_timeout: float
) -> WebSocketRoute:
    """The socket's route (over the app's :class:`Site`): each socket may send ``message_rate``
    messages (a second, burst) and is closed after ``refusals`` refusals; it has
    ``hello_timeout`` seconds to say hello."""

    async def socket(websocket: WebSocket) -> None:
        site = site_of(websocket)
        metrics = site.service.metrics
        await websocket.accept()
        metrics.sockets.inc()
        try:
            await play(websocket, site)
        finally:
            metrics.sockets.dec()

    async def play(websocket: WebSocket, site: Site) -> None:
        service = site.service
        metrics = service.metrics
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
            site.lobby.check(host, websocket.path_params["code"])
            live = await service.find(websocket.path_params["code"])
        except Refused as refused:
            await refuse(refused.code, refused.reason)
            return
        except Refusal as error:
            if error.code == "table/unknown":
                site.lobby.missed(host)
            await refuse(error.code, error.reason)
            return
        try:
            raw = await asyncio.wait_for(websocket.receive_text(), hello_timeout)
            if len(raw) > MAX_MESSAGE:
                raise TableError("message/hello", HELLO_FIRST)
            hello = commands.decode_hello(raw)
            if hello.token is not None:
                site.lobby.check(host, token=hello.token)
            seat = service.seat_for(live, hello.token)
        except Refused as refused:
            await refuse(refused.code, refused.reason)
            return
        except Refusal as error:
            await refuse(error.code, error.reason)
            return
        except (TimeoutError, WebSocketDisconnect, KeyError, RuntimeError):
            with contextlib.suppress(Exception):
                await refuse("message/hello", HELLO_FIRST)
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
        site.calls.connected(live, conn)
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
                reply = await _handle(service, site.calls, live, conn, text)
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
            site.calls.gone(live, conn)
            conn.close()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await writer

    return WebSocketRoute("/ws/{code}", socket)


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


def _socket_error(code: str, reason: str) -> str:
    return messages.encode(messages.Error(code=code, reason=reason)).decode()


async def _handle(
    service: TableService, calls: Calls, live: Any, conn: Connection, text: str
) -> str | None:
    """One client message -> ``None`` (the state update follows) or an error to send back."""

    def error(code: str, reason: str, echo: str | None = None, retryable: bool = False) -> str:
        service.metrics.error(code)
        out = messages.Error(code=code, reason=reason)
        if retryable:
            out.retryable = True
        if echo is not None and len(echo) <= ID_MAX:
            out.id = echo  # which command this answers
        return messages.encode(out).decode()

    too_large = "that message is too large"
    if len(text) > MAX_SIGNAL:
        return error("message/too_large", too_large)
    try:
        message = commands.decode(text)
    except TableError as refused:
        if len(text) > MAX_MESSAGE and not refused.code.startswith("call/"):
            return error("message/too_large", too_large)  # only a signal may be this long
        return error(refused.code, refused.reason, commands.echo(text))
    if len(text) > MAX_MESSAGE and not isinstance(message, commands.Signal):
        return error("message/too_large", too_large)
    if conn.token_hash is not None:
        # The token let the socket in at its hello; each message is taken only while it still
        # holds a seat (a message read as its person was removed is not theirs to send).
        try:
            seat = live.table.held_by(conn.token_hash)
        except Refusal as err:
            return error(err.code, err.reason, commands.echo(text))
        if seat != conn.seat:  # seats before the start move up when someone leaves
            conn.seat, conn.held = seat, -1
    if isinstance(message, commands.Call | commands.Signal):
        try:
            calls.handle(live, conn, message)
        except TableError as err:
            return error(err.code, err.reason)
        return None
    if isinstance(message, commands.Ping):
        return messages.encode(messages.Pong(version=live.table.version)).decode()
    cid = None if isinstance(message, commands.Sync) else message.id
    try:
        if isinstance(message, commands.Sync):
            await service.find(live.table.code)  # catch up from the store if need be
            service.send_state(live, conn)
        elif not await service.command(live.table.code, conn.seat, message, conn.token_hash):
            service.send_state(live, conn)  # a repeat: the state it made
        else:
            calls.refresh(live)  # voice turned off, a player removed: the call follows at once
    except Refusal as err:
        return error(err.code, err.reason, cid, getattr(err, "retryable", False))
    except Exception:  # a fault of ours must cost this message only, never the socket
        kind = type(message).__name__.lower()
        log.exception("table %s: %s message failed", live.table.code, kind)
        return error("server/error", "that did not work: try again", cid, True)
    return None
