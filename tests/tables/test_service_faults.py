"""The table service under store faults, with a clock the tests move by hand (no sleeping):
clocks that survive store errors, appends whose acknowledgement is lost, moves sent during an
outage (a retryable error, and a retry applied once), the turn deadline a new process keeps,
graces re-armed after a restart, damaged tables quarantined, idle tables leaving memory."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import as_sent
import pytest
from support.tables import until

from teenpatti.store.base import StoredEvent
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection, LiveTable
from teenpatti.tables.live.time_source import ManualClock, SystemClock
from teenpatti.tables.live.timers import RETRY_MAX
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import TableError
from teenpatti.web.app import create_app

DOCTOR = (sys.executable, "-c", "from teenpatti.cli import main; main()", "doctor")

TIMING = Timing(
    bot_delay=(1.0, 1.0),
    result_pause=2.0,
    first_deal=0.5,
    reconnect_grace=10.0,
    reconcile_every=1.0,
    idle_after=30.0,
)


class FlakyStore(SqliteStore):
    """A real SQLite store that can be made to fail: ``down`` (every call raises, as a store
    that cannot be reached), ``lose_acks`` (the next appends are stored, then raise, as a
    commit whose acknowledgement was lost on the way)."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.down = False
        self.lose_acks = 0

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("the store is down")

    async def append(self, table_id: str, expected: int, events: list[dict[str, Any]]) -> int:
        self._check()
        version = await super().append(table_id, expected, events)
        if self.lose_acks:
            self.lose_acks -= 1
            raise ConnectionResetError("connection lost before the acknowledgement")
        return version

    async def load(self, table_id: str, after: int = 0) -> list[StoredEvent]:
        self._check()
        return await super().load(table_id, after)

    async def versions(self, table_ids: list[str]) -> dict[str, int]:
        self._check()
        return await super().versions(table_ids)

    async def create_table(self, table_id: str, code: str, first: dict[str, Any]) -> None:
        self._check()
        await super().create_table(table_id, code, first)


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


async def started(
    service: TableService, turn_seconds: int | None = 30, guests: int = 1, computers: int = 1
) -> tuple[LiveTable, list[str]]:
    """A started table of ``1 + guests`` persons and ``computers`` computer players."""
    seats = 1 + guests + computers
    code, host, _ = await service.create(
        read_request(
            {"name": "Host", "seats": seats, "preset": "nepal", "turn_seconds": turn_seconds}
        )
    )
    tokens = [host]
    for i in range(guests):
        tokens.append((await service.join(code, f"Guest{i}"))[0])
    await service.command(code, 0, convert({"type": "start"}))
    return service.get(code), tokens


async def log_of(store: SqliteStore, live: LiveTable) -> list[int]:
    return [e.version for e in await SqliteStore.load(store, live.table.table_id)]


def test_a_clock_survives_a_store_outage(tmp_path: Path) -> None:
    """Issue: a clock died on any store error and nothing re-armed it (the table froze for
    good). Now the deal fails while the store is down, is retried with back-off, and goes in
    within RETRY_MAX of the store coming back; the error is logged once."""

    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service)
        version = live.table.version
        store.down = True
        await clock.advance(30.0)  # the deal is due at 0.5 s: it fails, again and again
        assert live.table.version == version and not live.table.hand_in_play
        store.down = False
        await clock.advance(RETRY_MAX + 0.01)
        await service.tasks.settle()
        assert live.table.hand_in_play, "the deal never came after the store was back"
        assert await log_of(store, live) == list(range(1, live.table.version + 1))
        await service.stop()

    run(body)


def test_a_lost_acknowledgement_reloads_the_table(tmp_path: Path) -> None:
    """Issue: a commit whose acknowledgement was lost left the process serving the version
    before it, with no clock. Now the table is reloaded from the store at once and goes on."""

    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service)
        store.lose_acks = 1
        await clock.advance(0.5)  # the deal is stored, but the process hears an error
        await service.tasks.settle()
        stored = await log_of(store, live)
        assert live.table.version == stored[-1], "the process is behind its own log"
        assert live.table.hand_in_play and not live.writer.stale
        clocks = live.clocks
        assert clocks.timer is not None or clocks.deadline is not None  # the turn's clock is set
        await service.stop()

    run(body)


