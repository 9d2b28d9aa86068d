"""The host's say and the chat across two ``teenpatti serve`` processes on one PostgreSQL and one
Redis: the host on process A pauses the game, changes the chat setting and removes a guest whose
socket is on process B (B tells that socket and closes it, and refuses the token from then on); a
chat message sent through B reaches A; every client gets every version in order."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from support.cluster import Client, Server, every_version_in_order

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
MakeCluster = Callable[..., list[Server]]


def test_host_commands_and_chat_across_two_processes(
    cluster: MakeCluster, ws: MakeClient, arun: Run
) -> None:
    a, b = cluster(2)
    clients = arun(_go(a, b, ws), 60)
    for client in clients:
        versions = [m["version"] for m in client.states()]
        assert every_version_in_order(versions), (client.label, versions)
    for srv in (a, b):
        srv.assert_healthy()


async def _go(a: Server, b: Server, ws: MakeClient) -> list[Client]:
    host = await a.api.create(name="Asha", seats=4, preset="limited", hands=3, turn_seconds=None)
    code = host["code"]
    first = await b.api.join(code, "Bikash")
    second = await b.api.join(code, "Chandra")
    on_a = ws(a, code, 0, "host on A")
    guest = ws(b, code, 1, "guest on B")
    other = ws(b, code, 2, "guest 2 on B")
    await on_a.hello(host["token"])
    await guest.hello(first["token"])
    await other.hello(second["token"])
    await on_a.state(lambda s: len(s["seats"]) == 3)
    await on_a.send({"type": "start"})
    await guest.state(lambda s: s["status"] == "playing")

    await on_a.send({"type": "pause"})
    await guest.state(lambda s: s["paused"])
    await on_a.send({"type": "configure", "chat": False})
    await guest.state(lambda s: s["settings"]["chat"] is False)
    assert (await guest.request({"type": "chat", "text": "hi"}))["code"] == "chat/text_off"
    await guest.send({"type": "chat", "phrase": "ramro_khel"})
    said = await on_a.state(lambda s: len(s["chat"]) == 1)
    assert said["chat"][0] == {"n": 1, "seat": 1, "kind": "phrase", "text": "ramro_khel"}

    await on_a.send({"type": "remove", "seat": 1})
    gone = await guest.next(lambda m: m["type"] == "error", timeout=10)
    assert gone["code"] == "seat/removed"
    await guest.wait_closed(timeout=10)
    again = ws(b, code, 1, "removed on B")
    assert (await again.hello(first["token"]))["code"] == "seat/removed"
    state = await other.state(lambda s: s["seats"][1]["person"] is False)
    assert state["seats"][1]["bot"] and state["paused"]
    await on_a.send({"type": "resume"})
    await other.state(lambda s: not s["paused"])
    for client in (on_a, other):
        await client.close()
    return [on_a, other]
