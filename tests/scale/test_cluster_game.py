"""A game played across two ``teenpatti serve`` processes on one PostgreSQL and one Redis: the
table is opened on process A, two guests join and play through process B, the host plays through
A, computer players take the other seats, and the game is played to its standings. Every client
gets every version in order and only the cards its seat may see (checked on every message by the
``ws`` fixture); both processes tell the same story; the log in PostgreSQL has no gap and its
hand histories replay."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.cluster import (
    Client,
    Server,
    check_log,
    every_version_in_order,
    same_view,
    table_events,
)

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
Cli = Callable[..., subprocess.CompletedProcess[str]]
MakeCluster = Callable[..., list[Server]]


def finished(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "finished")


def test_a_game_played_across_two_processes(
    cluster: MakeCluster, pg_url: str, ws: MakeClient, arun: Run, cli: Cli, tmp_path: Path
) -> None:
    a, b = cluster(2)
    code, clients, spectators, hands = arun(_play(a, b, ws), 100)
    log = arun(table_events(pg_url, code), 30)

    # The log: versions 1..N, every event legal when it was appended, the game over.
    table = check_log(log)
    assert table.status == "finished"
    last = log[-1][0]
    movers = {e["seat"] for _, e in log if e["type"] == "act" and e["by"] == "person"}
    assert movers == {0, 1, 2}, movers  # the host (on A) and both guests (on B) moved
    assert any(e["type"] == "act" and e["by"] == "bot" for _, e in log)

    # Every client got every version, in order, up to the last one in the log.
    for client in [*clients, *spectators]:
        versions = [m["version"] for m in client.states()]
        assert every_version_in_order(versions), (client.label, versions)
        assert versions[-1] == last, client.label

    # Both processes tell the same story: the same final state to everyone, the same histories.
    final = [same_view(c.latest) for c in spectators if c.latest is not None]
    assert final[0] == final[1]
    standings = final[0]["standings"]
    for client in clients:
        assert client.latest is not None and client.latest["standings"] == standings
    assert hands["a"] == hands["b"]
    histories = hands["a"]
    assert table.game is not None and len(histories) == table.game.hands_played

    # The cards clients saw were the real ones (those of the histories).
    seen = 0
    for client in [*clients, *spectators]:
        for state in client.states():
            hand = state["hand"]
            if hand is None:
                continue
            history = histories[hand["number"] - 1]
            assert hand["commitment"] == history["commitment"]
            for row in state["seats"]:
                if row["cards"] is not None:
                    seen += 1
                    cards = history["seats"][row["seat"]]["cards"]
                    assert " ".join(row["cards"]) == cards, (client.label, state["version"])
    assert seen > 0

    # The histories verify and replay to their results.
    path = tmp_path / f"{code}.json"
    path.write_text(json.dumps(histories, ensure_ascii=False), encoding="utf-8")
    verified = cli("verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    replayed = cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    results = [json.loads(line) for line in replayed.stdout.splitlines()]
    assert results == [h["result"] for h in histories]
    for srv in (a, b):
        srv.assert_healthy()


async def _play(
    a: Server, b: Server, ws: MakeClient
) -> tuple[str, list[Client], list[Client], dict[str, list[dict[str, Any]]]]:
    host = await a.api.create(
        name="Asha", seats=5, preset="limited", hands=4, turn_seconds=None, bots="medium"
    )
    code = host["code"]
    # One guest joins through B, the other through A, and both play through B at once: behind
    # a round-robin balancer a socket lands where it lands, and a seat taken on A a moment ago
    # must be known on B before any announcement reaches it.
    clients = [
        ws(a, code, 0, "host on A"),
        ws(b, code, 1, "guest 1 on B"),
        ws(b, code, 2, "guest 2 on B"),
    ]
    tokens = [host["token"]]
    for srv, name, client in ((b, "Bikash", clients[1]), (a, "Chandra", clients[2])):
        joined = await srv.api.join(code, name)
        assert joined["seat"] == client.seat
        tokens.append(joined["token"])
        first = await client.hello(joined["token"])
        assert first["type"] == "state" and first["you"] == client.seat, first
    first = await clients[0].hello(host["token"])
    assert first["type"] == "state" and first["you"] == 0, first
    # The lobby of either process knows the table and its three people at once.
    for srv in (a, b):
        info = await srv.api.info(code)
        assert [s["name"] for s in info["seats"]] == ["Asha", "Bikash", "Chandra"]
    spectators = [ws(a, code, None, "spectator on A"), ws(b, code, None, "spectator on B")]
    for spectator in spectators:
        await spectator.hello(None)
    # Wait until each process has the three people seated before the host starts (the start
    # would be right anyway: a stale process catches up and checks the command again).
    host_state = clients[0].latest
    if host_state is None or len(host_state["seats"]) != 3:
        await clients[0].state(lambda s: len(s["seats"]) == 3, timeout=5)
    await clients[0].send({"type": "start"})
    rngs = [random.Random(31 * i + 5) for i in range(3)]
    await asyncio.gather(
        *(c.play(rng, finished, timeout=80) for c, rng in zip(clients, rngs, strict=True)),
        *(s.state(finished, timeout=80) for s in spectators),
    )
    hands = {"a": await a.api.hands(code), "b": await b.api.hands(code)}
    for client in [*clients, *spectators]:
        await client.close()
    return code, clients, spectators, hands
