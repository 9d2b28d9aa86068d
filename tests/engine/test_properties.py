"""Properties of the engine over random hands and games (hypothesis).

Random hands come from a preset, a few house-rule options, a seat count, stacks (small and empty
ones included), a dealer, a 32-byte seed and a list of choices that drive play. The properties:
chips are conserved; no view shows a card its seat may not see; replaying an exported hand gives
the same result; every offered action is accepted and every other one refused without a change;
and a game moves the deal, sits out empty seats, ends when it should and shares places.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support.properties import examples

from teenpatti.engine import (
    PRESETS,
    Action,
    ActionKind,
    Game,
    Hand,
    IllegalAction,
    LegalAction,
    Rules,
    export,
    replay,
    view,
)

K = ActionKind

HAND_SETTINGS = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

OPTION_CHOICES: list[tuple[str, list[Any]]] = [
    ("direction", ["anticlockwise", "clockwise"]),
    ("bets", ["double", "range"]),
    ("stake_cap_boots", [None, 1, 2, 4, 8]),
    ("pot_limit_boots", [None, 3, 5, 12, 40, 100]),
    ("blind_turns_max", [None, 1, 2, 3]),
    ("see_anytime", [False, True]),
    ("show_after_bet", [False, True]),
    ("show_seen_vs_blind", ["forbidden", "allowed", "quadruple"]),
    ("show_cost", ["chaal", "double"]),
    ("show_tie", ["asker_loses", "split"]),
    ("sideshow", ["previous", "any_seen", "off"]),
    ("sideshow_all_seen", [False, True]),
    ("suits_break_ties", [False, True]),
    ("variant", ["standard", "muflis", "ak47", "jokers", "wild_rank", "fixed_rank"]),
    ("muflis", [False, True]),
    ("fixed_rank", ["2", "7", "A"]),
    ("range_max_stakes", [2, 3, 4]),
    ("all_in", ["showdown", "two_left"]),
]


@st.composite
def rules_strategy(draw: st.DrawFn) -> Rules:
    name = draw(st.sampled_from(sorted(PRESETS)))
    options: dict[str, Any] = {"preset": name}
    if name == "nepal":
        options["boot"] = draw(st.sampled_from([5, 10, 20, 50]))
    else:
        options["boot"] = draw(st.sampled_from([1, 2, 3, 5, 10, 50]))
    for key, values in OPTION_CHOICES:
        if draw(st.integers(0, 2)) == 0:
            options[key] = draw(st.sampled_from(values))
    base = PRESETS[name]
    if options.get("sideshow", base.sideshow) == "off":
        options["sideshow_all_seen"] = False
    if options.get("bets", base.bets) != "range":
        options.pop("range_max_stakes", None)
    if options.get("variant", base.variant) != "fixed_rank":
        options.pop("fixed_rank", None)
    if options.get("all_in", base.all_in) == "two_left":  # no pot limit without a showdown
        options["pot_limit_boots"] = None
    return Rules.from_options(options)


@dataclass
class Spec:
    rules: Rules
    chips: list[int]
    dealer: int
    seed: bytes
    choices: list[int]

    def hand(self) -> Hand:
        return Hand(self.rules, self.chips, self.dealer, seed=self.seed)


@st.composite
def specs(draw: st.DrawFn, max_choices: int = 60) -> Spec:
    rules = draw(rules_strategy())
    boot = rules.boot
    seats = draw(st.integers(rules.min_players, min(rules.max_players, 8)))
    chips: list[int] = []
    for _ in range(seats):
        # Mostly full stacks; now and then an empty seat, a stack short of the boot, a small one.
        kind = draw(st.integers(0, 24))
        if kind < 2:
            chips.append(0)
        elif kind == 2:
            chips.append(draw(st.integers(1, boot)))
        elif kind < 6:
            chips.append(draw(st.integers(boot + 1, 4 * boot)))
        elif kind < 13:
            chips.append(draw(st.integers(4 * boot, 40 * boot)))
        else:
            chips.append(rules.starting_chips)
    assume(sum(1 for c in chips if c > 0) >= 2)
    dealer = draw(st.integers(0, seats - 1))
    seed = draw(st.binary(min_size=32, max_size=32))
    length = draw(st.integers(0, max_choices))
    choices = draw(st.lists(st.integers(0, 2**20), min_size=length, max_size=length))
    return Spec(rules, chips, dealer, seed, choices)


# --------------------------------------------------------------------- helpers
def expand(seat: int, legal: list[LegalAction]) -> list[Action]:
    """Every action that takes an offered option: range amounts and every side-show target."""
    out: list[Action] = []
    for option in legal:
        if option.kind is K.CHAAL and option.max_cost > option.cost:
            out.append(Action(seat, option.kind))
            middle = (option.cost + option.max_cost) // 2
            out.extend(
                Action(seat, option.kind, amount)
                for amount in sorted({option.cost, middle, option.max_cost})
            )
        elif option.kind is K.SIDESHOW:
            out.extend(Action(seat, option.kind, None, target) for target in option.targets)
        else:
            out.append(Action(seat, option.kind))
    return out


def offered(hand: Hand) -> list[Action]:
    """What every seat may do now."""
    return [a for s in range(hand.seats) for a in expand(s, hand.legal_actions(s))]


WEIGHTS = {K.PACK: 1, K.SEE: 5, K.SIDESHOW: 8}


def pick(hand: Hand, choice: int) -> Action:
    """An offered action, chosen by ``choice``; packing is made less likely than other moves,
    seeing and side shows more likely (to reach side shows and shows often)."""
    actions = offered(hand)
    assert actions, "an unfinished hand must offer something"
    weighted = [a for a in actions for _ in range(WEIGHTS.get(a.kind, 3))]
    return weighted[choice % len(weighted)]


def state(hand: Hand) -> dict[str, Any]:
    """A snapshot of every attribute (lists copied) and of what the hand reports."""
    out = {
        k: list(v) if isinstance(v, list) else v for k, v in vars(hand).items() if k != "evaluator"
    }
    out["result"] = hand.result().to_json()
    return out


def matches(hand: Hand, action: Action) -> bool:
    """Whether ``action`` takes one of the options offered to its seat."""
    if not 0 <= action.seat < hand.seats:
        return False
    for option in hand.legal_actions(action.seat):
        if option.kind != action.kind:
            continue
        if action.kind is K.CHAAL:
            amount_ok = action.amount is None or option.cost <= action.amount <= option.max_cost
        else:
            amount_ok = action.amount is None
        if action.kind is K.SIDESHOW:
            target_ok = action.target in option.targets or (
                action.target is None and hand.rules.sideshow == "previous"
            )
        else:
            target_ok = action.target is None
        if amount_ok and target_ok:
            return True
    return False


def play(spec: Spec, check: Callable[[Hand, Action | None], None] | None = None) -> Hand:
    """Play the choices (or until the hand ends), calling ``check`` before and after each move."""
    hand = spec.hand()
    if check:
        check(hand, None)
    for choice in spec.choices:
        if hand.finished:
            break
        action = pick(hand, choice)
        hand.apply(action)
        if check:
            check(hand, action)
    return hand


# --------------------------------------------------------------------- (1) chips are conserved
@HAND_SETTINGS
@given(specs())
def test_chips_are_conserved_in_a_hand(spec: Spec) -> None:
    total = sum(spec.chips)

    def check(hand: Hand, _: Action | None) -> None:
        assert sum(hand.chips) + hand.pot == total
        assert all(c >= 0 for c in hand.chips)
        if not hand.finished:
            assert [c + p for c, p in zip(hand.chips, hand.contributed, strict=True)] == spec.chips
            assert hand.pot == sum(hand.contributed)
        else:
            assert hand.pot == 0
            assert sum(p.amount for p in hand.pots) == sum(hand.contributed)
            assert sum(hand.won) == sum(hand.contributed)
            assert all(p.winners for p in hand.pots)
            assert all(set(p.winners) <= set(hand.players_in) for p in hand.pots)
        for s in range(hand.seats):
            if spec.chips[s] == 0:
                assert hand.chips[s] == 0 and hand.contributed[s] == 0

    play(spec, check)


# --------------------------------------------------------------------- (1b) who may be asked
BETS = (K.CHAAL, K.RAISE, K.ALLIN, K.SIDESHOW)


@settings(HAND_SETTINGS, max_examples=examples(150))
@given(specs())
def test_side_shows_ask_only_a_player_whose_bet_came_before(spec: Spec) -> None:
    """Every side show offered names players still in and seen who have bet this hand (by the
    log: a chaal, raise, all in or side show of their own); under ``previous``, exactly the
    previous player still in. And without a showdown among three or more (``two_left``), no
    hand ever shows more than two hands."""

    def check(hand: Hand, _: Action | None) -> None:
        if hand.finished:
            if hand.rules.all_in == "two_left":
                assert sum(hand.shown) <= 2
            return
        bettors = {a.seat for a in hand.log if a.kind in BETS}
        for seat in range(hand.seats):
            for option in hand.legal_actions(seat):
                if option.kind is not K.SIDESHOW:
                    continue
                assert option.targets
                for target in option.targets:
                    assert target in bettors and hand.live[target] and hand.seen[target]
                if hand.rules.sideshow == "previous":
                    assert option.targets == (hand.previous_in(seat),)

    play(spec, check)


# --------------------------------------------------------------------- (2) no view leaks a card
@dataclass
class Seen:
    """Our own record of what happened in a hand, to decide what each seat may see."""

    in_hand: set[int]
    looked: set[int] = field(default_factory=set)
    pairs: list[tuple[int, int]] = field(default_factory=list)
    pending: tuple[int, int] | None = None

    def record(self, hand: Hand, action: Action, recorded: Action) -> None:
        seat, kind = action.seat, action.kind
        if kind is K.SEE:
            self.looked.add(seat)
        elif kind is K.PACK:
            self.in_hand.discard(seat)
        elif kind is K.SIDESHOW:
            assert recorded.target is not None
            self.pending = None if hand.finished else (seat, recorded.target)
        elif kind is K.ACCEPT:
            assert self.pending is not None
            asker, asked = self.pending
            self.pairs.append((asker, asked))
            cards_asker, cards_asked = hand.cards[asker], hand.cards[asked]
            assert cards_asker is not None and cards_asked is not None
            better = hand.evaluator.compare(cards_asker, cards_asked, hand.wild)
            self.in_hand.discard(asked if better > 0 else asker)
            self.pending = None
        elif kind is K.DECLINE:
            self.pending = None

    def visible(self, hand: Hand, viewer: int | None) -> set[int]:
        out: set[int] = set()
        if hand.finished and hand.ended_by != "last_player":
            out |= self.in_hand
        if viewer is not None and hand.dealt[viewer]:
            if viewer in self.looked or hand.finished:
                out.add(viewer)
            for a, b in self.pairs:
                if viewer in (a, b):
                    out |= {a, b}
        return out


def check_views(hand: Hand, seen: Seen) -> None:
    assert set(hand.players_in) == seen.in_hand
    for viewer in [None, *range(hand.seats)]:
        shown = view(hand, viewer)
        allowed = seen.visible(hand, viewer)
        for seat_view in shown.seats:
            s = seat_view.seat
            if s in allowed:
                assert seat_view.cards == hand.cards[s], (viewer, s)
            else:
                assert seat_view.cards is None, (viewer, s)
        if viewer is None:
            assert shown.legal_actions == ()
        else:
            assert list(shown.legal_actions) == hand.legal_actions(viewer)
            if not hand.finished and viewer not in seen.looked:
                assert shown.seats[viewer].cards is None  # a blind player sees nothing


@HAND_SETTINGS
@given(specs())
def test_no_view_shows_a_card_its_seat_may_not_see(spec: Spec) -> None:
    hand = spec.hand()
    seen = Seen({s for s in range(hand.seats) if spec.chips[s] > 0})
    check_views(hand, seen)
    for choice in spec.choices:
        if hand.finished:
            break
        action = pick(hand, choice)
        recorded = hand.apply(action)
        seen.record(hand, action, recorded)
        check_views(hand, seen)


# --------------------------------------------------------------------- (3) replay
@HAND_SETTINGS
@given(specs())
def test_replaying_an_export_gives_the_same_result(spec: Spec) -> None:
    hand = play(spec)
    exported = export(hand)
    assert exported["result"] == hand.result().to_json()
    # The deck's seed is revealed only once the hand is over; its commitment is always there.
    assert ("seed" in exported) == hand.finished
    assert "commitment" in exported
    assert replay(exported) == hand.result()
    # Through JSON text, as a file holds it, and without our own extra fields.
    text = json.loads(json.dumps(exported))
    for extra in ("result", "seed", "commitment"):
        text.pop(extra, None)
    assert replay(text) == hand.result()


# --------------------------------------------------------------------- (4) offered vs refused
KINDS = list(ActionKind)


@HAND_SETTINGS
@given(specs(max_choices=40), st.randoms(use_true_random=False))
def test_offered_actions_are_accepted_and_others_refused(spec: Spec, rnd: random.Random) -> None:
    def check(hand: Hand, _: Action | None) -> None:
        before = state(hand)
        for action in offered(hand):
            cost = hand.verify(action)
            assert 0 <= cost <= hand.chips[action.seat]
            if action.kind is K.CHAAL and action.amount is not None:
                assert cost == action.amount
            assert matches(hand, action)
        assert state(hand) == before
        n = hand.seats
        for _attempt in range(6):
            stake = hand.stake
            amounts = [None, None, 0, -1, 1, stake, stake + 1, *(k * stake for k in (2, 3, 4, 8))]
            action = Action(
                rnd.randrange(-1, n + 1),
                rnd.choice(KINDS),
                rnd.choice(amounts),
                rnd.choice([None, None, *range(-1, n + 1)]),
            )
            if matches(hand, action):
                assert hand.can(action), action
                continue
            try:
                hand.verify(action)
            except IllegalAction as error:
                assert error.code and error.reason
            else:
                raise AssertionError(f"{action} accepted but not offered")
            try:
                hand.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} applied but not offered")
            assert state(hand) == before

    play(spec, check)


# --------------------------------------------------------------------- (5) games
@st.composite
def games(draw: st.DrawFn) -> tuple[Rules, int, bytes, int]:
    name = draw(st.sampled_from(["nepal", "classic", "club", "duo", "limited"]))
    if name == "nepal":
        rules = Rules.from_options(
            {"hands": 10, "boot": draw(st.sampled_from([20, 50])), "starting_chips": 200}
        )
    else:
        boot = draw(st.integers(1, 10))
        options: dict[str, Any] = {
            "preset": name,
            "boot": boot,
            "hands": draw(st.integers(1, 8)),
            "starting_chips": boot * draw(st.sampled_from([1, 3, 5, 8, 12, 20])),
        }
        if draw(st.booleans()):
            options["direction"] = draw(st.sampled_from(["anticlockwise", "clockwise"]))
        rules = Rules.from_options(options)
    players = draw(st.integers(rules.min_players, min(rules.max_players, 6)))
    seed = draw(st.binary(min_size=32, max_size=32))
    policy = draw(st.integers(0, 2**32))
    return rules, players, seed, policy


def next_dealer(chips: list[int], dealer: int, step: int) -> int:
    n = len(chips)
    return next(
        (dealer + step * k) % n for k in range(1, n + 1) if chips[(dealer + step * k) % n] > 0
    )


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_game(game_spec: tuple[Rules, int, bytes, int]) -> None:
    rules, players, seed, policy = game_spec
    rnd = random.Random(policy)
    game = Game(rules, [f"P{i}" for i in range(players)], seed)
    total = players * rules.starting_chips
    step = -1 if rules.direction == "anticlockwise" else 1
    assert game.dealer == 0
    while not game.finished:
        chips_before = list(game.chips)
        dealer = game.dealer
        hand = game.start_hand()
        assert hand.dealer == dealer
        assert hand.dealt == [c > 0 for c in chips_before]
        assert all((c is None) == (chips_before[s] == 0) for s, c in enumerate(hand.cards))
        moves = 0
        while not hand.finished:
            action = pick(hand, rnd.randrange(2**20))
            if moves > 300:  # a long hand: pack where possible, so that it ends
                action = next((a for a in offered(hand) if a.kind is K.PACK), action)
            game.apply(action)
            moves += 1
            assert sum(hand.chips) + hand.pot == total
        assert game.chips == hand.chips
        assert sum(game.chips) == total
        assert game.dealer == next_dealer(game.chips, dealer, step)
    assert game.hands_played <= rules.hands
    holders = sum(1 for c in game.chips if c > 0)
    assert game.hands_played == rules.hands or holders == 1
    if game.hands_played < rules.hands:
        assert holders == 1
    assert len(game.histories) == game.hands_played
    for history in game.histories:
        assert replay(history).to_json() == history["result"]
    standings = game.standings()
    assert sorted(s.seat for s in standings) == list(range(players))
    assert [s.chips for s in standings] == sorted(game.chips, reverse=True)
    for s in standings:
        assert s.chips == game.chips[s.seat]
        assert s.name == f"P{s.seat}"
        assert s.place == 1 + sum(1 for c in game.chips if c > s.chips)
