"""The state messages a broadcast sends: each socket gets exactly its seat's whole state, the
same as a single render, starting with the type and the version (clients may read the version
before parsing), for players and spectators, before the start and during a hand."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import msgspec

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

TIMING = Timing(
    bot_delay=(1.0, 1.0),
    result_pause=2.0,
    first_deal=0.5,
    reconnect_grace=600.0,
    reconcile_every=1.0,
    idle_after=3600.0,
)


def test_joined_messages_are_each_seats_whole_state(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = SqliteStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        try:
            code, _, _ = await service.create(
                read_request({"name": "Host", "seats": 3, "preset": "nepal", "turn_seconds": None})
            )
            await service.join(code, "Guest")
            live = service.get(code)
            sockets = {seat: Connection(seat) for seat in (None, 0, 1)}
            live.presence.connections.update(sockets.values())

            def check() -> None:
                public = service.fanout._public(live)
                for seat, conn in sockets.items():
                    state = live.fanout.render.state_for(seat, public)
                    whole = json.loads(msgspec.json.encode(state))
                    message = service.render(live, seat)
                    assert json.loads(message) == whole
                    assert message.startswith(f'{{"type":"state","version":{whole["version"]},')
                    sent = json.loads(conn.queue.get_nowait())
                    assert sent == whole
                    assert conn.queue.empty()

            service.fanout.broadcast(live)
            check()
            await service.command(code, 0, convert({"type": "start"}))
            await clock.advance(TIMING.first_deal)
            await service.tasks.settle()
            while not all(c.queue.empty() for c in sockets.values()):  # what the moves sent
                for conn in sockets.values():
                    while not conn.queue.empty():
                        conn.queue.get_nowait()
            service.fanout.broadcast(live)
            assert json.loads(service.render(live, 0))["hand"] is not None
            check()
            game = live.table.game
            assert game is not None and game.hand is not None
            while game.hand.to_act not in (0, 1):  # the computer moves after its delay
                await clock.advance(TIMING.bot_delay[1])
                await service.tasks.settle()
            actor = game.hand.to_act
            await service.command(code, actor, convert({"type": "act", "action": {"do": "see"}}))
            await service.tasks.settle()
            for conn in sockets.values():
                while not conn.queue.empty():
                    conn.queue.get_nowait()
            service.fanout.broadcast(live)
            assert json.loads(service.render(live, actor))["seats"][actor]["cards"]
            assert json.loads(service.render(live, None))["seats"][actor]["cards"] is None
            check()
        finally:
            await store.close()

    asyncio.run(asyncio.wait_for(body(), 60))
