"""The ways people play at the tables friends open: the styles that press blind players and
that call down, the reading presser, and the expert that reads a blind presser's later bets at
face value, at three to six seats and heads-up off its table (the exploiter's reading of the
others from their own policy is checked with the rollout search, in ``test_search.py``)."""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace

import pytest

from teenpatti.bots import expert as expert_module
from teenpatti.bots import load_bot
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.hard import HARD
from teenpatti.bots.presser import PRESS_FROM, READING
from teenpatti.bots.strategy import GRID, Level, read
from teenpatti.engine import ActionKind, Hand, HandView, Rules, view
from teenpatti.odds import heads_up_equity


def _play(names: list[str], deal: int, chips: int = 1000) -> list[tuple[str, HandView, ActionKind]]:
    """One hand of ``names`` round the table, each with ``chips``: every decision's player,
    view and move."""
    rules = Rules()
    rng = random.Random(deal)
    hand = Hand(rules, [chips] * len(names), deal % len(names), seed=rng.randbytes(32))
    bots = [load_bot(n, deal * 10 + i) for i, n in enumerate(names)]
    out = []
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        v = view(hand, seat)
        move = bots[seat].decide(v)
        out.append((names[seat], v, move.kind))
        hand.apply(move)
    return out


def _others_blind(v: HandView) -> bool:
    return any(not s.seen for s in v.seats if s.dealt and not s.packed and s.seat != v.viewer)


def test_the_blind_presser_raises_blind_while_another_is_blind_then_looks() -> None:
    raised = looked = 0
    for deal in range(40):
        for name, v, kind in _play(["blind_presser", "station", "hard"], deal):
            if name != "blind_presser" or v.side_show is not None:
                continue
            you = v.seats[v.viewer or 0]
            if not you.seen and _others_blind(v):
                assert kind in (ActionKind.RAISE, ActionKind.CHAAL)
                raised += kind is ActionKind.RAISE
            elif not you.seen:
                assert kind is ActionKind.SEE
                looked += 1
    assert raised > 20 and looked > 5


def test_the_call_down_player_never_raises_and_packs_only_weak_hands() -> None:
    packed = paid = 0
    for deal in range(40):
        for name, v, kind in _play(["calldown", "hard", "hard"], deal):
            if name != "calldown" or v.side_show is not None:
                continue
            assert kind not in (ActionKind.RAISE, ActionKind.SHOW, ActionKind.SIDESHOW)
            cards = v.seats[v.viewer or 0].cards
            if cards is None:
                continue
            weak = heads_up_equity(cards, v.rules.ranking) < 1 / 3
            assert (kind is ActionKind.PACK) == weak
            packed += weak
            paid += not weak
    assert packed > 3 and paid > 10


def _blind_raiser_looked(v: HandView) -> set[int]:
    """Other players still in who raised blind and then bet after looking."""
    blind_raised: set[int] = set()
    seen: set[int] = set()
    out: set[int] = set()
    for a in v.actions:
        if a.kind is ActionKind.SEE:
            seen.add(a.seat)
        elif a.kind is ActionKind.RAISE and a.seat not in seen:
            blind_raised.add(a.seat)
        elif a.kind in (ActionKind.CHAAL, ActionKind.RAISE) and a.seat in seen & blind_raised:
            out.add(a.seat)
    return {s for s in out if not v.seats[s].packed and s != v.viewer}


def _mean_u(v: HandView, level: Level, seat: int, gamblers: frozenset[int] = frozenset()) -> float:
    opponent = next(o for o in read(v, level, gamblers).opponents if o.seat == seat)
    return sum(g * (opponent.cdf[i + 1] - opponent.cdf[i]) for i, g in enumerate(GRID))


_SEEN_BETS = (ActionKind.CHAAL, ActionKind.RAISE, ActionKind.ALLIN)


