"""Two blind players left of a bigger deal: the endgame's game, where a hand finds it, and the
expert playing it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from teenpatti.bots import load_bot
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.solver.endgame import (
    NEAR,
    Root,
    for_stack,
    least_stack,
    locate,
    main,
    stacks,
    table,
)
from teenpatti.bots.solver.game import ACTIONS, PACK, State, _expand, build_abstraction
from teenpatti.bots.solver.tables import FOLDER, Table, load_path, state_rows
from teenpatti.engine import Action, ActionKind, Hand, Rules, view

RULES = Rules()
SHIPPED = Root((3, 1), dead=1, stake=2, turn=1, bet_made=True)
"""The endgame three `expert` players come to in two hands of three."""


def _at_shipped_root(stacks: tuple[int, int, int] = (1000, 1000, 1000)) -> Hand:
    """Seat 2 raises blind, seat 1 packs, seat 0 (the dealer, blind) is to act."""
    hand = Hand(RULES, list(stacks), dealer=0, seed=bytes(32))
    hand.apply(Action(2, ActionKind.RAISE))
    hand.apply(Action(1, ActionKind.SEE))
    hand.apply(Action(1, ActionKind.PACK))
    return hand


def _next(state: State, move: ActionKind, root: Root) -> State | None:
    """Where ``move`` leads from ``state`` in ``root``'s game (``None``: it ends the hand)."""
    _boot, cap, limit = RULES.boot, RULES.stake_cap_boots, RULES.pot_limit_boots
    assert limit is not None
    moves, _ends = _expand(state, RULES, cap, limit - root.dead, 100, root.dead / 2)
    index = ACTIONS.index(move.value)
    return next((s for m, s in moves if m == index), None)


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_a_hand_found_at_its_endgame_moves_as_the_game_does(seats: int) -> None:
    """Wherever a hand has come down to two players who were both blind, :func:`locate` finds
    the same root at every later decision, and the state it reports is the one the heads-up
    game reaches from that root by the moves made since (the chips, the stake, who has seen and
    when, whose turn): the game solved is the game played."""
    found = later = 0
    for deal in range(120):
        rng = random.Random(deal)
        bots = [
            load_bot(rng.choice(["hard", "never_looks", "blind_raiser"]), deal)
            for _ in range(seats)
        ]
        hand = Hand(RULES, [1000] * seats, dealer=deal % seats, seed=deal.to_bytes(32, "big"))
        root: Root | None = None
        state: State | None = None
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            here = locate(v)
            live = [s for s in v.seats if s.dealt and not s.packed]
            if here is None:
                assert root is None
                if len(live) == 2 and not any(s.seen for s in live):
                    raise AssertionError("two blind players left, and no root found")
            else:
                now, at, me = here
                if root is None:
                    root, state = now, now.state
                    found += 1
                else:
                    later += 1
                assert now == root and at == state
                assert me in (0, 1) and at.turn == me
                assert v.pot // v.boot == sum(at.put) + root.dead
            move = bots[seat].decide(v)
            hand.apply(move)
            if root is not None and state is not None and not hand.finished:
                state = _next(state, move.kind, root)
    assert found >= 3 and later >= found


def test_dead_money_goes_to_the_winner_and_counts_towards_the_limit() -> None:
    """The packed players' chips are half each player's in the zero-sum game (the winner takes
    them), and a pot that reaches the limit with them ends in a showdown."""
    root = Root((3, 1), dead=1, stake=2, turn=1, bet_made=True)
    game = build_abstraction(RULES, root=root.state, dead=root.dead)
    assert game.states[0] == root.state
    # player 1 packs: player 0 wins its boot and, of the dead boot, its half over an even split
    assert game.fold[0, PACK] and game.gain[0, PACK] == pytest.approx(1.5)
    near = Root((44, 44), dead=10, stake=8, turn=0, bet_made=True)  # 98 boots in
    small = build_abstraction(RULES, root=near.state, dead=near.dead)
    assert small.size == 2  # a blind chaal reaches the limit: only a look is a state
    assert small.child[0, ACTIONS.index("chaal")] == -2
    assert small.gain[0, ACTIONS.index("chaal")] == pytest.approx(44 + 5)


def _support(shipped: Table, state: State) -> set[ActionKind]:
    """The moves ``shipped`` plays at ``state`` while blind."""
    row = shipped.row(state)
    assert row is not None
    return {ActionKind(ACTIONS[a]) for a in range(len(ACTIONS)) if shipped.policy[row, a, 0]}


def _off() -> ExpertBot:
    bot = ExpertBot(1)
    bot.endgame = False
    return bot


