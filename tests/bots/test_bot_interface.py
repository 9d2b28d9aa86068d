"""A computer player gets what a person in its seat would see, and nothing else.

* The views handed to bots hold no card their seat may not see.
* A bot's decision depends on its view alone: re-dealing every card the seat cannot see (the other
  hands and the rest of the deck) changes neither the view nor the decision.
* The built-in bots import only the public view API of the engine (never the hand state, the
  deck or the game), and no module that can reach into other objects (gc, inspect, ...).
* Anyone can write a bot and load it by import path.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from support.imports import imports, imports_of

from teenpatti.bots import BOTS, load_bot
from teenpatti.bots.base import DecidesActions
from teenpatti.bots.styles import STYLES
from teenpatti.engine import Action, ActionKind, Hand, HandView, Rules, can_see_cards, view

BOT_NAMES = ("random", "easy", "medium", "hard", "expert", *STYLES)
BOTS_DIR = Path(__file__).resolve().parents[2] / "teenpatti" / "bots"
ODDS = BOTS_DIR.parent / "odds.py"
BOT_MODULES = (
    "base.py",
    "easy.py",
    "medium.py",
    "hard.py",
    "strategy.py",
    "styles.py",
    "expert.py",
    "model.py",
    "search.py",
    "solver/game.py",
    "solver/cfr.py",
    "solver/tables.py",
    "solver/multiway.py",
    "solver/distill.py",
)
OWN_MODULES = {
    "teenpatti.odds",
    "teenpatti.bots.base",
    "teenpatti.bots.strategy",
    "teenpatti.bots.hard",
    "teenpatti.bots.expert",
    "teenpatti.bots.model",
    "teenpatti.bots.search",
    "teenpatti.bots.solver.game",
    "teenpatti.bots.solver.cfr",
    "teenpatti.bots.solver.tables",
    "teenpatti.bots.solver.multiway",
    "teenpatti.bots.solver.distill",
    "teenpatti.bots.solver.endgame",
}

ALLOWED_ENGINE = {
    "teenpatti.engine.actions",
    "teenpatti.engine.view",
    "teenpatti.engine.evaluate",
    "teenpatti.engine.cards",
    "teenpatti.engine.rules",
    "teenpatti.engine.bulk",
    "teenpatti.engine.prices",
}
SIMULATES = {
    "search.py": {"teenpatti.engine.hand", "teenpatti.engine.errors"},
    "solver/distill.py": {"teenpatti.engine.hand"},
}
"""Modules that build hands of their own from cards they drew (the rollout search): they may
import the hand itself, never being handed the real one (whether a decision depends on the view
alone is checked by re-dealing, below)."""
FORBIDDEN_STDLIB = {"gc", "inspect", "ctypes", "sys", "importlib", "builtins", "pickle"}


class Recorder:
    """Wraps a bot and keeps every view it was handed."""

    def __init__(self, bot: DecidesActions) -> None:
        self.bot = bot
        self.name = bot.name
        self.views: list[HandView] = []

    def decide(self, seen: HandView) -> Action:
        self.views.append(seen)
        return self.bot.decide(seen)


def _play(hand: Hand, bots: Sequence[DecidesActions]) -> list[tuple[int, int]]:
    """Play to the end; return (seat, moves so far) at every decision."""
    points = []
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        points.append((seat, len(hand.log)))
        hand.apply(bots[seat].decide(view(hand, seat)))
    return points


@pytest.mark.parametrize("preset", ["nepal", "club", "classic"])
def test_views_handed_to_bots_hold_only_visible_cards(preset: str) -> None:
    rules = Rules.from_options({"preset": preset})
    seats = 4
    checked = 0
    for deal in range(25):
        rng = random.Random(deal)
        bots = [Recorder(load_bot(rng.choice(BOT_NAMES), deal * 10 + s)) for s in range(seats)]
        hand = Hand(rules, [rules.starting_chips] * seats, deal % seats, seed=bytes([deal]) * 32)
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            handed = view(hand, seat)
            for s in handed.seats:
                if s.seat == seat:
                    assert (s.cards is not None) == (
                        hand.seen[seat] and hand.cards[seat] is not None
                    )
                else:
                    assert (s.cards is not None) == can_see_cards(hand, seat, s.seat)
                    if not hand.shown[s.seat]:
                        # only a partner in an accepted side show sees a hand before the end
                        assert s.cards is None or any(
                            {seat, s.seat} == set(pair) for pair in hand.side_shows
                        )
            assert not any(isinstance(value, Hand) for value in _fields(handed))
            hand.apply(bots[seat].decide(handed))
            checked += 1
    assert checked > 100


def _fields(handed: HandView) -> list[object]:
    return [getattr(handed, name) for name in HandView.__slots__]


def _redeal(hand: Hand, viewer: int, rng: random.Random) -> Hand:
    """The same hand for ``viewer``: its own cards (and any it was shown) kept, every other card
    re-dealt at random."""
    keep = {viewer}
    for a, b in hand.side_shows:
        keep.update((a, b))
    fixed = {c for s in keep if hand.cards[s] for c in hand.cards[s] or ()}
    if hand.wild is not None:
        fixed.add(hand.wild)
    pack = 54 if hand.rules.variant == "jokers" else 52
    free = [c for c in range(pack) if c not in fixed]
    rng.shuffle(free)
    cards: list[tuple[int, ...] | None] = []
    for s, held in enumerate(hand.cards):
        if held is None:
            cards.append(None)
        elif s in keep:
            cards.append(held)
        else:
            cards.append((free.pop(), free.pop(), free.pop()))
    return Hand(hand.rules, hand.start_chips, hand.dealer, cards, wild=hand.wild)


PER_DEAL = 30
"""Decisions compared in each hand at most."""


def _mismatches(
    make: Callable[[int], DecidesActions], rules: Rules, deals: int = 12
) -> tuple[int, int]:
    """Play hands; at every decision re-deal what the seat cannot see and ask a fresh copy of
    the bot again. Returns (decisions compared, decisions that changed)."""
    rng = random.Random(7)
    compared = changed = 0
    for deal in range(deals):
        seats = 3 + deal % 3
        seed = bytes([deal + 1]) * 32
        hand = Hand(rules, [rules.starting_chips] * seats, 0, seed=seed)
        players = [
            make(deal * 10 + s) if s % 2 == 0 else load_bot("medium", s) for s in range(seats)
        ]
        decisions = _play(hand, players)
        # Each comparison replays the hand so far twice: a long hand (blind players up to the
        # pot limit) is compared at PER_DEAL decisions spread from its first to its last, not
        # at all of them (the cost would grow with the square of its length).
        stride = max(1, -(-len(decisions) // PER_DEAL))
        for seat, moves in [*decisions[::stride], decisions[-1]]:
            replayed = Hand(rules, [rules.starting_chips] * seats, 0, seed=seed)
            for action in hand.log[:moves]:
                replayed.apply(action)
            mine = view(replayed, seat)
            first = make(99).decide(mine)
            other = _redeal(replayed, seat, rng)
            del replayed  # a bot that searched memory would find only the re-dealt hand
            for action in hand.log[:moves]:
                other.apply(action)
            if other.finished or other.actor != seat:
                continue  # an accepted side show went the other way: a different hand
            theirs = view(other, seat)
            assert mine == theirs
            second = make(99).decide(theirs)
            compared += 1
            changed += first != second
    return compared, changed


OPTIONS: list[dict[str, object]] = [
    {"preset": "nepal"},
    {"preset": "club", "variant": "wild_rank"},
    {"preset": "classic"},
]
"""The rules each bot is checked under; the expert (slow: it searches) under the first only in
scripts/test --fast, under all of them in the full run."""


@pytest.mark.parametrize(
    ("name", "options"),
    [
        pytest.param(
            name,
            options,
            marks=[pytest.mark.slow] if name == "expert" and i else [],
            id=f"options{i}-{name}",
        )
        for i, options in enumerate(OPTIONS)
        for name in BOT_NAMES
    ],
)
def test_decisions_depend_on_the_view_alone(name: str, options: dict[str, object]) -> None:
    compared, changed = _mismatches(lambda seed: load_bot(name, seed), Rules.from_options(options))
    assert compared > 50
    assert changed == 0


class Cheat:
    """Finds the hand in its callers' variables and packs unless it holds the best cards: what
    the checks catch. (It looks up the call stack, not through every object in the process: the
    same cheat, at a cost that does not grow with the test run's heap.)"""

    name = "cheat"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def decide(self, seen: HandView) -> Action:
        import sys

        seat = seen.viewer
        assert seat is not None
        legal = {a.kind: a for a in seen.legal_actions}
        found, frame = [], sys._getframe(1)
        while frame is not None:
            found += [v for v in frame.f_locals.values() if isinstance(v, Hand)]
            frame = frame.f_back
        hands = [h for h in found if not h.finished and h.log == list(seen.actions)]
        if ActionKind.ACCEPT in legal:
            return legal[ActionKind.ACCEPT].action(seat)
        best = (
            hands
            and max((h.strength[s], s) for h in hands[-1:] for s in range(h.seats) if h.live[s])[1]
            == seat
        )
        if best and ActionKind.CHAAL in legal:
            return legal[ActionKind.CHAAL].action(seat)
        if ActionKind.PACK in legal:
            return legal[ActionKind.PACK].action(seat)
        return seen.legal_actions[0].action(seat)


def test_the_independence_check_catches_a_bot_that_reads_hidden_cards() -> None:
    compared, changed = _mismatches(Cheat, Rules(), deals=3)
    assert compared > 5
    assert changed > 0


@pytest.mark.parametrize("module", [*BOT_MODULES, "odds"])
def test_bots_import_only_the_public_view_api(module: str) -> None:
    """Within the layers tests/test_layers.py holds (the bots on the engine alone), which parts
    of the engine."""
    path = ODDS if module == "odds" else BOTS_DIR / module
    for name in imports_of(path):
        root = name.split(".")[0]
        assert root not in FORBIDDEN_STDLIB or (module == "base.py" and name == "importlib"), name
        if name.startswith("teenpatti.engine"):
            allowed = ALLOWED_ENGINE | SIMULATES.get(module, set())
            assert name in allowed, f"{module} imports {name}"
        elif name.startswith("teenpatti."):
            assert name in OWN_MODULES, f"{module} imports {name}"


def test_the_import_check_can_fail() -> None:
    found = imports("from ..engine.hand import Hand\nimport gc\n", "teenpatti.bots.spy")
    assert "teenpatti.engine.hand" in found and "gc" in found


EXAMPLE = '''
"""A bot anyone could write: chaal while the stake is low, else pack."""
from teenpatti.bots import Bot
from teenpatti.engine import Action, ActionKind, HandView


class Cautious(Bot):
    name = "cautious"

    def decide(self, view: HandView) -> Action:
        seat = view.viewer
        assert seat is not None  # a spectator is never asked
        legal = {a.kind: a for a in view.legal_actions}
        if ActionKind.ACCEPT in legal:
            return legal[ActionKind.DECLINE].action(seat)
        if ActionKind.CHAAL in legal and view.stake <= 2 * view.boot:
            return legal[ActionKind.CHAAL].action(seat)
        if ActionKind.PACK in legal:
            return legal[ActionKind.PACK].action(seat)
        return view.legal_actions[0].action(seat)
'''


def test_a_bot_loads_by_import_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "my_bots.py").write_text(EXAMPLE)
    monkeypatch.syspath_prepend(str(tmp_path))
    bot = load_bot("my_bots:Cautious", 1)
    assert bot.name == "cautious"
    hand = Hand(Rules(), [1000, 1000, 1000], 0, seed=bytes(32))
    players = [bot, load_bot("hard", 2), load_bot("easy", 3)]
    _play(hand, players)
    assert hand.finished
    with pytest.raises(ValueError):
        load_bot("my_bots:Nothing")
    with pytest.raises(ValueError):
        load_bot("no-such-bot")


