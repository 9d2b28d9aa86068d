"""Patches between the wire's structs: ``diff`` of two rendered states gives exactly the operations
it gives on the same states as JSON data (what the states were before they were typed), and
applying them to the older state's JSON gives the newer one's; over real states of played hands,
every seat's and a spectator's, consecutive or not, and with the fields sent only at times
(``removed``, ``out``, ``rebuy``, a row's ``late``...) coming and going."""

from __future__ import annotations

import asyncio
import functools
import itertools
import json
import random
import tempfile
from pathlib import Path
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st
from msgspec import UNSET
from test_fanout import TIMING

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.table import Connection
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.wire import messages
from teenpatti.tables.wire.messages import LoggedMove, RebuyOffer, State
from teenpatti.tables.wire.patch import apply, diff

SEATS: list[int | None] = [None, 0, 1]


@functools.cache
def played() -> tuple[tuple[State, ...], ...]:
    """Each seat's states (and the spectator's, first), as the fan-out makes them, after every
    move of a three-hand game of two persons and two computer players (seat 0 online)."""
    from teenpatti.tables.live.service import TableService

    async def body(folder: Path) -> tuple[tuple[State, ...], ...]:
        clock = ManualClock()
        store = SqliteStore(folder / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        rng = random.Random(27)
        out: dict[int | None, list[State]] = {seat: [] for seat in SEATS}
        try:
            code, _, _ = await service.create(
                read_request(
                    {
                        "name": "Host",
                        "seats": 4,
                        "preset": "classic",
                        "hands": 3,
                        "turn_seconds": None,
                    }
                )
            )
            await service.join(code, "Guest")
            live = service.get(code)
            live.presence.connections.add(Connection(0))
            await service.command(code, 0, convert({"type": "start"}))
            for _ in range(600):
                await service.tasks.settle()
                public = service.fanout._public(live)
                for seat in SEATS:
                    out[seat].append(live.fanout.render.state_for(seat, public))
                if live.table.status == "finished":
                    break
                game = live.table.game
                hand = None if game is None else game.hand
                if hand is not None and not hand.finished and hand.actor in (0, 1):
                    legal = live.fanout.render.state(hand.actor).legal
                    if legal:
                        move = rng.choice(legal)
                        action: dict[str, Any] = {"do": move.do.value}
                        if move.do.value == "sideshow" and move.targets:
                            action["with"] = rng.choice(move.targets)
                        await service.command(
                            code, hand.actor, convert({"type": "act", "action": action})
                        )
                        continue
                await clock.advance(TIMING.bot_delay[1])
            assert live.table.status == "finished"
        finally:
            await store.close()
        return tuple(tuple(states) for states in out.values())

    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(asyncio.wait_for(body(Path(folder)), 120))


def as_json(value: Any) -> Any:
    """``value`` as JSON data, as msgspec encodes it."""
    return json.loads(msgspec.json.encode(value))


def check(old: State, new: State) -> None:
    ops = diff(old, new)
    was, now = as_json(old), as_json(new)
    assert as_json(ops) == as_json(diff(was, now))
    assert apply(was, as_json(ops)) == now


def test_consecutive_states_patch_as_their_json() -> None:
    states = played()
    assert len(states[0]) > 30
    shown = 0
    for seen in states:
        for old, new in itertools.pairwise(seen):
            check(old, new)
            shown += any(row.cards for row in new.seats)
    assert shown  # some states show cards (a seat's own, or at a show)


@st.composite
def changed(draw: st.DrawFn, state: State) -> State:
    """``state`` with some of the fields sent only at times set or left out."""
    replace = msgspec.structs.replace
    if draw(st.booleans()):
        state = replace(state, removed=draw(st.sampled_from([UNSET, ["Bina"], ["Bina", "Zed"]])))
    if draw(st.booleans()):
        state = replace(state, out=draw(st.sampled_from([UNSET, True])))
    if draw(st.booleans()):
        offer = RebuyOffer(chips=50, left=draw(st.integers(0, 2)), until=3)
        state = replace(state, rebuy=draw(st.sampled_from([UNSET, offer])))
    if draw(st.booleans()):
        state = replace(state, rebuys=draw(st.sampled_from([UNSET, [0, 1, 0, 0]])))
    rows = list(state.seats)
    for i in draw(st.lists(st.integers(0, len(rows) - 1), max_size=3)):
        rows[i] = replace(rows[i], late=draw(st.sampled_from([UNSET, True])))
    if state.hand is not None and state.hand.actions and draw(st.booleans()):
        moves = list(state.hand.actions)
        move: LoggedMove = moves[-1]
        moves[-1] = replace(move, timeout=UNSET if move.timeout else True, target=UNSET)
        state = replace(state, hand=replace(state.hand, actions=moves))
    return replace(state, seats=rows)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_any_two_states_patch_as_their_json(data: st.DataObject) -> None:
    states = played()
    pick = st.sampled_from([state for seen in states for state in seen])
    old, new = data.draw(pick), data.draw(pick)
    check(data.draw(changed(old)), data.draw(changed(new)))


def test_the_wire_types_leave_out_only_unset_fields() -> None:
    """The diff takes a struct's field as absent when it is ``UNSET``: the types that leave out
    their defaults have no other default."""
    for name in messages.__all__:
        kind = getattr(messages, name)
        if not (isinstance(kind, type) and issubclass(kind, msgspec.Struct)):
            continue
        if kind.__struct_config__.omit_defaults:
            for field in msgspec.structs.fields(kind):
                assert field.default in (UNSET, msgspec.NODEFAULT), (name, field.name)
                assert field.default_factory is msgspec.NODEFAULT, (name, field.name)
