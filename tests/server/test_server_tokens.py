"""A removed player reads nothing: every route of the app and the socket, with the token of a
person who no longer holds a seat.

The routes are taken from the app's own route table, and each must be classed here (a new
route fails the test until it is): a route that takes a seat token refuses the stale one with
``seat/removed`` or ``seat/left``; joining refuses a removed person's old token until the host
lets them back; every other route answers a stale token as it answers no token. The socket is
opened with the stale token and sends one message of each type after its hello: the hello is
refused and nothing else is answered. The tokens: Bob's, removed by the host (then with his
seat taken by a latecomer, then let back), and Chandra's, who gave up her seat."""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import websockets
from starlette.routing import Mount, Route, WebSocketRoute
from support import in_loop

from teenpatti.push.keys import VapidKeys
from teenpatti.push.sender import PushConfig
from teenpatti.push.subscription import PushHosts
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import Timing
from teenpatti.tables.play.commands import convert
from teenpatti.web.app import create_app

FAST = Timing(bot_delay=(0.05, 0.05), result_pause=0.1, first_deal=0.05, reconnect_grace=5.0)

TAKES_TOKEN = {
    ("GET", "/api/tables/{code}/hands"),
    ("POST", "/api/tables/{code}/push"),
    ("DELETE", "/api/tables/{code}/push"),
}
"""Routes that read a seat token: a stale one is refused."""

JOIN = ("POST", "/api/tables/{code}/join")
"""Joining reads the old token of the phone: a removed person's is refused until let back."""

NO_TOKEN = {
    ("GET", "/"),
    ("GET", "/t/{code}"),
    ("GET", "/api/rules"),
    ("POST", "/api/tables"),
    ("GET", "/api/tables/{code}"),
    ("GET", "/api/tables/{code}/qr.svg"),
    ("GET", "/api/push"),
    ("GET", "/healthz"),
    ("GET", "/readyz"),
    ("GET", "/metrics"),
    ("GET", "/sw.js"),
}
"""Routes that read no token (besides the page's own files at the top, by name): a stale one
changes nothing."""

SOCKET = [
    {"type": "start"},
    {"type": "act", "action": {"do": "pack"}},
    {"type": "again"},
    {"type": "leave"},
    {"type": "remove", "seat": 0},
    {"type": "readmit", "name": "Asha"},
    {"type": "rebuy"},
    {"type": "pause"},
    {"type": "resume"},
    {"type": "configure", "chat": False},
    {"type": "chat", "text": "still here"},
    {"type": "part", "for": "0" * 64, "part": "1" * 64},
    {"type": "call", "join": True},
    {"type": "signal", "to": 0, "kind": "offer", "sdp": "v=0"},
    {"type": "sync"},
    {"type": "ping"},
]

SUBSCRIPTION = {
    "endpoint": "https://fcm.googleapis.com/fcm/send/x",
    "keys": {"p256dh": "BOr0" + "A" * 83, "auth": "A" * 22},
}


def routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) of the app (HEAD aside: it is GET's)."""
    out = []
    for route in app.routes:
        if isinstance(route, Route):
            out += [(m, route.path) for m in sorted(route.methods or ()) if m != "HEAD"]
        elif isinstance(route, WebSocketRoute):
            out.append(("WS", route.path))
        else:
            assert isinstance(route, Mount) and route.path == "/static", route
    return out


async def socket_refused(ws: str, code: str, token: str, expected: str) -> None:
    async with websockets.connect(f"{ws}/ws/{code}") as sock:
        await sock.send(json.dumps({"type": "hello", "token": token}))
        for message in SOCKET:
            with contextlib.suppress(websockets.ConnectionClosed):
                await sock.send(json.dumps(message))
        answers = []
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                answers.append(json.loads(await asyncio.wait_for(sock.recv(), 10)))
    assert [(a["type"], a.get("code")) for a in answers] == [("error", expected)], answers


def test_a_stale_token_is_refused_by_every_route(tmp_path: Path) -> None:
    keys = VapidKeys.load_or_make(tmp_path)

    async def push() -> PushConfig:
        return PushConfig(keys, hosts=PushHosts.default())

    app = create_app(
        SqliteStore(tmp_path / "tables.sqlite3"),
        timing=FAST,
        lobby_rate=(1000.0, 1000.0),
        lookup_misses=(1000.0, 1000.0),
        push=push,
    )
    table = routes(app)
    shell = {(m, p) for m, p in table if m == "GET" and "{" not in p and "." in p}
    unclassed = set(table) - TAKES_TOKEN - NO_TOKEN - shell - {JOIN, ("WS", "/ws/{code}")}
    assert not unclassed, f"routes this test does not know: {unclassed}"

    async def body() -> None:
        started = in_loop.Started(app)
        async with (
            in_loop.serving(started) as (http, ws),
            httpx.AsyncClient(base_url=http, timeout=10) as client,
        ):
            service = started.site.service
            made = await client.post(
                "/api/tables",
                json={"name": "Asha", "seats": 5, "play": "anytime", "late": True},
            )
            code = made.json()["code"]
            bob = (await client.post(f"/api/tables/{code}/join", json={"name": "Bob"})).json()
            chandra = (
                await client.post(f"/api/tables/{code}/join", json={"name": "Chandra"})
            ).json()
            await service.command(code, 0, convert({"type": "start"}))
            await service.command(code, 0, convert({"type": "remove", "seat": bob["seat"]}))
            await service.command(code, chandra["seat"], convert({"type": "leave"}))
            guests = iter(range(100))

            async def ask(method: str, path: str, token: str | None) -> httpx.Response:
                url = path.replace("{code}", code)
                headers = {"authorization": f"Bearer {token}"} if token else {}
                data: Any = {}
                if path.endswith("/push"):
                    data = SUBSCRIPTION if method == "POST" else {"endpoint": "https://x.y/z"}
                elif path == "/api/tables":
                    data = {"name": "Dia"}
                elif path.endswith("/join"):
                    data = {"name": f"Guest {next(guests)}"}
                return await client.request(method, url, json=data, headers=headers)

            async def check(token: str, expected: str, readmitted: bool) -> None:
                for method, path in table:
                    if (method, path) == ("WS", "/ws/{code}"):
                        await socket_refused(ws, code, token, expected)
                        continue
                    stale = await ask(method, path, token)
                    where = (method, path, stale.status_code, stale.text[:200])
                    if (method, path) in TAKES_TOKEN or ((method, path) == JOIN and not readmitted):
                        assert stale.status_code == 403, where
                        assert stale.json()["error"]["code"] == expected, where
                    elif (method, path) == JOIN:
                        assert stale.json().get("token") != token, where
                    else:
                        fresh = await ask(method, path, None)
                        assert stale.status_code == fresh.status_code, where

            await check(bob["token"], "seat/removed", readmitted=False)
            await check(chandra["token"], "seat/left", readmitted=True)
            # Chandra's phone sat down anew (a guest's name) in Bob's old seat, the first free
            seat = service.tables[code].table.seats[bob["seat"]]
            assert seat.name.startswith("Guest") and seat.token_hash is not None
            await check(bob["token"], "seat/removed", readmitted=False)
            await service.command(code, 0, convert({"type": "readmit", "name": "Bob"}))
            await check(bob["token"], "seat/removed", readmitted=True)

    asyncio.run(asyncio.wait_for(body(), 120))
