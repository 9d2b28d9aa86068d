"""The solver: the abstract game follows the engine, CFR+ converges, the shipped table is its own.

* Random walks through the abstract heads-up game, replayed in the engine, offer the same moves
  and end with the same chips.
* On a small game with three hand classes, CFR+ drives the exploitability (measured by the best
  response) towards zero, and the best response finds a lot against a uniform strategy.
* The shipped table of our table has exactly the solver's states, puts its weight on legal moves
  only, and the expert draws its heads-up moves from it.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from teenpatti.bots import load_bot
from teenpatti.bots.expert import public_state, table_for
from teenpatti.bots.solver.cfr import exploitability, game_value, solve
from teenpatti.bots.solver.game import ACTIONS, Buckets, build_abstraction
from teenpatti.bots.solver.tables import load, state_rows
from teenpatti.engine import ActionKind, Hand, Rules, view


def _three_classes() -> Buckets:
    """Three equally likely hand classes, the higher always wins, equal ones tie."""
    joint = np.full((3, 3), 1 / 9)
    a, b = np.indices((3, 3))
    return Buckets(joint, joint * (a > b), joint * (a == b))


@pytest.mark.parametrize("preset", ["nepal", "duo"])
def test_the_abstract_game_follows_the_engine(preset: str) -> None:
    rules = Rules.from_options({"preset": preset, "pot_limit_boots": 12})
    chips = 9 if preset == "duo" else None  # short stacks at duo: all in comes up
    game = build_abstraction(rules, chips=chips)
    stack = game.chips * rules.boot
    rng = random.Random(preset)
    for walk in range(60):
        hand = Hand(rules, [stack, stack], dealer=1, seed=rng.randbytes(32))
        assert hand.first == 0
        state = 0
        while True:
            seat = hand.actor
            assert seat is not None
            engine = {a.kind.value for a in hand.legal_actions(seat)}
            moves = {ACTIONS[a] for a in np.nonzero(game.child[state] != -1)[0]}
            assert moves == engine, (walk, game.states[state])
            move = rng.choice(sorted(moves))
            a = ACTIONS.index(move)
            hand.apply(
                hand.legal_actions(seat)[
                    [x.kind.value for x in hand.legal_actions(seat)].index(move)
                ].action(seat)
            )
            if game.child[state, a] >= 0:
                state = int(game.child[state, a])
                assert not hand.finished
                continue
            assert hand.finished
            won = hand.chips[0] - stack
            strength = hand.strength
            if game.fold[state, a] or strength[0] > strength[1]:
                expected = game.gain[state, a]
            elif strength[0] < strength[1]:
                expected = -game.loss[state, a]
            else:
                expected = game.split[state, a]
            assert won == pytest.approx(expected * rules.boot), (walk, move)
            break


def test_cfr_plus_converges_and_the_best_response_can_tell() -> None:
    rules = Rules()
    game = build_abstraction(rules, chips=6)
    hands = _three_classes()
    uniform = (game.child != -1).astype(float)[:, :, None] * np.ones(3)
    uniform /= uniform.sum(axis=1, keepdims=True)
    loose = exploitability(game, hands, uniform)
    early = exploitability(game, hands, solve(game, hands, 20).policy)
    solved = solve(game, hands, 400).policy
    late = exploitability(game, hands, solved)
    assert loose > 0.5
    assert late < early < loose
    assert late < 0.05
    # a game of two equal seats: the value is small and the same whichever seat is measured
    assert abs(game_value(game, hands, solved)) < 0.5


def test_the_shipped_table_is_the_solvers() -> None:
    table = load("nepal")
    assert table is not None
    rules = Rules()
    assert table_for(rules) is table
    assert table_for(Rules.from_options({"bets": "range"})) is None
    game = build_abstraction(rules)
    assert len(table.index) == game.size
    assert np.array_equal(
        state_rows(game),
        np.array(
            [[*s.put, s.stake, *s.seen, s.turn, s.bet_made, *s.blind_turns] for s in table.index],
            dtype=np.int16,
        ),
    )
    legal = game.child != -1
    assert not table.policy[~legal].any()
    sums = table.policy.astype(int).sum(axis=1)
    assert sums.min() >= 250 and sums.max() <= 260
    # blind rows do not depend on the hand
    blind = np.array([not s.seen[s.turn] for s in game.states])
    rows = table.policy[blind].astype(int)
    assert (rows == rows[:, :, :1]).all()


def test_the_expert_draws_its_heads_up_moves_from_the_table() -> None:
    table = load("nepal")
    assert table is not None
    rules = Rules()
    rng = random.Random(4)
    checked = 0
    for deal in range(20):
        hand = Hand(rules, [1000, 1000], dealer=deal % 2, seed=rng.randbytes(32))
        bot = load_bot("expert", deal)
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            seen = view(hand, seat)
            action = bot.decide(seen)
            found = public_state(seen, table.chips)
            assert found is not None
            state, player = found
            if state.seen[1 - player]:  # against a seen player the table decides
                row = table.index[state]
                weights = table.policy[row, ACTIONS.index(action.kind.value)]
                assert weights.max() > 0
                checked += action.kind is not ActionKind.SEE
            hand.apply(action)
    assert checked > 10
