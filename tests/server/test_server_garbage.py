"""What a connection leaves for the garbage collector: nothing. ``teenpatti serve`` freezes what
is alive several times a second (``gc.freeze``, so that no collection walks every table), which
keeps whatever a reference cycle holds at that moment for good: a cycle made for each connection
would grow the server by every socket that ever opened. Here the app runs in this process under
uvicorn with the edge's HTTP and socket protocols (those ``teenpatti serve`` runs), the
collector off while sockets open, play and close, and a collection that keeps what it finds
(``gc.DEBUG_SAVEALL``) must find none of the connections' objects in a cycle."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import types
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import websockets
from support import in_loop
from support.server import Api

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import Timing
from teenpatti.web.app import create_app
from teenpatti.web.edge import Edge, EdgeLimits, protocols

FAST = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0)


@contextlib.asynccontextmanager
async def serving(db: Path) -> AsyncIterator[tuple[str, str]]:
    """The app over ``db`` in this event loop, behind the edge's protocols: ``(http, ws)``."""
    app = create_app(SqliteStore(db), timing=FAST, lobby_rate=(1000.0, 1000.0))
    http, ws = protocols(Edge(EdgeLimits()))
    async with in_loop.serving(app, http=http, ws=ws) as addresses:
        yield addresses


@contextlib.contextmanager
def collector_off() -> Iterator[list[Any]]:
    """The collector off inside; on leaving, the cycles made inside, kept (the list given)."""
    found: list[Any] = []
    gc.collect()
    gc.disable()
    try:
        yield found
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            gc.collect()
            found.extend(gc.garbage)
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()


async def _until(sock: Any, kind: str) -> dict[str, Any]:
    """The next message of type ``kind`` on ``sock`` (the table's news meanwhile read past)."""
    while True:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(sock.recv(), 10))
        if message["type"] == kind:
            return message


async def _play_and_close(base: str, ws: str) -> None:
    """A host opens a table for four, two friends join (and someone asks for a table that is
    not there); all three hold a socket through the deal and the computer's moves, one sends
    what is refused (an unknown message, a stale move), a chat line and a ping, two of them
    join the voice call and pass a signal; then they close."""
    lobby = Api(base)
    made = await lobby.create(name="Asha", seats=4)
    code = made["code"]
    seats = [made, *[await lobby.join(code, name) for name in ("Bikash", "Chandra")]]
    assert (await lobby.request("GET", "/api/tables/ZZZZZ9")).status_code == 404
    sockets = [await websockets.connect(f"{ws}/ws/{code}") for _ in seats]
    try:
        for sock, seat in zip(sockets, seats, strict=True):
            await sock.send(json.dumps({"type": "hello", "token": seat["token"]}))
            assert json.loads(await asyncio.wait_for(sock.recv(), 10))["type"] == "state"
        await sockets[0].send(json.dumps({"type": "start"}))
        for sock in sockets:  # every seat hears of the deal
            while json.loads(await asyncio.wait_for(sock.recv(), 10)).get("version", 0) < 6:
                pass
        talker = sockets[1]
        await talker.send(json.dumps({"type": "nonsense"}))
        assert (await _until(talker, "error"))["code"] == "message/unknown"
        await talker.send(json.dumps({"type": "act", "action": {"do": "pack"}, "version": 1}))
        assert (await _until(talker, "error"))["code"]
        await talker.send(json.dumps({"type": "chat", "text": "namaste"}))
        for sock in sockets[:2]:
            await sock.send(json.dumps({"type": "call", "join": True}))
            await _until(sock, "call")
        offer = {"type": "signal", "to": 0, "kind": "offer", "sdp": "v=0\r\nm=audio 9 x 111\r\n"}
        await talker.send(json.dumps(offer))
        assert (await _until(sockets[0], "signal"))["from"] == 1
        await talker.send(json.dumps({"type": "ping"}))
        await _until(talker, "pong")  # (the socket's messages are taken in order)
    finally:
        for sock in sockets:
            await sock.close()


def test_sockets_and_requests_leave_no_cycle(tmp_path: Path) -> None:
    async def scenario() -> list[Any]:
        async with serving(tmp_path / "tables.sqlite3") as (base, ws):
            with collector_off() as found:
                # A client's close returns once the server has closed the connection (the server
                # runs in this event loop: its side is done with it then).
                await _play_and_close(base, ws)
            return [o for o in found if _ours(o)]

    left = asyncio.run(scenario())
    assert left == [], f"{len(left)} of the server's objects were left in cycles: {left[:5]}"


def _ours(thing: Any) -> bool:
    """Whether ``thing`` is the project's: an instance of one of its classes (the edge's
    protocols among them), or one of its functions (a table's clock's callback, say)."""
    if isinstance(thing, types.FunctionType):
        return thing.__module__.startswith("teenpatti.")
    return type(thing).__module__.startswith("teenpatti.")
