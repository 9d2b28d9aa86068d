"""The server's clocks, with the app built in this process (``create_app`` under
``uvicorn.Server`` in the test's own event loop) on a clock the test moves: the turn timer packs
a player (or declines a side show) when it runs out and not before, the reconnect grace hands an
absent person's seat to the computer and gives it back on ``hello``, and a table with no timer
never does. Nothing here waits for time to pass."""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from support import in_loop
from support.clocks import SteppedClock
from support.server import stored_log

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import Timing
from teenpatti.web.app import MAX_MESSAGE, create_app

if TYPE_CHECKING:
    from support.server import Client

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]


@contextlib.asynccontextmanager
async def serving(
    db: Path, timing: Timing, clock: SteppedClock | None = None
) -> AsyncIterator[tuple[str, str]]:
    """The app over ``db`` in this event loop, its service on ``clock`` (a fresh one by
    default): ``(http, ws)``."""
    clock = clock or SteppedClock(start=time.time())
    app = create_app(SqliteStore(db), timing=timing, lobby_rate=(1000.0, 1000.0), clock=clock)
    async with in_loop.serving(app, ws_max_size=MAX_MESSAGE) as addresses:
        yield addresses


def events(db: Path, code: str) -> list[dict[str, Any]]:
    """A table's log as stored."""
    return [event.data for event in stored_log(db, code)]


def stored_at(db: Path, code: str) -> list[float]:
    """When each event of a table's log was stored (the server's clock), in version order."""
    return [event.at for event in stored_log(db, code)]


async def post(http: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(base_url=http, timeout=10) as client:
        reply = await client.post(path, json=body)
    assert reply.status_code in (200, 201), reply.text
    return dict(reply.json())


async def get(http: str, path: str) -> dict[str, Any]:
    import httpx

    async with httpx.AsyncClient(base_url=http, timeout=10) as client:
        reply = await client.get(path)
    assert reply.status_code == 200, reply.text
    return dict(reply.json())


FAST = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, reconnect_grace=45.0)
"""No delay but the turn timer and the reconnect grace, which run when the test moves the clock."""


# ---------------------------------------------------------------------- the turn timer
def test_turn_timer_packs_or_declines_when_it_runs_out(
    tmp_path: Path, ws: MakeClient, arun: Run
) -> None:
    db = tmp_path / "clock.sqlite3"

    clock = SteppedClock(start=time.time())

    async def body() -> None:
        async with serving(db, FAST, clock) as (http, base):
            await pack_on_time(http, base)
            await decline_on_time(http, base)

    async def pack_on_time(http: str, base: str) -> None:
        host = await post(
            http,
            "/api/tables",
            {"name": "Host", "seats": 2, "preset": "limited", "hands": 1, "computer": True,
             "turn_seconds": 5},
        )  # fmt: skip
        code = host["code"]
        client = ws(base, code, 0, "host")
        state = await client.hello(host["token"])
        if not state["legal"]:
            state = await client.state(lambda s: bool(s["legal"]))
        # The deadline counts the turn (5 s) from the event that began it (the clock has not
        # moved since).
        assert state["deadline"] == pytest.approx(clock.time() + 5)
        # The host does nothing: not a moment before the deadline the player was shown ...
        await clock.advance(4.99)
        assert await client.ping() == state["version"]
        # ... but at it, the timer packs it, and the game (one hand) is over.
        await clock.advance(0.01)
        over = await client.state(lambda s: s["status"] == "finished")
        stake = over["hand"]["stake"]
        timed = {"seat": 0, "do": "pack", "paid": 0, "stake": stake, "timeout": True}
        assert over["hand"]["actions"][-1] == timed  # marked as the timer's move
        assert over["deadline"] is None
        assert events(db, code)[-1] == {
            "type": "act",
            "seat": 0,
            "action": {"seat": 0, "do": "pack"},
            "by": "timer",
        }
        await client.close()

    async def decline_on_time(http: str, base: str) -> None:
        # Three people; seat 2 asks seat 1 (the player before it) for a side show and seat 1
        # never answers: the timer declines for it, and the turn moves on.
        host = await post(
            http,
            "/api/tables",
            {"name": "P0", "seats": 3, "preset": "limited", "hands": 1, "turn_seconds": 5},
        )
        code = host["code"]
        tokens = [host["token"]]
        for name in ("P1", "P2"):
            tokens.append((await post(http, f"/api/tables/{code}/join", {"name": name}))["token"])
        clients = [ws(base, code, seat, f"P{seat}") for seat in range(3)]
        for client, token in zip(clients, tokens, strict=True):
            await client.hello(token)
        await clients[0].send({"type": "start"})

        async def move(seat: int, do: str) -> dict[str, Any]:
            state = await clients[seat].state(
                lambda s: any(m["do"] == do for m in s["legal"]) and s["hand"]["actor"] == seat
            )
            await clients[seat].send(
                {"type": "act", "action": {"do": do}, "version": state["version"]}
            )
            return state

        await move(1, "see")  # clockwise from the dealer (seat 0): seat 1 plays first
        await move(1, "chaal")
        await move(2, "see")
        await move(2, "sideshow")
        asked = await clients[1].state(
            lambda s: bool(s["hand"]) and s["hand"]["side_show"] == [2, 1]
        )
        assert [m["do"] for m in asked["legal"]] == ["accept", "decline"]
        assert asked["deadline"] == pytest.approx(clock.time() + 5)
        await clock.advance(4.99)
        assert await clients[1].ping() == asked["version"]  # not before the deadline
        await clock.advance(0.01)

        def declined(state: dict[str, Any]) -> bool:
            return bool(state["hand"]) and any(
                a["seat"] == 1 and a["do"] == "decline" for a in state["hand"]["actions"]
            )

        after = await clients[0].state(declined)
        last = {
            "seat": 1,
            "do": "decline",
            "paid": 0,
            "stake": after["hand"]["stake"],
            "timeout": True,
        }
        assert after["hand"]["actions"][-1] == last
        assert after["hand"]["actor"] == 0 and after["deadline"] is not None
        assert events(db, code)[-1]["by"] == "timer"
        for client in clients:
            await client.close()

    arun(body(), 25)


