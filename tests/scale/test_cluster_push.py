"""Turn alerts from two ``teenpatti serve`` processes on one PostgreSQL and one Redis: each
change is alerted by the process that wrote it, once, and the claims in PostgreSQL stop a second
send. The test's push service (``tests/support/push_service.py``) checks every request's VAPID
signature against the one key both processes were given, and decrypts it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from support.cluster import FAST, Client, Server
from support.push_service import PushService, running

from teenpatti.store.postgres import PostgresStore

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
MakeCluster = Callable[..., list[Server]]


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with running() as service:
        yield service


async def claims(pg_url: str, code: str) -> list[str]:
    """The kinds of the alerts claimed at table ``code``, through the store's own API."""
    store = await PostgresStore.open(pg_url, max_size=1)
    try:
        found = await store.find(code)
        assert found is not None, code
        return sorted(key.split(":")[0] for key in await store.push_claims(found.table_id))
    finally:
        await store.close()


def test_two_processes_alert_each_change_once(
    cluster: MakeCluster, pg_url: str, push_service: Any, ws: MakeClient, arun: Run, tmp_path: Path
) -> None:
    key_file = tmp_path / "vapid.pem"
    key_file.write_bytes(
        ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    a, b = cluster(
        2, args=[*FAST, "--push-hosts", push_service.origin, "--vapid-key", str(key_file)]
    )
    keys = {httpx.get(srv.http + "/api/push").json()["key"] for srv in (a, b)}
    assert len(keys) == 1  # one key for the whole server
    push_service.server_key = keys.pop()
    asha, bikash = push_service.phone("asha"), push_service.phone("bikash")

    async def body() -> str:
        host = await a.api.create(name="Asha", preset="duo", seats=2, hands=2)
        code = host["code"]
        reply = await subscribe(a, code, host["token"], asha.subscription())
        assert reply.status_code == 201, reply.text
        guest = await b.api.join(code, "Bikash")  # written by B: B tells Asha
        reply = await subscribe(b, code, guest["token"], bikash.subscription())
        assert reply.status_code == 201, reply.text
        me = ws(a.ws, code, 0, "asha on A")
        await me.hello(host["token"])
        await me.send({"type": "start"})
        await me.state(lambda s: bool(s["hand"]) and s["hand"]["actor"] == 1)
        await me.close()
        them = ws(b.ws, code, 1, "bikash on B")
        state = await them.hello(guest["token"])

        def ready(s: dict[str, Any]) -> bool:  # his turn, and B knows Asha's page is closed
            hand, legal, asha_here = s["hand"], s["legal"], s["seats"][0]["connected"]
            return bool(hand) and hand["actor"] == 1 and bool(legal) and not asha_here

        if not ready(state):
            state = await them.state(ready, timeout=10)
        await them.send({"type": "act", "action": {"do": "pack"}, "version": state["version"]})
        await them.state(lambda s: bool(s["hand"]) and s["hand"]["number"] == 2)
        await them.close()
        return code

    code = arun(body(), 60)
    push_service.wait(lambda: len(push_service.received) == 4)
    a.stop()
    b.stop()  # graceful stops send what is on their way: the lists below are final
    table = {"table": code}
    assert sorted(push_service.alerts(asha), key=lambda x: x["kind"]) == [
        {"kind": "join", "name": "Bikash", **table},
        {"kind": "turn", **table},
    ]
    assert sorted(push_service.alerts(bikash), key=lambda x: x["kind"]) == [
        {"kind": "start", **table},
        {"kind": "turn", **table},
    ]
    assert arun(claims(pg_url, code), 10) == ["join", "start", "turn", "turn"]


async def subscribe(srv: Server, code: str, token: str, body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=srv.http, timeout=10) as http:
        return await http.post(
            f"/api/tables/{code}/push", json=body, headers={"authorization": f"Bearer {token}"}
        )
