"""The rollout search: deals drawn from a seat's view reproduce that view exactly, ranges (as
hard reads them, or inferred from the others' own policies) shape the draws, and the search
keeps the base move unless another is clearly better."""

from __future__ import annotations

import hashlib
import random
import statistics

from teenpatti.bots import load_bot
from teenpatti.bots.hard import HardBot
from teenpatti.bots.search import Rollouts, _clone, _Dealer, _PolicyDealer, candidates
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
    hand, first, me = _raised_after_looking(3)
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


def _raised_after_looking(seats: int) -> tuple[Hand, int, int]:
    """A hand where the first player looked and raised: the hand, that player, the next."""
    rules = Rules()
    hand = Hand(rules, [1000] * seats, 0, seed=bytes(32))
    first = hand.actor
    assert first is not None
    for do in ("see", "raise"):
        option = next(a for a in view(hand, first).legal_actions if a.kind.value == do)
        hand.apply(option.action(first))
    me = hand.actor
    assert me is not None
    return hand, first, me


def test_the_policy_dealer_reads_a_raise_as_the_policy_makes_it() -> None:
    """Drawn by Bayes on ``tight_aggressive``'s moves (it raises only its best 15 %), the
    raiser's hands are among the best; on a station's (it never raises), the raise says
    nothing; a blind player's hand is any hand either way."""
    hand, first, me = _raised_after_looking(3)
    other = 3 - first - me
    mine = view(hand, me)
    rules = mine.rules

    def drawn(policy: str) -> tuple[list[float], list[float]]:
        dealer = _PolicyDealer(mine, random.Random(1), lambda _, s: load_bot(policy, s), 0.03)
        deals = dealer.sample(200, 800)
        assert len(deals) == 200
        for d in deals:
            assert view(d, me) == mine  # the drawn deal reproduces the seat's view
        return (
            [heads_up_equity(d.cards[first] or (), rules.ranking) for d in deals],
            [heads_up_equity(d.cards[other] or (), rules.ranking) for d in deals],
        )

    raiser, blind = drawn("tight_aggressive")
    assert statistics.mean(raiser) > 0.8
    assert 0.4 < statistics.mean(blind) < 0.6
    raiser, _ = drawn("station")  # never raises: every deal as unlikely, so any hand
    assert 0.4 < statistics.mean(raiser) < 0.6


def test_a_policy_seat_that_would_not_have_moved_so_weighs_little() -> None:
    hand, _, me = _raised_after_looking(3)
    policy = lambda _, s: load_bot("tight_aggressive", s)  # noqa: E731
    dealer = _PolicyDealer(view(hand, me), random.Random(2), policy, 0.03)
    weights = []
    for _ in range(200):
        found = dealer.weighed()
        assert found is not None
        weights.append(found[1])
    assert set(weights) <= {1.0, 0.03}
    assert 0.03 in weights and 1.0 in weights


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
        if sum(s.dealt for s in mine.seats) >= 3:
            hard.level = ExpertBot.multiway_level  # its reading at three seats and more
        assert expert.decide(mine) == hard.decide(mine)