def test_the_expert_plays_the_solved_endgame_where_it_is_shipped() -> None:
    """At the shipped root `expert` draws from the solved row (which chaals blind) where without
    it it looks; with the endgames off it plays as before."""
    shipped = table(SHIPPED)
    assert shipped is not None
    support = _support(shipped, SHIPPED.state)
    v = view(_at_shipped_root(), 0)
    before = _off().decide(v)
    moves = {ExpertBot(k).decide(v).kind for k in range(20)}
    assert moves <= support and before.kind not in support


@pytest.mark.parametrize(("boots", "solved_on"), [(84, 85), (70, 70), (57, 60), (22, 30)])
def test_on_a_short_stack_the_expert_plays_the_table_solved_nearest(
    boots: int, solved_on: int
) -> None:
    """With the shorter stack of the two under the full stacks' table's (85 boots), `expert`
    draws from the table solved on the stack nearest it (a game's later hands deal such
    stacks): the full stacks' at 84, those solved on 70, 60 and 30 boots at 70, 57 and 22."""
    chosen = for_stack(SHIPPED, boots)
    assert chosen is not None and chosen.chips == solved_on
    assert chosen is (table(SHIPPED) if solved_on == 85 else table(SHIPPED, solved_on))
    v = view(_at_shipped_root((10 * boots, 1000, 1000)), 0)
    bots = [ExpertBot(k) for k in range(20)]
    assert all(bot._from_endgame(v) is not None for bot in bots)  # the endgame decides
    assert {bot.decide(v).kind for bot in bots} <= _support(chosen, SHIPPED.state)


def test_far_from_every_solved_stack_the_expert_plays_as_before() -> None:
    """More than :data:`NEAR` boots shorter than the shallowest table, the endgame is left to
    the moves before it."""
    assert for_stack(SHIPPED, min(stacks(SHIPPED)) - NEAR) is not None
    boots = min(stacks(SHIPPED)) - NEAR - 1
    assert for_stack(SHIPPED, boots) is None
    short = view(_at_shipped_root((10 * boots, 1000, 1000)), 0)
    assert ExpertBot(1).decide(short) == _off().decide(short)


@pytest.mark.parametrize("path", sorted(FOLDER.glob("endgame-*.npz")), ids=lambda p: p.stem)
def test_every_shipped_endgame_is_its_roots_game(path: Path) -> None:
    """Each shipped endgame is named for its root (and the stacks it was solved on, if not
    full), holds the states of the root's game as it is built today (state for state) on the
    stack it names and leaves a best response at most 0.03 boots a hand in its own game, as
    the heads-up table may (0.05 for the point after a look and a pack at three seats, from a
    stake of one, which converges slowest: 0.040 on full stacks, 0.046 on 50 boots, 0.034 on
    65)."""
    a, b, dead, stake, turn, bet, *deep = path.stem.split("-")[1:]
    root = Root((int(a), int(b)), int(dead[1:]), int(stake[1:]), int(turn[1:]), bet == "b1")
    stack = int(deep[0][1:]) if deep else None
    assert path == FOLDER / f"{root.name}{f'-c{stack}' if deep else ''}.npz"
    stored = load_path(path)
    assert stored is not None and stored.row(root.state) is not None
    game = build_abstraction(RULES, stack, root=root.state, dead=root.dead)
    assert np.array_equal(stored.rows, state_rows(game))  # solved on today's game
    assert stored.chips == (least_stack(game) if stack is None else stack)
    slowest = Root((1, 1), dead=1, stake=1, turn=0, bet_made=False)
    assert stored.exploitability <= (0.05 if root == slowest else 0.03)


def test_the_command_solves_and_writes_a_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m teenpatti.bots.solver.endgame`` writes a root's table where ``--out`` says,
    resumable from ``--state``, and with ``--stack`` one solved on shorter stacks; a root that
    is not six numbers, or a stack no more than a player has put in at the root, is refused."""
    out = ["--out", str(tmp_path)]
    main(["--root", "40,40,10,8,0,1", "--iterations", "30", "--state", str(tmp_path / "s"), *out])
    written = load_path(tmp_path / "endgame-40-40-d10-s8-t0-b1.npz")
    assert written is not None and written.iterations == 30
    assert (tmp_path / "s" / "endgame-40-40-d10-s8-t0-b1-state.npz").exists()
    main(["--root", "40,40,10,8,0,1", "--stack", "45", "--iterations", "30", *out])
    short = load_path(tmp_path / "endgame-40-40-d10-s8-t0-b1-c45.npz")
    assert short is not None and short.chips == 45 and len(short.rows) < len(written.rows)
    with pytest.raises(SystemExit):
        main(["--root", "40,40,10,8,0,1", "--stack", "40", *out])
    with pytest.raises(SystemExit):
        main(["--root", "1,1,2"])
    assert "PUT0,PUT1,DEAD,STAKE,TURN,BET" in capsys.readouterr().err
