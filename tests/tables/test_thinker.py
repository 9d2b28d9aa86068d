"""The computer players think on a thread of their own, beside the event loop.

A real service over SQLite, a table of one person and two computers whose players are held at a
gate the test opens: while a computer thinks, the event loop serves other tables; an answer that
comes after the table moved on (the host paused it) is never played; a player that fails to
decide packs as on a timeout, and the table goes on.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path

from support.tables import first_of

from teenpatti.bots import load_bot
from teenpatti.engine import Action, Hand, HandView, Rules, view
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.events import Act, decode
from teenpatti.tables.play.settings import read_request

VIEW = view(Hand(Rules(), [1000, 1000], 1, seed=bytes(32)), 0)
"""A view of a seat whose turn it is (for a decision made outside any table)."""

FAST = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, reconnect_grace=60.0)


class GatedBot:
    """A computer player that says when it is asked (and on which thread) and answers only when
    the test lets it: the move of the kind the test names (``None``: any legal move). With
    ``fail`` it raises instead of answering."""

    name = "gated"

    def __init__(self, fail: bool = False, nudge: Callable[[], None] = lambda: None) -> None:
        self.inner = load_bot("random", 7)
        self.fail = fail
        self.nudge = nudge
        """Called (on the computers' thread) when it is asked."""
        self.asked: queue.Queue[str] = queue.Queue()
        self.go: queue.Queue[str | None] = queue.Queue()
        self.answers = 0
        self.learned: list[str] = []
        """The threads it was shown finished hands on."""

    def observe(self, seen: HandView) -> None:
        self.learned.append(threading.current_thread().name)

    def decide(self, seen: HandView) -> Action:
        self.asked.put(threading.current_thread().name)
        self.nudge()
        kind = self.go.get(timeout=30)
        self.answers += 1
        if self.fail:
            raise RuntimeError("this computer player is broken")
        if kind is None:
            return self.inner.decide(seen)
        assert seen.viewer is not None
        return next(a for a in seen.legal_actions if a.kind == kind).action(seen.viewer)


class Table:
    """A table of a person (seat 0, who packs whenever the turn is theirs) and two gated
    computers, on a real service."""

    def __init__(
        self, service: TableService, code: str, bots: dict[int, GatedBot], asked: asyncio.Event
    ) -> None:
        self.service = service
        self.code = code
        self.bots = bots
        self.asked = asked
        """Set when a computer is asked for a move."""

    @classmethod
    async def open(
        cls, path: Path, fail: bool = False, service: TableService | None = None
    ) -> Table:
        """A new table, on a new service unless ``service`` is given."""
        if service is None:
            service = TableService(SqliteStore(path / "t.sqlite3"), FAST)
            await service.start()
        code, _, seat = await service.create(
            read_request(
                {
                    "name": "Asha",
                    "seats": 3,
                    "computer": True,
                    "turn_seconds": None,
                    "bots": "random",
                }
            )
        )
        assert seat == 0
        asked = asyncio.Event()
        loop = asyncio.get_running_loop()
        bots = {s: GatedBot(fail, lambda: loop.call_soon_threadsafe(asked.set)) for s in (1, 2)}
        # Before the first deal's clock has run: nothing has been awaited since the table opened.
        service.get(code).computers.bots.update(bots)
        return cls(service, code, bots, asked)

    @property
    def version(self) -> int:
        return self.service.get(self.code).table.version

    async def computer_asked(self) -> tuple[int, str]:
        """Wait until a computer is asked for a move (the person packs if the turn is theirs
        first): the seat asked and the thread it was asked on."""
        table = self.service.get(self.code).table
        async with asyncio.timeout(20):
            while True:
                self.asked.clear()
                for seat, bot in self.bots.items():
                    try:
                        return seat, bot.asked.get_nowait()
                    except queue.Empty:
                        pass
                hand = table.game.hand if table.game is not None else None
                if hand is not None and not hand.finished and hand.actor == 0:
                    act = {"type": "act", "action": {"do": "pack"}}
                    await self.service.command(self.code, 0, convert(act))
                    continue
                await self.moved()

    async def moved(self) -> None:
        """Wait until something the tests look at may have changed: a new version of a table,
        a decision queued or done on the computers' thread, or a computer asked."""
        await first_of(
            self.service.changes.wait(1), self.service.thinker.counted.wait(1), self.asked.wait()
        )

    async def until(self, done: Callable[[], bool], what: str) -> None:
        """Wait for the service to make ``done()`` true (looked at after each change)."""
        async with asyncio.timeout(20):
            while not done():
                await self.moved()
        assert done(), what

    async def events(self) -> list[object]:
        stored = await self.service.store.load(self.service.get(self.code).table.table_id)
        return [decode(e.data) for e in stored]

    async def close(self) -> None:
        for bot in self.bots.values():  # nobody stays held at the gate
            for _ in range(8):
                bot.go.put(None)
        await self.service.stop()
        await self.service.store.close()


def run(
    body: Callable[[Table], Awaitable[None]],
    path: Path,
    fail: bool = False,
    timing: Timing = FAST,
) -> None:
    async def main() -> None:
        service = TableService(SqliteStore(path / "t.sqlite3"), timing)
        await service.start()
        table = await Table.open(path, fail, service)
        try:
            await body(table)
        finally:
            await table.close()

    asyncio.run(asyncio.wait_for(main(), 60))


def test_the_event_loop_serves_other_tables_while_a_computer_thinks(tmp_path: Path) -> None:
    async def body(t: Table) -> None:
        seat, thread = await t.computer_asked()
        assert thread.startswith("teenpatti-computer"), thread
        before = t.version
        # The computer is still thinking: another table opens and plays on the same loop.
        code, _, _ = await t.service.create(
            read_request({"name": "Bikash", "seats": 2, "computer": False, "turn_seconds": None})
        )
        other = t.service.get(code).table
        await t.service.command(code, 0, convert({"type": "chat", "text": "namaste"}))
        assert other.version >= 2
        assert t.version == before, "nothing is played at the thinking table meanwhile"
        # A chat message at the thinking table changes no game state: the computer is not
        # asked again (the decision under way stays the table's one clock).
        live = t.service.get(t.code)
        thinking = live.clocks.timer
        assert thinking is not None
        await t.service.command(t.code, 0, convert({"type": "chat", "phrase": "shabash"}))
        assert live.clocks.timer is thinking
        assert t.bots[seat].asked.empty()
        before = t.version
        t.bots[seat].go.put(None)
        await t.until(lambda: t.version > before, "the computer's move was never stored")
        last = (await t.events())[before]
        assert isinstance(last, Act) and last.seat == seat and last.by == "bot"

    run(body, tmp_path)


def test_an_answer_that_comes_after_the_table_moved_on_is_not_played(tmp_path: Path) -> None:
    """The host pauses and resumes while a computer thinks: the hand is where it was, but the
    answer was asked in a state that is gone. The computer is asked again; its first answer
    (a pack) is never played, its second (a chaal) is, once."""

    async def body(t: Table) -> None:
        seat, _ = await t.computer_asked()
        bot = t.bots[seat]
        await t.service.command(t.code, 0, convert({"type": "pause"}))
        await t.service.command(t.code, 0, convert({"type": "resume"}))
        resumed = t.version
        bot.go.put("pack")  # the answer to the state before the pause
        again, _ = await t.computer_asked()
        assert again == seat, "after the pause the same computer is asked again"
        assert bot.answers == 1
        bot.go.put("chaal")
        await t.until(lambda: t.version > resumed, "the computer's new move was never stored")
        played = [e for e in (await t.events())[resumed:] if isinstance(e, Act)]
        assert played[0].seat == seat and played[0].by == "bot"
        assert played[0].action.do == "chaal", "an answer to a state that is gone was played"
        assert [e for e in played if e.seat == seat] == played[:1]

    run(body, tmp_path)


def test_a_computer_that_fails_to_decide_packs_and_the_table_goes_on(tmp_path: Path) -> None:
    async def body(t: Table) -> None:
        seat, _ = await t.computer_asked()
        before = t.version
        t.bots[seat].go.put(None)
        await t.until(lambda: t.version > before, "the table stopped at a broken computer")
        last = (await t.events())[before]
        assert isinstance(last, Act) and last.seat == seat and last.by == "timer"
        assert last.action.do in {"pack", "decline"}
        rendered = t.service.metrics.render().decode()
        assert 'teenpatti_errors_total{kind="computer/failed"} 1.0' in rendered
        assert "teenpatti_computer_decision_seconds_count" in rendered
        # The game goes on: the next turn comes (to the other computer, or a new hand's).
        await t.computer_asked()

    run(body, tmp_path, fail=True)


def test_a_computer_that_takes_too_long_packs_and_the_table_goes_on(tmp_path: Path) -> None:
    """A decision that is not back within ``think_limit`` is given up on: the computer packs
    (or declines), the table goes on, and ``computer/slow`` is counted."""

    async def body(t: Table) -> None:
        seat, _ = await t.computer_asked()  # and held at the gate: it never answers
        before = t.version
        await t.until(lambda: t.version > before, "the table waited for a computer for good")
        last = (await t.events())[before]
        assert isinstance(last, Act) and last.seat == seat and last.by == "timer"
        rendered = t.service.metrics.render().decode()
        assert 'teenpatti_errors_total{kind="computer/slow"} 1.0' in rendered
        assert "teenpatti_computer_decisions_waiting " in rendered
        assert t.service.thinker.waiting >= 1  # the decision given up on is still on its thread

    run(body, tmp_path, timing=replace(FAST, think_limit=0.2))


def test_a_decision_called_off_before_its_turn_is_never_made(tmp_path: Path) -> None:
    """Two tables' computers wait for the one thread: the first is held at its gate, the
    second queued behind it. The second table is paused (its decision called off): when the
    thread is free, its computer is never asked; the first table's move is stored."""

    async def body(first: Table) -> None:
        second = await Table.open(tmp_path, service=first.service)
        seat, _ = await first.computer_asked()
        queued = second.service.get(second.code)
        await first.until(
            lambda: queued.clocks.timer is not None and first.service.thinker.waiting == 2,
            "the second table's computer was never queued",
        )
        await second.service.command(second.code, 0, convert({"type": "pause"}))
        await first.until(
            lambda: first.service.thinker.waiting == 1, "the called-off decision is still queued"
        )
        before = first.version
        first.bots[seat].go.put(None)
        await first.until(lambda: first.version > before, "the first table's move was lost")
        for bot in first.bots.values():  # its computers answer at once from now on
            for _ in range(50):
                bot.go.put(None)
        await first.service.command(first.code, 0, convert({"type": "pause"}))
        # The thread takes decisions in order: once this one is made, so would the other be.
        assert (await first.service.thinker.decide(load_bot("random", 1), VIEW)).seat == 0
        assert all(b.asked.empty() for b in second.bots.values()), "a called-off decision ran"
        await second.close()

    # A limit longer than the test's waits: a queued decision is dropped by being called off,
    # not by its clock giving up on it.
    run(body, tmp_path, timing=replace(FAST, think_limit=60.0))


def test_computers_learn_from_a_finished_hand_on_their_thread(tmp_path: Path) -> None:
    """A finished hand is shown to each computer player on the computers' thread, in turn with
    its decisions: a player never learns while it decides."""

    async def body(t: Table) -> None:
        for bot in t.bots.values():  # they answer at once
            for _ in range(200):
                bot.go.put(None)
        table = t.service.get(t.code).table
        game = table.game
        assert game is not None
        async with asyncio.timeout(20):
            while game.hands_played < 1:
                hand = game.hand
                if hand is not None and not hand.finished and hand.actor == 0:
                    await t.service.command(
                        t.code, 0, convert({"type": "act", "action": {"do": "pack"}})
                    )
                    continue
                await t.moved()
        await t.service.thinker.idle()
        learned = [name for bot in t.bots.values() for name in bot.learned]
        assert learned, "no computer was shown the finished hand"
        assert all(name.startswith("teenpatti-computer") for name in learned), learned

    run(body, tmp_path)
