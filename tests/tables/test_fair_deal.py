"""The fair deal at a table: each seated person's part mixed into the next hand's deal, a part
that comes late refused and the table never waiting for one, every part kept through the log (a
restart deals the same), and the secrets and hidden cards held back until the game is over.
The clock is moved by hand (no sleeping)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import as_sent
import pytest
from test_service_faults import FlakyStore

from teenpatti.engine.deck import DECK_V2, Shuffle
from teenpatti.engine.history import verify_game
from teenpatti.engine.view import can_see_cards
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import LiveTable
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import TableError

TIMING = Timing(
    bot_delay=(1.0, 1.0),
    result_pause=2.0,
    first_deal=0.5,
    reconnect_grace=600.0,
    reconcile_every=1.0,
    idle_after=3600.0,
)


def run(body: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(body(), 60))


async def started(service: TableService, hands: int = 10) -> LiveTable:
    """A started nepal table: the host, one guest, one computer player, no turn timer."""
    code, _, _ = await service.create(
        read_request(
            {"name": "Host", "seats": 3, "preset": "nepal", "hands": hands, "turn_seconds": None}
        )
    )
    await service.join(code, "Guest")
    await service.command(code, 0, convert({"type": "start"}))
    return service.get(code)


def part_for(live: LiveTable, part: str | None = None) -> dict[str, Any]:
    state = as_sent.state(live.table, None)
    return {"type": "part", "for": state["next_commitment"], "part": part or secrets.token_hex(32)}


async def refused(service: TableService, live: LiveTable, seat: int | None, message: Any) -> str:
    with pytest.raises(TableError) as error:
        await service.command(live.table.code, seat, convert(message))
    return error.value.code


def test_each_persons_part_goes_into_the_deal_and_a_late_one_is_refused(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = SqliteStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live = await started(service)
        code = live.table.code
        secret = bytes.fromhex(live.table.next_seed or "")
        host, guest = part_for(live), part_for(live)
        assert await service.command(code, 0, convert(host))
        assert as_sent.state(live.table, 1)["next_parts"] == [0]
        # Refused, and nothing stored: a second part, a bad one, a spectator's, another hand's.
        version = live.table.version
        assert await refused(service, live, 0, part_for(live)) == "deal/sent"
        for bad in ("zz" * 32, "AB" * 32, "ab" * 31, 7, None):
            assert await refused(service, live, 1, {**guest, "part": bad}) == "deal/part"
        assert await refused(service, live, None, guest) == "table/not_seated"
        assert await refused(service, live, 1, {**guest, "for": "0" * 64}) == "deal/late"
        assert live.table.version == version
        assert await service.command(code, 1, convert(guest))
        await clock.advance(TIMING.first_deal)
        await service.tasks.settle()
        hand = live.table.game.hand  # type: ignore[union-attr]
        assert hand is not None and hand.shuffle is not None
        parts = (bytes.fromhex(host["part"]), bytes.fromhex(guest["part"]), None)
        assert hand.shuffle == Shuffle(secret, parts, DECK_V2)
        # Each part changes the deal: without either, other cards.
        dealt = hand.deck
        assert Shuffle(secret, (None, parts[1], None)).cards(len(dealt)) != dealt
        assert Shuffle(secret, (parts[0], None, None)).cards(len(dealt)) != dealt
        state = as_sent.state(live.table, None)
        assert state["hand"]["contributions"] == [host["part"], guest["part"], None]
        assert state["hand"]["secret"] is None and "next_parts" in state
        # The same part, now the hand is dealt: too late.
        assert await refused(service, live, 1, part_for(live) | {"for": host["for"]}) == "deal/late"
        # A restarted service reads the parts back from the log and deals the same cards.
        await service.stop()
        again = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, ManualClock())
        back = await again.find(code)
        assert back.table.game.hand.deck == dealt  # type: ignore[union-attr]
        assert as_sent.state(back.table, 0) == as_sent.state(live.table, 0)
        await again.stop()

    run(body)


def test_nobody_sends_a_part_and_the_table_deals_on_time(tmp_path: Path) -> None:
    async def body() -> None:
        clock = ManualClock()
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, clock)
        live = await started(service)
        await clock.advance(TIMING.first_deal)
        await service.tasks.settle()
        assert live.table.hand_in_play
        assert as_sent.state(live.table, None)["hand"]["contributions"] == [None, None, None]
        await service.stop()

    run(body)


def test_a_part_sent_before_a_restart_is_in_the_deal_after_it(tmp_path: Path) -> None:
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, ManualClock())
        live = await started(service)
        part = part_for(live)
        assert await service.command(live.table.code, 1, convert(part))
        await service.stop()  # before the deal
        clock = ManualClock()
        again = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, clock)
        await again.start()
        back = await again.find(live.table.code)
        again.clocks.ensure(back)
        await clock.advance(TIMING.first_deal)
        await again.tasks.settle()
        assert back.table.hand_in_play
        assert as_sent.state(back.table, None)["hand"]["contributions"] == [
            None,
            part["part"],
            None,
        ]
        await again.stop()

    run(body)


def test_secrets_stay_hidden_until_the_game_ends_then_the_whole_chain_verifies(
    tmp_path: Path,
) -> None:
    """A whole game played by the computer in every seat but two persons who always pack or
    chaal: during it no state and no history shows a secret or a card the rules kept hidden;
    after it every history is complete and verifies, parts included."""

    async def body() -> None:
        clock = ManualClock()
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, clock)
        live = await started(service)
        code = live.table.code
        sent = 0
        for _ in range(2000):
            table = live.table
            if table.status == "finished":
                break
            for seat in (0, 1):
                state = as_sent.state(table, seat)
                assert state["hand"] is None or state["hand"]["secret"] is None
                played = table.game.played if table.game else []
                for hand, history in zip(played, table.histories(seat), strict=True):
                    assert "secret" not in history
                    assert verify_game([history])[0].verified
                    for other, row in enumerate(history["seats"]):
                        assert bool(row["cards"]) == can_see_cards(hand, seat, other)
            if not table.hand_in_play:
                for seat in (0, 1):
                    if seat not in table.parts and table.next_seed is not None:
                        await service.command(code, seat, convert(part_for(live)))
                        sent += 1
                await clock.advance(TIMING.result_pause)
                await service.tasks.settle()
                continue
            hand = table.game.hand  # type: ignore[union-attr]
            assert hand is not None
            actor = hand.actor
            if actor is not None and not table.seats[actor].bot:
                legal = [a.kind.value for a in hand.legal_actions(actor)]
                do = "show" if "show" in legal else "chaal" if actor == 0 else "pack"
                if do not in legal:
                    do = legal[0] if legal[0] != "see" else legal[-1]
                await service.command(code, actor, convert({"type": "act", "action": {"do": do}}))
            else:
                await clock.advance(TIMING.bot_delay[1])
                await service.tasks.settle()
        assert live.table.status == "finished" and sent >= 2
        histories = live.table.histories(None)
        assert histories and all("secret" in h for h in histories)
        assert all(r.verified and r.complete for r in verify_game(histories))
        assert any(c is not None for h in histories for c in h["contributions"])
        assert as_sent.state(live.table, None)["hand"]["secret"] is not None
        await service.stop()

    run(body)


def test_parts_do_not_put_the_deal_off(tmp_path: Path) -> None:
    """The pause before a deal counts from the start (or the hand's end): a part stored in the
    pause does not start it again, so a table with six players is dealt as soon as one."""

    async def body() -> None:
        clock = ManualClock()
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), TIMING, clock)
        live = await started(service)
        await clock.advance(TIMING.first_deal * 0.6)
        assert await service.command(live.table.code, 0, convert(part_for(live)))
        assert await service.command(live.table.code, 1, convert(part_for(live)))
        await service.tasks.settle()
        assert not live.table.hand_in_play
        await clock.advance(TIMING.first_deal * 0.5)  # 1.1 pauses after the start
        await service.tasks.settle()
        assert live.table.hand_in_play, "the parts put the deal off"
        await service.stop()

    run(body)


def test_a_part_sent_while_the_store_is_down_is_refused_and_never_stalls_the_deal(
    tmp_path: Path,
) -> None:
    async def body() -> None:
        clock = ManualClock()
        store = FlakyStore(tmp_path / "s.sqlite3")
        service = TableService(store, TIMING, clock)
        live = await started(service)
        part = part_for(live)
        store.down = True
        with pytest.raises(TableError) as error:
            await service.command(live.table.code, 1, convert(part))
        assert error.value.code == "store/unavailable" and error.value.retryable
        assert live.table.parts == {}
        store.down = False
        await clock.advance(TIMING.first_deal + 2.0)  # the deal, retried if need be
        await service.tasks.settle()
        assert live.table.hand_in_play
        assert as_sent.state(live.table, None)["hand"]["contributions"] == [None, None, None]
        # The client's retry comes after the deal: refused as late, nothing stored.
        version = live.table.version
        assert await refused(service, live, 1, part) == "deal/late"
        assert live.table.version == version
        await service.stop()

    run(body)
