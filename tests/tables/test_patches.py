"""Patches through the service's fan-out, over whole games: a socket that applies patches holds,
after every message, exactly the state a socket of the same seat that takes whole states got,
for every seat and a spectator; no patch carries a card its seat's state does not show, and
beside that whole-state check the stream itself is scanned for secrets, as the engine and the
log know them (not as the rendered states show them): no message to a seat names a card of
another seat's hand in play that the engine's view of the hand for that seat hides, nor any deck
seed of the game (each hand's, committed or not) before the game ends; a socket that said hello
or asked for a sync since the last broadcast gets the whole state next."""

from __future__ import annotations

import asyncio
import json
import random
import re
from pathlib import Path
from typing import Any

from test_fanout import TIMING

from teenpatti.engine import cards_str, view
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService
from teenpatti.tables.live.table import Connection
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import token_hash
from teenpatti.tables.wire.patch import apply

CARD = re.compile(r'"([2-9TJQKA][cdhs]|X[12])"')


def cards_in(value: Any) -> set[str]:
    """Every card named in a state or a patch (as JSON text)."""
    return set(CARD.findall(json.dumps(value)))


def hidden_cards(live: Any, seat: int | None) -> set[str]:
    """The cards of the hand in play that ``seat`` may not see (by the engine's view of it)."""
    game = live.table.game
    hand = None if game is None else game.hand
    if hand is None or hand.finished:
        return set()
    seen = view(hand, seat).seats
    return {
        card
        for i, cards in enumerate(hand.cards)
        if cards and seen[i].cards is None
        for card in cards_str(cards).split()
    }


def drain(conn: Connection) -> list[dict[str, Any]]:
    out = []
    while not conn.queue.empty():
        message = conn.queue.get_nowait()
        assert message is not None
        out.append(json.loads(message))
    return out


def test_patched_sockets_hold_the_whole_state_at_every_version(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = SqliteStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        rng = random.Random(15)
        try:
            code, _, _ = await service.create(
                read_request(
                    {
                        "name": "Host",
                        "seats": 4,
                        "preset": "nepal",
                        "hands": 10,
                        "turn_seconds": None,
                    }
                )
            )
            await service.join(code, "Guest")
            live = service.get(code)
            seats: list[int | None] = [None, 0, 1]
            whole = {seat: Connection(seat, limit=10_000) for seat in seats}
            patched = {seat: Connection(seat, limit=10_000, patches=True) for seat in seats}
            live.presence.connections.update([*whole.values(), *patched.values()])
            held: dict[int | None, dict[str, Any] | None] = dict.fromkeys(seats)
            kinds = {"state": 0, "patch": 0}
            seeds: set[str] = set()  # every deck seed of the game so far, committed or dealt
            scanned = 0
            synced = 99  # messages seat 1's patched socket has had since its last sync
            resumed = 0  # patches seat 1's socket had after a sync's whole state and broadcast

            def check() -> dict[int | None, dict[str, Any]]:
                nonlocal scanned
                latest = {}
                table = live.table
                if table.next_seed is not None:
                    seeds.add(table.next_seed)
                game = table.game
                number = None if game is None else game.hand_number
                for seat in seats:
                    states = drain(whole[seat])
                    messages = drain(patched[seat])
                    assert len(states) == len(messages), seat
                    hidden = hidden_cards(live, seat)
                    for state, message in zip(states, messages, strict=True):
                        kinds[message["type"]] += 1
                        for sent in (message, state):
                            text = json.dumps(sent)
                            if table.status != "finished":
                                assert not [x for x in seeds if x in text], (seat, sent)
                            if state["hand"] and state["hand"]["number"] == number:
                                assert not cards_in(sent) & hidden, (seat, hidden, sent)
                                scanned += bool(hidden)
                        if seat == 1:
                            nonlocal synced, resumed
                            synced += 1
                            if synced <= 2:  # the sync's answer, then the next broadcast
                                assert message["type"] == "state", message
                            elif synced < 99 and message["type"] == "patch":
                                resumed += 1
                        before = held[seat]
                        if message["type"] == "patch":
                            assert before is not None and message["from"] == before["version"]
                            after = apply(before, message["ops"])
                            assert message["version"] == after["version"]
                            # no card beyond those of the state it leads to (or came from)
                            assert cards_in(message["ops"]) <= cards_in(state) | cards_in(before)
                        else:
                            after = message
                        assert after == state, (seat, state["version"])
                        held[seat] = after
                        latest[seat] = state
                return latest

            service.fanout.broadcast(live)
            check()
            await service.command(code, 0, convert({"type": "start"}))
            for _ in range(2000):
                await service.tasks.settle()
                latest = check()
                state = latest.get(0) or latest.get(1)
                if live.table.status == "finished":
                    break
                game = live.table.game
                actor = None if game is None or game.hand is None else game.hand.actor
                if actor in (0, 1) and not game.hand.finished:  # type: ignore[union-attr]
                    mine = json.loads(service.render(live, actor))
                    if mine["legal"]:
                        move = rng.choice(mine["legal"])
                        action: dict[str, Any] = {"do": move["do"]}
                        if move["do"] == "sideshow" and move["targets"]:
                            action["with"] = rng.choice(move["targets"])
                        await service.command(
                            code, actor, convert({"type": "act", "action": action})
                        )
                        continue
                await clock.advance(TIMING.bot_delay[1])
                if state is not None and rng.random() < 0.05:  # a sync: the whole state next
                    await service.tasks.settle()
                    check()
                    service.send_state(live, whole[1])
                    service.send_state(live, patched[1])
                    synced = 0
            assert live.table.status == "finished"
            # patches went on after a sync (one may have come too near the end to see it)
            assert kinds["patch"] > 0 and resumed > 0
            assert kinds["patch"] > 10 * kinds["state"], kinds
            assert len(seeds) > 3 and scanned > 100, (len(seeds), scanned)  # the scan saw some
        finally:
            await store.close()

    asyncio.run(asyncio.wait_for(body(), 120))


def test_a_socket_whose_seat_moved_up_gets_the_whole_state(tmp_path: Path) -> None:
    """Before the start, a person who leaves moves the later seats up: their sockets hold their
    old seat's state, so a patch would not fit it; they get the whole state of their new seat."""

    async def body() -> None:
        store = SqliteStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, ManualClock())
        try:
            code, _, _ = await service.create(
                read_request({"name": "Host", "seats": 4, "turn_seconds": None})
            )
            asha, _ = await service.join(code, "Asha")
            token, seat = await service.join(code, "Bikash")
            assert seat == 2
            live = service.get(code)
            conn = Connection(2, token_hash=token_hash(token), patches=True)
            live.presence.connections.update([conn, Connection(1, token_hash=token_hash(asha))])
            service.fanout.broadcast(live)
            service.fanout.broadcast(live)
            assert [m["type"] for m in drain(conn)] == ["state", "patch"]
            await service.command(code, 1, convert({"type": "leave"}))
            (moved,) = drain(conn)
            assert moved["type"] == "state" and moved["you"] == 1
            service.fanout.broadcast(live)
            (after,) = drain(conn)
            assert after["type"] == "patch" and apply(moved, after["ops"])["you"] == 1
        finally:
            await store.close()

    asyncio.run(asyncio.wait_for(body(), 60))
