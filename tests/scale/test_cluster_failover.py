"""One of two ``teenpatti serve`` processes killed with SIGKILL in the middle of a hand: the one
holding the table's lease (its clocks: deals, computer players). The people whose sockets were
on it say hello to the survivor with their tokens and get the whole state back, exactly as it
was; the survivor takes the lease and the clocks over within a few seconds (the computer players
move again, the next hands are dealt); the game is finished there, and nothing is lost: the log
has no gap, what was stored before the kill is unchanged, and the hand histories (the one in
play at the kill too) verify and replay."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.cluster import (
    Client,
    Server,
    check_log,
    every_version_in_order,
    lease_holder,
    same_view,
    stored_log,
    table_events,
)
from support.server import steady

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
Cli = Callable[..., subprocess.CompletedProcess[str]]
MakeCluster = Callable[..., list[Server]]
PEOPLE = (0, 1, 2)
TAKEOVER_LIMIT = 12.0
"""Seconds from the kill to the survivor's first clock event: the lease's 3 s to live, the 1 s
between attempts to take it, and room for a loaded machine."""


def mid_first_hand(state: dict[str, Any]) -> bool:
    """Hand 1 in play, a few moves made, and a person to act (nothing moves until they do)."""
    hand = state["hand"]
    return bool(
        hand is not None
        and hand["number"] == 1
        and not hand["finished"]
        and hand["actor"] in PEOPLE
        and len(hand["actions"]) >= 3
    )


def finished(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "finished")


def moves(actions: list[dict[str, Any]]) -> list[tuple[int, str]]:
    return [(a["seat"], a["do"]) for a in actions]


def test_the_lease_holder_killed_mid_hand_and_the_game_finished_on_the_other(
    cluster: MakeCluster,
    pg_url: str,
    redis_url: str,
    ws: MakeClient,
    arun: Run,
    cli: Cli,
    tmp_path: Path,
) -> None:
    a, b = cluster(2)
    found = arun(_failover(a, b, pg_url, redis_url, ws), 110)
    code, histories = found["code"], found["histories"]
    survivor: Server = found["survivor"]

    # The clocks came back within a few seconds of the kill, on the survivor.
    print(f"clocks back on the survivor {found['takeover_s']:.1f} s after the kill")
    assert found["takeover_s"] < TAKEOVER_LIMIT, found["takeover_s"]
    assert found["holder_after"] == survivor.proc.pid if survivor.proc else False

    # Nothing was lost: the log before the kill is unchanged, the whole log replays with no gap,
    # and after the kill the clocks dealt again and the computer players moved again.
    before, after = found["log_before"], found["log_after"]
    assert after[: len(before)] == before
    check_log(after)
    later = [e for _, e in after[len(before) :]]
    assert any(e["type"] == "hand" for e in later), "no deal after the kill"
    assert any(e["type"] == "act" and e["by"] == "bot" for e in later), "no computer move"

    # The hand in play at the kill was finished with every move made before it.
    pre = found["pre_kill"]
    hand = pre[0]["hand"]
    history = histories[hand["number"] - 1]
    assert moves(history["actions"][: len(hand["actions"])]) == moves(hand["actions"])
    assert history["commitment"] == hand["commitment"]
    for seat in PEOPLE:
        cards = pre[seat]["seats"][seat]["cards"]
        if cards is not None:
            assert history["seats"][seat]["cards"] == " ".join(cards)

    # Every client got every version in order (those that moved: from their hello on).
    for client in found["clients"]:
        versions = [m["version"] for m in client.states()]
        assert versions and every_version_in_order(versions), (client.label, versions)

    path = tmp_path / f"{code}.json"
    path.write_text(json.dumps(histories, ensure_ascii=False), encoding="utf-8")
    replayed = cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert [json.loads(line) for line in replayed.stdout.splitlines()] == [
        h["result"] for h in histories
    ]
    verified = cli("verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    survivor.assert_healthy()


async def _failover(
    a: Server, b: Server, pg_url: str, redis_url: str, ws: MakeClient
) -> dict[str, Any]:
    host = await a.api.create(
        name="Asha", seats=5, preset="limited", hands=3, turn_seconds=None, bots="medium"
    )
    code = host["code"]
    g1 = await b.api.join(code, "Bikash")
    g2 = await a.api.join(code, "Chandra")
    tokens = {0: host["token"], 1: g1["token"], 2: g2["token"]}
    where = {0: a, 1: b, 2: a}
    clients = {
        seat: ws(where[seat], code, seat, f"seat {seat} on {where[seat].data.name}")
        for seat in PEOPLE
    }
    for seat, client in clients.items():
        await client.hello(tokens[seat])
    spectators = {
        srv.data.name: ws(srv, code, None, f"spectator on {srv.data.name}") for srv in (a, b)
    }
    for spectator in spectators.values():
        await spectator.hello(None)
    latest = clients[0].latest
    if latest is None or len(latest["seats"]) != 3:
        await clients[0].state(lambda s: len(s["seats"]) == 3, timeout=5)
    await clients[0].send({"type": "start"})
    rngs = {seat: random.Random(seat + 11) for seat in PEOPLE}
    stopped = await asyncio.gather(
        *(
            c.play(rngs[s], mid_first_hand, chooser=steady(c), timeout=30)
            for s, c in clients.items()
        )
    )
    assert len({s["version"] for s in stopped}) == 1, [s["version"] for s in stopped]
    pre = {seat: same_view(await c.sync()) for seat, c in clients.items()}
    version = pre[0]["version"]
    log_before = await table_events(pg_url, code)
    assert log_before[-1][0] == version

    # Kill the process that runs the table's clocks (the one holding its lease).
    holder = lease_holder(redis_url, code)
    pids = {srv.proc.pid: srv for srv in (a, b) if srv.proc is not None}
    assert holder in pids, (holder, list(pids))
    killed = pids[holder]
    survivor = b if killed is a else a
    killed_at = time.time()
    killed.kill()
    assert not killed.alive

    # Its clients find their sockets closed and say hello to the survivor with their tokens:
    # the whole state, exactly as it was.
    playing: dict[int, Client] = {}
    for seat, client in clients.items():
        if where[seat] is killed:
            await client.wait_closed(timeout=10)
            again = ws(survivor, code, seat, f"seat {seat} moved to {survivor.data.name}")
            state = await again.hello(tokens[seat])
            assert state["type"] == "state"
            assert same_view(state) == pre[seat], seat
            playing[seat] = again
        else:
            playing[seat] = client
    watcher = spectators[survivor.data.name]

    async def takeover() -> tuple[float, int | None]:
        """Wait until the survivor holds the lease; seconds since the kill."""
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            holder_now = lease_holder(redis_url, code)
            if holder_now == (survivor.proc.pid if survivor.proc else None):
                return time.time() - killed_at, holder_now
            await asyncio.sleep(0.1)
        return float("inf"), lease_holder(redis_url, code)

    rngs = {seat: random.Random(seat + 101) for seat in PEOPLE}
    took, *_ = await asyncio.gather(
        takeover(),
        *(c.play(rngs[s], finished, chooser=steady(c), timeout=60) for s, c in playing.items()),
        watcher.state(finished, timeout=60),
    )
    log_after = await table_events(pg_url, code)
    clock_events = [
        e
        for v, e in log_after
        if v > version and (e["type"] == "hand" or e.get("by") in ("bot", "timer"))
    ]
    first_clock = await _event_time(pg_url, code, version, clock_events)
    histories = await survivor.api.hands(code)
    for client in [*clients.values(), *playing.values(), *spectators.values()]:
        await client.close()
    return {
        "code": code,
        "survivor": survivor,
        "takeover_s": max(took[0], first_clock - killed_at),
        "holder_after": took[1],
        "log_before": log_before,
        "log_after": log_after,
        "pre_kill": pre,
        "histories": histories,
        "clients": [*playing.values(), watcher],
    }


async def _event_time(
    pg_url: str, code: str, version: int, clock_events: list[dict[str, Any]]
) -> float:
    """When the first clock event after ``version`` was stored (epoch seconds)."""
    assert clock_events, "no clock fired after the kill"
    return min(
        event.at
        for event in await stored_log(pg_url, code)
        if event.version > version
        and (event.data["type"] == "hand" or event.data.get("by") in ("bot", "timer"))
    )
