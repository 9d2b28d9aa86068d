"""The solver: the abstract game follows the engine, CFR+ converges, the shipped table is its own.

* Random walks through the abstract heads-up game, replayed in the engine, offer the same moves
  and end with the same chips.
* Kuhn poker, written as an abstract game: CFR+ finds its value (-1/18 for the first player) and
  the best response agrees with a brute-force search over every pure answer.
* On a small game with three hand classes, CFR+ drives the exploitability (measured by the best
  response) towards zero, and the best response finds a lot against a uniform strategy.
* Merging paths that differ in when a player saw (the abstraction of earlier versions) stalls:
  measured by a best response on the tree of every history, the merged game's strategy stays
  exploitable where the one keeping when each player saw converges.
* The shipped table of our table has exactly the solver's states, puts its weight on legal moves
  only, and the expert draws its heads-up moves from it.
"""

from __future__ import annotations

import itertools
import random
import re
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from teenpatti.bots.expert import ExpertBot, public_state, table_for
from teenpatti.bots.solver.cfr import (
    Progress,
    _Game,
    best_response,
    exploitability,
    game_value,
    solve,
)
from teenpatti.bots.solver.game import (
    ACTIONS,
    CHAAL,
    PACK,
    RAISE,
    Abstraction,
    Buckets,
    State,
    bucket_of,
    buckets,
    build_abstraction,
    pair_counts,
)
from teenpatti.bots.solver.tables import load, measure, state_rows, stored_policy
from teenpatti.engine import Hand, Rules, parse_cards, view
from teenpatti.engine.bulk import strength_array
from teenpatti.odds import heads_up_equity

TREMBLING = ["duo"]
"""The presets whose shipped table was solved with a tremble."""


def _classes(n: int = 3) -> Buckets:
    """``n`` equally likely hand classes, the higher always wins, equal ones tie."""
    joint = np.full((n, n), 1 / n**2)
    a, b = np.indices((n, n))
    return Buckets(joint, joint * (a > b), joint * (a == b))


def _three_classes() -> Buckets:
    return _classes(3)


def _kuhn() -> tuple[Abstraction, Buckets]:
    """Kuhn poker: ante 1, one bet of 1; ``chaal`` checks or calls, ``raise`` bets, ``pack``
    folds. Cards J, Q, K dealt without replacement."""
    seen = (True, True)
    states = [
        State((1, 1), 1, seen, 0, False, (0, 0)),  # first to act
        State((1, 1), 1, seen, 1, False, (0, 0)),  # after a check
        State((2, 1), 1, seen, 1, True, (0, 0)),  # after a bet
        State((2, 1), 1, seen, 0, True, (0, 0)),  # check, then a bet
    ]
    n, a = len(states), len(ACTIONS)
    child = np.full((n, a), -1, dtype=np.int32)
    gain, loss, split = np.zeros((n, a)), np.zeros((n, a)), np.zeros((n, a))
    fold = np.zeros((n, a), dtype=bool)
    child[0, CHAAL], child[0, RAISE] = 1, 2
    child[1, CHAAL], child[1, RAISE] = -2, 3
    gain[1, CHAAL] = loss[1, CHAAL] = 1  # check, check: a showdown for 1
    for s, folder in ((2, 1), (3, 0)):  # facing a bet: call (a showdown for 2) or fold
        child[s, CHAAL], child[s, PACK] = -2, -2
        gain[s, CHAAL] = loss[s, CHAAL] = 2
        fold[s, PACK] = True
        gain[s, PACK] = 1 if folder == 1 else -1
    layers = [np.array([0]), np.array([1, 2]), np.array([3])]
    game = Abstraction(
        Rules(), 2, states, {x: i for i, x in enumerate(states)}, child, gain, loss, split, fold
    )
    game.layers = layers
    joint = (1 - np.eye(3)) / 6
    x, y = np.indices((3, 3))
    return game, Buckets(joint, joint * (x > y), np.zeros((3, 3)))


