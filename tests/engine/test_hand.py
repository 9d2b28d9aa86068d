"""The hand state machine, with fixed cards: turns, legal actions and their costs, shows, side
shows, the pot limit, all in and side pots, and every refusal (which must change nothing)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from teenpatti.engine import (
    Action,
    ActionKind,
    Hand,
    IllegalAction,
    Rules,
    parse_cards,
)
from teenpatti.engine.deck import shuffled_deck

K = ActionKind

# Hands with no card in common, best first.
TRAIL = "As Ad Ac"
PURE = "Qh Jh Th"
SEQ = "9c 8d 7h"
COLOUR = "Kd 9d 2d"
PAIR = "Kh Ks 5s"
TIE_A = "Qd 8c 4s"  # equal to TIE_B
TIE_B = "Qc 8s 4d"
HIGH = "Jc 6h 3s"


def make(
    texts: Sequence[str | None],
    chips: Sequence[int] | None = None,
    dealer: int = 0,
    **options: Any,
) -> Hand:
    """A hand with the given cards (``None``: a seat with no chips) under ``options``."""
    rules = Rules.from_options(options)
    if chips is None:
        chips = [rules.starting_chips if t else 0 for t in texts]
    cards = [parse_cards(t) if t else None for t in texts]
    return Hand(rules, list(chips), dealer, cards)


def labels(hand: Hand, seat: int | None = None) -> list[str]:
    return [a.label for a in hand.legal_actions(seat)]


def snapshot(hand: Hand) -> dict[str, Any]:
    """Every attribute of the hand (deep copies) and everything derived from it."""
    state = {k: copy.deepcopy(v) for k, v in vars(hand).items() if k != "evaluator"}
    state["evaluator"] = id(hand.evaluator)
    state["pot"] = hand.pot
    state["players_in"] = hand.players_in
    state["waiting_for"] = hand.waiting_for
    state["result"] = hand.result().to_json()
    state["legal"] = [hand.legal_actions(s) for s in range(hand.seats)]
    return state


def refused(hand: Hand, action: Action, code: str) -> IllegalAction:
    """Assert ``action`` is refused with ``code`` by verify, can and apply, changing nothing."""
    before = snapshot(hand)
    with pytest.raises(IllegalAction) as info:
        hand.verify(action)
    assert info.value.code == code, info.value.reason
    assert info.value.reason
    assert not hand.can(action)
    with pytest.raises(IllegalAction) as again:
        hand.apply(action)
    assert again.value.code == code
    assert snapshot(hand) == before
    return info.value


def play_turns(hand: Hand, count: int, kind: ActionKind = K.CHAAL) -> list[int]:
    """Let the seat to act make ``kind`` ``count`` times; return who acted, in order."""
    seats = []
    for _ in range(count):
        seat = hand.to_act
        assert seat is not None
        seats.append(seat)
        hand.apply(Action(seat, kind))
    return seats


# --------------------------------------------------------------------- turns and the deal
@pytest.mark.parametrize(
    ("dealer", "expected"),
    [(1, [0, 3, 2, 1, 0, 3]), (0, [3, 2, 1, 0, 3, 2]), (3, [2, 1, 0, 3, 2, 1])],
)
def test_turns_go_anticlockwise_from_the_dealers_right(dealer: int, expected: list[int]) -> None:
    hand = make([TRAIL, SEQ, COLOUR, PAIR], dealer=dealer)
    assert hand.first == expected[0]
    assert hand.order == [*expected[:4]]
    assert play_turns(hand, 6) == expected


@pytest.mark.parametrize("options", [{"direction": "clockwise"}, {"preset": "limited"}])
@pytest.mark.parametrize(
    ("dealer", "expected"),
    [(1, [2, 3, 0, 1, 2, 3]), (3, [0, 1, 2, 3, 0, 1]), (0, [1, 2, 3, 0, 1, 2])],
)
def test_turns_go_clockwise_from_the_dealers_left(
    options: dict[str, Any], dealer: int, expected: list[int]
) -> None:
    hand = make([TRAIL, SEQ, COLOUR, PAIR], dealer=dealer, **options)
    assert hand.to_act == expected[0]
    assert play_turns(hand, 6) == expected


def test_club_first_to_act_is_the_dealers_left() -> None:
    hand = make([TRAIL, SEQ, COLOUR], dealer=0, preset="club")
    assert hand.to_act == 1


def test_seats_with_no_chips_sit_out_and_are_skipped() -> None:
    hand = make([TRAIL, None, COLOUR, PAIR], dealer=2)
    # Anticlockwise from dealer 2: seat 1 has no chips, so seat 0 is first.
    assert hand.to_act == 0
    assert hand.dealt == [True, False, True, True]
    assert hand.cards[1] is None
    assert hand.chips == [990, 0, 990, 990]
    assert hand.contributed == [10, 0, 10, 10]
    assert hand.pot == 30
    assert play_turns(hand, 5) == [0, 3, 2, 0, 3]
    refused(hand, Action(1, K.SEE), "seat/out")
    refused(hand, Action(1, K.CHAAL), "seat/out")
    assert hand.legal_actions(1) == []


def test_a_packed_seat_is_skipped() -> None:
    hand = make([TRAIL, SEQ, COLOUR, PAIR], dealer=0)
    assert play_turns(hand, 1, K.PACK) == [3]
    assert play_turns(hand, 5) == [2, 1, 0, 2, 1]
    refused(hand, Action(3, K.SEE), "seat/out")


@pytest.mark.parametrize(
    ("direction", "chips", "dealer"),
    [
        ("anticlockwise", [1000, 1000, 1000], 0),
        ("clockwise", [1000, 1000, 1000, 1000, 1000], 3),
        ("anticlockwise", [1000, 0, 1000, 1000, 0, 1000], 2),
        ("clockwise", [0, 1000, 1000, 0], 0),
    ],
)
def test_cards_go_out_one_at_a_time_from_the_first_to_act(
    direction: str, chips: list[int], dealer: int
) -> None:
    seed = bytes(range(32))
    hand = Hand(Rules.from_options(direction=direction), chips, dealer, seed=seed)
    deck = shuffled_deck(seed)
    order = [s for s in hand.order if chips[s] > 0]
    assert order[0] == hand.to_act
    n = len(order)
    for i, seat in enumerate(order):
        assert hand.cards[seat] == (deck[i], deck[i + n], deck[i + 2 * n])
    for seat, c in enumerate(chips):
        if c == 0:
            assert hand.cards[seat] is None


@pytest.mark.parametrize("preset", ["nepal", "classic", "club"])
def test_a_hands_state_stays_in_a_dictionary_its_class_shares(preset: str) -> None:
    # What play changes is in vars(hand); what is worked out once is in slots. The dictionary
    # stays under the 30 keys an instance shares with its class (past them each hand builds a
    # dictionary of its own, slower to make and to read at every move): bench_hands measures it.
    rules = Rules.from_options({"preset": preset})
    hand = Hand(rules, [1000] * 4, 0, seed=bytes(32))
    while not hand.finished:
        hand.apply(hand.legal_actions()[1].action(hand.to_act))  # type: ignore[arg-type]
    assert len(vars(hand)) < 30, sorted(vars(hand))


# --------------------------------------------------------------------- legal actions
def test_legal_actions_at_the_start() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    assert hand.to_act == 2
    actions = hand.legal_actions()
    assert [a.label for a in actions] == ["See cards", "Chaal 10", "Raise 20", "Pack"]
    assert [a.kind for a in actions] == [K.SEE, K.CHAAL, K.RAISE, K.PACK]
    assert [a.cost for a in actions] == [0, 10, 20, 0]
    assert hand.legal_actions(2) == actions
    assert hand.legal_actions(0) == [] == hand.legal_actions(1)
    assert hand.stake == 10
    assert hand.pot == 30
    assert hand.chips == [990, 990, 990]


def test_a_listed_move_still_goes_through_the_gate() -> None:
    # The list offers moves; it never lets one in. A chaal listed when the seat could afford it
    # is refused once it cannot (the state changed behind the list's back), and nothing moves.
    hand = make([PAIR, SEQ, COLOUR])
    chaal = next(a for a in hand.legal_actions() if a.kind is K.CHAAL)
    hand.chips[2] = 5
    state = lambda: (list(hand.chips), list(hand.contributed), list(hand.log), hand.to_act)  # noqa: E731
    before = state()
    with pytest.raises(IllegalAction) as refused:
        hand.apply(chaal.action(2))
    assert refused.value.code == "chaal/cannot_afford"
    assert state() == before


def test_legal_actions_with_two_players_include_a_show() -> None:
    hand = make([PAIR, SEQ])
    assert hand.to_act == 1
    assert labels(hand) == ["See cards", "Chaal 10", "Raise 20", "Show 10", "Pack"]
    show = hand.legal_actions()[3]
    assert show.targets == (0,)


def test_legal_actions_after_seeing() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.see(2)
    assert hand.to_act == 2  # seeing does not use the turn
    assert labels(hand) == ["Chaal 20", "Raise 40", "Pack"]
    hand.chaal(2)
    assert hand.stake == 10  # a seen chaal pays two stakes and leaves the stake alone
    assert hand.contributed[2] == 30
    hand.raise_(1)  # blind raise: pays 20, the stake doubles
    assert (hand.stake, hand.contributed[1]) == (20, 30)
    assert labels(hand) == ["See cards", "Chaal 20", "Raise 40", "Pack"]
    hand.see(0)
    assert labels(hand) == ["Chaal 40", "Raise 80", "Pack"]
    hand.raise_(0)  # seen raise: pays 80, the stake doubles
    assert (hand.stake, hand.contributed[0]) == (40, 90)


def test_at_the_stake_cap_there_is_no_raise() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    play_turns(hand, 3, K.RAISE)
    assert hand.stake == 80 == hand.rules.stake_cap
    assert labels(hand) == ["See cards", "Chaal 80", "Pack"]
    assert hand.to_act == 2
    refused(hand, Action(2, K.RAISE), "raise/stake_cap")
    hand.see(2)
    assert labels(hand) == ["Chaal 160", "Pack"]
    hand.chaal(2)
    assert hand.stake == 80


def test_without_a_stake_cap_raises_go_on() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[10000] * 3, stake_cap_boots=None, pot_limit_boots=None)
    play_turns(hand, 6, K.RAISE)
    assert hand.stake == 640
    assert "Raise 1280" in labels(hand)


def test_a_seen_player_cannot_ask_a_blind_player_for_a_show() -> None:
    hand = make([PAIR, SEQ])
    hand.see(1)
    assert labels(hand) == ["Chaal 20", "Raise 40", "Pack"]
    error = refused(hand, Action(1, K.SHOW), "show/seen_vs_blind")
    assert error.reason == "a seen player cannot ask a blind player for a show"
    # The blind player may ask the seen one.
    hand.chaal(1)
    assert labels(hand) == ["See cards", "Chaal 10", "Raise 20", "Show 10", "Pack"]


@pytest.mark.parametrize(
    ("show_cost", "seen_vs_blind", "asker_seen", "other_seen", "cost"),
    [
        ("chaal", "forbidden", False, False, 10),
        ("chaal", "forbidden", False, True, 10),
        ("chaal", "forbidden", True, True, 20),
        ("chaal", "forbidden", True, False, None),
        ("chaal", "quadruple", True, False, 40),
        ("chaal", "quadruple", True, True, 20),
        ("chaal", "quadruple", False, True, 10),
        ("double", "forbidden", False, False, 20),
        ("double", "forbidden", False, True, 20),
        ("double", "forbidden", True, True, 40),
        ("double", "forbidden", True, False, None),
        ("double", "quadruple", True, False, 80),
    ],
)
def test_show_costs(
    show_cost: str, seen_vs_blind: str, asker_seen: bool, other_seen: bool, cost: int | None
) -> None:
    hand = make([PAIR, SEQ], show_cost=show_cost, show_seen_vs_blind=seen_vs_blind)
    if other_seen:
        hand.see(1)
    hand.chaal(1)
    assert hand.to_act == 0
    if asker_seen:
        hand.see(0)
    shows = [a for a in hand.legal_actions() if a.kind is K.SHOW]
    if cost is None:
        assert shows == []
        refused(hand, Action(0, K.SHOW), "show/seen_vs_blind")
        return
    assert [a.label for a in shows] == [f"Show {cost}"]
    assert (shows[0].cost, shows[0].targets) == (cost, (1,))
    put_in = hand.contributed[0]
    hand.show(0)
    assert hand.finished and hand.ended_by == "show"
    assert hand.contributed[0] == put_in + cost
    # Seat 1's sequence beats seat 0's pair.
    assert [p.winners for p in hand.pots] == [(1,)]
    seat1_in = 10 + (20 if other_seen else 10)
    assert hand.chips == [1000 - put_in - cost, 1000 + put_in + cost]
    assert hand.pots[0].amount == seat1_in + put_in + cost


def test_classic_show_costs_one_stake_blind_and_two_seen() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="classic")
    hand.chaal(1, 15)  # the stake is now 15
    hand.pack(2)
    assert "Show 15" in labels(hand)
    hand.see(0)
    refused(hand, Action(0, K.SHOW), "show/seen_vs_blind")
    hand.chaal(0)
    hand.see(1)
    assert "Show 30" in labels(hand)
    hand.show(1)
    assert hand.ended_by == "show"
    assert hand.pots[0].winners == (1,)


def test_show_cannot_be_afforded() -> None:
    hand = make([PAIR, SEQ], chips=[1000, 25], show_cost="double")
    assert labels(hand) == ["See cards", "Chaal 10", "Pack"]
    refused(hand, Action(1, K.SHOW), "show/cannot_afford")
    refused(hand, Action(1, K.RAISE), "raise/cannot_afford")


@pytest.mark.parametrize(
    ("cards", "show_tie", "chips", "winners"),
    [
        ([TIE_A, TIE_B], "asker_loses", [980, 1020], [1]),
        ([TIE_A, TIE_B], "split", [1000, 1000], [0, 1]),
        ([SEQ, PAIR], "asker_loses", [1020, 980], [0]),
        ([PAIR, SEQ], "asker_loses", [980, 1020], [1]),
        ([PAIR, SEQ], "split", [980, 1020], [1]),
    ],
)
def test_show_outcome_and_ties(
    cards: list[str], show_tie: str, chips: list[int], winners: list[int]
) -> None:
    hand = make(cards, show_tie=show_tie)
    hand.chaal(1)
    hand.show(0)  # seat 0 asks
    assert hand.finished and hand.ended_by == "show"
    assert hand.chips == chips
    assert hand.result().to_json() == {
        "finished": True,
        "chips": chips,
        "pot": 0,
        "pots": [{"amount": 40, "winners": winners}],
        "ended_by": "show",
    }
    assert hand.shown == [True, True]


def test_show_after_bet_needs_a_chaal_first() -> None:
    hand = make([PAIR, SEQ], preset="duo")
    assert hand.to_act == 1
    assert labels(hand) == ["See cards", "Chaal 2", "Raise 4", "Pack"]
    refused(hand, Action(1, K.SHOW), "show/after_bet")
    hand.chaal(1)
    assert labels(hand) == ["See cards", "Chaal 2", "Raise 4", "Show 2", "Pack"]
    hand.show(0)
    assert hand.ended_by == "show"
    assert hand.chips == [96, 104]


@pytest.mark.parametrize("sideshow", ["previous", "any_seen"])
def test_nobody_who_has_not_bet_can_be_asked_for_a_side_show(sideshow: str) -> None:
    # Under see_anytime the dealer (seat 0) may look before anyone bets; the first player (seat
    # 3) still cannot ask it, because its bet does not come before seat 3's turn.
    hand = make([PAIR, SEQ, COLOUR, TRAIL], see_anytime=True, sideshow=sideshow)
    assert hand.to_act == 3
    hand.see(0)
    hand.see(3)
    assert not any(a.kind is K.SIDESHOW for a in hand.legal_actions(3))
    refused(hand, Action(3, K.SIDESHOW, None, 0), "sideshow/not_bet")
    hand.chaal(3)
    hand.see(2)
    offered = [a for a in hand.legal_actions(2) if a.kind is K.SIDESHOW]
    assert [a.targets for a in offered] == [(3,)]  # seat 3 has bet now; seat 0 still has not
    refused(
        hand,
        Action(2, K.SIDESHOW, None, 0),
        "sideshow/not_previous" if sideshow == "previous" else "sideshow/not_bet",
    )
    hand.side_show_ask(2, 3)
    assert hand.waiting_for == 3


def test_show_after_bet_without_any_bet() -> None:
    hand = make([PAIR, SEQ, COLOUR], show_after_bet=True)
    hand.pack(2)
    assert hand.players_in == [0, 1]
    assert not any(a.kind is K.SHOW for a in hand.legal_actions())
    refused(hand, Action(1, K.SHOW), "show/after_bet")


# --------------------------------------------------------------------- see
def test_see_anytime_lets_a_seat_see_out_of_turn() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="club")
    assert hand.to_act == 1
    assert labels(hand, 0) == ["See cards"] == labels(hand, 2)
    hand.see(0)
    assert hand.seen == [True, False, False]
    assert hand.to_act == 1
    assert labels(hand, 0) == []
    refused(hand, Action(0, K.SEE), "see/already_seen")
    refused(hand, Action(0, K.CHAAL), "turn/not_yours")
    hand.chaal(1)
    hand.pack(2)
    refused(hand, Action(2, K.SEE), "seat/out")


def test_without_see_anytime_a_seat_sees_only_on_its_turn() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    assert labels(hand, 0) == []
    refused(hand, Action(0, K.SEE), "turn/not_yours")
    hand.see(2)
    refused(hand, Action(2, K.SEE), "see/already_seen")


def test_blind_turns_max_forces_a_see_or_a_pack() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="limited")
    assert hand.to_act == 1
    play_turns(hand, 12)
    assert hand.blind_turns == [4, 4, 4]
    assert hand.to_act == 1
    assert labels(hand) == ["See cards", "Pack"]
    for kind in (K.CHAAL, K.RAISE):
        refused(hand, Action(1, kind), "blind/limit")
    hand.see(1)
    assert labels(hand) == ["Chaal 4", "Raise 8", "Pack"]
    hand.chaal(1)
    assert hand.blind_turns[1] == 4
    assert hand.to_act == 2
    hand.pack(2)
    assert labels(hand) == ["See cards", "Pack"]
    refused(hand, Action(0, K.SHOW), "blind/limit")


# --------------------------------------------------------------------- range bets
def test_range_bets() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="classic")
    assert hand.to_act == 1  # clockwise from dealer 0
    start = hand.legal_actions()
    assert [a.label for a in start] == ["See cards", "Chaal 10-20", "Raise 20", "Pack"]
    assert (start[1].cost, start[1].max_cost) == (10, 20)
    refused(hand, Action(1, K.CHAAL, 9), "chaal/amount")
    refused(hand, Action(1, K.CHAAL, 21), "chaal/amount")
    refused(hand, Action(1, K.CHAAL, 0), "chaal/amount")
    hand.chaal(1, 15)  # a blind bet becomes the stake
    assert hand.stake == 15 and hand.contributed[1] == 25
    hand.see(2)
    assert labels(hand) == ["Chaal 30-60", "Raise 60", "Pack"]
    refused(hand, Action(2, K.CHAAL, 29), "chaal/amount")
    refused(hand, Action(2, K.CHAAL, 61), "chaal/amount")
    hand.chaal(2, 45)  # half a seen bet becomes the stake (rounded down)
    assert hand.stake == 22 and hand.contributed[2] == 55
    assert labels(hand) == ["See cards", "Chaal 22-44", "Raise 44", "Pack"]
    hand.chaal(0)  # no amount: the least
    assert hand.stake == 22 and hand.contributed[0] == 32
    hand.raise_(1)  # a raise is a chaal at the top of the range
    assert hand.stake == 44 and hand.contributed[1] == 25 + 44
    hand.chaal(2, 89)  # half is 44: the stake stays
    assert hand.stake == 44


def test_range_seen_bet_never_lowers_the_stake() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="classic")
    hand.chaal(1, 20)
    hand.see(2)
    hand.chaal(2, 41)
    assert hand.stake == 20


def test_range_bets_under_a_stake_cap() -> None:
    hand = make([PAIR, SEQ, COLOUR], preset="classic", stake_cap_boots=4)
    assert labels(hand) == ["See cards", "Chaal 10-20", "Raise 20", "Pack"]
    hand.chaal(1, 20)
    assert labels(hand) == ["See cards", "Chaal 20-40", "Raise 40", "Pack"]
    hand.chaal(2, 25)
    assert hand.stake == 25
    assert labels(hand) == ["See cards", "Chaal 25-40", "Pack"]
    refused(hand, Action(0, K.RAISE), "raise/stake_cap")
    refused(hand, Action(0, K.CHAAL, 41), "chaal/amount")
    hand.see(0)
    assert labels(hand) == ["Chaal 50-80", "Pack"]
    hand.chaal(0, 80)
    assert hand.stake == 40
    assert labels(hand) == ["See cards", "Chaal 40", "Pack"]


@pytest.mark.parametrize("all_in", ["showdown", "two_left"])
def test_range_bet_limited_by_chips(all_in: str) -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 25, 1000], preset="classic", all_in=all_in)
    assert labels(hand) == ["See cards", "Chaal 10-15", "Pack"]
    refused(hand, Action(1, K.CHAAL, 16), "chaal/cannot_afford")
    refused(hand, Action(1, K.RAISE), "raise/cannot_afford")
    hand.chaal(1, 15)  # the last chip: all in
    if all_in == "showdown":
        assert hand.finished and hand.ended_by == "all_in"
        return
    # No showdown among three: seat 1 stays in with no chips and can only pack on its turn,
    # unless by then only two are left, when the two show at once.
    assert not hand.finished and hand.to_act == 2 and hand.all_in[1]
    hand.chaal(2, 15)
    hand.chaal(0, 15)
    assert labels(hand, 1) == ["See cards", "Pack"]
    refused(hand, Action(1, K.ALLIN), "allin/players")
    hand.see(1)
    hand.pack(1)
    assert hand.players_in == [0, 2] and hand.to_act == 2 and not hand.finished


def test_no_showdown_among_three_ends_at_two_left() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 25, 1000], preset="classic")
    hand.chaal(1, 15)  # seat 1's last chip; three still in
    hand.pack(2)  # two left, one of them out of chips: they show at once
    assert hand.finished and hand.ended_by == "all_in" and hand.shown == [True, True, False]


def test_double_bets_take_no_other_amount() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    refused(hand, Action(2, K.CHAAL, 15), "chaal/amount")
    refused(hand, Action(2, K.CHAAL, 20), "chaal/amount")
    hand.chaal(2, 10)  # the exact cost is fine
    assert hand.contributed[2] == 20


# --------------------------------------------------------------------- side shows
def side_show_ready(asker: str, asked: str, **options: Any) -> Hand:
    """Dealer 0, order 2, 1, 0: seat 2 sees and chaals, seat 1 sees: seat 1 may ask seat 2."""
    hand = make([HIGH, asker, asked], **options)
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    return hand


def test_side_show_is_offered_to_ask_the_previous_player() -> None:
    hand = side_show_ready(SEQ, PAIR)
    actions = hand.legal_actions()
    assert [a.label for a in actions] == ["Chaal 20", "Raise 40", "Side show 20", "Pack"]
    assert actions[2].targets == (2,)


@pytest.mark.parametrize(
    ("asker", "asked", "loser"),
    [(SEQ, PAIR, 2), (PAIR, SEQ, 1), (TIE_A, TIE_B, 1), (TIE_B, TIE_A, 1)],
)
def test_side_show_accepted(asker: str, asked: str, loser: int) -> None:
    hand = side_show_ready(asker, asked)
    recorded = hand.side_show_ask(1)
    assert recorded == Action(1, K.SIDESHOW, None, 2)
    assert hand.contributed[1] == 30 and hand.stake == 10
    assert (hand.to_act, hand.waiting_for, hand.side_show) == (1, 2, (1, 2))
    assert hand.result().to_json() == {
        "finished": False,
        "chips": [990, 970, 970],
        "pot": 70,
        "to_act": 1,
        "stake": 10,
        "waiting_for": 2,
    }
    assert labels(hand) == ["Accept", "Decline"] == labels(hand, 2)
    assert labels(hand, 0) == [] == labels(hand, 1)
    hand.accept(2)
    assert hand.side_show is None and hand.waiting_for is None
    assert hand.side_shows == [(1, 2)]
    assert hand.live[loser] is False
    assert hand.players_in == sorted({0, 1, 2} - {loser})
    assert hand.to_act == 0  # the player after the asker
    assert not hand.finished
    assert hand.shown == [False, False, False]
    assert "waiting_for" not in hand.result().to_json()


def test_side_show_with_suits_breaking_the_tie() -> None:
    # Qd 8c 4s against Qc 8s 4d: the queen of diamonds beats the queen of clubs.
    hand = side_show_ready(TIE_A, TIE_B, suits_break_ties=True)
    hand.side_show_ask(1)
    hand.accept(2)
    assert hand.players_in == [0, 1]


def test_side_show_declined() -> None:
    hand = side_show_ready(SEQ, PAIR)
    hand.side_show_ask(1, 2)
    hand.decline(2)
    assert hand.players_in == [0, 1, 2]
    assert hand.side_shows == []
    assert hand.to_act == 0
    assert hand.contributed == [10, 30, 30]
    assert hand.stake == 10


def test_side_show_answered_by_the_wrong_seat() -> None:
    hand = side_show_ready(SEQ, PAIR)
    hand.side_show_ask(1)
    for seat in (0, 1):  # only the asked seat answers
        for kind in (K.ACCEPT, K.DECLINE):
            refused(hand, Action(seat, kind), "sideshow/not_asked")
    refused(hand, Action(0, K.CHAAL), "sideshow/pending")
    refused(hand, Action(1, K.CHAAL), "sideshow/pending")
    refused(hand, Action(2, K.CHAAL), "sideshow/pending")
    refused(hand, Action(2, K.PACK), "sideshow/pending")
    refused(hand, Action(0, K.SEE), "turn/not_yours")
    refused(hand, Action(5, K.ACCEPT), "seat/unknown")


def test_see_anytime_while_a_side_show_waits() -> None:
    hand = side_show_ready(SEQ, PAIR, see_anytime=True)
    hand.side_show_ask(1)
    assert labels(hand, 0) == ["See cards"]
    hand.see(0)
    assert hand.seen[0] and hand.waiting_for == 2


def test_accept_or_decline_without_a_request() -> None:
    hand = side_show_ready(SEQ, PAIR)
    refused(hand, Action(2, K.ACCEPT), "sideshow/not_asked")
    refused(hand, Action(1, K.DECLINE), "sideshow/not_asked")


def test_side_show_refusals() -> None:
    hand = side_show_ready(SEQ, PAIR)
    refused(hand, Action(1, K.SIDESHOW, None, 0), "sideshow/not_previous")
    refused(hand, Action(1, K.SIDESHOW, None, 1), "sideshow/not_previous")
    refused(hand, Action(1, K.SIDESHOW, 20, 2), "action/malformed")
    fresh = make([HIGH, SEQ, PAIR])
    refused(fresh, Action(2, K.SIDESHOW), "sideshow/blind")
    fresh.see(2)  # the player before seat 2 is seat 0, who has not bet yet
    assert not any(a.kind is K.SIDESHOW for a in fresh.legal_actions())
    refused(fresh, Action(2, K.SIDESHOW), "sideshow/not_bet")
    fresh.chaal(2)
    fresh.see(1)  # the player before seat 1 is seat 2, who has bet, seen
    assert any(a.kind is K.SIDESHOW for a in fresh.legal_actions())
    blind = make([HIGH, SEQ, PAIR])
    blind.chaal(2)  # seat 2 bets blind
    blind.see(1)
    assert not any(a.kind is K.SIDESHOW for a in blind.legal_actions())
    refused(blind, Action(1, K.SIDESHOW), "sideshow/target_blind")


def test_side_show_needs_three_players() -> None:
    hand = make([HIGH, SEQ, PAIR])
    hand.see(2)
    hand.chaal(2)
    hand.pack(1)
    hand.see(0)
    refused(hand, Action(0, K.SIDESHOW), "sideshow/players")


def test_side_show_off() -> None:
    hand = side_show_ready(SEQ, PAIR, sideshow="off")
    assert labels(hand) == ["Chaal 20", "Raise 40", "Pack"]
    refused(hand, Action(1, K.SIDESHOW), "sideshow/off")


def test_side_show_cannot_be_afforded() -> None:
    hand = make([HIGH, SEQ, PAIR], chips=[1000, 25, 1000])
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    assert labels(hand) == ["All in 15", "Pack"]
    refused(hand, Action(1, K.SIDESHOW), "sideshow/cannot_afford")
    refused(hand, Action(1, K.CHAAL), "chaal/cannot_afford")


def test_side_show_all_seen() -> None:
    hand = side_show_ready(SEQ, PAIR, sideshow_all_seen=True)
    assert not any(a.kind is K.SIDESHOW for a in hand.legal_actions())
    refused(hand, Action(1, K.SIDESHOW), "sideshow/all_seen")
    hand.chaal(1)
    hand.see(0)
    hand.chaal(0)
    hand.chaal(2)
    assert hand.to_act == 1
    assert "Side show 20" in labels(hand)
    hand.side_show_ask(1)
    assert hand.waiting_for == 2


def test_side_show_any_seen_with_a_target() -> None:
    # Dealer 0, order 3, 2, 1, 0.
    hand = make([PAIR, HIGH, SEQ, COLOUR], sideshow="any_seen")
    hand.see(3)
    hand.chaal(3)
    hand.chaal(2)  # seat 2 stays blind
    hand.see(1)
    hand.chaal(1)
    hand.see(0)
    sideshow = [a for a in hand.legal_actions() if a.kind is K.SIDESHOW]
    assert [a.targets for a in sideshow] == [(3, 1)]  # seen seats, in order of play
    refused(hand, Action(0, K.SIDESHOW), "sideshow/target")
    refused(hand, Action(0, K.SIDESHOW, None, 0), "sideshow/target")
    refused(hand, Action(0, K.SIDESHOW, None, 4), "sideshow/target")
    refused(hand, Action(0, K.SIDESHOW, None, -1), "sideshow/target")
    refused(hand, Action(0, K.SIDESHOW, None, 2), "sideshow/target_blind")
    hand.side_show_ask(0, 1)
    assert hand.waiting_for == 1 and hand.to_act == 0
    refused(hand, Action(3, K.ACCEPT), "sideshow/not_asked")
    refused(hand, Action(3, K.CHAAL), "sideshow/pending")
    hand.accept(1)  # seat 0's pair beats seat 1's high card
    assert hand.players_in == [0, 2, 3]
    assert hand.side_shows == [(0, 1)]
    assert hand.to_act == 3  # after the asker


def test_side_show_asker_loses_and_the_turn_passes_after_the_asker() -> None:
    hand = make([PAIR, HIGH, SEQ, COLOUR], sideshow="any_seen")
    hand.see(3)
    hand.chaal(3)
    hand.chaal(2)
    hand.see(1)
    hand.side_show_ask(1, 3)
    hand.accept(3)  # seat 3's colour beats seat 1's high card: seat 1 packs
    assert hand.players_in == [0, 2, 3]
    assert hand.to_act == 0


def test_side_show_previous_skips_packed_players() -> None:
    # Order 3, 2, 1, 0: seat 2 packs, so seat 1's previous player is seat 3.
    hand = make([PAIR, HIGH, SEQ, COLOUR])
    hand.see(3)
    hand.chaal(3)
    hand.pack(2)
    hand.see(1)
    sideshow = [a for a in hand.legal_actions() if a.kind is K.SIDESHOW]
    assert sideshow[0].targets == (3,)
    hand.side_show_ask(1)
    assert hand.waiting_for == 3


def test_side_show_payment_reaching_the_pot_limit_drops_it() -> None:
    hand = side_show_ready(SEQ, PAIR, pot_limit_boots=7)
    assert hand.pot == 50
    hand.side_show_ask(1)
    assert hand.finished and hand.ended_by == "pot_limit"
    assert hand.side_show is None and hand.side_shows == []
    assert hand.shown == [True, True, True]
    assert hand.pots[0].winners == (1,)
    assert hand.chips == [990, 1040, 970]


def test_side_show_payment_making_the_asker_all_in() -> None:
    hand = make([HIGH, SEQ, PAIR], chips=[1000, 30, 1000])
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    hand.side_show_ask(1)
    assert hand.finished and hand.ended_by == "all_in"
    assert hand.side_show is None


# --------------------------------------------------------------------- the pot limit
def test_pot_limit_stops_betting_and_everyone_shows() -> None:
    hand = make([PAIR, SEQ, COLOUR], pot_limit_boots=6)
    hand.chaal(2)
    assert not hand.finished
    hand.raise_(1)  # pot 30 + 10 + 20 = 60
    assert hand.finished and hand.ended_by == "pot_limit"
    assert hand.shown == [True, True, True]
    assert hand.result().to_json() == {
        "finished": True,
        "chips": [990, 1030, 980],
        "pot": 0,
        "pots": [{"amount": 60, "winners": [1]}],
        "ended_by": "pot_limit",
    }
    assert hand.legal_actions() == []


def test_pot_limit_reached_by_a_show_is_the_pot_limits_showdown() -> None:
    # The same chips as a chaal that reaches the limit: equal hands share, asker or not.
    hand = make([TIE_A, TIE_B], pot_limit_boots=3)
    hand.show(1)  # pot 20 + 10 = 30 = the limit
    assert hand.ended_by == "pot_limit"
    assert hand.chips == [1005, 995]
    assert [p.to_json() for p in hand.pots] == [{"amount": 30, "winners": [0, 1]}]
    chaal = make([TIE_A, TIE_B], pot_limit_boots=3)
    chaal.chaal(1)
    assert (chaal.ended_by, chaal.chips) == ("pot_limit", hand.chips)


def test_pot_limit_reached_by_a_show_under_edition_1_keeps_the_show() -> None:
    # A game stored under the first edition of the rules replays as it was played.
    rules = Rules.from_options({"pot_limit_boots": 3}).of_edition(1)
    hand = Hand(rules, [1000, 1000], dealer=0, cards=[parse_cards(TIE_A), parse_cards(TIE_B)])
    hand.show(1)
    assert hand.ended_by == "show"
    assert hand.chips == [1020, 980]
    assert [p.to_json() for p in hand.pots] == [{"amount": 30, "winners": [0]}]


@pytest.mark.parametrize(
    ("preset", "boot", "dealer", "chips"),
    [
        # Clockwise: order after dealer 2 is 0, 1, 2: seat 0 gets the odd chip.
        ("limited", 3, 2, [102, 97, 101]),
        # Clockwise: order after dealer 0 is 1, 2, 0: seat 2 gets the odd chip.
        ("limited", 3, 0, [101, 97, 102]),
        # Clockwise: order after dealer 1 is 2, 0, 1: seat 2 first.
        ("limited", 3, 1, [101, 97, 102]),
        # Anticlockwise: order after dealer 0 is 2, 1, 0: seat 2 first.
        ("nepal", 5, 0, [1002, 995, 1003]),
        # Anticlockwise: order after dealer 2 is 1, 0, 2: seat 0 first.
        ("nepal", 5, 2, [1003, 995, 1002]),
    ],
)
def test_boots_reaching_the_pot_limit_share_with_odd_chips_in_order_of_play(
    preset: str, boot: int, dealer: int, chips: list[int]
) -> None:
    start = 100 if preset == "limited" else 1000
    hand = make(
        [TIE_A, HIGH, TIE_B],
        chips=[start] * 3,
        dealer=dealer,
        preset=preset,
        boot=boot,
        pot_limit_boots=3,
        starting_chips=start,
    )
    assert hand.finished and hand.ended_by == "pot_limit"
    assert [p.to_json() for p in hand.pots] == [{"amount": 3 * boot, "winners": [0, 2]}]
    assert hand.chips == chips
    assert sum(hand.chips) == 3 * start


def test_three_way_share_odd_chips() -> None:
    # Pot limit at the boots: 4 seats of boot 5 = 20 between three equal colours: 7, 7, 6.
    hand = make(
        ["Kd 9d 2d", "Kh 9h 2h", HIGH, "Ks 9s 2s"],
        dealer=0,
        boot=5,
        pot_limit_boots=4,
    )
    # Anticlockwise after dealer 0: 3, 2, 1, 0.
    assert hand.ended_by == "pot_limit"
    assert hand.chips == [995 + 6, 995 + 7, 995, 995 + 7]


# --------------------------------------------------------------------- all in and side pots
def test_all_in_with_a_packed_players_chips_in_the_main_pot() -> None:
    hand = make([PAIR, HIGH, SEQ, TRAIL], chips=[1000, 1000, 1000, 45])
    assert hand.to_act == 3
    hand.chaal(3)
    hand.raise_(2)
    hand.raise_(1)
    hand.pack(0)
    assert labels(hand) == ["See cards", "All in 25", "Pack"]
    refused(hand, Action(3, K.CHAAL), "chaal/cannot_afford")
    hand.go_all_in(3)
    assert hand.contributed == [10, 50, 30, 45]
    assert hand.finished and hand.ended_by == "all_in"
    assert hand.shown == [False, True, True, True]
    assert hand.result().to_json() == {
        "finished": True,
        "chips": [990, 950, 975, 130],
        "pot": 0,
        "pots": [{"amount": 130, "winners": [3]}, {"amount": 5, "winners": [2]}],
        "ended_by": "all_in",
    }


def test_all_in_player_losing_takes_nothing() -> None:
    hand = make([PAIR, TRAIL, SEQ, HIGH], chips=[1000, 1000, 1000, 45])
    hand.chaal(3)
    hand.raise_(2)
    hand.raise_(1)
    hand.pack(0)
    hand.go_all_in(3)
    assert hand.chips == [990, 950 + 135, 970, 0]
    assert [p.to_json() for p in hand.pots] == [
        {"amount": 130, "winners": [1]},
        {"amount": 5, "winners": [1]},
    ]


def test_a_chaal_of_the_last_chip_is_all_in() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 1000, 20])
    assert labels(hand) == ["See cards", "Chaal 10", "Pack"]
    hand.chaal(2)
    assert hand.all_in[2] and hand.chips[2] == 0
    assert hand.ended_by == "all_in"
    assert [p.to_json() for p in hand.pots] == [{"amount": 40, "winners": [1]}]


def test_several_all_in_levels_at_the_boot() -> None:
    hand = make([TRAIL, PURE, SEQ, PAIR], chips=[5, 8, 1000, 1000])
    assert hand.finished and hand.ended_by == "all_in"
    assert hand.log == []
    assert hand.contributed == [5, 8, 10, 10]
    assert hand.result().to_json() == {
        "finished": True,
        "chips": [20, 9, 994, 990],
        "pot": 0,
        "pots": [
            {"amount": 20, "winners": [0]},
            {"amount": 9, "winners": [1]},
            {"amount": 4, "winners": [2]},
        ],
        "ended_by": "all_in",
    }
    refused(hand, Action(2, K.CHAAL), "hand/over")
    assert hand.legal_actions() == []


def test_several_all_in_levels_best_hand_in_the_deepest_stack() -> None:
    hand = make([PAIR, SEQ, TRAIL, PURE], chips=[5, 8, 1000, 1000])
    assert hand.chips == [0, 0, 1000 - 10 + 33, 990]
    assert [p.winners for p in hand.pots] == [(2,), (2,), (2,)]


def test_short_boot_goes_straight_to_showdown() -> None:
    hand = make([PAIR, SEQ], chips=[1000, 4])
    assert hand.finished and hand.ended_by == "all_in"
    assert hand.to_act is None
    assert hand.shown == [True, True]
    assert hand.result().to_json() == {
        "finished": True,
        "chips": [996, 8],
        "pot": 0,
        "pots": [{"amount": 8, "winners": [1]}, {"amount": 6, "winners": [0]}],
        "ended_by": "all_in",
    }


def test_a_boot_that_takes_the_last_chip_is_all_in() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 10, 1000])
    assert hand.ended_by == "all_in"
    assert hand.all_in == [False, True, False]
    assert hand.chips == [990, 30, 990]


def test_boots_reaching_the_pot_limit_and_all_in_is_all_in() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 10, 1000], pot_limit_boots=3)
    assert hand.ended_by == "all_in"


def test_show_that_makes_the_asker_all_in_is_still_a_show() -> None:
    hand = make([TIE_A, TIE_B], chips=[1000, 30])
    hand.chaal(1)
    hand.chaal(0)
    assert hand.chips[1] == 10
    hand.show(1)  # the asker's last chips: still a show, the asker loses the tie
    assert hand.ended_by == "show"
    assert hand.chips == [1030, 0]


def test_all_in_when_a_seen_player_cannot_pay() -> None:
    hand = make([PAIR, SEQ, COLOUR], chips=[1000, 1000, 35])
    hand.see(2)
    assert labels(hand) == ["Chaal 20", "Pack"]
    hand.chaal(2)
    hand.raise_(1)
    hand.pack(0)
    assert labels(hand) == ["All in 5", "Pack"]
    refused(hand, Action(2, K.ALLIN, 5), "action/malformed")
    hand.go_all_in(2)
    assert hand.ended_by == "all_in"
    # Cut at seat 2's 35: 10 (packed) + 30 + 35 = 75, one pot between seats 1 and 2.
    assert [p.to_json() for p in hand.pots] == [{"amount": 75, "winners": [1]}]


# --------------------------------------------------------------------- last player standing
def test_last_player_takes_the_pot_unseen() -> None:
    hand = make([PAIR, SEQ, COLOUR])
    hand.chaal(2)
    hand.pack(1)
    hand.see(0)
    hand.raise_(0)
    hand.pack(2)
    assert hand.finished and hand.ended_by == "last_player"
    assert hand.shown == [False, False, False]
    assert hand.result().to_json() == {
        "finished": True,
        "chips": [1030, 990, 980],
        "pot": 0,
        "pots": [{"amount": 80, "winners": [0]}],
        "ended_by": "last_player",
    }


# --------------------------------------------------------------------- refusals
Builder = Callable[[], Hand]


def _start3() -> Hand:
    return make([PAIR, SEQ, COLOUR])


def _finished() -> Hand:
    hand = make([PAIR, SEQ])
    hand.pack(1)
    return hand


def _packed() -> Hand:
    hand = make([PAIR, SEQ, COLOUR])
    hand.pack(2)
    return hand


def _seen() -> Hand:
    hand = make([PAIR, SEQ, COLOUR])
    hand.see(2)
    return hand


def _blind_bet() -> Hand:
    hand = make([PAIR, SEQ, COLOUR])
    hand.chaal(2)
    hand.see(1)
    return hand


def _short() -> Hand:
    return make([PAIR, SEQ, COLOUR], chips=[1000, 1000, 15])


def _mid() -> Hand:
    return make([PAIR, SEQ, COLOUR], chips=[1000, 1000, 25])


def _at_cap() -> Hand:
    hand = make([PAIR, SEQ, COLOUR])
    play_turns(hand, 3, K.RAISE)
    return hand


def _seen_vs_blind() -> Hand:
    hand = make([PAIR, SEQ])
    hand.see(1)
    return hand


def _duo() -> Hand:
    return make([PAIR, SEQ], preset="duo")


def _short2() -> Hand:
    return make([PAIR, SEQ], chips=[1000, 15])


def _sideshow_ready(**options: Any) -> Builder:
    return lambda: side_show_ready(SEQ, PAIR, **options)


def _two_seen() -> Hand:
    hand = make([PAIR, SEQ])
    hand.see(1)
    hand.chaal(1)
    hand.see(0)
    return hand


def _pending() -> Hand:
    hand = side_show_ready(SEQ, PAIR)
    hand.side_show_ask(1)
    return hand


def _blind_limit() -> Hand:
    hand = make([PAIR, SEQ, COLOUR], preset="limited")
    play_turns(hand, 12)
    return hand


def _sideshow_poor() -> Hand:
    hand = make([HIGH, SEQ, PAIR], chips=[1000, 25, 1000])
    hand.see(2)
    hand.chaal(2)
    hand.see(1)
    return hand


REFUSALS: list[tuple[str, Builder, Action, str]] = [
    ("not your turn", _start3, Action(0, K.CHAAL), "turn/not_yours"),
    ("not your turn to pack", _start3, Action(1, K.PACK), "turn/not_yours"),
    ("not your turn to see", _start3, Action(0, K.SEE), "turn/not_yours"),
    ("not your turn to show", _duo, Action(0, K.SHOW), "turn/not_yours"),
    ("hand over", _finished, Action(0, K.CHAAL), "hand/over"),
    ("hand over see", _finished, Action(0, K.SEE), "hand/over"),
    ("hand over accept", _finished, Action(1, K.ACCEPT), "hand/over"),
    ("unknown seat", _start3, Action(3, K.CHAAL), "seat/unknown"),
    ("negative seat", _start3, Action(-1, K.PACK), "seat/unknown"),
    ("packed seat", _packed, Action(2, K.CHAAL), "seat/out"),
    ("packed seat sees", _packed, Action(2, K.SEE), "seat/out"),
    ("amount on a pack", _start3, Action(2, K.PACK, 10), "action/malformed"),
    ("amount on a raise", _start3, Action(2, K.RAISE, 20), "action/malformed"),
    ("target on a chaal", _start3, Action(2, K.CHAAL, None, 1), "action/malformed"),
    ("target on a show", _duo, Action(1, K.SHOW, None, 0), "action/malformed"),
    ("seen twice", _seen, Action(2, K.SEE), "see/already_seen"),
    ("chaal unaffordable", _short, Action(2, K.CHAAL), "chaal/cannot_afford"),
    ("chaal amount", _start3, Action(2, K.CHAAL, 15), "chaal/amount"),
    ("raise over the cap", _at_cap, Action(2, K.RAISE), "raise/stake_cap"),
    ("raise unaffordable", _mid, Action(2, K.RAISE), "raise/cannot_afford"),
    ("show with three", _start3, Action(2, K.SHOW), "show/players"),
    ("seen vs blind show", _seen_vs_blind, Action(1, K.SHOW), "show/seen_vs_blind"),
    ("show before a bet", _duo, Action(1, K.SHOW), "show/after_bet"),
    ("show unaffordable", _short2, Action(1, K.SHOW), "show/cannot_afford"),
    ("side show off", _sideshow_ready(sideshow="off"), Action(1, K.SIDESHOW), "sideshow/off"),
    ("side show of two", _two_seen, Action(0, K.SIDESHOW), "sideshow/players"),
    ("side show blind", _start3, Action(2, K.SIDESHOW), "sideshow/blind"),
    ("side show of a player yet to bet", _seen, Action(2, K.SIDESHOW), "sideshow/not_bet"),
    ("side show target blind", _blind_bet, Action(1, K.SIDESHOW), "sideshow/target_blind"),
    (
        "side show not previous",
        _sideshow_ready(),
        Action(1, K.SIDESHOW, None, 0),
        "sideshow/not_previous",
    ),
    (
        "side show no target",
        _sideshow_ready(sideshow="any_seen"),
        Action(1, K.SIDESHOW),
        "sideshow/target",
    ),
    (
        "side show all seen",
        _sideshow_ready(sideshow_all_seen=True),
        Action(1, K.SIDESHOW),
        "sideshow/all_seen",
    ),
    ("side show unaffordable", _sideshow_poor, Action(1, K.SIDESHOW), "sideshow/cannot_afford"),
    ("side show pending", _pending, Action(0, K.CHAAL), "sideshow/pending"),
    ("side show pending asker", _pending, Action(1, K.PACK), "sideshow/pending"),
    ("side show pending asked", _pending, Action(2, K.PACK), "sideshow/pending"),
    ("side show pending again", _pending, Action(1, K.SIDESHOW), "sideshow/pending"),
    ("not asked", _start3, Action(2, K.ACCEPT), "sideshow/not_asked"),
    ("not asked decline", _start3, Action(0, K.DECLINE), "sideshow/not_asked"),
    ("answer from the asker", _pending, Action(1, K.ACCEPT), "sideshow/not_asked"),
    ("answer from another seat", _pending, Action(0, K.DECLINE), "sideshow/not_asked"),
    ("blind limit", _blind_limit, Action(1, K.CHAAL), "blind/limit"),
    ("blind limit all in", _blind_limit, Action(1, K.ALLIN), "blind/limit"),
    ("all in affordable", _start3, Action(2, K.ALLIN), "allin/can_afford"),
]


@pytest.mark.parametrize(
    ("build", "action", "code"),
    [pytest.param(b, a, c, id=name) for name, b, a, c in REFUSALS],
)
def test_refused_actions_change_nothing(build: Builder, action: Action, code: str) -> None:
    hand = build()
    log = list(hand.log)
    refused(hand, action, code)
    assert hand.log == log


def test_every_error_code_of_decisions_md_is_reached() -> None:
    codes = {code for _, _, _, code in REFUSALS}
    assert codes >= {
        "turn/not_yours",
        "hand/over",
        "seat/unknown",
        "seat/out",
        "action/malformed",
        "see/already_seen",
        "chaal/cannot_afford",
        "chaal/amount",
        "raise/stake_cap",
        "raise/cannot_afford",
        "show/players",
        "show/seen_vs_blind",
        "show/after_bet",
        "show/cannot_afford",
        "sideshow/off",
        "sideshow/players",
        "sideshow/blind",
        "sideshow/target_blind",
        "sideshow/not_previous",
        "sideshow/target",
        "sideshow/all_seen",
        "sideshow/cannot_afford",
        "sideshow/pending",
        "sideshow/not_asked",
        "blind/limit",
        "allin/can_afford",
    }


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"seat": 0, "do": "fold"}, "action/unknown"),
        ({"seat": 0}, "action/unknown"),
        ({"do": "chaal"}, "action/malformed"),
        ({"seat": "0", "do": "chaal"}, "action/malformed"),
        ({"seat": True, "do": "chaal"}, "action/malformed"),
        ({"seat": 0, "do": "chaal", "amount": "10"}, "action/malformed"),
        ({"seat": 0, "do": "chaal", "amount": 1.5}, "action/malformed"),
        ({"seat": 0, "do": "sideshow", "with": False}, "action/malformed"),
        (["chaal"], "action/malformed"),
    ],
)
def test_malformed_actions_from_json(data: Any, code: str) -> None:
    with pytest.raises(IllegalAction) as info:
        Action.from_json(data)
    assert info.value.code == code


def test_action_json_round_trip() -> None:
    for action in (
        Action(1, K.CHAAL),
        Action(2, K.CHAAL, 15),
        Action(0, K.SIDESHOW, None, 3),
        Action(4, K.ACCEPT),
    ):
        assert Action.from_json(action.to_json()) == action
    assert Action(0, K.SIDESHOW, None, 3).to_json() == {"seat": 0, "do": "sideshow", "with": 3}


@pytest.mark.parametrize(
    ("chips", "dealer", "cards", "code"),
    [
        ([1000], 0, [PAIR], "hand/players"),
        ([1000] * 7, 0, None, "hand/players"),
        ([1000, 0, 0], 0, [PAIR, None, None], "hand/players"),
        ([1000, -5], 0, [PAIR, SEQ], "hand/chips"),
        ([1000, 1000], 2, [PAIR, SEQ], "hand/dealer"),
        ([1000, 1000], -1, [PAIR, SEQ], "hand/dealer"),
        ([1000, 1000], 0, [PAIR, "Ks Kd 7h"], "hand/cards"),
        ([1000, 1000], 0, [PAIR, "Ac Kd"], "hand/cards"),
        ([1000, 1000], 0, [PAIR, "Ac Kd 7h 2c"], "hand/cards"),
        ([1000, 1000], 0, [PAIR, None], "hand/cards"),
        ([1000, 0, 1000], 0, [PAIR, SEQ, COLOUR], "hand/cards"),
        ([1000, 1000], 0, [PAIR], "hand/cards"),
        ([1000, 1000], 0, [PAIR, "Jk Ac 2c"], "hand/cards"),
    ],
)
def test_hand_set_up_errors(
    chips: list[int], dealer: int, cards: list[str | None] | None, code: str
) -> None:
    dealt = None if cards is None else [parse_cards(c) if c else None for c in cards]
    with pytest.raises(IllegalAction) as info:
        Hand(Rules(), chips, dealer, dealt, seed=None if dealt else bytes(32))
    assert info.value.code == code


# --------------------------------------------------------------------- engine bugs found
def test_wild_rank_with_dealt_cards_needs_the_card_turned_up() -> None:
    rules = Rules.from_options(variant="wild_rank")
    dealt = [parse_cards(PAIR), parse_cards(SEQ)]
    for seed in (bytes(32), None):
        with pytest.raises(IllegalAction) as caught:
            Hand(rules, [1000, 1000], 0, dealt, seed=seed)
        assert caught.value.code == "hand/wild"
    hand = Hand(rules, [1000, 1000], 0, dealt, wild=parse_cards("7d")[0])
    assert hand.wild == parse_cards("7d")[0]


def test_an_action_whose_kind_is_not_an_action_kind() -> None:
    hand = make([PAIR, HIGH, SEQ])
    assert hand.verify(Action(2, "chaal")) == 10  # type: ignore[arg-type]
    with pytest.raises(IllegalAction) as caught:
        Action(2, "fold")  # type: ignore[arg-type]
    assert caught.value.code == "action/unknown"
