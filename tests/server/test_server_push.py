"""Turn alerts by Web Push, end to end: a real server process sends them to the test's own push
service (``tests/support/push_service.py``), which checks each request's VAPID signature and
decrypts it with the phone's keys. Exactly the alerts expected arrive, through a game and a
restart; bad subscriptions are refused with their codes and keep nothing; a slow, dead or gone
push service never holds up a move."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.push_service import Phone, PushService, b64, running, unb64
from support.server import FAST, Client, Server, refusing_socket, stored

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.play.table import token_hash

MakeClient = Callable[..., Client]
Run = Callable[..., Any]


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with running() as service:
        yield service


def serve_with_push(tmp_path: Path, push: PushService, name: str = "data") -> Server:
    srv = Server(tmp_path / name, args=[*FAST, "--push-hosts", push.origin])
    srv.start()
    push.server_key = httpx.get(srv.http + "/api/push").json()["key"]
    return srv


async def subscribe(srv: Server, code: str, token: str | None, body: Any) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=srv.http, timeout=10) as http:
        return await http.post(f"/api/tables/{code}/push", json=body, headers=headers)


async def act(client: Client, token: str, do: str, until: Callable[[dict[str, Any]], bool]) -> None:
    """Open ``client``'s socket, make the move ``do`` on its turn, wait for ``until``, close."""
    state = await client.hello(token)
    if not (state["hand"] and state["hand"]["actor"] == client.seat and state["legal"]):
        state = await client.state(
            lambda s: bool(s["hand"]) and s["hand"]["actor"] == client.seat and bool(s["legal"])
        )
    await client.send({"type": "act", "action": {"do": do}, "version": state["version"]})
    await client.state(until)
    await client.close()


def kept(srv: Server, code: str, tokens: list[str]) -> tuple[int, list[str]]:
    """What the server's store keeps of table ``code``'s turn alerts, through its own API: how
    many subscriptions the holders of ``tokens`` have, and the alerts claimed, oldest first."""

    async def read(store: SqliteStore) -> tuple[int, list[str]]:
        found = await store.find(code)
        assert found is not None, code
        holders = [token_hash(token) for token in tokens]
        subscriptions = await store.push_subscriptions(found.table_id, holders)
        return len(subscriptions), await store.push_claims(found.table_id)

    return stored(srv.data / "teenpatti.sqlite3", read)


def metric(srv: Server, outcome: str) -> float:
    for line in httpx.get(srv.http + "/metrics").text.splitlines():
        if line.startswith(f'teenpatti_push_total{{outcome="{outcome}"}}'):
            return float(line.split()[-1])
    raise AssertionError(f"no push metric {outcome}")


