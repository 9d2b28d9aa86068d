"""The host's say and the chat at the table level (pure: events in, state out): who may start a
new game, latecomers, leaving, removing, pausing, the host's role passing on, chat messages; every
refusal has its code and changes nothing, and a table rebuilt from the log is the same table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import as_sent
import pytest
from test_table import SEED, Log

from teenpatti.tables.play import chat
from teenpatti.tables.play.commands import Chat, Configure, Move, read
from teenpatti.tables.play.errors import Refusal
from teenpatti.tables.play.events import Left, Said, Seated, Voted, decode, encode
from teenpatti.tables.play.table import Table

NEXT = bytes(range(1, 33))


def refused(call: Callable[[], Any], code: str, table: Table) -> None:
    """``call`` is refused with ``code`` and the table's state stays as it was."""
    before = (
        table.version,
        as_sent.state(table, None),
        [as_sent.state(table, i) for i in range(len(table.seats))],
    )
    with pytest.raises(Refusal) as error:
        call()
    assert error.value.code == code
    after = (
        table.version,
        as_sent.state(table, None),
        [as_sent.state(table, i) for i in range(len(table.seats))],
    )
    assert after == before


def game(people: int = 3, seats: int = 4, **settings: Any) -> Log:
    """A table of ``people`` persons (tokens t0, t1, ...) and the computer, first hand dealt."""
    log = Log({"seats": seats, "preset": "limited", "hands": 2, **settings})
    for i in range(1, people):
        log.commit(log.table.join_event(f"P{i}", f"t{i}"))
    log.commit(log.table.start_event(0, SEED))
    log.commit(log.table.hand_event(NEXT))
    return log


def same_after_replay(log: Log) -> None:
    rebuilt = Table("id1", "K7WQ3M")
    for event in log.events:
        rebuilt.apply(decode(encode(event)))
    for seat in (None, *range(len(log.table.seats))):
        assert as_sent.state(rebuilt, seat) == as_sent.state(log.table, seat)
    assert rebuilt.removed == log.table.removed and rebuilt.game_version == log.table.game_version


def finish(log: Log) -> None:
    """Play the game out: every seat packs until it is over."""
    table = log.table
    while table.status != "finished":
        if not table.hand_in_play:
            log.commit(table.hand_event(NEXT))
            continue
        assert table.game is not None and table.game.hand is not None
        actor = table.game.hand.actor
        assert actor is not None
        by = "bot" if table.seats[actor].late else "person"  # the computer plays a late seat
        log.commit(table.act_event(actor, read(Move, {"do": "pack"}, "action"), by=by))


def test_only_the_host_or_a_majority_of_the_people_start_a_new_game() -> None:
    log = game(people=3)
    table = log.table
    finish(log)
    refused(lambda: table.again_event(None, SEED), "table/not_seated", table)
    log.commit(*table.again_event(1, SEED))
    assert table.status == "finished" and as_sent.state(table, None)["votes"] == [1]
    refused(lambda: table.again_event(1, SEED), "again/voted", table)
    events = table.again_event(2, SEED)  # two of three people: a majority
    assert next(type(e) for e in events) is Voted and len(events) == 2
    log.commit(*events)
    assert table.status == "playing" and table.votes == set() and table.games_played == 2
    same_after_replay(log)


def test_a_latecomer_takes_a_computer_seat_at_the_next_hand() -> None:
    log = game(people=2, seats=4)
    table = log.table
    event = table.join_event("Late", "late")
    assert isinstance(event, Seated) and event.seat == 2
    log.commit(event)
    seat = table.seats[2]
    assert (seat.name, seat.bot, seat.late) == ("Late", True, True)  # the computer plays on
    assert table.seat_of("late") == 2 and as_sent.state(table, None)["seats"][2].get("late") is True
    refused(lambda: table.join_event("late ", "x"), "name/taken", table)
    while table.hand_in_play:  # the hand goes on without them, the computer in their seat
        assert table.game is not None and table.game.hand is not None
        actor = table.game.hand.actor
        assert actor is not None
        log.commit(
            table.act_event(
                actor, read(Move, {"do": "pack"}, "action"), by="bot" if actor == 2 else "person"
            )
        )
    log.commit(table.hand_event(NEXT))
    seat = table.seats[2]
    assert (seat.name, seat.bot, seat.late) == ("Late", False, False)
    assert table.game is not None and table.game.names[2] == "Late"
    log.commit(table.join_event("Later", "later"))
    refused(lambda: table.join_event("Latest", "latest"), "table/full", table)
    same_after_replay(log)


def test_the_host_can_close_the_table_to_latecomers_and_change_the_chat() -> None:
    log = game(people=2)
    table = log.table
    refused(
        lambda: table.configure_event(1, read(Configure, {"late": False})), "table/not_host", table
    )
    refused(
        lambda: table.configure_event(0, read(Configure, {"late": "no"})), "settings/late", table
    )
    refused(lambda: table.configure_event(0, read(Configure, {})), "settings/invalid", table)
    version = table.game_version
    log.commit(table.configure_event(0, read(Configure, {"late": False, "chat": False})))
    assert table.game_version == version  # a setting leaves the turn's clock alone
    assert as_sent.state(table, None)["settings"]["late"] is False
    refused(lambda: table.join_event("Late", "late"), "table/late_closed", table)
    refused(lambda: table.chat_event(1, read(Chat, {"text": "hi"})), "chat/text_off", table)
    log.commit(table.chat_event(1, read(Chat, {"phrase": "shabash"})))
    same_after_replay(log)


