"""How the built-in bots decide, in set positions: strong hands stay, junk packs against strength,
the blind-turn limit is obeyed, ranges narrow by what the others did, bluffs stay rare."""

from __future__ import annotations

from collections import Counter

import pytest

from teenpatti.bots import load_bot
from teenpatti.bots.hard import HARD
from teenpatti.bots.medium import MEDIUM
from teenpatti.bots.strategy import read
from teenpatti.engine import Action, ActionKind, Hand, Rules, parse_cards, view

K = ActionKind
TRAIL = "As Ad Ac"
JUNK = "2c 3d 5h"
OTHERS = ["Kh Qh Jh", "9s 8s 6d", "7c 7d 4s", "Th 4h 3h", "Jd 9d 2s"]


def _hand(mine: str, seats: int, rules: Rules | None = None) -> Hand:
    """A hand where the seat to act first holds ``mine``."""
    rules = rules or Rules()
    cards = [parse_cards(t) for t in OTHERS[: seats - 1]]
    dealer = 0
    first = (dealer - 1) % seats  # anticlockwise: the dealer's right acts first
    cards.insert(first, parse_cards(mine))
    return Hand(rules, [1000] * seats, dealer, cards)


def _decide(name: str, hand: Hand, seed: int = 1) -> ActionKind:
    seat = hand.actor
    assert seat is not None
    return load_bot(name, seed).decide(view(hand, seat)).kind


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_a_trail_is_never_packed(name: str) -> None:
    for seats in (2, 4, 6):
        for seed in range(20):
            hand = _hand(TRAIL, seats)
            me = hand.actor
            assert me is not None
            hand.see(me)
            assert _decide(name, hand, seed) is not K.PACK


@pytest.mark.parametrize("name", ["easy", "medium", "hard"])
def test_junk_is_packed_against_a_seen_raise(name: str) -> None:
    packs = 0
    for seed in range(50):
        hand = Hand(Rules(), [1000, 1000], 0, [parse_cards("Kh Kd Ks"), parse_cards(JUNK)])
        # seat 1 acts first (the dealer's right)
        hand.see(1)
        hand.chaal(1)
        hand.see(0)
        hand.raise_(0)
        packs += _decide(name, hand, seed) is K.PACK
    assert packs >= 45  # a bluff now and then, no more


def test_muflis_turns_the_order_round() -> None:
    rules = Rules.from_options({"variant": "muflis"})
    for seed in range(20):
        hand = Hand(rules, [1000, 1000], 0, [parse_cards(TRAIL), parse_cards(JUNK)])
        hand.see(1)
        assert _decide("hard", hand, seed) is not K.PACK  # 2-3-5 is the best hand here
        hand2 = Hand(rules, [1000, 1000], 0, [parse_cards(JUNK), parse_cards(TRAIL)])
        hand2.see(1)
        hand2.chaal(1)
        hand2.see(0)
        hand2.raise_(0)
        assert _decide("hard", hand2, seed) is K.PACK or seed < 3


@pytest.mark.parametrize("name", ["medium", "hard"])
def test_the_blind_turn_limit_makes_the_bot_look(name: str) -> None:
    rules = Rules.from_options({"blind_turns_max": 1})
    hand = _hand(JUNK, 3, rules)
    first = hand.actor
    assert first is not None
    hand.chaal(first)
    hand.chaal(hand.actor or 0)
    hand.chaal(hand.actor or 0)
    assert hand.actor == first
    assert [a.kind for a in hand.legal_actions()] == [K.SEE, K.PACK]
    assert _decide(name, hand) is K.SEE


def test_easy_looks_at_once_and_hard_looks_early_against_blind_players() -> None:
    hand = _hand(JUNK, 4)
    assert _decide("easy", hand) is K.SEE
    kinds = Counter(_decide("hard", _hand(JUNK, 4), seed) for seed in range(10))
    # valued to the pot limit, seeing early against blind players pays: hard looks
    assert kinds[K.SEE] == 10


def test_a_junk_hand_declines_a_side_show() -> None:
    rules = Rules()
    cards = [parse_cards("As Ad Ac"), parse_cards(JUNK), parse_cards("Kh Qh Jh")]
    for name in ("easy", "medium", "hard"):
        hand = Hand(rules, [1000] * 3, 0, cards)
        hand.see(2)
        hand.chaal(2)
        hand.see(1)
        hand.chaal(1)
        hand.see(0)
        hand.side_show_ask(0)
        assert hand.actor == 1
        assert _decide(name, hand) is K.DECLINE


