"""Views: the one gate for what a seat or a spectator may see of a hand."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from teenpatti.engine import Hand, Rules, parse_cards, view
from teenpatti.engine.actions import ActionKind
from teenpatti.engine.view import _PUBLIC, own_cards, own_key

PAIR = "Kh Ks 5s"
SEQ = "9c 8d 7h"
COLOUR = "Kd 9d 2d"
HIGH = "Jc 6h 3s"
TRAIL = "As Ad Ac"


def make(texts: Sequence[str | None], dealer: int = 0, **options: Any) -> Hand:
    rules = Rules.from_options(options)
    chips = [1000 if t else 0 for t in texts]
    return Hand(rules, chips, dealer, [parse_cards(t) if t else None for t in texts])


def visible(hand: Hand, viewer: int | None) -> dict[int, tuple[int, ...]]:
    """The seats whose cards ``viewer`` sees, with the cards."""
    return {s.seat: s.cards for s in view(hand, viewer).seats if s.cards is not None}


def everyone(hand: Hand) -> list[int | None]:
    return [None, *range(hand.seats)]


def test_a_blind_player_sees_nothing_not_even_its_own_cards() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    for viewer in everyone(hand):
        assert visible(hand, viewer) == {}
    you = view(hand, 2).you
    assert you is not None and you.cards is None and not you.seen


def test_a_seen_player_sees_its_own_cards_only() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.see(2)
    assert visible(hand, 2) == {2: parse_cards(COLOUR)}
    assert visible(hand, 0) == {} == visible(hand, 1) == visible(hand, None)
    assert view(hand, 0).seats[2].seen is True  # that it looked is public


def test_side_show_cards_only_to_its_two_players() -> None:
    # Dealer 0, order 2, 1, 0: seat 2 sees and chaals; seat 1 sees and asks seat 2.
    hand = make([HIGH, SEQ, PAIR])
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    hand.side_show_ask(1)
    # Not yet accepted: nothing more to see.
    assert visible(hand, 1) == {1: parse_cards(SEQ)}
    assert visible(hand, 2) == {2: parse_cards(PAIR)}
    assert view(hand, None).side_show == (1, 2)
    hand.accept(2)  # seat 1's sequence beats seat 2's pair
    both = {1: parse_cards(SEQ), 2: parse_cards(PAIR)}
    assert visible(hand, 1) == both == visible(hand, 2)
    assert visible(hand, 0) == {}
    assert visible(hand, None) == {}
    assert view(hand, None).seats[2].packed is True
    # Seat 0 sees its own cards, and still not the side show's.
    hand.see(0)
    assert visible(hand, 0) == {0: parse_cards(HIGH)}


def test_declined_side_show_shows_nothing() -> None:
    hand = make([HIGH, SEQ, PAIR])
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    hand.side_show_ask(1)
    hand.decline(2)
    assert visible(hand, 1) == {1: parse_cards(SEQ)}
    assert visible(hand, 2) == {2: parse_cards(PAIR)}


def test_show_turns_both_hands_over_for_everyone() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.pack(2)
    hand.chaal(1)
    hand.show(0)
    assert hand.ended_by == "show"
    shown = {0: parse_cards(PAIR), 1: parse_cards(SEQ)}
    assert visible(hand, None) == shown
    assert visible(hand, 0) == shown == visible(hand, 1)
    # The packed seat sees its own cards once the hand is over, and the shown hands.
    assert visible(hand, 2) == {**shown, 2: parse_cards(COLOUR)}


def test_showdown_shows_the_hands_still_in_never_the_packed_ones() -> None:
    hand = make([PAIR, SEQ, COLOUR, TRAIL], pot_limit_boots=6)
    hand.pack(3)
    hand.raise_(2)  # pot 40 + 20 = 60: the pot limit
    assert hand.ended_by == "pot_limit"
    shown = {0: parse_cards(PAIR), 1: parse_cards(SEQ), 2: parse_cards(COLOUR)}
    assert visible(hand, None) == shown
    for viewer in (0, 1, 2):
        assert visible(hand, viewer) == shown
    assert 3 not in visible(hand, None)
    assert visible(hand, 3) == {**shown, 3: parse_cards(TRAIL)}


def test_all_in_showdown_at_the_boot_shows_everyone() -> None:
    hand = Hand(
        Rules(), [1000, 5, 1000], 0, [parse_cards(PAIR), parse_cards(SEQ), parse_cards(COLOUR)]
    )
    assert hand.ended_by == "all_in"
    assert set(visible(hand, None)) == {0, 1, 2}


def test_last_player_standing_shows_nothing() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.see(2)
    hand.chaal(2)
    hand.pack(1)
    hand.pack(0)
    assert hand.ended_by == "last_player"
    assert visible(hand, None) == {}
    # Once the hand is over a player may look at its own cards, and only those.
    for seat, text in enumerate([PAIR, SEQ, COLOUR]):
        assert visible(hand, seat) == {seat: parse_cards(text)}


def test_a_seat_with_no_chips_has_no_cards_to_show() -> None:
    hand = make([PAIR, None, COLOUR])
    hand.chaal(2)
    hand.show(0)
    assert visible(hand, None) == {0: parse_cards(PAIR), 2: parse_cards(COLOUR)}
    seat = view(hand, 1).seats[1]
    assert seat.cards is None and seat.dealt is False and seat.packed is False


def test_spectator_has_no_legal_actions() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    spectator = view(hand)
    assert spectator.viewer is None and spectator.you is None
    assert spectator.legal_actions == ()
    assert view(hand, None).legal_actions == ()
    assert [a.label for a in view(hand, 2).legal_actions] == [
        "See cards",
        "Chaal 10",
        "Raise 20",
        "Pack",
    ]
    assert view(hand, 0).legal_actions == ()


def test_view_under_see_anytime_offers_see_out_of_turn() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="club")
    assert [a.kind for a in view(hand, 0).legal_actions] == [ActionKind.SEE]


def test_view_carries_the_public_facts() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.chaal(2)
    hand.see(1)
    hand.raise_(1)
    public = view(hand, 0)
    assert (public.dealer, public.boot, public.stake, public.pot, public.to_act) == (
        0,
        10,
        20,
        30 + 10 + 40,
        0,
    )
    assert public.finished is False and public.ended_by is None and public.pots == ()
    assert [s.chips for s in public.seats] == [990, 950, 980]
    assert [s.put_in for s in public.seats] == [10, 50, 20]
    assert [s.seen for s in public.seats] == [False, True, False]
    assert [s.blind_turns for s in public.seats] == [0, 0, 1]
    assert [a.to_json() for a in public.actions] == [
        {"seat": 2, "do": "chaal"},
        {"seat": 1, "do": "see"},
        {"seat": 1, "do": "raise"},
    ]


def test_view_of_a_seat_that_does_not_exist() -> None:
    hand = make([PAIR, SEQ])
    with pytest.raises(ValueError):
        view(hand, 2)
    with pytest.raises(ValueError):
        view(hand, -1)


def played(preset: str, tag: bytes, hands: int, anyone: bool = False) -> Iterator[Hand]:
    """Each state of ``hands`` random five-seat hands at ``preset``, move by move (side shows,
    packs, all ins, showdowns): the one hand, after each move. The moves are the actor's, or
    with ``anyone`` any seat's (a look out of turn under see-anytime)."""
    rules = Rules.from_options({"preset": preset})
    rng = random.Random(tag)
    for number in range(hands):
        seed = hashlib.sha256(b"%s/%d" % (tag, number)).digest()
        hand = Hand(rules, [rng.choice((60, 200, 1000)) for _ in range(5)], number % 5, seed=seed)
        while True:
            yield hand
            if hand.finished:
                break
            seats = range(hand.seats) if anyone else [hand.actor]
            options = [(seat, option) for seat in seats for option in hand.legal_actions(seat)]
            seat, option = rng.choice(options)
            hand.apply(option.action(seat))  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", ["nepal", "classic", "club"])