def _pure(game: Abstraction, player: int) -> list[np.ndarray]:
    """Every pure strategy of ``player`` in Kuhn poker, as rows of a policy."""
    mine = [i for i, s in enumerate(game.states) if s.turn == player]
    out = []
    for picks in itertools.product(
        *[np.nonzero(game.child[i] != -1)[0] for i in mine for _ in range(3)]
    ):
        policy = np.zeros((game.size, len(ACTIONS), 3))
        for j, move in enumerate(picks):
            policy[mine[j // 3], move, j % 3] = 1.0
        out.append(policy)
    return out


def test_kuhn_poker_value_and_a_brute_force_best_response() -> None:
    game, hands = _kuhn()
    solved = solve(game, hands, 300).policy
    assert game_value(game, hands, solved) == pytest.approx(-1 / 18, abs=2e-3)
    assert exploitability(game, hands, solved) < 2e-3
    # against a fixed mixed strategy, the best response is the best of every pure answer
    rng = np.random.default_rng(3)
    mixed = rng.random((game.size, len(ACTIONS), 3)) * (game.child != -1)[:, :, None]
    mixed /= mixed.sum(axis=1, keepdims=True)
    for player in (0, 1):
        theirs = np.array([s.turn != player for s in game.states])[:, None, None]
        brute = max(
            (1 if player == 0 else -1) * game_value(game, hands, np.where(theirs, mixed, pure))
            for pure in _pure(game, player)
        )
        assert best_response(game, hands, mixed, player) == pytest.approx(brute, abs=1e-12)


def _unroll(game: Abstraction) -> tuple[Abstraction, np.ndarray]:
    """The tree of every history of ``game`` (a state per path), and each node's state: the game
    in which every history is its own information set (perfect recall)."""
    nodes, rows = [0], []
    for node in itertools.count():
        if node == len(nodes):
            break
        row = []
        for c in game.child[nodes[node]]:
            if c >= 0:
                row.append(len(nodes))
                nodes.append(int(c))
            else:
                row.append(int(c))
        rows.append(row)
    at = np.array(nodes)
    tree = Abstraction(
        game.rules,
        game.chips,
        [game.states[i] for i in at],
        {},
        np.array(rows, dtype=np.int32),
        game.gain[at],
        game.loss[at],
        game.split[at],
        game.fold[at],
    )
    groups: dict[tuple[int, int, int, bool], list[int]] = {}
    for i, s in enumerate(tree.states):
        groups.setdefault((s.pot, s.seen[0] + s.seen[1], s.turn, s.seen[s.turn]), []).append(i)
    tree.layers = [np.array(groups[k]) for k in sorted(groups)]
    return tree, at


@pytest.mark.slow
def test_merging_when_a_player_saw_stalls_and_keeping_it_converges() -> None:
    rules = Rules.from_options({"pot_limit_boots": 20})
    hands = _classes(6)
    found = {}
    for recall in (True, False):
        game = build_abstraction(rules, chips=12, recall=recall)
        tree, at = _unroll(game)
        policy = solve(game, hands, 60).policy
        found[recall] = exploitability(tree, hands, policy[at])  # a history-aware adversary
    assert found[True] < 0.04
    assert found[False] > 0.08


EQUAL = (parse_cards("Ah Kd 9c"), parse_cards("As Kc 9d"))
"""Two hands of the same strength: every showdown between them is a tie."""


@pytest.mark.parametrize(
    ("preset", "limit", "tie"),
    [
        ("nepal", 12, False),
        ("duo", 12, False),
        ("duo", 12, True),
        ("nepal", 12, True),
        pytest.param("nepal", 64, False, marks=pytest.mark.slow),
    ],
)
def test_the_abstract_game_follows_the_engine(preset: str, limit: int, tie: bool) -> None:
    """Random walks through the engine and the abstract game side by side: the same moves at
    every state, and each end pays what the engine pays. With ``tie`` both are dealt hands of
    the same strength, so every showdown pays the game's tie amount: a show split or lost by
    the asker, an all in or the pot limit split (a show with a player's last chips is still a
    show, and its asker loses the tie as the engine has it)."""
    rules = Rules.from_options({"preset": preset, "pot_limit_boots": limit})
    chips = 5 if tie else 9 if preset == "duo" else None  # short stacks: all in comes up
    game = build_abstraction(rules, chips=chips)
    stack = game.chips * rules.boot
    rng = random.Random(f"{preset} {limit} {tie}")
    deep = limit > 12  # walks that rarely pack or show, to the pot limit and the stake cap
    reached = 0
    ends: set[str] = set()
    for walk in range(60):
        cards = EQUAL if tie else None
        hand = Hand(rules, [stack, stack], dealer=1, cards=cards, seed=rng.randbytes(32))
        assert hand.first == 0
        state = 0
        while True:
            seat = hand.actor
            assert seat is not None
            engine = {a.kind.value for a in hand.legal_actions(seat)}
            moves = {ACTIONS[a] for a in np.nonzero(game.child[state] != -1)[0]}
            assert moves == engine, (walk, game.states[state])
            if deep:
                odds = {"pack": 0.03, "show": 0.03, "see": 0.3}
                move = rng.choices(sorted(moves), [odds.get(m, 1.0) for m in sorted(moves)])[0]
            else:
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
            reached += game.states[state].pot * 2 > limit
            if not game.fold[state, a]:
                ends.add(f"{move}{' out of chips' if hand.all_in[seat] else ''}")
            break
    assert reached > 20 or not deep
    assert not tie or {"show", "show out of chips", "allin out of chips"} <= ends, ends


@pytest.mark.slow
@pytest.mark.parametrize("method", ["dcfr", "cfr+", "pcfr+"])
def test_cfr_converges_and_the_best_response_can_tell(method: str) -> None:
    rules = Rules()
    game = build_abstraction(rules, chips=6)
    hands = _three_classes()
    uniform = (game.child != -1).astype(float)[:, :, None] * np.ones(3)
    uniform /= uniform.sum(axis=1, keepdims=True)
    loose = exploitability(game, hands, uniform)
    early = exploitability(game, hands, solve(game, hands, 10, method=method).policy)
    solved = solve(game, hands, 120, method=method).policy
    late = exploitability(game, hands, solved)
    assert loose > 0.5
    assert late < early < loose
    assert late < 0.05
    # a game of two equal seats: the value is small and the same whichever seat is measured
    assert abs(game_value(game, hands, solved)) < 0.5


def test_the_solvers_pass_agrees_with_the_dense_one() -> None:
    """``_Game.step`` (moves that lead on as matrices, ends of the hand as a few numbers) gives
    what the dense value of every move (``q``) gives, at every layer and for both actors."""
    game, hands = build_abstraction(Rules(), chips=12), buckets(Rules(), (0.4, 0.7))
    g = _Game(game, hands)
    policy = solve(game, hands, 5).policy[g.order]
    reach, values = g.reach(policy), g.values()
    actors = set()
    for layer in reversed(g.layers):
        q, rows = g.q(layer, values), policy[layer.states]
        mixed, cfv = g.step(layer, values, rows, reach)
        assert cfv is not None
        np.testing.assert_allclose(mixed, g.mix(layer, q, rows), atol=1e-12)
        np.testing.assert_allclose(cfv, g.counterfactual(layer, q, reach), atol=1e-12)
        values[layer.states] = mixed
        actors.add(layer.actor)
    assert actors == {0, 1}


@pytest.mark.parametrize(
    "method",
    [
        pytest.param("dcfr", marks=pytest.mark.slow),
        "cfr+",
        pytest.param("pcfr+", marks=pytest.mark.slow),
    ],
)
def test_a_solve_goes_on_from_its_kept_state_exactly(method: str, tmp_path: Path) -> None:
    game, hands = build_abstraction(Rules(), chips=6), _three_classes()
    unbroken = solve(game, hands, 30, method=method).policy
    path = tmp_path / "state.npz"
    kept: list[int] = []

    def keep(progress: Progress) -> None:
        kept.append(progress.t)
        progress.save(path)

    solve(game, hands, 12, method=method, every=5, keep=keep)
    assert kept == [5, 10, 12]
    state = Progress.load(path)
    assert (state.method, state.t) == (method, 12)
    assert (state.last is not None) == (method == "pcfr+")
    assert np.array_equal(solve(game, hands, 30, method=method, resume=state).policy, unbroken)
    other = "dcfr" if method != "dcfr" else "cfr+"
    with pytest.raises(ValueError, match=re.escape(f"cannot resume a {method} solve")):
        solve(game, hands, 30, method=other, resume=state)


def test_a_tremble_trains_the_rows_off_the_strategys_path() -> None:
    """Without a tremble, the rows reached only by moves the strategy never makes keep the
    solver's default, an even chance of every legal move: never weighed, never learnt. With one,
    nearly every row is learnt, and the solve converges as well."""
    game, hands = build_abstraction(Rules(), chips=12), buckets(Rules(), (0.4, 0.7))
    legal = game.child != -1
    even = legal / legal.sum(axis=1, keepdims=True)
    choosing = legal.sum(axis=1) > 1

    def untrained(policy: npt.NDArray[np.float64]) -> int:
        return int(np.isclose(policy, even[:, :, None]).all(axis=1)[choosing].sum())

    plain = solve(game, hands, 200).policy
    trembling = solve(game, hands, 200, tremble=1e-3).policy
    assert untrained(plain) > 100
    assert untrained(trembling) * 10 < untrained(plain)
    assert exploitability(game, hands, trembling) < 0.01


def test_a_solve_goes_on_only_with_its_own_tremble(tmp_path: Path) -> None:
    game, hands = build_abstraction(Rules(), chips=6), _three_classes()
    path = tmp_path / "state.npz"
    solve(game, hands, 4, every=4, tremble=0.01, keep=lambda progress: progress.save(path))
    state = Progress.load(path)
    assert state.tremble == 0.01
    unbroken = solve(game, hands, 8, tremble=0.01).policy
    assert np.array_equal(solve(game, hands, 8, tremble=0.01, resume=state).policy, unbroken)
    with pytest.raises(ValueError, match=re.escape("with a tremble of 0.01 with one of 0.0")):
        solve(game, hands, 8, resume=state)
    for resume in (None, state):  # a tremble out of range is named first, resumed or not
        with pytest.raises(ValueError, match="a tremble is a chance below one"):
            solve(game, hands, 8, tremble=1.0, resume=resume)


def test_an_unknown_method_is_refused() -> None:
    game, hands = _kuhn()
    with pytest.raises(ValueError, match="unknown method 'cfr'"):
        solve(game, hands, 1, method="cfr")


@pytest.mark.parametrize("name", [pytest.param("nepal", marks=pytest.mark.slow), "duo"])
def test_the_shipped_table_is_the_solvers(name: str) -> None:
    table = load(name)
    assert table is not None
    rules = Rules.from_options({"preset": name})
    assert table_for(rules) is table
    assert table_for(Rules.from_options({"preset": name, "bets": "range"})) is None
    assert table.exploitability < 0.05  # the goal: a best response wins under 0.05 boots a hand
    game = build_abstraction(rules)
    # the stored figure is what a best response wins against the stored bytes
    hands = buckets(rules, table.edges)
    assert measure(game, hands, table.policy) == pytest.approx(table.exploitability, rel=0.01)
    assert len(table.index) == game.size
    assert np.array_equal(state_rows(game), table.rows)
    assert all(table.row(game.states[i]) == i for i in range(0, game.size, game.size // 500))
    legal = game.child != -1
    assert not table.policy[~legal].any()
    sums = table.policy.astype(int).sum(axis=1)
    assert sums.min() >= 250 and sums.max() <= 260
    # blind rows do not depend on the hand
    blind = np.array([not s.seen[s.turn] for s in game.states])
    rows = table.policy[blind].astype(int)
    assert (rows == rows[:, :, :1]).all()


@pytest.mark.parametrize("name", TREMBLING)
def test_the_shipped_table_answers_moves_off_its_path(name: str) -> None:
    """Solved with a tremble, the table has learnt the rows an opponent reaches only by moves
    the table never makes (a blind raise at the start, say): there, as everywhere, a player
    holding the best bucket of hands after seeing hardly ever packs (without a tremble such
    rows kept what the first iterations left, and the best hands packed in 4 % of the rows)."""
    table = load(name)
    assert table is not None and table.tremble > 0
    game = build_abstraction(Rules.from_options({"preset": name}))
    seen = np.array([s.seen[s.turn] for s in game.states])
    packs = stored_policy(table.policy)[seen, PACK, -1]
    assert (packs > 0.05).mean() < 0.01


@pytest.mark.parametrize("name", ["nepal", "duo"])
def test_the_expert_draws_its_heads_up_moves_from_the_table(name: str) -> None:
    table = load(name)
    assert table is not None
    rules = Rules.from_options({"preset": name})
    stack = table.chips * rules.boot
    rng = random.Random(4)
    checked = blind = 0
    for deal in range(30):
        hand = Hand(rules, [stack, stack], dealer=deal % 2, seed=rng.randbytes(32))
        bot = ExpertBot(deal)
        assert bot.table  # on by default: the shipped table beats the rollouts heads-up
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            seen = view(hand, seat)
            action = bot.decide(seen)
            found = public_state(seen, table.chips)
            assert found is not None
            state, player = found
            row = table.row(state)  # the table decides from the first move, blind or seen
            assert row is not None
            weights = table.policy[row, ACTIONS.index(action.kind.value)]
            if state.seen[player]:  # the move has weight in the row of this hand's bucket
                cards = seen.seats[seat].cards
                assert cards is not None
                u = heads_up_equity(cards, rules.ranking, seen.wild)
                assert weights[bucket_of(u, table.edges)] > 0
            else:  # blind: the row is the same for every bucket
                assert weights[0] > 0
            checked += 1
            blind += not state.seen[1 - player]
            hand.apply(action)
    assert checked > 60 and blind > 20


def test_pair_counts_agree_with_comparing_every_pair() -> None:
    hands = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
    table = strength_array(Rules().ranking)
    strength = table[hands[:, 0] * 2916 + hands[:, 1] * 54 + hands[:, 2]].astype(np.int64)
    rng = np.random.default_rng(7)
    bucket = rng.integers(0, 4, len(hands))
    count, beaten, equal = pair_counts(hands, strength, bucket, 4)
    masks = (1 << hands).sum(axis=1)
    for h in rng.choice(len(hands), 150, replace=False):
        apart = (masks & masks[h]) == 0
        for b in range(4):
            others = apart & (bucket == b)
            assert count[h, b] == others.sum()
            assert beaten[h, b] == (others & (strength < strength[h])).sum()
            assert equal[h, b] == (others & (strength == strength[h])).sum()
    # every hand meets every hand of the 49 cards left
    assert (count.sum(axis=1) == 18424).all()