def test_ranges_narrow_by_what_the_others_did() -> None:
    rules = Rules()
    cards = [parse_cards(t) for t in ("Kh Qh Jh", "9s 8s 6d", "7c 7d 4s", JUNK)]
    hand = Hand(rules, [1000] * 4, 0, cards)
    # order of play: 3, 2, 1, 0
    hand.chaal(3)  # blind: says nothing
    hand.see(2)
    hand.chaal(2)  # seen chaal: something
    hand.see(1)
    hand.raise_(1)  # seen raise: more
    hand.see(0)
    reading = read(view(hand, 0), HARD)
    by_seat = {o.seat: o for o in reading.opponents}
    u = 0.7
    assert by_seat[3].below(u) == pytest.approx(u, abs=0.02)  # still a random hand
    assert by_seat[2].below(u) < by_seat[3].below(u)
    assert by_seat[1].below(u) < by_seat[2].below(u)
    coarse = read(view(hand, 0), MEDIUM)
    assert {o.seat: o for o in coarse.opponents}[3].below(u) == pytest.approx(u, abs=0.02)


def test_winning_a_side_show_makes_a_range_stronger() -> None:
    rules = Rules()
    cards = [parse_cards(t) for t in (JUNK, "9s 8s 6d", "7c 7d 4s", "Kh Qh Jh")]

    def seat_three_as_seen_by_two(accept: bool) -> float:
        hand = Hand(rules, [1000] * 4, 0, cards)
        for seat in (3, 2, 1, 0):
            hand.see(seat)
            hand.chaal(seat)
        hand.side_show_ask(3)  # asks seat 0, the previous player
        if accept:
            hand.accept(0)  # seat 0 holds junk: it packs
            assert view(hand, 2).seats[0].packed
        else:
            hand.decline(0)
        reading = read(view(hand, 2), HARD)
        return {o.seat: o for o in reading.opponents}[3].below(0.7)

    assert seat_three_as_seen_by_two(True) < seat_three_as_seen_by_two(False)


def test_bluffs_are_rare() -> None:
    decisions = bluffs = 0
    for seed in range(400):
        hand = Hand(Rules(), [1000, 1000], 0, [parse_cards("Kh Kd Ks"), parse_cards(JUNK)])
        hand.see(1)
        hand.chaal(1)
        hand.see(0)
        hand.chaal(0)
        kind = _decide("hard", hand, seed)
        decisions += 1
        bluffs += kind is not K.PACK
    assert 0 < bluffs / decisions <= 2 * HARD.bluff


def test_easy_respects_a_raise_made_after_looking_but_not_a_blind_one() -> None:
    # Seat 1 plays first; it raises, blind or after looking; easy (seat 0) then holds a hand
    # just above the middle: it pays a blind raise and packs to a seen one.
    from teenpatti.bots.easy import EasyBot
    from teenpatti.odds import heads_up_equity

    rules = Rules()
    easy = EasyBot(1)
    easy.wobble = 0.0
    found = 0
    for n in range(200):
        seed = n.to_bytes(32, "big")
        first = Hand(rules, [1000, 1000], 0, seed=seed)
        assert first.actor == 1
        first.apply(_do(first, 1, "see"))
        first.apply(_do(first, 1, "raise"))
        first.apply(_do(first, 0, "see"))
        cards = view(first, 0).seats[0].cards
        assert cards is not None
        u = heads_up_equity(cards, rules.ranking, None)
        if not 0.55 <= u < 0.65:
            continue
        found += 1
        assert easy.decide(view(first, 0)).kind is ActionKind.PACK
        blind = Hand(rules, [1000, 1000], 0, seed=seed)
        blind.apply(_do(blind, 1, "raise"))
        blind.apply(_do(blind, 0, "see"))
        assert easy.decide(view(blind, 0)).kind is ActionKind.CHAAL
    assert found >= 5


def _do(hand: Hand, seat: int, do: str) -> Action:
    option = next(a for a in view(hand, seat).legal_actions if a.kind.value == do)
    return option.action(seat)
