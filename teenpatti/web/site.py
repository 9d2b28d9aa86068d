"""What the app's routes share: the table service, the lobby's limits, the link to share, and
the way every HTTP refusal is written (``{"error": {"code", "reason"}}``, counted in the
metrics).

The app's lifespan (:func:`~teenpatti.web.app.create_app`) makes one :class:`Site` when the app
starts, with everything it opened, and hands it to every request and socket in its state; the
lobby's routes (:mod:`~teenpatti.web.lobby`), the socket's session (:mod:`~teenpatti.web.session`),
the operator's endpoints (:mod:`~teenpatti.web.operations`) and the turn alerts' routes
(:mod:`~teenpatti.web.push`) take it from there (:func:`site_of`).
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import msgspec
from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from ..engine import EngineError
from ..push.sender import Pusher
from ..tables.live.service import LiveTable, TableService
from ..tables.play.errors import Refusal, TableError
from .bodies import ErrorBody, ErrorDetail, Share
from .call import Calls
from .limits import Lobby, Refused, retry_after
from .reach import Reach

__all__ = [
    "MAX_MESSAGE",
    "Gone",
    "Site",
    "TableLimits",
    "bearer",
    "client_host",
    "error_response",
    "read_body",
    "same_origin",
    "site_of",
    "status_of",
]

MAX_MESSAGE = 4096
"""The largest message a client may send, in bytes (HTTP bodies and socket messages)."""

BODY_SECONDS = 10.0
"""How long a request's body may take to arrive, from the app's first read of it."""


@dataclass(frozen=True, slots=True)
class TableLimits:
    """How many tables may be live (not finished) at once: in this process, and opened from one
    client address."""

    per_process: int = 10_000
    per_address: int = 20


@dataclass
class Site:
    """One app's shared parts, made when it starts."""

    service: TableService
    """The tables (started: the app's lifespan starts it before any request is served)."""
    reach: Reach
    lobby: Lobby
    caps: TableLimits
    pusher: Pusher | None = None
    """The turn alerts' sender (none when alerts are off)."""
    opened_by: dict[str, list[str]] = field(default_factory=dict)
    """The codes of the tables opened from each client address (its key)."""
    body_seconds: float = BODY_SECONDS
    """How long a request's body may take to arrive (:func:`read_body`)."""
    calls: Calls = field(default_factory=Calls)
    """The tables' voice calls (their STUN and TURN servers given by ``create_app``)."""

    async def body(self, request: Request) -> Any:
        """:func:`read_body` within this site's deadline."""
        return await read_body(request, self.body_seconds)

    def error(
        self, code: str, reason: str, status: int = 400, headers: dict[str, str] | None = None
    ) -> Response:
        """An HTTP refusal, counted."""
        self.service.metrics.error(code)
        return error_response(code, reason, status, headers)

    def refused(self, refused: Refused) -> Response:
        """The reply to a request over the lobby's limits (429, with ``Retry-After``)."""
        wait = retry_after(refused.retry_after)
        return self.error(refused.code, refused.reason, 429, {"Retry-After": wait})

    def share(self, code: str) -> Share:
        """The link to share for table ``code`` (never built from the request: see
        :mod:`~teenpatti.web.reach`)."""
        found = self.reach.link()
        return Share(url=f"{found.base}/t/{code}", local_only=found.local_only)

    def same_origin(self, request: Request) -> bool:
        """:func:`same_origin` with this server's public address."""
        return same_origin(request, self.reach.public_url)

    async def look_up(self, request: Request, token: str | None = None) -> LiveTable | Response:
        """The table a route names, under the lobby's limits; or the reply refusing it."""
        host, code = client_host(request), request.path_params["code"]
        try:
            self.lobby.check(host, code, token, read=request.method == "GET")
            return await self.service.find(code)
        except Refused as refused:
            return self.refused(refused)
        except Refusal as error:
            if error.code == "table/unknown":
                self.lobby.missed(host)
            return self.error(error.code, error.reason, status_of(error, 404))

    def live_tables(self, key: str | None = None) -> int:
        """How many tables are not finished: in this process, or opened from address ``key``."""
        tables = self.service.tables
        if key is None:
            return sum(live.table.status != "finished" for live in tables.values())
        codes = self.opened_by.get(key, [])
        codes[:] = [c for c in codes if c in tables and tables[c].table.status != "finished"]
        if not codes:
            self.opened_by.pop(key, None)
        return len(codes)


def site_of(connection: HTTPConnection) -> Site:
    """The app's :class:`Site`, from a request's or a socket's state (where the app's lifespan
    put it when the app started)."""
    site: Site = connection.state.site
    return site


def error_response(
    code: str, reason: str, status: int = 400, headers: dict[str, str] | None = None
) -> Response:
    """``{"error": {"code", "reason"}}`` with ``status``."""
    # ASCII JSON: a code or reason may quote what the client sent (an unknown rule's name), and
    # text that cannot be written as UTF-8 (a lone surrogate) must not turn the reply into a 500.
    body = json.dumps(msgspec.to_builtins(ErrorBody(error=ErrorDetail(code=code, reason=reason))))
    return Response(body, status_code=status, media_type="application/json", headers=headers)


class Gone(Exception):
    """The client went away while it sent its request: there is no one to answer."""


async def read_body(request: Request, deadline: float = BODY_SECONDS) -> Any:
    """A request's JSON body (at most :data:`MAX_MESSAGE` bytes, arrived within ``deadline``
    seconds), or :class:`TableError` (``message/content_type``, ``message/too_large``,
    ``message/json``, ``http/timeout``), or :class:`Gone`.

    The deadline is the app's own: ``teenpatti serve``'s edge has one too, but under another
    server (or a proxy that passes a slow body on as it comes) a ``Content-Length`` that never
    arrives would hold the request, and its table's lookup, for as long as the connection."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError("message/content_type", "send the request as application/json")
    raw = b""
    try:
        async with asyncio.timeout(deadline):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_MESSAGE:
                    raise TableError("message/too_large", "that request is too large")
    except ClientDisconnect:
        raise Gone from None
    except TimeoutError:
        raise TableError("http/timeout", "the request took too long to arrive") from None
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):  # bad JSON or UTF-8, or nested too deep to parse
        raise TableError("message/json", "send the request as a JSON object") from None


def status_of(error: EngineError | TableError, status: int = 400) -> int:
    """The HTTP status for a refusal: 503 when the store cannot be reached (try again), 404 for
    an unknown table, 415 for a body that is not JSON, 403 for a removed person sitting down
    again, else ``status``.

    >>> unknown, full = TableError("table/unknown", "no table"), TableError("table/full", "full")
    >>> status_of(unknown), status_of(full)
    (404, 400)
    """
    if getattr(error, "retryable", False):
        return 503
    codes = {"table/unknown": 404, "message/content_type": 415, "seat/removed": 403}
    return (codes | {"http/timeout": 408}).get(error.code, status)


def same_origin(request: Request, public_url: str | None) -> bool:
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


def bearer(request: Request) -> str | None:
    """The seat token of ``Authorization: Bearer <token>``, if sent."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def client_host(request: Request | WebSocket) -> str:
    """The client's address (``?`` when the server does not know it)."""
    return request.client.host if request.client else "?"
