"""Writes another process never announced: a process that died between its append and its
announcement, or a Redis that dropped the message (pub/sub is fire-and-forget). The log in
PostgreSQL is the truth: a person seated by such a write takes their seat on any process at
once, the lobby of every process shows them, and every socket is sent every version in order
once its process catches up (here: when a client or the lobby looks at the table). And Redis
itself restarted in the middle of a game."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import Callable
from typing import Any

from support.cluster import Client, Server, check_log, every_version_in_order, table_events
from support.server import steady
from support.services import RedisServer

from teenpatti.store.postgres import PostgresStore
from teenpatti.tables.play.events import decode, encode
from teenpatti.tables.play.table import Table

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
MakeCluster = Callable[..., list[Server]]


SHOW_SOON = ("see", "show", "chaal", "raise", "accept", "allin", "pack")
"""The steady player's order here: show soon, chaal before raise."""


def test_writes_never_announced_are_caught_up_from_the_store(
    cluster: MakeCluster, pg_url: str, ws: MakeClient, arun: Run
) -> None:
    a, b = cluster(2)

    async def body() -> None:
        host = await a.api.create(name="Asha", seats=4, turn_seconds=None, preset="limited")
        code = host["code"]
        watchers = {
            srv.data.name: ws(srv, code, None, f"spectator on {srv.data.name}") for srv in (a, b)
        }
        for watcher in watchers.values():
            assert (await watcher.hello(None))["version"] == 1

        # A third writer seats two people with two appends and dies before announcing them.
        store = await PostgresStore.open(pg_url)
        try:
            record = await store.find(code)
            assert record is not None
            table = Table(record.table_id, code)
            for event in await store.load(record.table_id):
                table.apply(decode(event.data))
            tokens = {}
            for name in ("Dipak", "Esha"):
                token = secrets.token_urlsafe(32)
                joined = table.join_event(name, token)
                await store.append(record.table_id, table.version, [encode(joined)])
                table.apply(joined)
                tokens[joined.seat] = token
        finally:
            await store.close()

        # Esha says hello to B, which never heard of her: B reads the log and seats her.
        esha = ws(b, code, 2, "Esha on B")
        state = await esha.hello(tokens[2])
        assert state["type"] == "state", state
        assert state["you"] == 2 and state["version"] == 3
        assert [s["name"] for s in state["seats"]] == ["Asha", "Dipak", "Esha"]
        # A's lobby shows them too; Dipak takes his seat on A.
        info = await a.api.info(code)
        assert [s["name"] for s in info["seats"]] == ["Asha", "Dipak", "Esha"]
        dipak = ws(a, code, 1, "Dipak on A")
        assert (await dipak.hello(tokens[1]))["you"] == 1

        # Each process's spectator was sent both versions it had missed, in order.
        for watcher in watchers.values():
            await watcher.state(lambda s: s["version"] == 3, timeout=5)
            versions = [m["version"] for m in watcher.states()]
            assert every_version_in_order(versions) and versions[-1] == 3, versions

        # And the game goes on from there: the host starts it on A, Esha sees it on B.
        opener = ws(a, code, 0, "host on A")
        await opener.hello(host["token"])
        await opener.send({"type": "start"})
        started = await esha.state(lambda s: s["status"] == "playing", timeout=10)
        assert [s["bot"] for s in started["seats"]] == [False, False, False, True]
        for client in [*watchers.values(), esha, dipak, opener]:
            await client.close()

    arun(body(), 60)
    for srv in (a, b):
        srv.assert_healthy()


def a_person_to_act(state: dict[str, Any]) -> bool:
    hand = state["hand"]
    return bool(
        hand is not None
        and not hand["finished"]
        and hand["actor"] in (0, 1)
        and len(hand["actions"]) >= 2
        and state["seats"][hand["actor"]]["seen"]
    )


def test_redis_restarted_mid_game(
    cluster: MakeCluster,
    pg_url: str,
    redis_server: RedisServer,
    ws: MakeClient,
    arun: Run,
) -> None:
    """Redis restarted in the middle of a hand, and a move made while it is down: the move is
    kept and its player sees it at once; the other process hears of it as soon as its bus is
    back (it catches every table up), the leases are taken again, and the game is played to
    its end with every client sent every version."""
    a, b = cluster(2)

    async def body() -> None:
        host = await a.api.create(
            name="Asha", seats=4, preset="limited", hands=3, turn_seconds=None, bots="random"
        )
        code = host["code"]
        guest = await b.api.join(code, "Bikash")
        players = [ws(a, code, 0, "host on A"), ws(b, code, 1, "guest on B")]
        await players[0].hello(host["token"])
        await players[1].hello(guest["token"])
        watchers = [ws(srv, code, None, f"spectator on {srv.data.name}") for srv in (a, b)]
        for watcher in watchers:
            await watcher.hello(None)
        await players[0].send({"type": "start"})
        stopped = await asyncio.gather(
            *(
                p.play(random.Random(p.seat), a_person_to_act, chooser=steady(p, SHOW_SOON))
                for p in players
            )
        )
        actor = players[stopped[0]["hand"]["actor"]]
        state = stopped[players.index(actor)]  # the state the actor chose from
        others = [c for c in [*players, *watchers] if c is not actor]

        # Redis goes away; the person to act moves while it is down.
        restart = asyncio.create_task(asyncio.to_thread(redis_server.restart, 2.0))
        for _ in range(100):
            if redis_server.command("PING") is None:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError("Redis did not go down")
        move = steady(actor, SHOW_SOON)(state)
        assert move is not None
        await actor.send(move)
        moved = await actor.state(lambda s: s["version"] > state["version"], timeout=5)
        assert moved["version"] == state["version"] + 1
        await restart
        # The other process hears of it once its bus is back.
        for client in others:
            await client.state(lambda s: s["version"] >= moved["version"], timeout=15)

        # And the game goes on to its end, clocks and all.
        await asyncio.gather(
            *(
                p.play(random.Random(p.seat + 9), finished, chooser=steady(p, SHOW_SOON))
                for p in players
            ),
            *(w.state(finished, timeout=60) for w in watchers),
        )
        for client in [*players, *watchers]:
            versions = [m["version"] for m in client.states()]
            assert every_version_in_order(versions), (client.label, versions)
            await client.close()
        check_log(await table_events(pg_url, code))

    arun(body(), 90)
    for srv in (a, b):
        srv.assert_healthy()


def finished(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "finished")
