"""The host's say and the chat through a real server: who may pause, remove, change settings or
start a new game (each refusal with its code, changing nothing), a removed person's socket told and
closed and their token refused, a latecomer seated through the lobby, the chat's limits, and all of
it still there after the server is killed and started again."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from support.server import Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]


def test_host_commands_chat_and_a_restart(
    server_factory: Callable[..., Server], ws: MakeClient, arun: Run
) -> None:
    srv = server_factory()
    code, tokens, version = arun(_before(srv, ws), 60)
    srv.kill()
    srv.start()
    arun(_after(srv, ws, code, tokens, version), 60)
    kinds = [e["type"] for e in srv.events(code)]
    assert {"paused", "configured", "said", "left", "seated"} <= set(kinds)
    srv.assert_healthy()


async def _before(srv: Server, ws: MakeClient) -> tuple[str, dict[str, str], int]:
    api = srv.api
    host = await api.create(name="Host", seats=4, preset="limited", hands=3, turn_seconds=None)
    code = host["code"]
    guest = await api.join(code, "Guest")
    third = await api.join(code, "Third")
    a, b, c = ws(srv, code, 0, "host"), ws(srv, code, 1, "guest"), ws(srv, code, 2, "third")
    watcher = ws(srv, code, None, "watcher")
    for client, token in ((a, host["token"]), (b, guest["token"]), (c, third["token"])):
        await client.hello(token)
    await watcher.hello(None)
    await a.send({"type": "start"})
    dealt = await a.state(lambda s: s["hand"] is not None and not s["hand"]["finished"])
    assert dealt["paused"] is False and dealt["chat"] == [] and dealt["votes"] == []

    # Only the host: each refusal has its code and changes nothing.
    version = await a.ping()
    for client, message, code_ in (
        (b, {"type": "pause"}, "table/not_host"),
        (b, {"type": "remove", "seat": 2}, "table/not_host"),
        (b, {"type": "configure", "chat": False}, "table/not_host"),
        (a, {"type": "remove", "seat": 3}, "seat/not_person"),
        (a, {"type": "remove", "seat": "1"}, "seat/invalid"),
        (a, {"type": "resume"}, "table/not_paused"),
        (watcher, {"type": "chat", "phrase": "shabash"}, "table/not_seated"),
        (watcher, {"type": "leave"}, "table/not_seated"),
        (a, {"type": "chat", "phrase": "<script>"}, "chat/phrase"),
        (a, {"type": "chat", "text": "x" * 500}, "chat/text"),
        (b, {"type": "again"}, "table/in_play"),
    ):
        reply = await client.request(message)
        assert reply.get("code") == code_, (message, reply)
    assert await a.ping() == version

    # Pause: no moves, the chat goes on; resume.
    await a.send({"type": "pause"})
    paused = await b.state(lambda s: s["paused"])
    actor = paused["hand"]["actor"]
    mover = {0: a, 1: b, 2: c}.get(actor)
    if mover is not None:
        mine = await mover.sync()
        assert mine["legal"] == []
        reply = await mover.request({"type": "act", "action": {"do": "pack"}})
        assert reply["code"] == "table/paused"
    await b.send({"type": "chat", "phrase": "chito"})
    await b.send({"type": "chat", "text": "<b>tea</b>  break"})
    said = await watcher.state(lambda s: len(s["chat"]) == 2)
    assert [(m["seat"], m["kind"], m["text"]) for m in said["chat"]] == [
        (1, "phrase", "chito"),
        (1, "text", "<b>tea</b> break"),
    ]
    await a.send({"type": "configure", "chat": False, "late": True})
    await b.state(lambda s: s["settings"]["chat"] is False)
    assert (await b.request({"type": "chat", "text": "hi"}))["code"] == "chat/text_off"
    await b.send({"type": "chat", "emoji": "🎉"})
    await a.state(lambda s: len(s["chat"]) == 3)

    # The chat's rate: 5 messages in 10 s per seat, then chat/rate.
    for _ in range(2):
        await c.send({"type": "chat", "emoji": "👍"})
    await a.state(lambda s: len(s["chat"]) == 5)
    for _ in range(4):
        await c.send({"type": "chat", "emoji": "👍"})
    assert (await c.error())["code"] == "chat/rate"

    # The host removes Third: told, closed, the token refused from then on.
    await a.send({"type": "remove", "seat": 2})
    gone = await c.next(lambda m: m["type"] == "error", timeout=5)
    assert gone["code"] == "seat/removed"
    await c.wait_closed()
    again = ws(srv, code, 2, "third again")
    refused = await again.hello(third["token"])
    assert refused["code"] == "seat/removed"
    seats = (await a.state(lambda s: s["seats"][2]["person"] is False))["seats"]
    assert seats[2]["bot"] is True and seats[2]["name"] == "Third"

    # A latecomer takes a computer's seat through the lobby (the computer plays until the deal).
    late = await api.join(code, "Late")
    assert late["seat"] == 2
    d = ws(srv, code, 2, "late")
    first = await d.hello(late["token"])
    assert first["you"] == 2 and first["seats"][2].get("late") in (True, None)
    await a.send({"type": "resume"})
    await a.state(lambda s: not s["paused"])
    version = await a.ping()
    for client in (a, b, d, watcher):
        await client.close()
    return code, {"host": host["token"], "guest": guest["token"], "late": late["token"]}, version


async def _after(
    srv: Server, ws: MakeClient, code: str, tokens: dict[str, str], version: int
) -> None:
    a = ws(srv, code, 0, "host back")
    state = await a.hello(tokens["host"])
    assert state["version"] >= version
    kinds = [m["kind"] for m in state["chat"]]
    assert kinds == ["phrase", "text", "emoji"] + ["emoji"] * 5  # five of the six from Third
    assert state["settings"]["chat"] is False and state["seats"][2]["name"] == "Late"
    gone = ws(srv, code, 2, "removed")
    assert (await gone.hello(tokens["late"]))["you"] == 2  # the latecomer's token works
    # The host leaves: the role passes to the guest, who may now pause the game.
    b = ws(srv, code, 1, "guest back")
    await b.hello(tokens["guest"])
    await a.send({"type": "leave"})
    assert (await a.next(lambda m: m["type"] == "error"))["code"] == "seat/left"
    state = await b.state(lambda s: s["seats"][1]["host"])
    assert not state["seats"][0]["host"] and state["seats"][0]["bot"]
    await b.send({"type": "pause"})
    await b.state(lambda s: s["paused"])
    for client in (b, gone):
        await client.close()


def test_a_majority_of_the_people_start_a_new_game(
    server: Server, ws: MakeClient, arun: Run
) -> None:
    async def go() -> None:
        api = server.api
        host = await api.create(name="Host", seats=3, preset="limited", hands=1, turn_seconds=None)
        code = host["code"]
        guests = [await api.join(code, name) for name in ("G1", "G2")]
        clients = [ws(server, code, i, f"p{i}") for i in range(3)]
        for client, who in zip(clients, [host, *guests], strict=True):
            await client.hello(who["token"])
        await clients[0].send({"type": "start"})

        def pack(state: dict[str, Any]) -> dict[str, Any]:
            return {"type": "act", "action": {"do": "pack"}, "version": state["version"]}

        await asyncio.gather(  # everyone packs until the one hand is over
            *(
                c.play(random.Random(i), lambda s: s["status"] == "finished", chooser=pack)
                for i, c in enumerate(clients)
            )
        )
        await clients[1].send({"type": "again"})
        voted = await clients[0].state(lambda s: s["votes"] == [1])
        assert voted["status"] == "finished"
        assert (await clients[1].request({"type": "again"}))["code"] == "again/voted"
        await clients[2].send({"type": "again"})
        state = await clients[0].state(lambda s: s["status"] == "playing")
        assert state["votes"] == []
        for client in clients:
            await client.close()

    arun(go(), 60)
    server.assert_healthy()


def test_latecomers_refused_when_the_host_says_so(
    server: Server, ws: MakeClient, arun: Run
) -> None:
    async def go() -> None:
        api = server.api
        host = await api.create(
            name="Host", seats=3, preset="limited", hands=2, turn_seconds=None, late=False
        )
        code = host["code"]
        a = ws(server, code, 0, "host")
        await a.hello(host["token"])
        await a.send({"type": "start"})
        await a.state(lambda s: s["status"] == "playing")
        response = await api.request("POST", f"/api/tables/{code}/join", json_body={"name": "Late"})
        assert response.json()["error"]["code"] == "table/late_closed", response.text
        await a.send({"type": "configure", "late": True})
        await a.state(lambda s: s["settings"]["late"])
        late = await api.join(code, "Late")
        assert late["seat"] == 1
        await a.close()

    arun(go(), 60)


def test_a_removal_holds_for_the_game_until_the_host_lets_them_back(
    server_factory: Callable[..., Server], ws: MakeClient, arun: Run
) -> None:
    srv = server_factory()
    api = srv.api

    async def join(code: str, name: str, was: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {was}"} if was else None
        path = f"/api/tables/{code}/join"
        return await api.request("POST", path, json_body={"name": name}, headers=headers)

    async def before() -> tuple[str, str, str]:
        host = await api.create(name="Host", seats=3, preset="limited", hands=3, turn_seconds=None)
        code = host["code"]
        bina = await api.join(code, "Bina")
        a, b = ws(srv, code, 0, "host"), ws(srv, code, 1, "bina")
        await a.hello(host["token"])
        await b.hello(bina["token"])
        await a.send({"type": "start"})
        await a.state(lambda s: s["status"] == "playing")
        await a.send({"type": "remove", "seat": 1})
        assert (await b.next(lambda m: m["type"] == "error", timeout=5))["code"] == "seat/removed"
        state = await a.state(lambda s: s.get("removed") == ["Bina"])
        assert state["seats"][1]["person"] is False
        await a.close()
        return code, host["token"], bina["token"]

    async def after(code: str, host_token: str, bina_token: str) -> None:
        # Back at once by the same name, by another spelling of it, or by another name from
        # the phone that held the seat: each refused with seat/removed, and nothing changes.
        for name, was in (("Bina", None), (" bina ", None), ("Someone", bina_token)):
            refused = await join(code, name, was)
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"]["code"] == "seat/removed"
        assert "seated" not in {e["type"] for e in srv.events(code)}
        # Only the host lets back, and only someone removed.
        a = ws(srv, code, 0, "host")
        await a.hello(host_token)
        for message, code_ in (
            ({"type": "readmit", "name": "Nobody"}, "seat/not_removed"),
            ({"type": "readmit", "name": 7}, "seat/not_removed"),
            ({"type": "readmit"}, "seat/not_removed"),
        ):
            assert (await a.request(message))["code"] == code_
        await a.send({"type": "readmit", "name": "BINA"})
        await a.state(lambda s: "removed" not in s)
        back = await join(code, "Bina", bina_token)
        assert back.status_code == 200, back.text
        assert back.json()["seat"] == 1
        await a.close()

    code, host_token, bina_token = arun(before(), 60)
    srv.kill()  # the table is rebuilt from its log: the removal holds
    srv.start()
    arun(after(code, host_token, bina_token), 60)
    assert [e["type"] for e in srv.events(code)][-2:] == ["readmitted", "seated"]
    srv.assert_healthy()


def test_a_player_out_of_chips_buys_back_in(server: Server, ws: MakeClient, arun: Run) -> None:
    # Three players of 10 chips (boot 5) who always pack: after hand 2 one is out of chips; the
    # rebuy house rule (50 chips, once, for hands up to 4) lets them back in from hand 4.
    async def go() -> None:
        api = server.api
        host = await api.create(
            name="Host",
            seats=3,
            preset="nepal",
            boot=5,
            starting_chips=10,
            hands=10,
            rebuy_chips=50,
            rebuy_until_hand=4,
            turn_seconds=None,
        )
        code = host["code"]
        guests = [await api.join(code, name) for name in ("Bina", "Chandra")]
        clients = [ws(server, code, i, f"p{i}") for i in range(3)]
        for client, who in zip(clients, [host, *guests], strict=True):
            await client.hello(who["token"])
        await clients[0].send({"type": "start"})

        def pack(state: dict[str, Any]) -> dict[str, Any]:
            return {"type": "act", "action": {"do": "pack"}, "version": state["version"]}

        async def play_until(there: Callable[[dict[str, Any]], bool]) -> list[dict[str, Any]]:
            return list(
                await asyncio.gather(
                    *(c.play(random.Random(i), there, chooser=pack) for i, c in enumerate(clients))
                )
            )

        def someone_out(s: dict[str, Any]) -> bool:
            return s["status"] == "finished" or any(r.get("chips") == 0 for r in s["seats"])

        # Whether one player runs out while two have chips depends on the cards of an all in at
        # the boot (at least two chances in three): a game where one player took every chip is
        # played again.
        for _ in range(8):
            states = await play_until(someone_out)
            out = [i for i, s in enumerate(states) if s.get("out")]
            if out:
                break
            assert states[0]["status"] == "finished"
            await clients[0].send({"type": "again"})
            for client in clients:
                await client.state(lambda s: s["status"] == "playing" and s["hand"] is None)
        (seat,) = out
        other = (seat + 1) % 3
        mine, rich = states[seat], states[other]
        assert mine["out"] is True and mine["seats"][seat]["chips"] == 0
        assert mine["rebuy"] == {"chips": 50, "left": 1, "until": 4}
        assert "rebuy" not in rich and "out" not in rich
        # A client that lies: a player with chips asks to buy back in; nothing changes.
        assert (await clients[other].request({"type": "rebuy"}))["code"] == "rebuy/has_chips"
        assert "rebuy" not in {e["type"] for e in server.events(code)}
        await clients[seat].send({"type": "rebuy", "id": "r-1"})
        bought = await clients[seat].state(lambda s: (s.get("rebuys") or [0] * 3)[seat] == 1)
        assert "rebuy" not in bought
        assert (await clients[seat].request({"type": "rebuy"}))["code"] == "rebuy/has_chips"

        def back_in(s: dict[str, Any]) -> bool:
            row = s["seats"][seat]
            return s["hand"] is not None and not s["hand"]["finished"] and row["dealt"]

        back = (await play_until(back_in))[seat]
        assert back["seats"][seat]["chips"] == 45  # 50, less the boot
        assert "out" not in back
        assert {"type": "rebuy", "seat": seat, "id": "r-1"} in server.events(code)
        for client in clients:
            await client.close()

    arun(go(), 90)
    server.assert_healthy()