def test_built_in_bots_are_registered() -> None:
    for name in BOT_NAMES:
        assert name in BOTS
        assert load_bot(name, 1).name == name
        if name in STYLES:
            path = f"teenpatti.bots.styles:{STYLES[name].__name__}"
        else:
            path = f"teenpatti.bots.{'base' if name == 'random' else name}:{name.title()}Bot"
        assert load_bot(path, 1).name == name


def test_a_seat_asked_to_answer_a_side_show_gets_accept_or_decline() -> None:
    from teenpatti.engine import parse_cards

    rules = Rules()
    cards = [parse_cards("As Ad Ac"), parse_cards("Kh Qh Jh"), parse_cards("2c 3d 5h")]
    for name in BOT_NAMES:
        hand = Hand(rules, [1000] * 3, 0, cards)
        # seat 2 acts first (anticlockwise from dealer 0), then 1, then 0
        hand.see(2)
        hand.chaal(2)
        hand.see(1)
        hand.chaal(1)
        hand.see(0)
        hand.side_show_ask(0)  # asks seat 1, the previous player
        seat = hand.actor
        assert seat == 1
        action = load_bot(name, 5).decide(view(hand, seat))
        assert action.kind in (ActionKind.ACCEPT, ActionKind.DECLINE)
        hand.apply(action)
