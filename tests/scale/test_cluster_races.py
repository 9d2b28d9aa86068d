"""Races between two ``teenpatti serve`` processes on one PostgreSQL and one Redis.

- Two moves for the same seat sent at the same instant through the two processes (a person with
  two devices, each on another process): exactly one applies, the other is refused, whether the
  moves carry the version they were chosen at or not.
- Clocks fire once: a table of computer players only, whose lease the test keeps taking away
  from its holder (deleted, or handed to the other process), so that for a moment both processes
  believe they run its clocks. The log still holds one event per version, no second deal while a
  hand is in play, no computer move out of turn (none twice for one turn), and the game ends with
  hand histories that replay. Beside it, a table whose host never comes: the turn timer plays
  the seat, once a turn.
"""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import redis.asyncio as aioredis
from support.cluster import (
    Client,
    Server,
    check_log,
    every_version_in_order,
    lease_key,
    table_events,
)
from support.server import NO_MESSAGE_LIMIT, steady

Run = Callable[..., Any]
MakeClient = Callable[..., Client]
Cli = Callable[..., subprocess.CompletedProcess[str]]
MakeCluster = Callable[..., list[Server]]
RACES = 12
TURN_MOVES = ("chaal", "raise", "show", "pack", "allin")
"""Moves that use the turn (``see`` does not: two of those would both be right)."""


# ---------------------------------------------------------------------- one seat, two processes
CHAAL_FIRST = ("see", "chaal", "raise", "show", "accept", "allin", "pack")
"""The steady player's order here: chaal first, so hands last a few turns."""


def test_two_moves_for_one_seat_racing_on_two_processes(
    cluster: MakeCluster, pg_url: str, ws: MakeClient, arun: Run
) -> None:
    a, b = cluster(2)
    code, races = arun(_race(a, b, ws), 90)
    log = arun(table_events(pg_url, code), 30)
    check_log(log)
    events = {v: e for v, e in log}
    for race in races:
        v = race["version"]
        won = events[v + 1]
        assert won["type"] == "act" and won["seat"] == 0, (race, won)
        assert won["action"]["do"] == race["moves"][race["winner"]], (race, won)
        after = events.get(v + 2)
        assert after is None or not (after["type"] == "act" and after["seat"] == 0), (race, after)
    assert {r["versioned"] for r in races} == {True, False}
    assert len({r["winner"] for r in races}) == 2, races  # each process won some
    for srv in (a, b):
        srv.assert_healthy()


async def _race(a: Server, b: Server, ws: MakeClient) -> tuple[str, list[dict[str, Any]]]:
    host = await a.api.create(
        name="Asha", seats=2, preset="limited", hands=30, turn_seconds=None, bots="random"
    )
    code = host["code"]
    guest = await b.api.join(code, "Bikash")
    devices = [ws(a, code, 0, "host on A"), ws(b, code, 0, "host's phone on B")]
    for device in devices:
        await device.hello(host["token"])
    other = ws(a, code, 1, "guest on A")
    await other.hello(guest["token"])
    await devices[0].send({"type": "start"})
    rng = random.Random(17)
    races: list[dict[str, Any]] = []
    seen = 0
    while len(races) < RACES:
        # Nothing moves unless this loop moves it: wait until all three sockets show the same
        # new version with a hand in play.
        state, guest_state = await _settled([*devices, other], after=seen)
        version = seen = state["version"]
        if state["hand"]["actor"] == 1:
            move = steady(other, CHAAL_FIRST)(guest_state)
            assert move is not None, guest_state
            await other.send(move)
            continue
        legal = [m["do"] for m in state["legal"]]
        if not state["seats"][0]["seen"] and not any(m in legal for m in ("chaal", "raise")):
            await devices[0].send({"type": "act", "action": {"do": "see"}, "version": version})
            continue  # a blind player who must look now
        versioned = len(races) % 2 == 0
        choices = [m for m in TURN_MOVES if m in legal]
        if not versioned:
            # Without a version, only moves that cannot end the hand: after a show or a pack
            # the next hand is dealt at once, and the other move could be right there.
            safe = [m for m in choices if m in ("chaal", "raise")]
            if safe:
                choices = safe
            else:
                versioned = True
        pair = rng.sample(choices, 2) if len(choices) >= 2 else choices * 2
        marks = [len(d.messages) for d in devices]
        messages = []
        for do in pair:
            message: dict[str, Any] = {"type": "act", "action": {"do": do}}
            if versioned:
                message["version"] = version
            messages.append(message)
        # The first move handed to the loop is written first: each process goes first in half
        # the races, with and without versions (A always first let A win every race at times).
        order = (0, 1) if len(races) // 2 % 2 == 0 else (1, 0)
        await asyncio.gather(*(devices[i].send(messages[i]) for i in order))
        # Each socket's messages are handled in order: its pong comes after its move's answer.
        await asyncio.gather(*(d.ping(timeout=10) for d in devices))
        errors = [
            [m["code"] for m in d.messages[mark:] if m["type"] == "error"]
            for d, mark in zip(devices, marks, strict=True)
        ]
        refused = [i for i in (0, 1) if errors[i]]
        assert len(refused) == 1, (version, pair, versioned, errors)
        assert len(errors[refused[0]]) == 1, errors
        races.append(
            {
                "version": version,
                "moves": pair,
                "versioned": versioned,
                "winner": 1 - refused[0],
                "refused_with": errors[refused[0]][0],
            }
        )
    for client in [*devices, other]:
        await client.close()
    return code, races


