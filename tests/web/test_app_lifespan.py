"""The app is built when it starts, inside its lifespan, and what it opened is closed when it stops.

``create_app`` opens nothing: its lifespan opens the store, the turn alerts' sender and the bus,
makes the table service over them and starts it, and hands the app's shared parts to every request
in its state (``state["site"]``); when the app stops, or when its start fails half-way, it closes
everything it had opened, in the reverse order. A test builds the app and runs its lifespan
(Starlette's ``app.router.lifespan_context``) to reach what it made.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from teenpatti.bus.base import Bus
from teenpatti.bus.memory import MemoryBus
from teenpatti.push.keys import VapidKeys
from teenpatti.push.sender import PushConfig
from teenpatti.store.base import EventStore
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.settings import read_request
from teenpatti.web.app import create_app
from teenpatti.web.site import Site


class Opened:
    """What the app's lifespan opened, as it opened it: a real SQLite store and the process's own
    bus, each noted when it is opened and when it is closed."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.stores: list[SqliteStore] = []
        self.buses: list[NotedBus] = []

    async def store(self) -> EventStore:
        store = SqliteStore(self.path)
        self.stores.append(store)
        return store

    async def bus(self) -> Bus:
        bus = NotedBus()
        self.buses.append(bus)
        return bus


class NotedBus(MemoryBus):
    """The in-process bus, noting whether it was closed."""

    closed = False

    async def close(self) -> None:
        self.closed = True


async def is_closed(store: SqliteStore) -> bool:
    try:
        await store.find("ABCDEF")
    except sqlite3.ProgrammingError:
        return True
    return False


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 30))


def test_the_app_is_made_when_it_starts_and_closed_when_it_stops(tmp_path: Path) -> None:
    opened = Opened(tmp_path / "tables.sqlite3")
    keys = VapidKeys.load_or_make(tmp_path)
    clock = ManualClock()

    async def push() -> PushConfig:
        return PushConfig(keys)

    app = create_app(opened.store, bus=opened.bus, push=push, clock=clock)

    async def body() -> None:
        assert opened.stores == [] and opened.buses == []  # nothing opened by building the app
        for _ in range(2):  # each start makes its own, and each stop closes them
            async with app.router.lifespan_context(app) as state:
                site = state["site"]
                assert isinstance(site, Site)
                service = site.service
                assert service.store is opened.stores[-1] and service.bus is opened.buses[-1]
                assert service.clock is clock and site.calls.time == clock.time
                assert site.pusher is not None and service.alerts is site.pusher
                await service.reconciler.rounds.wait(1)  # started: its first round runs at once
                code, _, _ = await service.create(read_request({"name": "Asha"}))
                assert service.get(code).table.seats[0].name == "Asha"
                assert not await is_closed(opened.stores[-1]) and not opened.buses[-1].closed
            assert await is_closed(opened.stores[-1]) and opened.buses[-1].closed
        first, second = opened.stores
        assert first is not second

    run(body)


@pytest.mark.parametrize("failing", ["push", "bus"])
def test_what_was_opened_is_closed_when_the_start_fails(tmp_path: Path, failing: str) -> None:
    """The turn alerts' settings or the bus cannot be had: the app does not start, and the store
    it had opened already is closed (before, it was left open)."""
    opened = Opened(tmp_path / "tables.sqlite3")
    keys = VapidKeys.load_or_make(tmp_path)

    async def push() -> PushConfig:
        if failing == "push":
            raise RuntimeError("no keys")
        return PushConfig(keys)

    async def bus() -> Bus:
        if failing == "bus":
            raise RuntimeError("no bus")
        return await opened.bus()

    app = create_app(opened.store, bus=bus, push=push)

    async def body() -> None:
        with pytest.raises(RuntimeError, match="no "):
            async with app.router.lifespan_context(app):
                pytest.fail("the app started")
        [store] = opened.stores
        assert await is_closed(store)

    run(body)
