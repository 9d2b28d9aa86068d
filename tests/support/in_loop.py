"""The app under uvicorn in the test's own event loop, for the tests that look into the server
while it runs (a clock the test moves, the objects it leaves to the garbage collector): on a
loopback socket the kernel chose, served until the block ends. :class:`Started` keeps what the
app's lifespan made (its ``site``: the service, ...) for a test to look at."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import uvicorn
from starlette.types import ASGIApp, Receive, Scope, Send

from support.server import listening_socket
from teenpatti.web.site import Site


class Started:
    """An app that keeps the state its lifespan gave when the server started it (what the app
    hands every request), so a test can reach the :class:`Site` the app made."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.state: dict[str, Any] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            self.state = scope["state"]  # the lifespan's state is put into this very dict
        await self.app(scope, receive, send)

    @property
    def site(self) -> Site:
        """The app's shared parts (once it has started)."""
        site: Site = self.state["site"]
        return site


@contextlib.asynccontextmanager
async def serving(app: Any, **config: Any) -> AsyncIterator[tuple[str, str]]:
    """Serve ``app`` in this event loop: ``(http, ws)``, its base addresses. ``config``: more
    of uvicorn's settings (``ws_max_size``, the ``http`` and ``ws`` protocols...)."""
    sock = listening_socket()
    port = sock.getsockname()[1]
    settings: dict[str, Any] = {
        "ws": "websockets-sansio",
        "ws_per_message_deflate": False,
        "log_level": "warning",
        "lifespan": "on",
        **config,
    }
    server = uvicorn.Server(uvicorn.Config(app, **settings))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    http = f"http://127.0.0.1:{port}"
    try:
        # The first request waits in the socket's backlog until the server is up.
        ready = asyncio.ensure_future(_rules(http))
        await asyncio.wait({task, ready}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
        if not ready.done():
            ready.cancel()
        assert ready.done() and not task.done(), "the server stopped at start"
        ready.result()  # the app answered
        yield http, f"ws://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await asyncio.wait_for(task, 10)
        sock.close()


async def _rules(http: str) -> None:
    async with httpx.AsyncClient(base_url=http, timeout=10) as client:
        reply = await client.get("/api/rules")
    assert reply.status_code == 200, reply.text