def test_alerts_through_a_game_and_a_restart(
    tmp_path: Path, push_service: PushService, ws: MakeClient, arun: Run
) -> None:
    srv = serve_with_push(tmp_path, push_service)
    key = unb64(push_service.server_key or "")
    assert len(key) == 65 and key[0] == 4
    asha, bikash = push_service.phone("asha"), push_service.phone("bikash")

    async def first() -> tuple[str, dict[str, Any], dict[str, Any]]:
        host = await srv.api.create(name="Asha", preset="duo", seats=2, hands=2)
        code = host["code"]
        assert (await subscribe(srv, code, host["token"], asha.subscription())).status_code == 201
        guest = await srv.api.join(code, "Bikash")
        reply = await subscribe(srv, code, guest["token"], bikash.subscription())
        assert reply.status_code == 201
        # Asha starts the game with her page open: only Bikash is told; the first turn is his.
        me = ws(srv, code, 0, "asha")
        await me.hello(host["token"])
        await me.send({"type": "start"})
        await me.state(lambda s: bool(s["hand"]) and s["hand"]["actor"] == 1)
        await me.close()
        # Bikash packs; the second hand's first turn is Asha's (her page is closed).
        await act(
            ws(srv, code, 1, "bikash"),
            guest["token"],
            "pack",
            lambda s: bool(s["hand"]) and s["hand"]["number"] == 2,
        )
        return code, host, guest

    code, host, guest = arun(first(), 30)
    push_service.wait(lambda: len(push_service.received) == 4)
    srv.restart()  # nothing is alerted again
    push_service.server_key = httpx.get(srv.http + "/api/push").json()["key"]
    assert unb64(push_service.server_key) == key  # the key was kept in the data folder

    async def second() -> None:
        # Asha packs the last hand: the game is over, Bikash is told.
        await act(
            ws(srv, code, 0, "asha again"),
            host["token"],
            "pack",
            lambda s: s["status"] == "finished",
        )

    arun(second(), 30)
    push_service.wait(lambda: len(push_service.received) == 5)
    srv.close()  # a graceful stop sends what is on its way: the lists below are final
    table = {"table": code}
    # Alerts of different changes go side by side: they may arrive in any order.
    assert sorted(push_service.alerts(asha), key=lambda a: a["kind"]) == [
        {"kind": "join", "name": "Bikash", **table},
        {"kind": "turn", **table},
    ]
    # The game's start and its first turn are two alerts of two appends, sent side by side.
    assert sorted(push_service.alerts(bikash), key=lambda a: a["kind"]) == [
        {"kind": "end", **table},
        {"kind": "start", **table},
        {"kind": "turn", **table},
    ]
    subscriptions, claims = kept(srv, code, [host["token"], guest["token"]])
    assert subscriptions == 2
    # each alert's claim, once: join, start, two turns, end
    assert sorted(key.split(":")[0] for key in claims) == ["end", "join", "start", "turn", "turn"]


def test_bad_subscriptions_are_refused_and_keep_nothing(
    tmp_path: Path, push_service: PushService, arun: Run
) -> None:
    srv = serve_with_push(tmp_path, push_service)
    good = push_service.phone("good")

    def sub(**change: Any) -> dict[str, Any]:
        out = good.subscription()
        keys = {**out["keys"], **change.pop("keys", {})}
        return {**out, **change, "keys": keys}

    async def body() -> None:
        host = await srv.api.create(name="Asha", preset="duo", seats=2)
        code, token = host["code"], host["token"]
        timed = await srv.api.create(name="Asha", seats=2, turn_seconds=30)
        cases: list[tuple[Any, str | None, int, str]] = [
            (sub(), None, 403, "token/invalid"),
            (sub(), "not-a-token", 403, "token/invalid"),
            (sub(endpoint="https://10.0.0.7/push/1"), token, 400, "push/endpoint"),
            (
                sub(endpoint="https://fcm.googleapis.com.evil.example/x"),
                token,
                400,
                "push/endpoint",
            ),
            (sub(endpoint="http://fcm.googleapis.com/fcm/send/x"), token, 400, "push/endpoint"),
            (sub(endpoint="https://user@fcm.googleapis.com/x"), token, 400, "push/endpoint"),
            (sub(endpoint=push_service.origin + "x/p/1"), token, 400, "push/endpoint"),
            (sub(endpoint="https://fcm.googleapis.com/" + "x" * 1100), token, 400, "push/invalid"),
            (sub(endpoint=7), token, 400, "push/invalid"),
            (sub(keys={"p256dh": b64(b"\x04" + b"\x01" * 64)}), token, 400, "push/keys"),
            (sub(keys={"auth": b64(b"short")}), token, 400, "push/keys"),
            (sub(keys={"auth": None}), token, 400, "push/keys"),
            ([1, 2], token, 400, "push/invalid"),
            ({"endpoint": good.endpoint}, token, 400, "push/invalid"),
            ({"x": "y" * 5000}, token, 400, "message/too_large"),
        ]
        for data, who, status, code_expected in cases:
            reply = await subscribe(srv, code, who, data)
            assert (reply.status_code, reply.json()["error"]["code"]) == (status, code_expected), (
                data,
                reply.text,
            )
        reply = await subscribe(srv, timed["code"], timed["token"], good.subscription())
        assert (reply.status_code, reply.json()["error"]["code"]) == (409, "push/live")
        async with httpx.AsyncClient(base_url=srv.http, timeout=10) as http:
            reply = await http.post(
                f"/api/tables/{code}/push",
                json=good.subscription(),
                headers={"authorization": f"Bearer {token}", "origin": "https://evil.example"},
            )
            assert reply.json()["error"]["code"] == "origin/forbidden"
        # The one good subscription is kept, once however often it is sent; then forgotten.
        for _ in range(2):
            assert (await subscribe(srv, code, token, good.subscription())).status_code == 201
        assert kept(srv, code, [token])[0] == 1
        async with httpx.AsyncClient(base_url=srv.http, timeout=10) as http:
            reply = await http.request(
                "DELETE",
                f"/api/tables/{code}/push",
                json={"endpoint": good.endpoint},
                headers={"authorization": f"Bearer {token}"},
            )
        assert reply.status_code == 204
        assert kept(srv, code, [token])[0] == 0

    arun(body(), 30)
    srv.assert_healthy()
    srv.close()


