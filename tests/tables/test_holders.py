"""A socket's messages are taken only from the person who holds the seat when each is applied.

A socket is let in by its token once, at its hello; a message it sent may be applied after the
host removed its person (read from the socket while the removal was being stored, or on a
process that had not heard of it yet). Every message type of the socket is sent, through the
socket's own handler, from such a socket: its person removed (before the game, when the seats
after theirs move up, and during it), removed and let back, removed and their seat taken by a
latecomer, or gone of their own accord. Each is refused (``seat/removed``, ``seat/left``), and
the table is left as it was: no move, chat or vote is made in the seat's name, whoever holds it
now."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import msgspec
import pytest

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play import commands
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import token_hash
from teenpatti.web.call import Calls
from teenpatti.web.session import _handle

TIMING = Timing(bot_delay=(1.0, 1.0), result_pause=2.0, first_deal=0.5, reconnect_grace=10.0)

MESSAGES: dict[str, dict[str, Any]] = {
    "start": {},
    "act": {"action": {"do": "pack"}},
    "again": {},
    "leave": {},
    "remove": {"seat": 0},
    "readmit": {"name": "Asha"},
    "rebuy": {},
    "pause": {},
    "resume": {},
    "configure": {"chat": False},
    "chat": {"text": "still here"},
    "part": {"for": "0" * 64, "part": "1" * 64},
    "call": {"join": True},
    "signal": {"to": 0, "kind": "offer", "sdp": "v=0"},
    "sync": {},
    "ping": {},
}
"""One message of each type a socket may send after its hello."""


def _tags(cls: type) -> set[str]:
    out: set[str] = set()
    subclasses: list[type] = cls.__subclasses__()
    for sub in subclasses:
        tag = getattr(sub, "__struct_config__").tag  # noqa: B009 (msgspec's, not typed)
        if isinstance(tag, str) and not sub.__name__.startswith("_"):
            out.add(tag)
        out |= _tags(sub)
    return out


def test_every_message_type_is_tried() -> None:
    assert set(MESSAGES) == _tags(commands._Message) - {"hello"}


STORIES = ("removed before the game", "removed", "readmitted", "seat taken", "left")


async def _story(tmp_path: Path, story: str) -> tuple[TableService, Any, Connection, str]:
    """A table of Asha (host), Bob and Chandra, where the story happens to Bob (Chandra for
    ``left``); the socket his phone opened before, and the code he should be refused with."""
    service = TableService(SqliteStore(tmp_path / f"{story}.sqlite3"), TIMING, ManualClock())
    await service.start()
    code, _, _ = await service.create(
        read_request({"name": "Asha", "seats": 4, "play": "anytime", "late": True})
    )
    bob, bob_seat = await service.join(code, "Bob")
    chandra, chandra_seat = await service.join(code, "Chandra")
    live = await service.find(code)
    if story != "removed before the game":
        await service.command(code, 0, convert({"type": "start"}))
    if story == "left":
        conn = Connection(chandra_seat, token_hash=token_hash(chandra))
        await service.command(code, chandra_seat, convert({"type": "leave"}))
        return service, live, conn, "seat/left"
    conn = Connection(bob_seat, token_hash=token_hash(bob))
    await service.command(code, 0, convert({"type": "remove", "seat": bob_seat}))
    if story == "readmitted":
        await service.command(code, 0, convert({"type": "readmit", "name": "Bob"}))
    if story == "seat taken":
        await service.join(code, "Dev")  # a latecomer takes the computer's seat, Bob's old one
        assert live.table.seats[bob_seat].name == "Dev"
    return service, live, conn, "seat/removed"


@pytest.mark.parametrize("story", STORIES)
def test_a_socket_whose_person_is_gone_is_refused_every_message(tmp_path: Path, story: str) -> None:
    async def body() -> None:
        service, live, conn, expected = await _story(tmp_path, story)
        calls = Calls(time=service.clock.time)
        try:
            for kind, fields in MESSAGES.items():
                before = msgspec.json.encode(live.fanout.render.public_state())
                version = live.table.version
                text = json.dumps({"type": kind, **fields})
                reply = await _handle(service, calls, live, conn, text)
                assert reply is not None, (story, kind)
                error = json.loads(reply)
                assert (error["type"], error["code"]) == ("error", expected), (story, kind, error)
                assert live.table.version == version, (story, kind)
                after = msgspec.json.encode(live.fanout.render.public_state())
                assert after == before, (story, kind)
                assert conn.queue.empty(), (story, kind)  # no state was sent to it either
        finally:
            await service.stop()

    asyncio.run(asyncio.wait_for(body(), 60))
