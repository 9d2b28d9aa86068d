"""The reconnect grace shared between processes, with a clock the tests move by hand: two table
services over one store and one shared bus (a board in memory standing for Redis, on the same
clock), so presence records lapse, processes die and leases change hands in exact order.

- a grace that runs out while the other process's record of the person has lapsed for a moment
  (a bus pause: that process could not renew it) does not hand over a person seen moments ago;
- a process taking a table over from one that died gives a person who left the dead process what
  is left of their grace: neither a fresh grace nor an immediate handover."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

from teenpatti.bus.base import Listener
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.cluster import PRESENCE_TTL
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection, LiveTable
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

GRACE = 30.0
TIMING = Timing(
    bot_delay=(1.0, 1.0),
    result_pause=2.0,
    first_deal=0.5,
    reconnect_grace=GRACE,
    reconcile_every=1.0,
    lease_ttl=3.0,
    lease_every=1.0,
)


class Board:
    """What Redis holds for the processes: presence records, leases, and the channel."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.records: dict[str, dict[str, tuple[float, set[int], float, dict[int, float]]]] = {}
        self.leases: dict[str, tuple[str, float]] = {}
        self.listeners: dict[str, Listener] = {}
        self.tasks: set[asyncio.Task[None]] = set()


class BoardBus:
    """One process's bus to the :class:`Board`; ``down`` makes every call fail (a bus pause,
    or a process that died)."""

    def __init__(self, board: Board, owner: str) -> None:
        self.board = board
        self.owner = owner
        self.down = False

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("the bus cannot be reached")

    async def start(self, listener: Listener) -> None:
        self.board.listeners[self.owner] = listener

    async def publish(self, code: str, version: int) -> None:
        self._check()
        for owner, listener in self.board.listeners.items():
            if owner != self.owner:
                task = asyncio.get_running_loop().create_task(listener(code, version))
                self.board.tasks.add(task)
                task.add_done_callback(self.board.tasks.discard)

    async def lease(self, code: str, ttl: float) -> bool:
        return code in await self.leases([code], ttl)

    async def leases(self, codes: list[str], ttl: float) -> set[str]:
        self._check()
        now, held = self.board.clock.time(), set()
        for code in codes:
            holder, until = self.board.leases.get(code, ("", 0.0))
            if holder == self.owner or until <= now:
                self.board.leases[code] = (self.owner, now + ttl)
                held.add(code)
        return held

    async def release(self, code: str) -> None:
        self._check()
        if self.board.leases.get(code, ("", 0.0))[0] == self.owner:
            del self.board.leases[code]

    async def present(
        self,
        seats: dict[str, list[int] | None],
        ttl: float,
        left: dict[str, dict[int, float]] | None = None,
        keep: float = 0.0,
    ) -> None:
        self._check()
        now = self.board.clock.time()
        for code, held in seats.items():
            gone = (left or {}).get(code, {})
            records = self.board.records.setdefault(code, {})
            if held is None and not gone:
                records.pop(self.owner, None)
            else:
                records[self.owner] = (now + ttl, set(held or []), now, dict(gone))

    def _others(self, code: str) -> list[tuple[float, set[int], float, dict[int, float]]]:
        return [r for o, r in self.board.records.get(code, {}).items() if o != self.owner]

    async def online(self, codes: list[str]) -> dict[str, set[int]]:
        self._check()
        now = self.board.clock.time()
        return {c: {s for r in self._others(c) if r[0] > now for s in r[1]} for c in codes}

    async def last_seen(self, codes: list[str]) -> dict[str, dict[int, float]]:
        self._check()
        out: dict[str, dict[int, float]] = {}
        for code in codes:
            seen: dict[int, float] = {}
            for _, held, written, gone in self._others(code):
                for seat, when in [*((s, written) for s in held), *gone.items()]:
                    seen[seat] = max(seen.get(seat, 0.0), when)
            out[code] = seen
        return out

    async def ping(self) -> None:
        self._check()

    async def close(self) -> None:
        pass


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


async def two_processes(
    tmp_path: Path,
) -> tuple[ManualClock, list[TableService], list[BoardBus], LiveTable, list[str]]:
    """Processes A and B over one store and board; a started table (host, guest, computer)
    created on A, whose clocks A runs."""
    clock = ManualClock()
    board = Board(clock)
    buses = [BoardBus(board, "A"), BoardBus(board, "B")]
    path = tmp_path / "s.sqlite3"
    services = [TableService(SqliteStore(path), TIMING, clock, bus=bus) for bus in buses]
    for service in services:
        await service.start()
    a = services[0]
    code, host, _ = await a.create(
        read_request({"name": "Host", "seats": 3, "preset": "nepal", "turn_seconds": 60})
    )
    guest, _ = await a.join(code, "Guest")
    await a.command(code, 0, convert({"type": "start"}))
    await settle(clock, services, 0.1)
    return clock, services, buses, a.get(code), [host, guest]