def test_leaving_and_removing_hand_the_seat_to_the_computer_and_pass_the_host() -> None:
    log = game(people=3)
    table = log.table
    refused(lambda: table.remove_event(1, 2), "table/not_host", table)
    refused(lambda: table.remove_event(0, 3), "seat/not_person", table)  # the computer's seat
    refused(lambda: table.remove_event(0, 9), "seat/not_person", table)
    refused(lambda: table.remove_event(0, "1"), "seat/invalid", table)
    refused(lambda: table.remove_event(0, 0), "seat/self", table)
    refused(lambda: table.leave_event(None), "table/not_seated", table)
    log.commit(table.remove_event(0, 2))
    assert table.seat_of("t2") is None and table.removed == {table_hash("t2"): True}
    assert table.seats[2].bot and table.seats[2].token_hash is None
    log.commit(table.leave_event(0))  # the host goes: the next person is the host
    assert [s.host for s in table.seats] == [False, True, False, False]
    assert table.removed[table_hash("t0")] is False
    same_after_replay(log)


def test_leaving_before_the_start_frees_the_seat() -> None:
    log = Log({"seats": 4, "preset": "limited"})
    table = log.table
    log.commit(table.join_event("A", "t1"))
    log.commit(table.join_event("B", "t2"))
    log.commit(table.leave_event(1))
    assert [s.name for s in table.seats] == ["Host", "B"] and table.seat_of("t2") == 1
    log.commit(table.leave_event(0))
    assert [(s.name, s.host) for s in table.seats] == [("B", True)]
    same_after_replay(log)


def test_a_paused_table_takes_no_moves_and_deals_no_hand() -> None:
    log = game(people=2)
    table = log.table
    assert table.game is not None and table.game.hand is not None
    actor = table.game.hand.actor
    refused(lambda: table.pause_event(1, True), "table/not_host", table)
    refused(lambda: table.pause_event(0, False), "table/not_paused", table)
    log.commit(table.pause_event(0, True))
    refused(lambda: table.pause_event(0, True), "table/paused", table)
    refused(
        lambda: table.act_event(actor, read(Move, {"do": "pack"}, "action")), "table/paused", table
    )
    assert (
        as_sent.state(table, actor)["legal"] == [] and as_sent.state(table, None)["paused"] is True
    )
    log.commit(table.chat_event(1, read(Chat, {"emoji": "🙏"})))  # the chat goes on
    log.commit(table.pause_event(0, False))
    log.commit(table.act_event(actor, read(Move, {"do": "pack"}, "action")))
    same_after_replay(log)


def test_chat_is_checked_kept_short_and_never_holds_cards() -> None:
    log = game(people=2)
    table = log.table
    refused(
        lambda: table.chat_event(None, read(Chat, {"phrase": "shabash"})), "table/not_seated", table
    )
    for bad, code in (
        ({"phrase": "nope"}, "chat/phrase"),
        ({"emoji": "<b>"}, "chat/emoji"),
        ({"text": "x" * (chat.TEXT_MAX + 1)}, "chat/text"),
        ({"text": " \n\u200b "}, "chat/empty"),
        ({"text": 5}, "chat/text"),
        ({"phrase": "bye", "emoji": "👍"}, "chat/invalid"),
        ({}, "chat/invalid"),
    ):
        refused(lambda bad=bad: table.chat_event(1, read(Chat, bad)), code, table)  # type: ignore[misc]
    said = table.chat_event(1, read(Chat, {"text": "<img src=x onerror=alert(1)>  hi"}))
    assert said == Said(seat=1, kind="text", text="<img src=x onerror=alert(1)> hi")
    for i in range(chat.CHAT_KEPT + 5):
        log.commit(
            table.chat_event(i % 2, read(Chat, {"phrase": chat.PHRASES[i % len(chat.PHRASES)]}))
        )
    kept = as_sent.state(table, None)["chat"]
    assert len(kept) == chat.CHAT_KEPT and kept[-1]["n"] == chat.CHAT_KEPT + 5
    assert set(kept[-1]) == {"n", "seat", "kind", "text"}
    same_after_replay(log)


def test_the_chat_limit_counts_each_seat_on_its_own() -> None:
    limit = chat.Limiter(3, 10.0)
    assert [limit.take(0, t) for t in (0, 1, 2, 3)] == [True, True, True, False]
    assert limit.take(1, 3)  # another seat has its own budget
    assert limit.take(0, 10.5)  # the first message is more than 10 s old


def test_a_left_event_for_a_computer_seat_does_not_decode_into_a_person() -> None:
    assert decode({"type": "left", "seat": 1}) == Left(seat=1)
    assert encode(Left(seat=1, removed=True)) == {"type": "left", "seat": 1, "removed": True}


def table_hash(token: str) -> str:
    from teenpatti.tables.play.table import token_hash

    return token_hash(token)
