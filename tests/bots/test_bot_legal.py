"""Every built-in bot returns only legal actions, under every preset and a spread of options.

Each bot plays mixed tables (with the other bots, the random one included, so that odd
situations come up), also with short stacks so that all in is offered, and every move it returns
must be one of the legal actions its view listed (kind, amount within the range, a listed target)
and pass the engine's own check.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from teenpatti.bots import load_bot
from teenpatti.bots.styles import STYLES
from teenpatti.engine import Action, ActionKind, Hand, HandView, IllegalAction, Rules, view

BOT_NAMES = ("random", "easy", "medium", "hard", "expert", *STYLES, "reading_presser")

OPTIONS: list[dict[str, Any]] = [
    {},
    {"bets": "range"},
    {"blind_turns_max": 2},
    {"blind_turns_max": 1, "bets": "range"},
    {"see_anytime": True},
    {"sideshow": "any_seen"},
    {"sideshow": "off"},
    {"sideshow_all_seen": True},
    {"show_after_bet": True},
    {"show_seen_vs_blind": "quadruple", "show_cost": "double"},
    {"show_tie": "split"},
    {"stake_cap_boots": None, "pot_limit_boots": None},
    {"stake_cap_boots": 2, "pot_limit_boots": 12},
    {"a23": "lowest", "suits_break_ties": True, "two_three_five": True},
    {"variant": "muflis"},
    {"variant": "ak47"},
    {"variant": "jokers"},
    {"variant": "wild_rank"},
    {"variant": "muflis", "bets": "range", "sideshow": "any_seen"},
]
PRESETS = ("nepal", "classic", "club", "duo", "limited")


def _rules(preset: str, options: dict[str, Any]) -> Rules | None:
    try:
        return Rules.from_options({"preset": preset, **options})
    except Exception:  # an option this preset refuses (e.g. sideshow_all_seen with sideshow off)
        return None


def _is_listed(action: Action, seen: HandView) -> bool:
    for option in seen.legal_actions:
        if option.kind is not action.kind:
            continue
        if action.amount is not None and not option.cost <= action.amount <= option.max_cost:
            continue
        if action.kind is ActionKind.SIDESHOW:
            if action.target is not None and action.target not in option.targets:
                continue
        elif action.target is not None and action.target not in option.targets:
            continue
        return True
    return False


def _play_checked(hand: Hand, names: list[str], seed: int) -> int:
    bots = [load_bot(name, seed * 17 + s) for s, name in enumerate(names)]
    moves = 0
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        seen = view(hand, seat)
        action = bots[seat].decide(seen)
        assert action.seat == seat, (names[seat], action)
        assert _is_listed(action, seen), (names[seat], action, seen.legal_actions)
        try:
            hand.verify(action)
        except IllegalAction as error:  # pragma: no cover - the message is the point
            pytest.fail(f"{names[seat]} played {action}: {error.code} {error.reason}")
        hand.apply(action)
        moves += 1
        assert moves < 5000
    return moves


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize(
    "options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults"
)
def test_bots_play_only_legal_actions(preset: str, options: dict[str, Any]) -> None:
    rules = _rules(preset, options)
    if rules is None:
        pytest.skip("this preset refuses the option")
    rng = random.Random(f"{preset}/{sorted(options.items())}")
    moves = 0
    for deal in range(12):
        seats = rng.randint(rules.min_players, min(rules.max_players, 6))
        names = [BOT_NAMES[(deal * 3 + s) % len(BOT_NAMES)] for s in range(seats)]
        if deal % 4 == 3:  # short stacks: all in comes up
            chips = [
                rng.choice((rules.boot, rules.boot * 3, rules.boot * 9, rules.starting_chips))
                for _ in range(seats)
            ]
        else:
            chips = [rules.starting_chips] * seats
        hand = Hand(rules, chips, deal % seats, seed=rng.randbytes(32))
        moves += _play_checked(hand, names, deal)
    assert moves > 0


@pytest.mark.parametrize("name", BOT_NAMES)
def test_each_bot_alone_against_itself_many_hands(name: str) -> None:
    """Whole tables of one bot (so that its own lines meet), at every seat count."""
    rules = Rules()
    rng = random.Random(name)
    for deal in range(30):
        seats = 2 + deal % 5
        hand = Hand(rules, [rules.starting_chips] * seats, deal % seats, seed=rng.randbytes(32))
        _play_checked(hand, [name] * seats, deal)


def test_the_check_catches_an_illegal_move() -> None:
    hand = Hand(Rules(), [1000, 1000], 0, seed=bytes(32))
    seen = view(hand, hand.actor or 0)
    assert not _is_listed(Action(seen.viewer or 0, ActionKind.SIDESHOW, None, 1), seen)
    assert not _is_listed(Action(seen.viewer or 0, ActionKind.ACCEPT), seen)
