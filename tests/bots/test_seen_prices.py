"""A blind computer player values the moves it would have once it has seen at the engine's
prices: the position ``strategy`` builds for it equals what the engine offers after ``see``."""

from __future__ import annotations

import random

import pytest

from teenpatti.bots.hard import HARD
from teenpatti.bots.strategy import _as_seen, read
from teenpatti.engine import ActionKind, Hand, Rules, view

KINDS = (ActionKind.CHAAL, ActionKind.RAISE, ActionKind.SHOW, ActionKind.PACK)


@pytest.mark.parametrize("preset", ["nepal", "duo", "classic", "club", "limited"])
@pytest.mark.parametrize(
    "option", [{}, {"show_seen_vs_blind": "quadruple"}, {"show_cost": "double"}]
)
def test_a_blind_players_seen_position_has_the_engines_prices(
    preset: str, option: dict[str, str]
) -> None:
    rules = Rules.from_options({"preset": preset, **option})
    rng = random.Random(f"{preset} {option}")
    checked = 0
    for deal in range(40):
        seats = max(rules.min_players, 2 if deal % 2 else min(3, rules.max_players))
        chips = rng.choice([rules.starting_chips, rules.boot * 9])
        hand = Hand(rules, [chips] * seats, dealer=0, seed=rng.randbytes(32))
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            options = hand.legal_actions(seat)
            kinds = {a.kind for a in options}
            if ActionKind.SEE in kinds and hand.side_show is None:
                seen_view = view(hand, seat)
                position = _as_seen(read(seen_view, HARD), seen_view.pot, seen_view.you.chips)
                replay = Hand(rules, [chips] * seats, dealer=0, seed=hand.seed)
                for x in hand.log:  # the hand after this seat looks: a copy
                    replay.apply(x)
                replay.see(seat)
                engine = {
                    a.kind: (a.cost, a.max_cost)
                    for a in replay.legal_actions(seat)
                    if a.kind in KINDS
                }
                mine = {k: (a.cost, a.max_cost) for k, a in position.legal.items()}
                assert mine == engine, (deal, hand.log)
                checked += 1
            weights = [0.3 if a.kind is ActionKind.SEE else 1.0 for a in options]
            hand.apply(rng.choices(options, weights)[0].action(seat))
    assert checked > 40