# ---------------------------------------------------------------------- the reconnect grace
def test_reconnect_grace_hands_the_seat_to_the_computer_and_back(
    tmp_path: Path, ws: MakeClient, arun: Run
) -> None:
    db = tmp_path / "grace.sqlite3"

    async def table(http: str, base: str, turn: int | None) -> tuple[str, list[str], Client]:
        host = await post(
            http,
            "/api/tables",
            {"name": "Host", "seats": 2, "preset": "limited", "hands": 10, "turn_seconds": turn},
        )
        guest = await post(http, f"/api/tables/{host['code']}/join", {"name": "Guest"})
        client = ws(base, host["code"], 0, "host")
        await client.hello(host["token"])
        await client.send({"type": "start"})
        await client.state(lambda s: s["hand"] is not None)
        return host["code"], [host["token"], guest["token"]], client

    clock = SteppedClock(start=time.time())

    async def body() -> None:
        async with serving(db, FAST, clock) as (http, base):
            timed, tokens, host = await table(http, base, 30)
            untimed, untimed_tokens, watcher = await table(http, base, None)
            for code, token, seen_by in (
                (untimed, untimed_tokens[1], watcher),
                (timed, tokens[1], host),
            ):
                guest = ws(base, code, 1, "guest")
                first = await guest.hello(token)
                assert first["seats"][1]["connected"] is True
                await guest.close()
                await seen_by.state(lambda s: s["seats"][1]["connected"] is False)
            # Both guests are gone and their graces run; not a moment before they end ...
            await clock.advance(FAST.reconnect_grace - 0.01)
            assert not [e for e in events(db, timed) if e["type"] == "control"]
            await clock.advance(0.01)
            # ... with a timer, after the grace the computer plays the guest's seat ...
            taken = await host.state(lambda s: s["seats"][1]["bot"])
            assert taken["seats"][1]["connected"] is True  # the computer is always there
            assert {"type": "control", "seat": 1, "bot": True} in events(db, timed)
            # ... without one, never (its guest left before the timed table's).
            info = await get(http, f"/api/tables/{untimed}")
            assert [s["bot"] for s in info["seats"]] == [False, False]
            assert not [e for e in events(db, untimed) if e["type"] == "control"]
            # The guest comes back: its seat is its own again.
            back = ws(base, timed, 1, "guest back")
            state = await back.hello(tokens[1])
            if state["seats"][1]["bot"]:
                state = await back.state(lambda s: not s["seats"][1]["bot"])
            assert state["you"] == 1
            assert events(db, timed)[-1] == {"type": "control", "seat": 1, "bot": False}
            assert not (await host.state(lambda s: not s["seats"][1]["bot"]))["seats"][1]["bot"]
            for client in (back, host, watcher):
                await client.close()

    arun(body(), 20)