def test_a_slow_dead_or_gone_push_service_never_holds_a_move(
    tmp_path: Path, push_service: PushService, ws: MakeClient, arun: Run
) -> None:
    refusing = refusing_socket()  # nothing listens there: a push service that is down
    closed = refusing.getsockname()[1]
    srv = Server(
        tmp_path / "data",
        args=[*FAST, "--push-hosts", f"{push_service.origin},http://127.0.0.1:{closed}"],
    )
    srv.start()
    push_service.server_key = httpx.get(srv.http + "/api/push").json()["key"]
    slow, gone = push_service.phone("slow"), push_service.phone("gone")
    slow.hold, gone.answer = threading.Event(), 410
    down = Phone("down", f"http://127.0.0.1:{closed}")

    codes: list[str] = []
    tokens: list[str] = []

    async def body() -> None:
        host = await srv.api.create(name="Asha", preset="duo", seats=2, hands=10)
        code = host["code"]
        codes.append(code)
        # Asha's page is open when Bikash joins: she sees him there, and no join alert is on
        # its way to the subscriptions she makes next (one that was would be held by the slow
        # service or not, as the race between its look-up and her subscribing went).
        me = ws(srv, code, 0, "asha")
        await me.hello(host["token"])
        guest = await srv.api.join(code, "Bikash")
        tokens.extend((host["token"], guest["token"]))
        for phone in (slow, gone):
            assert (
                await subscribe(srv, code, host["token"], phone.subscription())
            ).status_code == 201
        assert (await subscribe(srv, code, guest["token"], down.subscription())).status_code == 201
        await me.send({"type": "start"})
        await me.state(lambda s: bool(s["hand"]) and s["hand"]["actor"] == 1)
        await me.close()
        # Bikash packs: Asha's turn. Her slow service holds the alert; the other says 410.
        await act(
            ws(srv, code, 1, "bikash"),
            guest["token"],
            "pack",
            lambda s: bool(s["hand"]) and s["hand"]["number"] == 2,
        )
        await asyncio.to_thread(push_service.wait, lambda: push_service.held == 1)
        # While her alert hangs, Asha plays on: her move is answered, hands go on.
        await act(
            ws(srv, code, 0, "asha"),
            host["token"],
            "pack",
            lambda s: bool(s["hand"]) and s["hand"]["number"] == 3,
        )
        assert push_service.held == 1
        slow.hold.set()
        await asyncio.to_thread(push_service.wait, lambda: push_service.held == 0)

    arun(body(), 60)
    srv.assert_healthy()
    assert metric(srv, "gone") == 1
    assert metric(srv, "failed") >= 2  # Bikash's start and first turn, to a service that is down
    srv.close()
    refusing.close()
    assert kept(srv, codes[0], tokens)[0] == 2  # the gone one was forgotten
    assert push_service.alerts(gone) == []
    assert push_service.alerts(slow) == [{"kind": "turn", "table": codes[0]}]
