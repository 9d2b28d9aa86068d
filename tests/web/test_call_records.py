"""The voice call keeps a record for a table only while someone is on its call: a socket that
no longer counts (closed, dropped for not keeping up) asking to join leaves nothing behind, so
sockets that come and go cannot grow the server's memory table by table."""

from __future__ import annotations

import asyncio
from pathlib import Path

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import Call
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import token_hash
from teenpatti.web.call import Calls


def test_a_socket_that_no_longer_counts_leaves_no_call_behind(tmp_path: Path) -> None:
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "t.sqlite3"), Timing(), ManualClock())
        await service.start()
        try:
            code, _, _ = await service.create(read_request({"name": "Asha", "seats": 3}))
            bob, seat = await service.join(code, "Bob")
            live = await service.find(code)
            calls = Calls(time=service.clock.time)
            closed = Connection(seat, token_hash=token_hash(bob))  # never among the sockets
            calls.handle(live, closed, Call(join=True))
            assert calls.calls == {}
            dropped = Connection(seat, token_hash=token_hash(bob))
            live.presence.connections.add(dropped)
            dropped.dropped = True  # its queue overflowed: it is on its way out
            calls.handle(live, dropped, Call(join=True))
            assert calls.calls == {}
            present = Connection(seat, token_hash=token_hash(bob))
            live.presence.connections.add(present)
            calls.handle(live, present, Call(join=True))
            assert list(calls.calls) == [code]  # one who counts is on the call
            calls.handle(live, present, Call(join=False))
            assert calls.calls == {}
        finally:
            await service.stop()

    asyncio.run(asyncio.wait_for(body(), 30))
