"""Where two features of the table meet (pure: events in, state out): a latecomer watches the
hand the computer plays for them (no move, no card of it), one who left comes back to their own
seat under their name, and a finished game's hands stay reachable once the next game starts."""

from __future__ import annotations

import as_sent
from test_host_say import NEXT, finish, game, refused, same_after_replay
from test_table import SEED

from teenpatti.tables.play.commands import Move, read
from teenpatti.tables.play.errors import TableError
from teenpatti.tables.play.events import Seated


def test_a_latecomer_watches_the_hand_the_computer_plays_for_them() -> None:
    log = game(people=2, seats=3)
    table = log.table
    log.commit(table.join_event("Late", "t9"))
    seat = table.seat_of("t9")
    assert seat == 2 and table.seats[seat].late and table.hand_in_play
    assert table.game is not None and table.game.hand is not None
    hand = table.game.hand
    # the computer plays the seat until the next deal: wait for its turn
    while hand.actor != seat:
        log.commit(table.act_event(hand.actor, read(Move, {"do": "chaal"}, "action")))
    computer = table.act_event(
        seat, read(Move, {"do": "see"}, "action"), by="bot"
    )  # what the computer may do
    mine = as_sent.state(table, seat)
    assert mine["you"] == seat and mine["legal"] == []  # no "your turn", no move
    assert mine["seats"][seat]["cards"] is None
    refused(lambda: table.act_event(seat, read(Move, {"do": "pack"}, "action")), "seat/late", table)
    log.commit(computer)  # the computer looks at the cards: its person still sees none
    assert as_sent.state(table, seat)["seats"][seat]["cards"] is None
    histories = table.histories(seat)
    assert all(h["seats"][seat]["cards"] in ("", None) for h in histories)
    finish(log)


def test_one_who_left_comes_back_to_their_own_seat_under_their_name() -> None:
    log = game(people=3, seats=4)  # Host, P1, P2 and the computer's Asha
    table = log.table
    log.commit(table.leave_event(1), table.leave_event(2))  # both go: the computer plays on
    assert [s.token_hash is None for s in table.seats] == [False, True, True, True]
    back = table.join_event("p2", "t9")  # P2 again, on another phone: seat 1 is free first
    assert isinstance(back, Seated) and back.seat == 2, back
    log.commit(back)
    assert table.seat_of("t9") == 2 and table.seats[2].name == "p2"
    named = table.join_event("ASHA", "t8")  # a computer's name takes that computer's seat
    assert isinstance(named, Seated) and named.seat == 3
    log.commit(named)
    refused(lambda: table.join_event("P2", "t7"), "name/taken", table)  # held now: not again
    log.commit(table.join_event("Dipa", "t6"))  # anyone else takes the first free seat
    assert table.seat_of("t6") == 1
    finish(log)
    same_after_replay(log)


def test_a_finished_games_hands_stay_reachable_after_the_next_starts() -> None:
    log = game(people=2, seats=3)
    table = log.table
    finish(log)
    first = table.histories(None)
    assert first and table.status == "finished"
    log.commit(*table.again_event(0, SEED))
    assert table.games_played == 2 and table.histories(None) == []
    assert table.histories(0, 1) == first  # by the game's number
    assert as_sent.state(table, 0)["game"] == 2
    try:
        table.histories(0, 3)
    except TableError as error:
        assert error.code == "hands/game"
    else:
        raise AssertionError("a game not played was found")


def test_the_table_keeps_score_across_its_games() -> None:
    log = game(people=2, seats=3)
    table = log.table
    assert "score" not in as_sent.state(table, 0)  # nothing to tell before a game ends
    finish(log)
    first = as_sent.state(table, None)["score"]
    assert [row["seat"] for row in first] == [0, 1, 2]  # the computer's seat too
    assert sum(row["won"] for row in first) >= 1
    assert sum(row["chips"] for row in first) == 0  # what one won, the others lost
    winners = {s["seat"] for s in as_sent.state(table, None)["standings"] if s["place"] == 1}
    assert {row["seat"] for row in first if row["won"]} == winners
    log.commit(*table.again_event(0, SEED))
    assert as_sent.state(table, 1)["score"] == first  # the next game starts with it
    finish(log)
    second = as_sent.state(table, None)["score"]
    assert sum(row["won"] for row in second) >= 2
    assert sum(row["chips"] for row in second) == 0
    same_after_replay(log)  # kept in the log: the replay keeps the same score


def test_one_who_sits_down_between_hands_sees_no_card_of_the_hand_before() -> None:
    log = game(people=2, seats=3)
    table = log.table
    assert table.game is not None and table.game.hand is not None
    hand = table.game.hand
    while not hand.finished:  # everyone packs, blind: no card of the hand is ever shown
        actor = hand.actor
        assert actor is not None
        log.commit(table.act_event(actor, read(Move, {"do": "pack"}, "action")))
    assert not table.hand_in_play and table.game.hand is hand
    assert as_sent.state(table, 1)["seats"][1]["cards"] is not None  # Bob's own, as dealt
    log.commit(table.leave_event(1))
    log.commit(table.join_event("Maya", "t9"))
    seat = table.seat_of("t9")
    assert seat == 1 and not table.seats[seat].late  # the seat is hers at once, between hands
    mine = as_sent.state(table, seat)
    assert all(row["cards"] is None for row in mine["seats"])  # not Bob's cards, nor anyone's
    assert mine["legal"] == []
    assert all(h["seats"][seat]["cards"] in ("", None) for h in table.histories(seat))
    log.commit(table.hand_event(NEXT))  # from the next deal the seat is hers, cards and all
    assert table.hand_in_play and table.held_at_deal(seat)
    same_after_replay(log)