def test_views_built_move_by_move_equal_views_built_afresh(preset: str) -> None:
    # The rows every viewer sees alike are kept from one move to the next and only the mover's
    # row is made again; at every move of random hands each seat's view and the spectator's
    # must equal a view built with nothing kept.
    moves = 0
    for hand in played(preset, b"views", 150):
        incremental = [view(hand, viewer) for viewer in everyone(hand)]
        del _PUBLIC[hand]
        assert incremental == [view(hand, viewer) for viewer in everyone(hand)]
        moves += not hand.finished
    assert moves > 500


def test_own_cards_are_the_cards_a_seat_sees_beyond_the_spectator() -> None:
    # A server renders the spectator's view once a move and adds, for each seat, only the
    # cards own_cards names: at every move of random hands they must be exactly the rows that
    # seat's view shows and the spectator's does not.
    named = 0
    for hand in played("nepal", b"own", 60):
        public = view(hand, None)
        for viewer in range(hand.seats):
            seen = view(hand, viewer)
            beyond = [
                s
                for s in range(hand.seats)
                if seen.seats[s].cards is not None and public.seats[s].cards is None
            ]
            assert own_cards(hand, viewer) == beyond
            named += len(beyond)
    assert named > 100


@pytest.mark.parametrize("preset", ["nepal", "classic", "club"])
def test_a_seat_whose_own_key_is_the_same_sees_the_same_beyond_the_spectator(preset: str) -> None:
    # A server keeps each waiting seat's own cards and moves while own_key says nothing they
    # depend on moved: at every move of random hands, moves by any seat (a look out of turn
    # under club's see-anytime, side shows answered, packs, showdowns), a seat whose key equals
    # the one it had when they were last worked out must see the same cards and moves.
    kept_for = 0
    current: Hand | None = None
    kept: dict[int, tuple[object, list[int], list[Any]]] = {}
    for hand in played(preset, b"own-key", 120, anyone=True):
        if hand is not current:  # a new hand: nothing kept
            current, kept = hand, {}
        for viewer in range(hand.seats):
            key = own_key(hand, viewer)
            now = (own_cards(hand, viewer), hand.legal_actions(viewer))
            was = kept.get(viewer)
            if key is not None and was is not None and was[0] == key:
                assert (was[1], was[2]) == now, (preset, viewer)
                kept_for += 1
            else:
                kept[viewer] = (key, *now)
    assert kept_for > 1000