def test_a_move_during_an_outage_gets_a_retryable_error_and_a_retry_applies_once(
    tmp_path: Path,
) -> None:
    """Issue: a move that could not be stored dropped the socket with no reply. Now it is
    refused with store/unavailable (retryable); sent again with the same id it applies once,
    whether or not the first attempt was stored."""

    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service, guests=2, computers=0)
        await clock.advance(0.5)  # the deal
        await service.tasks.settle()
        code = live.table.code

        def move(cid: str, do: str) -> dict[str, Any]:
            actor = live.table.game.hand.actor  # type: ignore[union-attr]
            assert not live.table.seats[actor].bot
            return {"type": "act", "action": {"do": do}, "id": cid, "seat": actor}

        # The store is down: refused, retryable, nothing stored.
        store.down = True
        message = move("m-1", "see")
        with pytest.raises(TableError) as refused:
            await service.command(code, message["seat"], convert(message))
        assert refused.value.code == "store/unavailable" and refused.value.retryable
        store.down = False
        before = live.table.version
        assert await service.command(code, message["seat"], convert(message))  # the retry applies
        assert live.table.version == before + 1
        # Stored, but the acknowledgement is lost: the retry finds it applied.
        message = move("m-2", "pack")
        store.lose_acks = 1
        with pytest.raises(TableError) as refused:
            await service.command(code, message["seat"], convert(message))
        assert refused.value.code == "store/unavailable"
        assert not await service.command(code, message["seat"], convert(message))  # a repeat
        assert not await service.command(code, message["seat"], convert({**message, "version": 1}))
        events = [e.data for e in await SqliteStore.load(store, live.table.table_id)]
        assert [e.get("id") for e in events].count("m-2") == 1
        assert [e.get("id") for e in events].count("m-1") == 1
        await service.stop()

    run(body)


def test_bad_command_ids_are_refused(tmp_path: Path) -> None:
    async def body() -> None:
        service = TableService(FlakyStore(tmp_path / "s.sqlite3"), TIMING, ManualClock())
        live, _ = await started(service)
        for bad in (5, "", "x" * 65, "é", "a\nb"):
            with pytest.raises(TableError) as refused:
                await service.command(live.table.code, 0, convert({"type": "act", "id": bad}))
            assert refused.value.code == "message/id"
        await service.stop()

    run(body)


def test_a_new_process_keeps_the_turn_deadline(tmp_path: Path) -> None:
    """Issue: after a takeover the new process restarted the turn timer from a full turn. Now
    the deadline counts from the stored event that began the turn, in every process."""
    path = tmp_path / "s.sqlite3"

    async def body() -> None:
        first = TableService(SqliteStore(path), TIMING, SystemClock())
        live, _ = await started(first)
        code = live.table.code
        # The first deal, 0.5 s after the start, begins the first turn and its deadline.
        await until(first, lambda: live.clocks.deadline is not None, "no deadline after the deal")
        deadline = live.clocks.deadline
        assert deadline is not None
        await first.stop()
        # The process taking the table over starts 10 s later by its own clock.
        later = ManualClock(start=SystemClock().time() + 10.0)
        second = TableService(SqliteStore(path), TIMING, later)
        again = await second.find(code)
        assert again.clocks.deadline == pytest.approx(deadline, abs=0.5)
        await second.stop()

    run(body)


def test_after_a_restart_absent_players_are_handed_to_the_computer(tmp_path: Path) -> None:
    """Issue: a person absent since a restart was never handed to the computer. Now the
    reconciler starts their grace, and the computer takes the seat when it runs out, while a
    person who is connected keeps theirs."""
    path = tmp_path / "s.sqlite3"

    async def body() -> None:
        clock = ManualClock()
        first = TableService(SqliteStore(path), TIMING, clock)
        live, tokens = await started(first, guests=2)
        code = live.table.code
        await first.stop()
        second = TableService(SqliteStore(path), TIMING, clock)
        await second.start()
        back = await second.find(code)
        here = Connection(second.seat_for(back, tokens[1]))
        await second.connect(back, here)
        await clock.advance(TIMING.reconcile_every + TIMING.reconnect_grace + 0.1)
        await second.tasks.settle()
        seats = back.table.seats
        assert seats[0].bot and seats[2].bot, "absent persons were never handed over"
        assert not seats[1].bot
        await second.stop()

    run(body)