# ---------------------------------------------------------------------- play anytime
def test_anytime_duo_table_waits_through_restarts_and_resumes(
    tmp_path: Path, ws: MakeClient, arun: Run
) -> None:
    """A duo table plays anytime by default: no turn timer, no computer taking over an absent
    player's seat, and the table (its turn included) survives a restart of the server."""
    db = tmp_path / "anytime.sqlite3"
    clock = SteppedClock(start=time.time())

    async def body() -> None:
        async with serving(db, FAST, clock) as (http, base):
            host = await post(http, "/api/tables", {"name": "Host", "preset": "duo", "seats": 2})
            code = host["code"]
            guest = await post(http, f"/api/tables/{code}/join", {"name": "Guest"})
            info = await get(http, f"/api/tables/{code}")
            assert info["settings"]["play"] == "anytime"
            assert info["settings"]["turn_seconds"] is None and info["turn"] is None
            me = ws(base, code, 0, "host")
            await me.hello(host["token"])
            await me.send({"type": "start"})
            state = await me.state(lambda s: s["hand"] is not None and s["hand"]["actor"] == 1)
            assert state["deadline"] is None
            await me.close()
            # The guest (first to act: the host deals) comes, plays a chaal and leaves.
            them = ws(base, code, 1, "guest")
            state = await them.hello(guest["token"])
            if state["hand"]["actor"] != 1 or not state["legal"]:
                state = await them.state(lambda s: s["hand"]["actor"] == 1 and bool(s["legal"]))
            await them.send({"type": "act", "action": {"do": "chaal"}, "version": state["version"]})
            after = await them.state(lambda s: s["hand"]["actor"] == 0)
            assert after["deadline"] is None
            # A witness: a timed table whose guest leaves just after this one's. Once the
            # computer has its seat, any grace this table had has run out too: nobody took over.
            witness = await post(
                http,
                "/api/tables",
                {"name": "W", "seats": 2, "preset": "limited", "hands": 10, "turn_seconds": 30},
            )
            witness_guest = await post(http, f"/api/tables/{witness['code']}/join", {"name": "G"})
            watcher = ws(base, witness["code"], 0, "witness host")
            await watcher.hello(witness["token"])
            await watcher.send({"type": "start"})
            await watcher.state(lambda s: s["hand"] is not None)
            leaving = ws(base, witness["code"], 1, "witness guest")
            await leaving.hello(witness_guest["token"])
            await them.close()
            await leaving.close()
            await watcher.state(lambda s: s["seats"][1]["connected"] is False)
            await clock.advance(FAST.reconnect_grace)
            await watcher.state(lambda s: s["seats"][1]["bot"])
            await watcher.close()
            assert (await get(http, f"/api/tables/{code}"))["turn"] == 0
        kinds = [e["type"] for e in events(db, code)]
        assert "control" not in kinds  # the computer never took a seat
        assert all(e.get("by") != "timer" for e in events(db, code))
        # The server restarts from its log: the table waits for the host as it did.
        async with serving(db, FAST) as (http, base):
            info = await get(http, f"/api/tables/{code}")
            assert (info["status"], info["turn"], info["settings"]["play"]) == (
                "playing",
                0,
                "anytime",
            )
            back = ws(base, code, 0, "host back")
            state = await back.hello(host["token"])
            assert state["hand"]["actor"] == 0 and state["deadline"] is None
            assert {m["do"] for m in state["legal"]} >= {"chaal", "show", "pack"}
            await back.send({"type": "act", "action": {"do": "pack"}, "version": state["version"]})
            done = await back.state(
                lambda s: s["hand"] is not None and s["hand"]["number"] == 2, timeout=5
            )
            assert done["seats"][1]["chips"] > done["seats"][0]["chips"]
            await back.close()

    arun(body(), 30)


def test_ten_seat_club_table(tmp_path: Path, ws: MakeClient, arun: Run) -> None:
    """The club seats ten; nine computer players fill a table against the computer."""
    db = tmp_path / "club.sqlite3"

    async def body() -> None:
        async with serving(db, FAST) as (http, base):
            host = await post(
                http,
                "/api/tables",
                {"name": "Host", "preset": "club", "seats": 10, "computer": True, "hands": 1},
            )
            info = await get(http, f"/api/tables/{host['code']}")
            assert len(info["seats"]) == 10 and info["settings"]["rules"]["starting_chips"] == 12800
            me = ws(base, host["code"], 0, "host")
            state = await me.hello(host["token"])
            if state["hand"] is None:
                state = await me.state(lambda s: s["hand"] is not None)
            assert sum(1 for row in state["seats"] if row["dealt"]) == 10
            assert len({row["name"] for row in state["seats"]}) == 10
            await me.close()

    arun(body(), 20)
