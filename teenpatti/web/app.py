"""The ASGI app: :func:`create_app` wires the parts, each in a module of its own, and its lifespan
opens what they use (the store, the bus, the turn alerts' sender), makes the table service over
them and starts it, and closes them all again when the app stops, in one place:

- :mod:`~teenpatti.web.lobby`: the lobby's HTTP routes (JSON) and the page;
- :mod:`~teenpatti.web.session`: one WebSocket per client (the hello, the receive loop, sending);
- :mod:`~teenpatti.web.operations`: health, readiness and metrics;
- :mod:`~teenpatti.web.push`: the turn alerts' routes;
- :mod:`~teenpatti.web.site`: what they share (the service, the limits, HTTP refusals), made by
  the lifespan and handed to every request and socket in its state.

A test may build the app and run its lifespan itself (Starlette's ``app.router.lifespan_context``)
to reach the service it made: ``state["site"].service``.

See ``docs/protocol.md``.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..bus.base import Bus
from ..metrics import Metrics
from ..push.keep import StoreKeep
from ..push.sender import PushConfig, Pusher
from ..store.base import EventStore
from ..tables.live.service import TableService, Timing
from ..tables.live.table import LiveTable
from ..tables.live.time_source import Clock
from .call import Calls
from .headers import SecurityHeaders
from .ice import Ice
from .limits import Lobby
from .lobby import lobby_routes, rules_served
from .operations import operator_routes
from .push import push_routes
from .reach import Reach
from .session import send_queued, session_route
from .shell import shell_routes
from .site import BODY_SECONDS, MAX_MESSAGE, Site, TableLimits

__all__ = ["MAX_MESSAGE", "TableLimits", "create_app", "send_queued"]

STATIC = Path(__file__).parent / "static"


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
    push: Callable[[], Awaitable[PushConfig]] | None = None,
    ice: Ice | None = None,
    body_seconds: float = BODY_SECONDS,
) -> Starlette:
    """The app over ``store`` (or an async function that opens it when the app starts) and
    ``bus`` (an async function that opens it when the app starts; in-process when ``None``).
    Nothing is opened or started until the app's lifespan starts, and the lifespan closes what it
    opened (the store handed in too) when the app stops.

    ``lobby_rate`` limits the requests per client address that name a table, create one or open
    a socket, and ``lookup_misses`` the codes per address that name no table (see
    :class:`~teenpatti.web.limits.Lobby`); ``message_rate`` limits each socket's messages (a
    second, burst; under ``teenpatti serve`` its pings and pongs too), and a socket refused
    ``refusals`` times is closed (1008); a socket has ``hello_timeout`` seconds to say hello.
    ``tables`` caps the live tables. ``freeze_every`` (seconds) moves the objects alive then out of
    the garbage collector's sight (``gc.freeze``): with thousands of tables, a full collection of
    long-lived tables would otherwise pause every table for hundreds of milliseconds, and so would
    a young one that found every state rendered since the last freeze (see :func:`_freeze_every`).
    ``reach`` says where friends reach the server: the links and QR codes to share are built from
    it (see :mod:`teenpatti.web.reach`). ``clock`` is the service's time: turn timers, graces,
    deals and the reconciler's and lease keeper's rounds (the system's clock when ``None``; tests
    hand in a :class:`~teenpatti.tables.live.time_source.ManualClock` and move it).
    ``push`` (an async function giving the VAPID keys and settings; subscriptions and claims
    are kept by the store) turns on turn alerts for play-anytime tables (see
    :mod:`teenpatti.push`). ``ice`` names the STUN and TURN servers of the tables' voice calls
    (see :mod:`teenpatti.web.ice`; none: the phones of one network still talk to each other).
    A request's body has ``body_seconds`` to arrive, or it is answered ``408 http/timeout``."""
    rules = rules_served()  # the same for every request: built once

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[dict[str, Site]]:
        # Everything the app opens is opened here and closed here, in the reverse order
        # (whatever fails on the way: what was opened before it is closed).
        async with contextlib.AsyncExitStack() as opened:
            events = await store() if callable(store) else store
            opened.push_async_callback(events.close)
            metrics = Metrics()
            pusher = None
            if push is not None:
                pusher = Pusher(await push(), StoreKeep(events), metrics, LiveTable.connected)
                opened.push_async_callback(pusher.close)
            shared = await bus() if bus is not None else None
            service = TableService(events, timing, clock, shared, metrics, alerts=pusher)
            opened.push_async_callback(service.stop)  # (it closes the bus)
            await service.start()
            if freeze_every:
                freezer = asyncio.create_task(_freeze_every(freeze_every))
                opened.callback(freezer.cancel)
            site = Site(
                service,
                reach or Reach(),
                Lobby(lobby_rate, lookup_misses),
                tables or TableLimits(),
                pusher=pusher,
                calls=Calls(ice, service.clock.time),
                body_seconds=body_seconds,
            )
            yield {"site": site}  # in every request's and socket's state (site_of)

    routes: list[Any] = [
        *operator_routes(),
        *lobby_routes(rules, STATIC),
        session_route(message_rate, refusals, hello_timeout),
        *push_routes(),
    ]
    if STATIC.is_dir():
        routes += shell_routes(STATIC)
        routes.append(Mount("/static", StaticFiles(directory=STATIC), name="static"))
    middleware = [Middleware(SecurityHeaders), Middleware(_NoCache)]
    return Starlette(routes=routes, lifespan=lifespan, middleware=middleware)


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
    stop being scanned by the collector, so no full collection walks every table.

    Often, because each move leaves new objects alive (the states just rendered) in place of frozen
    ones it frees: the collector counts allocations less deallocations, so its young generation can
    hold a whole second's states (165,000-210,000 objects at 2,000 tables at a move a second each)
    before a collection walks them all, for 140-190 ms. Frozen every quarter of a second, it holds
    at most a quarter of that, and in the load test no collection of 5 ms or more came at all
    (bench/load/README.md). A cycle of garbage frozen this way would only be freed at exit: the
    server leaves none behind a connection or a table's clock
    (``tests/server/test_server_garbage.py``), and most garbage is freed by reference counting.
    """
    while True:
        gc.freeze()  # moves the generations' lists aside: it costs nothing, however many
        await asyncio.sleep(seconds)
