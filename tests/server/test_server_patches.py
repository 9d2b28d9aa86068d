"""Patches through a real ``teenpatti serve`` process over WebSocket: over a whole game, a client
that applies patches holds, after each message, exactly a whole state that a client of the same
seat taking whole states was sent (for two players and a spectator), no patch carries a card the
state it leads to does not show that seat, and a ``sync`` gets the whole state, and the next
update is whole too."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from teenpatti.tables.wire.patch import apply

if TYPE_CHECKING:
    from support.server import Api, Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]
CARD = re.compile(r'"([2-9TJQKA][cdhs]|X[12])"')


def cards_in(value: Any) -> set[str]:
    """Every card named in a state or a patch."""
    return set(CARD.findall(json.dumps(value)))


def canonical(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


async def patched(
    ws: MakeClient, server: Server, code: str, seat: int | None, token: Any
) -> Client:
    """A client that applies patches (the default, said here); returns once its first (whole)
    state came."""
    client = ws(server, code, seat, f"patched {seat}")
    await client.open()
    await client.send({"type": "hello", "token": token, "patches": True})
    first = await client.next()
    assert first["type"] == "state", first
    return client


def applied(client: Client) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Each message the client got, with the state it holds after it (patches applied)."""
    out = []
    held: dict[str, Any] | None = None
    for message in client.messages:
        if message["type"] == "state":
            held = message
        elif message["type"] == "patch":
            assert held is not None and message["from"] == held["version"], message
            after = apply(held, message["ops"])
            assert after["version"] == message["version"]
            assert cards_in(message["ops"]) <= cards_in(after) | cards_in(held), message
            problems = client.check(after, client.seat)
            assert not problems, problems
            held = after
        else:
            continue
        out.append((message, held))
    return out


async def _game(server: Server, api: Api, ws: MakeClient) -> dict[str, Any]:
    rng = random.Random(1515)
    made = await api.create(name="Asha", seats=4, preset="limited", hands=4, turn_seconds=None)
    code = made["code"]
    joined = await api.join(code, "Bikash")
    tokens = {0: made["token"], 1: joined["token"], None: None}
    whole = {seat: ws(server, code, seat, f"whole {seat}") for seat in tokens}
    for seat, client in whole.items():
        assert (await client.hello(tokens[seat], patches=False))["type"] == "state"
    patches = {seat: await patched(ws, server, code, seat, tokens[seat]) for seat in tokens}
    await whole[0].send({"type": "start"})
    await _play(whole, rng, lambda s: bool(s["hand"]) and s["hand"]["number"] >= 2)
    # a sync: the whole state, and the next update is whole too
    synced_at = len(patches[1].messages)
    await patches[1].send({"type": "sync"})
    done = await _play(whole, rng, lambda s: bool(s["status"] == "finished"))
    for client in patches.values():  # every patched client reaches the last version
        await client.next(lambda m: m["type"] in ("state", "patch") and m["version"] >= done)
    return {"whole": whole, "patches": patches, "synced_at": synced_at, "code": code}


async def _play(
    whole: dict[Any, Client], rng: random.Random, until: Callable[[dict[str, Any]], bool]
) -> int:
    """Both players play until ``until``; the last version either saw."""
    ends = await asyncio.gather(
        whole[0].play(rng, until, timeout=60), whole[1].play(rng, until, timeout=60)
    )
    return max(int(s["version"]) for s in ends)


def test_patched_clients_hold_the_whole_states(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    got = arun(_game(server, api, ws), 90)
    kinds = {"state": 0, "patch": 0}
    for seat, client in got["patches"].items():
        sent = {canonical(s) for s in got["whole"][seat].states()}
        steps = applied(client)
        for message, held in steps[1:]:  # the first answered its hello, to it alone
            kinds[message["type"]] += 1
            if message["type"] == "patch":  # (a whole state may answer a sync, to it alone)
                assert canonical(held) in sent, (seat, message["version"])
        assert steps[-1][1]["status"] == "finished"
    assert kinds["patch"] > 5 * kinds["state"], kinds
    # the sync's answer is the first whole state after it; the next message is whole too
    after = [m for m in got["patches"][1].messages[got["synced_at"] :] if m["type"] != "error"]
    first = next(i for i, m in enumerate(after) if m["type"] == "state")
    assert after[first + 1]["type"] == "state", after[first + 1]
    assert all(m["type"] == "state" for m in got["whole"][0].messages if "version" in m)
    server.assert_healthy()