def _bet_after_looking(v: HandView, still_in: bool = True) -> set[int]:
    """Other players (``still_in``: still in) who chaaled, raised or went all in after looking
    (a packed one's range still counts where it lost a side show: the winner beat it)."""
    seen: set[int] = set()
    out: set[int] = set()
    for a in v.actions:
        if a.kind is ActionKind.SEE:
            seen.add(a.seat)
        elif a.kind in _SEEN_BETS and a.seat in seen:
            out.add(a.seat)
    return {s for s in out if not (still_in and v.seats[s].packed) and s != v.viewer}


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_expert_reads_bets_after_looking_stronger_than_hard(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At three to six seats the expert reads a blind presser's bets after looking as anyone's
    (hard takes it for a gambler, whose bets say little), and seen chaals and raises stronger
    than hard does; only where another player still in has bet after looking does the
    expert's move differ from the one it made with hard's reading. (The reading is of hard's
    corrected move: the blueprint and the solved endgames, where played, are not read.)"""
    monkeypatch.setattr(ExpertBot, "blueprint_seats", frozenset())
    monkeypatch.setattr(ExpertBot, "endgame", False)
    stronger = changed = 0
    names = ["blind_presser", *["expert"] * (seats - 1)]
    for deal in range(60 if seats == 3 else 40):
        for name, v, kind in _play(names, deal):
            if name != "expert" or v.side_show is not None:
                continue
            before = ExpertBot(deal)
            before.multiway_level = HARD  # the expert before: hard's reading
            if before.decide(v).kind is not kind:
                assert _bet_after_looking(v, still_in=False)
                changed += 1
            for seat in _blind_raiser_looked(v):
                theirs = _mean_u(v, ExpertBot.multiway_level, seat)
                assert theirs > _mean_u(v, HARD, seat) + 0.05
                stronger += 1
    assert stronger > 5 and changed > 3


def test_the_expert_reads_its_own_bets_after_looking_where_it_makes_them() -> None:
    """The hands behind the expert's own seen chaals at a stake of one or two boots (pooled)
    and seen raises at one boot, at four seats: the centre its reading starts from
    (``chaal_centre``, ``raise_centre``) is at most 0.05 below their 10th percentile and not
    above it, where hard's is further below (``bench/ranges.py`` prints the whole table, at
    three to six seats and every stake, beside the centre each stake reads)."""
    found: defaultdict[tuple[ActionKind, int], list[float]] = defaultdict(list)
    for deal in range(250):
        for _, v, kind in _play(["expert"] * 4, deal):
            you = v.seats[v.viewer or 0]
            if you.seen and you.cards is not None and v.side_show is None:
                found[kind, v.stake // v.boot].append(heads_up_equity(you.cards, v.rules.ranking))
    chaals = sorted(found[ActionKind.CHAAL, 1] + found[ActionKind.CHAAL, 2])
    raises = sorted(found[ActionKind.RAISE, 1])
    assert len(chaals) > 200 and len(raises) > 20
    mine = ExpertBot.multiway_level
    for us, ours, hards in (
        (chaals, mine.chaal_centre, HARD.chaal_centre),
        (raises, mine.raise_centre, HARD.raise_centre),
    ):
        tenth = us[len(us) // 10]
        assert tenth - 0.05 <= ours <= tenth
        assert hards < tenth - 0.05


def _lone_seen_and_blind(v: HandView) -> bool:
    """The viewer has seen, exactly one other player still in has, and another is blind."""
    others = [s for s in v.seats if s.dealt and not s.packed and s.seat != v.viewer]
    seen = sum(s.seen for s in others)
    return v.seats[v.viewer or 0].seen and seen == 1 and seen < len(others)


@pytest.mark.parametrize("seats", [4, 5, 6])
def test_the_expert_chaals_where_it_would_raise_into_a_lone_seen_player_at_five_seats_and_more(
    seats: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Dealt to five or more, the expert chaals where its move would be a raise after looking
    while exactly one other player still in has seen and another is blind; everywhere else,
    and at four seats, its move is the one it makes without that rule."""
    held = kept = 0
    for deal in range(40):
        for _name, v, _kind in _play(["expert"] * seats, deal):
            if v.side_show is not None:
                continue
            monkeypatch.setattr(expert_module, "CHAAL_NOT_RAISE_FROM", 99)
            without = ExpertBot(deal).decide(v).kind
            monkeypatch.undo()
            mine = ExpertBot(deal).decide(v).kind
            if seats >= 5 and without is ActionKind.RAISE and _lone_seen_and_blind(v):
                assert mine is ActionKind.CHAAL
                held += 1
            else:
                assert mine is without
                kept += 1
    assert kept > 100
    assert (held > 5) == (seats >= 5)


