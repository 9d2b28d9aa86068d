"""A real ``teenpatti serve`` killed with SIGKILL in the middle of a hand and started again on the
same data folder: every table comes back by replaying its log (same version, same chips, same
cards for each seat), the old tokens still hold their seats, and the hand is finished with
nothing lost."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from support.server import steady

if TYPE_CHECKING:
    from support.server import Api, Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]


def both_seen_mid_hand(state: dict[str, Any]) -> bool:
    """A person is to act in a hand in play, and both people have seen their cards."""
    hand = state["hand"]
    return bool(
        hand is not None
        and not hand["finished"]
        and hand["actor"] in (0, 1)
        and state["seats"][0]["seen"]
        and state["seats"][1]["seen"]
    )


def test_sigkill_mid_hand_then_restart_rebuilds_every_table(
    server_factory: Callable[..., Server], ws: MakeClient, arun: Run
) -> None:
    srv = server_factory()
    before = arun(_before_kill(srv, srv.api, ws), 30)
    srv.kill()
    assert not srv.alive
    srv.start()
    arun(_after_restart(srv, srv.api, ws, before), 30)
    srv.assert_healthy()


async def _before_kill(srv: Server, api: Api, ws: MakeClient) -> dict[str, Any]:
    # A: a hand in play, two people and two computers, both people have seen their cards.
    host = await api.create(name="Host", seats=4, hands=10, turn_seconds=None)
    code = host["code"]
    guest = await api.join(code, "Guest")
    a = ws(srv, code, 0, "host")
    b = ws(srv, code, 1, "guest")
    await a.hello(host["token"])
    await b.hello(guest["token"])
    await a.send({"type": "start"})
    await asyncio.gather(
        a.play(random.Random(1), both_seen_mid_hand, chooser=steady(a), timeout=20),
        b.play(random.Random(2), both_seen_mid_hand, chooser=steady(b), timeout=20),
    )
    # B: waiting for its host to start. C: a game over (the host packed its one hand).
    waiting = await api.create(name="Waiting", seats=3, preset="limited", hands=1)
    await api.join(waiting["code"], "Second")
    over = await api.create(name="Over", seats=2, preset="limited", hands=1, computer=True)
    c = ws(srv, over["code"], 0, "over")
    await c.hello(over["token"])
    await c.play(
        random.Random(3),
        lambda s: s["status"] == "finished",
        chooser=lambda s: {"type": "act", "action": {"do": "pack"}, "version": s["version"]},
    )
    states = {0: a.public(await a.sync()), 1: b.public(await b.sync())}
    assert states[0]["version"] == states[1]["version"]
    assert states[0]["seats"][0]["cards"] and states[1]["seats"][1]["cards"]
    codes = {"playing": code, "waiting": waiting["code"], "over": over["code"]}
    infos = {k: await api.info(v) for k, v in codes.items()}
    assert [i["status"] for i in infos.values()] == ["playing", "waiting", "finished"]
    # Nothing can move now: every table waits for a person (a person's turn without a timer, a
    # host who has not started, a game over), and each has stored every event it has shown.
    assert both_seen_mid_hand(states[0]) and infos["playing"]["settings"]["turn_seconds"] is None
    for key, info in infos.items():
        assert info["version"] == len(srv.events(codes[key])), key
    return {
        "codes": codes,
        "tokens": {
            "playing": [host["token"], guest["token"]],
            "waiting": waiting["token"],
            "over": over["token"],
        },
        "states": states,
        "over_state": c.public(await c.sync()),
        "infos": infos,
        "hands": {k: await api.hands(v) for k, v in codes.items()},
        "events": {k: srv.events(v) for k, v in codes.items()},
    }


async def _after_restart(srv: Server, api: Api, ws: MakeClient, before: dict[str, Any]) -> None:
    codes = before["codes"]
    # Every table is back, exactly as it was: the log, the lobby's view, the histories.
    for key, code in codes.items():
        assert srv.events(code) == before["events"][key], key
        info, was = dict(await api.info(code)), dict(before["infos"][key])
        # How long the table has waited is read from the clock: it goes on across the restart.
        assert info.pop("waited", 0) >= was.pop("waited", 0), key
        assert info == was, key
        assert await api.hands(code) == before["hands"][key], key

    # The people say hello again with their tokens: the same state, to the last card.
    code = codes["playing"]
    a = ws(srv, code, 0, "host after")
    b = ws(srv, code, 1, "guest after")
    for client, token in zip((a, b), before["tokens"]["playing"], strict=True):
        state = await client.hello(token)
        assert state["type"] == "state"
        assert client.public(state) == before["states"][client.seat], client.label
    spectator = ws(srv, code, None, "spectator after")
    watched = await spectator.hello(None)
    assert watched["version"] == before["states"][0]["version"]
    assert all(row["cards"] is None for row in watched["seats"])

    # ... and finish the hand: its history holds every move made before the kill.
    hand_before = before["states"][0]["hand"]
    number = hand_before["number"]

    def next_hand(state: dict[str, Any]) -> bool:
        hand = state["hand"]
        return bool(state["status"] == "finished" or (hand and hand["number"] > number))

    await asyncio.gather(
        a.play(random.Random(4), next_hand, chooser=steady(a), timeout=20),
        b.play(random.Random(5), next_hand, chooser=steady(b), timeout=20),
    )
    hands = await api.hands(code)
    assert len(hands) == number
    history = hands[number - 1]
    assert history["actions"][: len(hand_before["actions"])] == hand_before["actions"]
    assert history["commitment"] == hand_before["commitment"]
    for seat in (0, 1):
        cards = before["states"][seat]["seats"][seat]["cards"]
        assert history["seats"][seat]["cards"] == " ".join(cards)
    events = srv.events(code)
    assert events[: len(before["events"]["playing"])] == before["events"]["playing"]

    # The waiting table starts with its old host token; the finished one plays again.
    host = ws(srv, codes["waiting"], 0, "waiting host")
    await host.hello(before["tokens"]["waiting"])
    await host.send({"type": "start"})
    assert (await host.state(lambda s: s["status"] == "playing"))["seats"][2]["bot"] is True
    over = ws(srv, codes["over"], 0, "over host")
    state = await over.hello(before["tokens"]["over"])
    assert over.public(state) == before["over_state"]
    await over.send({"type": "again"})
    await over.state(lambda s: s["status"] == "playing")
    for client in (a, b, spectator, host, over):
        await client.close()
