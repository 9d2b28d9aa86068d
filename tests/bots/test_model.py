"""The opponent model: public tendencies across hands, read from public facts only."""

from __future__ import annotations

import copy
import hashlib

from teenpatti.bots import load_bot
from teenpatti.bots.hard import HardBot
from teenpatti.bots.model import MIN_HANDS, MIN_SHOWN, TableModel
from teenpatti.engine import Rules, view
from teenpatti.engine.game import Game
from teenpatti.engine.hand import Hand


def play(names: list[str], games: int, seed: bytes = b"model") -> list[Hand]:
    """Every hand of ``games`` whole games among the bots ``names`` (one per seat)."""
    rules = Rules()
    hands: list[Hand] = []
    for g in range(games):
        bots = [load_bot(n, 100 * g + s) for s, n in enumerate(names)]
        key = hashlib.sha256(seed + b"/%d" % g).digest()
        table = Game(rules, names, key, dealer=g % len(names))
        while not table.finished:
            hand = table.start_hand()
            while not hand.finished:
                seat = hand.actor
                assert seat is not None
                table.apply(bots[seat].decide(view(hand, seat)))
            hands.append(hand)
    return hands


def learnt(hands: list[Hand], seat: int | None) -> TableModel:
    model = TableModel()
    for hand in hands:
        if seat is None or hand.dealt[seat]:
            model.observe(view(hand, seat))
    return model


def test_the_styles_show_in_their_tendencies() -> None:
    names = ["hard", "never_looks", "blind_raiser", "maniac", "tight_aggressive", "station"]
    model = learnt(play(names, 2), 0)
    assert 0 not in model.seats  # its own seat is not modelled
    never, raiser, maniac, tight, station = (model.of(s) for s in range(1, 6))
    assert never.hands >= 10 and never.look_rate == 0 and never.blind_raises == 0
    assert model.never_looks(1) and model.never_looks(2)  # neither ever looks
    assert not any(model.never_looks(s) for s in (3, 4, 5))
    assert raiser.blind_bets > 0 and raiser.blind_raises > 0 and raiser.look_rate == 0
    assert maniac.look_rate is not None and maniac.look_rate > 0.9  # looks at its first turn
    assert tight.look_rate is not None and tight.look_rate > 0.9
    assert station.pack_to_raise == 0 and model.never_packs(5)
    assert maniac.shown >= MIN_SHOWN and station.shown >= MIN_SHOWN
    loose = model.loose_seats()
    assert 3 in loose and 5 in loose  # they bet on anything, and show it
    assert 4 not in loose  # tight_aggressive bets on strong hands only
    assert tight.mean_shown is not None and tight.mean_shown > 0.75


def test_a_seat_learns_only_what_everyone_could_see() -> None:
    # Side shows (whose cards only their two players see) and showdowns, four seats: what seat
    # 0 learns about the others is exactly what a spectator learns from the same hands.
    names = ["hard", "sideshow_asker", "maniac", "easy"]
    hands = play(names, 3, b"public")
    assert any(a.kind.value == "accept" for h in hands for a in view(h, None).actions)
    for seat in range(4):
        mine = learnt(hands, seat)
        everyone = learnt([h for h in hands if h.dealt[seat]], None)
        assert mine.seats == {k: v for k, v in everyone.seats.items() if k != seat}


def test_an_unfinished_hand_teaches_nothing() -> None:
    hand = Hand(Rules(), [1000, 1000], 0, seed=hashlib.sha256(b"open").digest())
    model = TableModel()
    model.observe(view(hand, 0))
    assert model.hands_seen == 0 and model.seats == {}
    assert model.of(1).look_rate is None and model.of(1).mean_shown is None


def test_hard_changes_its_play_against_a_maniac_after_some_hands() -> None:
    # hard (seat 0) against a maniac and a station over whole games, learning after each hand;
    # at every one of its decisions, a copy of it that has learnt nothing decides too.
    rules = Rules()
    names = ["hard", "maniac", "station"]
    same_before = changed_after = decisions_after = 0
    for g in range(3):
        bots = [load_bot(n, 7 * g + s) for s, n in enumerate(names)]
        me = bots[0]
        assert isinstance(me, HardBot)
        key = hashlib.sha256(b"adapt/%d" % g).digest()
        table = Game(rules, names, key, dealer=g % 3)
        while not table.finished:
            hand = table.start_hand()
            while not hand.finished:
                seat = hand.actor
                assert seat is not None
                seen = view(hand, seat)
                if seat == 0:
                    fresh = copy.deepcopy(me)  # the same random state, nothing learnt
                    fresh.model = TableModel()
                action = bots[seat].decide(seen)
                if seat == 0:
                    other = fresh.decide(seen)
                    if me.model.loose_seats():
                        decisions_after += 1
                        changed_after += other != action
                    else:
                        assert other == action  # nothing learnt yet: the same play
                        same_before += 1
                table.apply(action)
            me.observe(view(hand, 0))
    assert me.model.loose_seats() == {1, 2}  # the maniac and the station bet on anything
    assert same_before > 5 and decisions_after > 20
    assert changed_after > 0  # it plays them differently now


def test_expert_leaves_its_table_for_hards_values_against_a_known_gambler() -> None:
    from teenpatti.bots.expert import ExpertBot

    hands = play(["expert", "maniac"], 2, b"gambler")
    taught = ExpertBot(3)
    for hand in hands:
        taught.observe(view(hand, 0))
    assert taught.model.loose_seats() == {1}
    fresh = ExpertBot(3)
    rules = Rules()
    compared = 0
    for n in range(20):
        hand = Hand(rules, [1000, 1000], 1, seed=hashlib.sha256(b"heads-up/%d" % n).digest())
        # seat 0 plays first: it looks and chaals, the maniac looks and raises; expert's turn
        for seat, do in ((0, "see"), (0, "chaal"), (1, "see"), (1, "raise")):
            option = next(a for a in view(hand, seat).legal_actions if a.kind.value == do)
            hand.apply(option.action(seat))
        seen = view(hand, 0)
        assert fresh._from_table(seen) is not None  # the solved table reaches this state
        assert taught._from_table(seen) is None  # but not against a known gambler
        hard = HardBot(3)
        hard.model = taught.model
        hard.rng.setstate(taught.rng.getstate())
        taught.table, taught.search = True, None  # the table on, the rollout search off
        assert taught.decide(seen) == hard.decide(seen)  # hard's play, with what it learnt
        compared += 1
    assert compared == 20


def test_expert_leaves_its_table_while_a_known_never_looker_is_blind() -> None:
    from teenpatti.bots.expert import ExpertBot

    hands = play(["expert", "never_looks"], 1, b"never")
    taught = ExpertBot(3)
    for hand in hands[:MIN_HANDS]:
        taught.observe(view(hand, 0))
    assert taught.model.never_looks(1)
    fresh = ExpertBot(3)
    for n in range(10):
        hand = Hand(Rules(), [1000, 1000], 1, seed=hashlib.sha256(b"blind/%d" % n).digest())
        option = next(a for a in view(hand, 0).legal_actions if a.kind.value == "chaal")
        hand.apply(option.action(0))  # seat 0 chaals blind; the never-looker's turn, then ours
        option = next(a for a in view(hand, 1).legal_actions if a.kind.value == "chaal")
        hand.apply(option.action(1))
        seen = view(hand, 0)
        assert fresh._from_table(seen) is not None  # the table plays against a blind player
        assert taught._from_table(seen) is None  # but not against one known never to look