async def settle(clock: ManualClock, services: list[TableService], seconds: float) -> None:
    await clock.advance(seconds)
    for service in services:
        await service.tasks.settle()


async def on(service: TableService, code: str, token: str) -> tuple[LiveTable, Connection]:
    live = await service.find(code)
    conn = Connection(service.seat_for(live, token))
    await service.connect(live, conn)
    return live, conn


def kill(service: TableService, bus: BoardBus) -> None:
    """The process dies: nothing of it runs or writes any more (its records stay as written)."""
    bus.down = True
    for task in service._loops:
        task.cancel()
    for live in service.tables.values():
        service.clocks.cancel(live)
        for handle in live.presence.graces.values():
            handle.cancel()
    service.tasks.cancel()


def handed(live: LiveTable, seat: int) -> bool:
    return live.table.seats[seat].bot


async def handovers(service: TableService, live: LiveTable) -> list[int]:
    """The seats ever handed to the computer, from the table's log."""
    events = await service.store.load(live.table.table_id)
    return [e.data["seat"] for e in events if e.data["type"] == "control" and e.data["bot"]]


def test_a_lapsed_record_does_not_hand_over_a_person_seen_moments_ago(tmp_path: Path) -> None:
    """The fault suite's failure: a grace started on A for the guest (their socket on A closed
    while they were connected on B too) ran out while B's presence record had lapsed (B could not
    renew it during a bus pause), and A handed the connected guest's seat to the computer. Now
    the grace counts from the last time any process saw the guest, so it waits."""

    async def body() -> None:
        clock, (a, b), (_, bus_b), live, (host, guest) = await two_processes(tmp_path)
        code = live.table.code
        await on(a, code, host)
        _, on_a = await on(a, code, guest)
        here_b, _ = await on(b, code, guest)
        await settle(clock, [a, b], 2.0)  # lease rounds: each process sees the other's sockets
        assert 1 in live.cluster.remote
        a.disconnect(live, on_a)  # the guest's socket on A closes: A's grace starts
        await settle(clock, [a, b], 16.0)
        bus_b.down = True  # B stops renewing: its record lapses PRESENCE_TTL later
        await settle(clock, [a, b], GRACE - 16.0 + 1.0)  # A's grace runs out meanwhile
        assert not await handovers(a, live), "a guest connected on B went to the computer"
        bus_b.down = False  # B's bus is back: its record is renewed
        await settle(clock, [a, b], GRACE + PRESENCE_TTL)
        assert not await handovers(a, live) and not handed(here_b, 1)
        for service in (a, b):
            await service.stop()

    run(body)


def test_a_takeover_gives_an_absent_person_the_rest_of_their_grace(tmp_path: Path) -> None:
    """A person's socket closed on A, which then died; B takes the table's clocks over. The
    person gets what was left of the grace that began when their socket closed: not a fresh
    grace from the takeover, and not an immediate handover."""

    async def body() -> None:
        clock, (a, b), (bus_a, _), live, (host, guest) = await two_processes(tmp_path)
        code = live.table.code
        here_b, _ = await on(b, code, host)  # the host stays, on B
        _, on_a = await on(a, code, guest)
        await settle(clock, [a, b], 2.0)
        left_at = clock.time()
        a.disconnect(live, on_a)  # the guest leaves: their grace counts from now
        await settle(clock, [a, b], 5.0)
        kill(a, bus_a)  # A dies with the table's clocks; B takes them after the lease's TTL
        await settle(clock, [a, b], TIMING.lease_ttl + 2 * TIMING.lease_every)
        assert here_b.cluster.owned, "B never took the table's clocks over"
        assert not handed(here_b, 1), "handed over at once on the takeover"
        await settle(clock, [a, b], left_at + GRACE - 1.0 - clock.time())
        assert not handed(here_b, 1), "the grace was cut short"
        await settle(clock, [a, b], 1.0 + TIMING.reconcile_every + 0.1)
        assert handed(here_b, 1), "a fresh grace began on the takeover instead of the rest"
        assert not handed(here_b, 0)
        await b.stop()

    run(body)
