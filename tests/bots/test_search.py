"""The rollout search: deals drawn from a seat's view reproduce that view exactly, ranges shape
the draws, and the search keeps the base move unless another is clearly better."""

from __future__ import annotations

import hashlib
import random
import statistics

from teenpatti.bots.hard import HardBot
from teenpatti.bots.search import Rollouts, _clone, _Dealer, candidates
from teenpatti.engine import Action, ActionKind, Hand, Rules, parse_cards, view
from teenpatti.odds import heads_up_equity


def _positions(seats: int, deals: int) -> list[tuple[Hand, int]]:
    """Hands of hard players stopped at every decision (a fresh replay per position)."""
    rules = Rules()
    out = []
    for d in range(deals):
        seed = hashlib.sha256(b"search/%d/%d" % (seats, d)).digest()
        hand = Hand(rules, [1000] * seats, d % seats, seed=seed)
        bots = [HardBot(s) for s in range(seats)]
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            copy = Hand(rules, [1000] * seats, d % seats, seed=seed)
            for action in hand.log:
                copy.apply(action)
            out.append((copy, seat))
            hand.apply(bots[seat].decide(view(hand, seat)))
    return out


def test_drawn_deals_reproduce_the_seats_view() -> None:
    rng = random.Random(3)
    checked = 0
    for seats in (2, 4, 6):
        for hand, seat in _positions(seats, 4):
            mine = view(hand, seat)
            dealer = _Dealer(mine, rng, frozenset())
            for _ in range(3):
                drawn = dealer.draw()
                if drawn is None:
                    continue
                assert view(drawn, seat) == mine  # the same public state, the same own cards
                assert drawn.cards != hand.cards  # but the hidden cards are drawn afresh
                checked += 1
    assert checked > 100


def test_a_seen_raisers_drawn_hands_are_strong() -> None:
    rules = Rules()
    hand = Hand(rules, [1000] * 3, 0, seed=bytes(32))
    first = hand.actor
    assert first is not None
    for do in ("see", "raise"):
        option = next(a for a in view(hand, first).legal_actions if a.kind.value == do)
        hand.apply(option.action(first))
    me = hand.actor
    assert me is not None
    other = 3 - first - me
    mine = view(hand, me)
    dealer = _Dealer(mine, random.Random(1), frozenset())
    raiser, blind = [], []
    for _ in range(300):
        drawn = dealer.draw()
        assert drawn is not None
        raiser.append(heads_up_equity(drawn.cards[first] or (), rules.ranking))
        blind.append(heads_up_equity(drawn.cards[other] or (), rules.ranking))
    assert statistics.mean(raiser) > 0.65  # hard's reading of a seen raise
    assert 0.43 < statistics.mean(blind) < 0.57  # a blind player's cards: any hand


def test_the_search_overrides_a_clearly_bad_base_move_and_is_reproducible() -> None:
    rules = Rules()
    trail = parse_cards("Ac Ad Ah")
    rest = [c for c in range(52) if c not in trail]
    me = Hand(rules, [1000] * 3, 0, seed=bytes(32)).actor
    assert me is not None
    others = iter((tuple(rest[:3]), tuple(rest[3:6])))
    cards = [trail if s == me else next(others) for s in range(3)]
    hand = Hand(rules, [1000] * 3, 0, cards)
    hand.apply(Action(me, ActionKind.SEE))
    mine = view(hand, me)
    pack = Action(me, ActionKind.PACK)
    search = Rollouts(samples=12)
    first = search.choose(mine, random.Random(5), pack)
    assert first.kind is not ActionKind.PACK  # a trail of aces is never packed
    assert search.choose(mine, random.Random(5), pack) == first
    # a sound base move is kept when nothing is clearly better
    chaal = Action(me, ActionKind.CHAAL)
    assert {a.kind for a in candidates(mine)} >= {ActionKind.CHAAL, ActionKind.PACK}
    assert search.choose(mine, random.Random(5), chaal).kind in (
        ActionKind.CHAAL,
        ActionKind.RAISE,
    )


def test_a_cloned_hand_moves_on_without_the_original() -> None:
    for hand, seat in _positions(4, 2)[::3]:
        before = view(hand, seat)
        copy = _clone(hand)
        while not copy.finished:
            actor = copy.actor
            assert actor is not None
            copy.apply(HardBot(actor).decide(view(copy, actor)))
        assert view(hand, seat) == before and not hand.finished
        assert view(_clone(hand), seat) == before


def test_expert_plays_hards_move_while_an_opponent_is_blind() -> None:
    from teenpatti.bots.expert import ExpertBot

    for hand, seat in _positions(2, 3) + _positions(4, 1):
        mine = view(hand, seat)
        if not any(s.dealt and not s.packed and not s.seen and s.seat != seat for s in mine.seats):
            continue
        expert, hard = ExpertBot(3), HardBot(3)
        expert.table = False  # heads-up the solved table decides (tests/bots/test_solver.py)
        assert expert.decide(mine) == hard.decide(mine)
