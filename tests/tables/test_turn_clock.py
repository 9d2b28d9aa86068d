"""Looking at your cards does not buy time: a See leaves the turn's deadline where it was, in the
process that stored it, in a process that catches up with it and in one that loads the table
afresh; the timer then moves the player on at the deadline the first state showed."""

from __future__ import annotations

from pathlib import Path

import as_sent
import pytest
from test_service_faults import TIMING, FlakyStore, run, started

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.registry import replay
from teenpatti.tables.live.service import TableService
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert


def test_looking_at_your_cards_keeps_the_deadline(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service, turn_seconds=60, guests=1, computers=0)
        code = live.table.code
        await clock.advance(0.5)  # the deal
        await service.tasks.settle()
        hand = live.table.game.hand  # type: ignore[union-attr]
        assert hand is not None and hand.actor is not None
        actor = hand.actor
        deadline = live.clocks.deadline
        assert deadline == pytest.approx(clock.time() + 60)
        await clock.advance(40.0)
        version = live.table.version
        message = {"type": "act", "action": {"do": "see"}, "version": version}
        await service.command(code, actor, convert(message))
        assert live.table.version == version + 1 and hand.actor == actor
        assert live.clocks.deadline == deadline  # 20 s left, as before the look
        state = as_sent.state(live.table, actor)
        assert state["hand"]["actor"] == actor
        # a process that loads the table counts the turn from the deal, not from the look
        stored = await SqliteStore.load(store, live.table.table_id)
        _, since = await replay(SqliteStore(tmp_path / "s.sqlite3"), live.table.table_id, code)
        assert stored[-1].data["action"]["do"] == "see" and 0 < since < stored[-1].at
        # and the timer moves the player on at that deadline, not a whole turn after the look
        await clock.advance(deadline - clock.time() + 0.01)  # type: ignore[operator]
        await service.tasks.settle()
        acts = [e.data for e in await store.load(live.table.table_id, after=version + 1)]
        assert any(a.get("by") == "timer" for a in acts), acts
        await service.stop()

    run(body)


def test_a_move_after_a_look_starts_the_next_turn_afresh(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        service = TableService(FlakyStore(tmp_path / "s.sqlite3"), TIMING, clock)
        live, _ = await started(service, turn_seconds=60, guests=1, computers=0)
        code = live.table.code
        await clock.advance(0.5)
        await service.tasks.settle()
        hand = live.table.game.hand  # type: ignore[union-attr]
        assert hand is not None and hand.actor is not None
        actor = hand.actor
        await clock.advance(10.0)
        look = {"type": "act", "action": {"do": "see"}, "version": live.table.version}
        await service.command(code, actor, convert(look))
        await clock.advance(10.0)
        move = {"type": "act", "action": {"do": "chaal"}, "version": live.table.version}
        await service.command(code, actor, convert(move))
        assert hand.actor == 1 - actor
        # the next player's whole turn
        assert live.clocks.deadline == pytest.approx(clock.time() + 60)
        await service.stop()

    run(body)
