"""The host's say and the chat under the faults they meet, with a clock the tests move by hand: a
paused table whose clocks never fire however long it waits, a pause or a leave while the store is
down (refused, retryable, nothing changed), a chat that never moves the turn's deadline, and a
client flooding the chat (refused past its rate, the state's chat bounded)."""

from __future__ import annotations

from pathlib import Path

import as_sent
import pytest
from test_service_faults import TIMING, FlakyStore, run, started

from teenpatti.tables.live.service import TableService
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play import chat
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.errors import Refusal


def test_a_paused_table_runs_no_clock_and_the_turn_starts_afresh_on_resume(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service, turn_seconds=30, guests=1, computers=0)
        code = live.table.code
        await clock.advance(0.5)  # the deal
        await service.tasks.settle()
        assert live.table.hand_in_play and live.clocks.deadline is not None
        # The store is down: the pause is refused (retryable) and the table is as it was.
        store.down = True
        with pytest.raises(Refusal) as refused:
            await service.command(code, 0, convert({"type": "pause"}))
        assert refused.value.code == "store/unavailable" and not live.table.paused
        store.down = False
        await service.command(code, 0, convert({"type": "pause"}))
        version = live.table.version
        assert live.clocks.timer is None and live.clocks.deadline is None
        await clock.advance(600.0)  # ten minutes: nobody is packed, no clock fires
        await service.tasks.settle()
        assert live.table.version == version and live.table.paused
        await clock.advance(5.0)
        await service.command(code, 0, convert({"type": "resume"}))
        assert live.clocks.deadline == pytest.approx(clock.time() + 30)  # a whole turn again
        await clock.advance(30.1)
        await service.tasks.settle()
        assert live.table.version > version + 1  # the timer moved the table on
        await service.stop()

    run(body)


def test_chat_never_moves_the_turn_deadline(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service, turn_seconds=30, guests=1, computers=0)
        code = live.table.code
        await clock.advance(0.5)
        await service.tasks.settle()
        hand = live.table.game.hand  # type: ignore[union-attr]
        assert hand is not None
        actor = hand.actor
        deadline = live.clocks.deadline
        version = live.table.version
        for i in range(4):  # the other player chats all turn long
            await clock.advance(7.0)
            await service.command(
                code, 1 - actor, convert({"type": "chat", "emoji": chat.EMOJI[i]})
            )
            assert live.clocks.deadline == deadline
        # a move chosen before the chat is not stale because of it
        message = {"type": "act", "action": {"do": "see"}, "version": version}
        if any(a.kind.value == "see" for a in hand.legal_actions(actor)):
            await service.command(code, actor, convert(message))
            deadline = live.clocks.deadline
            version = live.table.version
        await clock.advance(deadline - clock.time() + 0.01)  # type: ignore[operator]
        await service.tasks.settle()
        acts = [e.data for e in await store.load(live.table.table_id, after=version)]
        assert {
            "type": "act",
            "seat": actor,
            "action": {"seat": actor, "do": "pack"},
            "by": "timer",
        } in acts
        await service.stop()

    run(body)


def test_a_chat_flood_is_refused_past_its_rate_and_the_state_stays_bounded(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live, _ = await started(service, turn_seconds=None, guests=1, computers=0)
        code = live.table.code
        codes: list[str] = []
        for i in range(600):
            if i % 50 == 0:
                await clock.advance(11.0)  # a new window now and then
            try:
                await service.command(code, 1, convert({"type": "chat", "text": f"spam {i}"}))
                codes.append("ok")
            except Refusal as error:
                codes.append(error.code)
        assert codes.count("ok") == 12 * chat.RATE[0]
        assert set(codes) == {"ok", "chat/rate"}
        state = as_sent.state(live.table, None)
        assert len(state["chat"]) == chat.CHAT_KEPT and live.table.said == codes.count("ok")
        # the store down: a chat message gets the retryable error, and nothing is kept
        store.down = True
        await clock.advance(11.0)
        with pytest.raises(Refusal) as refused:
            await service.command(code, 0, convert({"type": "chat", "phrase": "bye"}))
        assert refused.value.code == "store/unavailable"
        store.down = False
        assert live.table.said == codes.count("ok")
        await service.stop()

    run(body)