async def _settled(
    clients: list[Client], after: int, timeout: float = 20.0
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The latest state of the first and of the last client, once every client's latest state
    has the same version, above ``after``, with a hand waiting for a move."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        states = [c.latest for c in clients]
        if all(s is not None for s in states):
            first = states[0]
            assert first is not None
            if (
                first["version"] > after
                and len({s["version"] for s in states if s is not None}) == 1
                and first["status"] == "playing"
                and first["hand"] is not None
                and not first["hand"]["finished"]
            ):
                last = states[-1]
                assert last is not None
                return first, last
            assert first["status"] != "finished", "the game ended before the races did"
        assert loop.time() < deadline, [s and s["version"] for s in states]
        await asyncio.sleep(0.01)


# ---------------------------------------------------------------------- clocks fire once
def test_clocks_fire_once_while_the_lease_changes_hands(
    cluster: MakeCluster,
    pg_url: str,
    redis_url: str,
    ws: MakeClient,
    arun: Run,
    cli: Cli,
    tmp_path: Path,
) -> None:
    args = (
        "--bot-delay",
        "0.05",
        "--result-pause",
        "0.05",
        "--grace",
        "0.3",
        "--lobby-rate",
        "1000,1000",
        *NO_MESSAGE_LIMIT,
    )
    a, b = cluster(2, args=args)
    found = arun(_clocks(a, b, redis_url, ws), 100)
    pids = {srv.proc.pid for srv in (a, b) if srv.proc is not None}
    assert found["holders"] == pids, found["holders"]  # both processes ran the clocks in turn
    for name, code in found["codes"].items():
        log = arun(table_events(pg_url, code), 30)
        table = check_log(log)  # one event per version, no double deal, no move out of turn
        assert table.status == "finished", name
        kinds = [e["type"] for _, e in log]
        acts = [e for _, e in log if e["type"] == "act"]
        assert all(e["by"] in ("bot", "timer") for e in acts), (name, "only the clocks played")
        if name == "bots":
            assert "control" in kinds  # the host's seat, handed to the computer after the grace
        else:  # the host never came: the turn timer played the seat, once for each turn
            timed = [e for e in acts if e["by"] == "timer"]
            assert timed and all(e["seat"] == 0 for e in timed), acts
            assert all(e["action"]["do"] in ("pack", "decline") for e in timed), timed
        for spectator in found["spectators"][name]:
            versions = [m["version"] for m in spectator.states()]
            assert every_version_in_order(versions), (spectator.label, versions)
            assert versions[-1] == log[-1][0]
        histories = found["histories"][name]
        assert len(histories) == kinds.count("hand")
        path = tmp_path / f"{code}.json"
        path.write_text(json.dumps(histories, ensure_ascii=False), encoding="utf-8")
        replayed = cli("replay", str(path))
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    for srv in (a, b):
        srv.assert_healthy()


async def _clocks(a: Server, b: Server, redis_url: str, ws: MakeClient) -> dict[str, Any]:
    """Two computer tables opened on A: "bots" (its host looks in through B and leaves, and after
    the grace B hands the seat to the computer), whose lease is taken away every 0.3 s; and
    "timer" (its host sits at the table on A, starts the game there and never moves: two hands,
    so that the host acts first in one of them, and the turn timer plays the seat; a person who
    is connected is never handed to the computer, while one who never came is, after the grace).
    The host of "timer" is connected before its game starts: a game started without them could
    hand their seat over, 0.3 s into it, before a busy machine had opened their socket."""
    common = {"name": "Asha", "preset": "limited", "bots": "random", "computer": True}
    bots = await a.api.create(**common, seats=5, hands=6, turn_seconds=5)
    timer = await a.api.create(**{**common, "computer": False}, seats=2, hands=2, turn_seconds=5)
    codes = {"bots": bots["code"], "timer": timer["code"]}
    sitter = ws(a, codes["timer"], 0, "timer: host on A, never moves")
    await sitter.hello(timer["token"])
    await sitter.send({"type": "start"})
    spectators = {
        name: [ws(srv, code, None, f"{name}: spectator on {srv.data.name}") for srv in (a, b)]
        for name, code in codes.items()
    }
    for watchers in spectators.values():
        for spectator in watchers:
            await spectator.hello(None)
    person = ws(b, codes["bots"], 0, "host on B")
    await person.hello(bots["token"])
    await person.close()

    key = lease_key(codes["bots"])
    client = aioredis.from_url(redis_url, decode_responses=True)
    owners: dict[int, str] = {}
    done = asyncio.Event()

    async def flip() -> None:
        """Every 0.3 s take the lease from its holder: delete it (whoever asks first takes it),
        or, once both processes' names are known, give it to the other one. For up to 1 s both
        believe they run the clocks (until each one's next renewal tells it otherwise)."""
        for _ in range(400):
            if done.is_set():
                return
            owner = str(await client.get(key) or "")
            if owner:
                owners[int(owner.rsplit(":", 2)[1])] = owner
                others = [o for o in owners.values() if o != owner]
                if others:
                    await client.set(key, others[0], px=3000)
                else:
                    await client.delete(key)
            await asyncio.sleep(0.3)

    flipper = asyncio.create_task(flip())
    try:
        await asyncio.gather(
            *(
                s.state(lambda m: m["status"] == "finished", timeout=80)
                for watchers in spectators.values()
                for s in watchers
            )
        )
    finally:
        done.set()
        await flipper
        await client.aclose()
        await sitter.close()
    histories = {name: await b.api.hands(code) for name, code in codes.items()}
    for watchers in spectators.values():
        for spectator in watchers:
            await spectator.close()
    return {
        "codes": codes,
        "holders": set(owners),
        "spectators": spectators,
        "histories": histories,
    }