def test_a_damaged_table_is_quarantined_and_the_others_serve(tmp_path: Path) -> None:
    """Issue: one corrupt row stopped every table. Now only its table is refused."""
    path = tmp_path / "teenpatti.sqlite3"

    async def body() -> None:
        service = TableService(SqliteStore(path), TIMING, ManualClock())
        bad, _, _ = await service.create(read_request({"name": "A"}))
        good, _, _ = await service.create(read_request({"name": "B"}))
        table_id = service.get(bad).table.table_id
        await service.stop()
        with sqlite3.connect(path) as db:
            db.execute(
                "UPDATE events SET data = ? WHERE table_id = ?", ('{"type": "bogus"}', table_id)
            )
        again = TableService(SqliteStore(path), TIMING, ManualClock())
        await again.start()
        for _ in range(2):  # refused each time, logged once
            with pytest.raises(TableError) as refused:
                await again.find(bad)
            assert refused.value.code == "table/damaged"
        assert (await again.find(good)).table.seats[0].name == "B"
        assert list(again.registry.damaged) == [bad]
        await again.stop()

    run(body)
    # The doctor names the damaged table, and only it.
    done = subprocess.run(
        [*DOCTOR, "--data", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 1, done.stderr
    damaged = [line["table"] for line in lines if line.get("ok") is False]
    assert len(damaged) == 1 and lines[-1] == {"tables": 2, "damaged": 1}


def test_idle_and_computer_only_tables_leave_memory(tmp_path: Path) -> None:
    """A table nobody watches and no person plays stops and leaves memory; the log keeps it,
    and it comes back as it was when someone opens it."""

    async def body() -> None:
        clock = ManualClock()
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, clock)
        await service.start()
        code, _, _ = await service.create(
            read_request({"name": "Solo", "computer": True, "seats": 3})
        )
        live = service.get(code)
        # The host never connects: after the grace, the computer plays their seat too, and
        # with nobody watching, the table stops.
        await clock.advance(TIMING.reconnect_grace + 5.0)
        await service.tasks.settle()
        assert all(s.bot for s in live.table.seats)
        version = live.table.version
        await clock.advance(TIMING.idle_after + 2 * TIMING.reconcile_every)
        await service.tasks.settle()
        assert code not in service.tables and live.table.version == version
        back = await service.find(code)
        assert as_sent.state(back.table, None) == as_sent.state(live.table, None)
        await service.stop()

    run(body)


def test_tables_past_their_keeping_time_are_removed(tmp_path: Path) -> None:
    """Finished and abandoned tables stay in the log for ``keep_for`` (their histories can be
    fetched), then are removed; a table used since stays."""

    async def body() -> None:
        path = tmp_path / "s.sqlite3"
        store = SqliteStore(path)
        clock = ManualClock(start=SystemClock().time())
        service = TableService(store, TIMING, clock)
        await service.start()
        old, _, _ = await service.create(read_request({"name": "Old"}))
        fresh, _, _ = await service.create(read_request({"name": "New"}))
        with sqlite3.connect(path) as db:  # the old table was last used long ago
            db.execute(
                "UPDATE events SET at = at - ? WHERE table_id = ?",
                (TIMING.keep_for + 60, service.get(old).table.table_id),
            )
        await service.reconciler.purge(clock.time())
        with pytest.raises(TableError) as gone:
            await service.find(old)
        assert gone.value.code == "table/unknown"
        assert [r.code for r in await store.tables()] == [fresh]
        await service.stop()

    run(body)


class QuietBus:
    """A bus to another, silent process: announcements are kept, every lease is ours."""

    owner = "quiet"

    def __init__(self) -> None:
        self.published: list[tuple[str, int]] = []

    async def start(self, listener: Any) -> None:
        self.listener = listener

    async def publish(self, code: str, version: int) -> None:
        self.published.append((code, version))

    async def lease(self, code: str, ttl: float) -> bool:
        return True

    async def leases(self, codes: list[str], ttl: float) -> set[str]:
        return set(codes)

    async def release(self, code: str) -> None:
        pass

    async def present(self, seats: dict[str, list[int] | None], ttl: float, *_: Any) -> None:
        pass

    async def last_seen(self, codes: list[str]) -> dict[str, dict[int, float]]:
        return {}

    async def online(self, codes: list[str]) -> dict[str, set[int]]:
        return {}

    async def ping(self) -> None:
        pass

    async def close(self) -> None:
        pass


def test_start_up_loads_nothing_and_announcements_of_other_tables_are_ignored(
    tmp_path: Path,
) -> None:
    """Issue: every process kept and replayed every table ever created, and re-read every
    append announced. Now start-up loads no table, a table is loaded on first use, and an
    announcement for a table not in memory costs nothing; one in memory is caught up."""
    path = tmp_path / "s.sqlite3"

    async def body() -> None:
        first = TableService(SqliteStore(path), TIMING, ManualClock())
        codes = [(await first.create(read_request({"name": f"P{i}"})))[0] for i in range(20)]
        await first.stop()
        store = SqliteStore(path)
        reads: list[str] = []
        load = store.load

        async def counted(table_id: str, after: int = 0) -> list[StoredEvent]:
            reads.append(table_id)
            return await load(table_id, after)

        store.load = counted  # type: ignore[method-assign]
        bus = QuietBus()
        second = TableService(store, TIMING, ManualClock(), bus=bus)
        await second.start()
        assert second.tables == {} and reads == []
        await bus.listener(codes[0], 5)  # another process wrote to a table not in memory here
        assert second.tables == {} and reads == []
        live = await second.find(codes[1])
        assert list(second.tables) == [codes[1]] and live.table.seats[0].name == "P1"
        # Another process seats someone at codes[1]; its announcement catches this one up.
        third = TableService(SqliteStore(path), TIMING, ManualClock())
        await third.join(codes[1], "Guest")
        await bus.listener(codes[1], live.table.version + 1)
        assert [s.name for s in live.table.seats] == ["P1", "Guest"]
        await second.stop()
        await third.stop()

    run(body)


class HeldStore(FlakyStore):
    """A store whose appends of a hand-over to the computer wait until the test lets them
    through (``hold`` set): the moment between a hand-over's check and its commit."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.hold = False
        self.held = asyncio.Event()
        self.release = asyncio.Event()

    async def append(self, table_id: str, expected: int, events: list[dict[str, Any]]) -> int:
        if self.hold and any(e.get("type") == "control" and e.get("bot") for e in events):
            self.held.set()
            await self.release.wait()
        return await super().append(table_id, expected, events)


def test_a_person_back_while_the_hand_over_is_stored_keeps_the_seat(tmp_path: Path) -> None:
    """Seen in a two-process test under load: a person whose socket opened while their seat's
    hand-over to the computer was being stored found the seat still theirs, then the hand-over
    applied, and the computer played for a connected person until the reconciler's next round.
    Now the seat is given back as soon as the hand-over is stored."""

    async def body() -> None:
        clock = ManualClock()
        store = HeldStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, tokens = await started(service, guests=1)
        away = Connection(service.seat_for(live, tokens[1]))
        await service.connect(live, away)
        service.disconnect(live, away)  # the guest's grace starts
        store.hold = True
        await clock.advance(TIMING.reconnect_grace + 0.01)
        assert store.held.is_set(), "the grace ran out without a hand-over"
        back = Connection(service.seat_for(live, tokens[1]))
        await service.connect(live, back)  # back while the hand-over is being stored
        store.release.set()
        await service.tasks.settle()
        assert live.table.seats[1].token_hash is not None
        assert not live.table.seats[1].bot, "the computer plays for a connected person"
        await service.stop()

    run(body)


def test_a_chat_message_sent_again_with_its_id_is_stored_once(tmp_path: Path) -> None:
    """A chat message whose acknowledgement was lost is refused as retryable; sent again with
    the same id it is not stored a second time (it used to be: only moves were deduplicated)."""

    async def body() -> None:
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, ManualClock())
        live, _ = await started(service)
        code = live.table.code
        message = {"type": "chat", "phrase": "shabash", "id": "c-1"}
        store.lose_acks = 1
        with pytest.raises(TableError) as refused:
            await service.command(code, 0, convert(message))
        assert refused.value.code == "store/unavailable" and refused.value.retryable
        assert not await service.command(code, 0, convert(message))  # applied already: a repeat
        assert await service.command(code, 0, convert({**message, "id": "c-2"}))
        said = [e.data for e in await SqliteStore.load(store, live.table.table_id)]
        said = [e for e in said if e["type"] == "said"]
        assert [e.get("id") for e in said] == ["c-1", "c-2"]
        chat = as_sent.state(live.table, None)["chat"]
        assert [m["text"] for m in chat] == ["shabash", "shabash"]
        await service.stop()

    run(body)


def test_the_rounds_are_counted_on_the_clock_the_app_is_given(tmp_path: Path) -> None:
    """The app runs its service on the clock it is handed, and the reconciler's rounds and the
    tables' clocks count what they have done: a test waits for them instead of sleeping."""

    async def body() -> None:
        clock = ManualClock()
        app = create_app(SqliteStore(tmp_path / "s.sqlite3"), timing=TIMING, clock=clock)
        async with app.router.lifespan_context(app) as state:  # the app makes and starts it
            service: TableService = state["site"].service
            assert service.clock is clock
            live, _ = await started(service)
            fired = service.clocks.fired.count
            dealt = asyncio.ensure_future(service.clocks.fired.wait(1))
            assert not live.table.hand_in_play
            await clock.advance(TIMING.first_deal)  # the deal's clock fires once
            assert await dealt == fired + 1 and live.table.hand_in_play
            rounds = service.reconciler.rounds.count
            assert rounds >= 1  # the first round runs at once
            waiting = asyncio.ensure_future(service.reconciler.rounds.wait(2))
            await clock.advance(TIMING.reconcile_every)
            assert service.reconciler.rounds.count == rounds + 1 and not waiting.done()
            await clock.advance(TIMING.reconcile_every)
            assert await waiting == rounds + 2

    run(body)