def test_the_expert_still_reads_a_gambler_the_model_marks_as_one() -> None:
    """The guard reads a player who raised blind as anyone, but a seat the opponent model
    marks from earlier hands as betting on anything is still read as a gambler at three to six
    seats: its bets after looking say less (its range weaker) than anyone's."""
    checked = 0
    for deal in range(20):
        for name, v, _ in _play(["tight_aggressive", "expert", "expert", "expert"], deal):
            if name != "expert" or v.side_show is not None:
                continue
            for seat in _bet_after_looking(v):
                level = ExpertBot.multiway_level
                marked = _mean_u(v, level, seat, frozenset({seat}))
                assert marked < _mean_u(v, level, seat) - 0.05
                checked += 1
    assert checked > 10


def test_heads_up_off_its_table_the_expert_reads_a_blind_presser_as_anyone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Heads-up on stacks its table was not solved for (70 boots: a game's later hands) the
    expert plays hard's values, reading a blind presser's bets after looking as anyone's, as at
    three to six seats (hard took it for a gambler and paid its later raises with middling
    hands); its move differs from the one hard's reading makes only after the presser has bet
    after looking. (The rollouts are left out: they would move both alike.)"""
    monkeypatch.setattr(ExpertBot, "search", None)
    hards = replace(ExpertBot.level, loose_floor=HARD.loose_floor, gambler_floor=None)
    assert replace(hards, name="hard") == HARD
    stronger = changed = 0
    for deal in range(1000):
        for name, v, _ in _play(["blind_presser", "expert"], deal, chips=700):
            if name != "expert" or v.side_show is not None:
                continue
            assert expert_module.public_state(v, 1000) is None  # not the table's game
            now, before = ExpertBot(deal), ExpertBot(deal)
            before.level = hards
            if now.decide(v).kind is not before.decide(v).kind:
                assert _blind_raiser_looked(v)
                changed += 1
            for seat in _blind_raiser_looked(v):
                assert _mean_u(v, ExpertBot.level, seat) > _mean_u(v, HARD, seat) + 0.05
                stronger += 1
    assert stronger > 20 and changed > 10


def test_the_reading_presser_presses_blind_players_and_reads_every_bet_at_face_value() -> None:
    """While all the others still in are blind and the stake is under two boots it raises
    blind; after looking, while another player still in is blind, it raises every hand of
    ``PRESS_FROM`` or more; and it reads a blind raiser's bets after looking as anyone's."""
    blind_raises = seen_raises = read_stronger = 0
    for deal in range(100):
        for name, v, kind in _play(["reading_presser", "blind_presser", "station"], deal):
            if name != "reading_presser" or v.side_show is not None:
                continue
            you = v.seats[v.viewer or 0]
            others = [s for s in v.seats if s.dealt and not s.packed and s.seat != you.seat]
            can_raise = any(a.kind is ActionKind.RAISE for a in v.legal_actions)
            if not you.seen and not any(s.seen for s in others) and v.stake < 2 * v.boot:
                assert kind is ActionKind.RAISE or not can_raise
                blind_raises += can_raise
            elif you.seen and you.cards is not None and _others_blind(v) and can_raise:
                strong = heads_up_equity(you.cards, v.rules.ranking, v.wild) >= PRESS_FROM
                assert kind is ActionKind.RAISE or not strong
                seen_raises += strong
            for seat in _blind_raiser_looked(v):
                assert _mean_u(v, READING, seat) > _mean_u(v, HARD, seat) + 0.05
                read_stronger += 1
    assert blind_raises > 20 and seen_raises > 20 and read_stronger > 10
