"""What the scale-out tests share: the real-server helpers of :mod:`support.server` (the
``teenpatti serve`` process, the lobby, the WebSocket client that checks every card it is sent)
and a few looks into PostgreSQL and Redis.

The test modules import from here (``from support.cluster import ...``); ``conftest.py`` turns the
helpers into fixtures.
"""

from __future__ import annotations

import json
from typing import Any

import redis

from support import server as support_server
from teenpatti.engine import Action
from teenpatti.store.base import StoredEvent
from teenpatti.store.postgres import PostgresStore
from teenpatti.tables.play.events import decode
from teenpatti.tables.play.table import Table

__all__ = [
    "FAST",
    "Api",
    "Client",
    "Server",
    "card_problems",
    "check_log",
    "contiguous",
    "every_version_in_order",
    "lease_holder",
    "lease_key",
    "same_view",
    "server_helpers",
    "table_events",
]


server_helpers = support_server
Server = support_server.Server
Client = support_server.Client
Api = support_server.Api
card_problems = support_server.card_problems
FAST: tuple[str, ...] = tuple(support_server.FAST)


# ---------------------------------------------------------------------- PostgreSQL
async def table_events(url: str, code: str) -> list[tuple[int, dict[str, Any]]]:
    """A table's log as PostgreSQL holds it: ``(version, event)`` in version order."""
    return [(event.version, event.data) for event in await stored_log(url, code)]


async def stored_log(url: str, code: str) -> list[StoredEvent]:
    """A table's log as PostgreSQL holds it, read through the store's own API (a store opened
    beside the servers', as another process's would be)."""
    store = await PostgresStore.open(url, max_size=1)
    try:
        found = await store.find(code)
        return await store.load(found.table_id) if found else []
    finally:
        await store.close()


def contiguous(versions: list[int], first: int | None = None) -> bool:
    """Whether ``versions`` are ``first, first + 1, ...`` with no gap and no repeat."""
    if not versions:
        return True
    start = versions[0] if first is None else first
    return versions == list(range(start, start + len(versions)))


def every_version_in_order(versions: list[int]) -> bool:
    """Whether a client's state versions never go back and skip none (a version may come twice:
    a presence update, or the answer to a ``sync``)."""
    return versions == sorted(versions) and set(versions) == set(
        range(versions[0], versions[-1] + 1)
    )


def same_view(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what depends on the clock or on who is connected where, to compare."""
    out: dict[str, Any] = json.loads(json.dumps(state))
    for key in ("deadline", "now"):
        out.pop(key, None)
    for row in out.get("seats", []):
        row.pop("connected", None)
    return out


def check_log(log: list[tuple[int, dict[str, Any]]]) -> Table:
    """Replay a table's log, checking every event against the state before it: versions 1..N
    with no gap; a deal only when no hand is in play; every move legal for the seat that made it
    at that moment (a clock firing twice, or a computer player acting twice for one turn, would
    be a move out of turn). Returns the rebuilt table."""
    versions = [v for v, _ in log]
    assert contiguous(versions, 1), f"the log's versions have a gap or a repeat: {versions}"
    table = Table("check", "CHECK")
    for version, event in log:
        kind = event["type"]
        if kind == "hand":
            assert table.game is not None and not table.game.finished, version
            assert not table.hand_in_play, f"v{version}: a second deal while a hand is in play"
        elif kind == "act":
            assert table.hand_in_play, f"v{version}: a move with no hand in play: {event}"
            assert table.game is not None and table.game.hand is not None
            action = Action.from_json(event["action"])
            assert action.seat == event["seat"], event
            table.game.hand.verify(action)  # raises IllegalAction: out of turn, twice, ...
        table.apply(decode(event))
        assert table.version == version
    return table


# ---------------------------------------------------------------------- Redis
def lease_key(code: str) -> str:
    """The Redis key of a table's clock lease (see ``teenpatti.bus.redis``)."""
    from teenpatti.bus import redis as bus_redis

    return f"{bus_redis._LEASE}{code}"


def lease_holder(redis_url: str, code: str) -> int | None:
    """The process id of the server holding the table's lease (``None`` if nobody does)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True, socket_timeout=5)
    try:
        owner = client.get(lease_key(code))
    finally:
        client.close()
    if not owner:
        return None
    return int(str(owner).rsplit(":", 2)[1])
