"""Two blind players left of a bigger deal: the endgame's game, where a hand finds it, and the
expert playing it."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from teenpatti.bots import load_bot
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.solver.endgame import Root, least_stack, locate, main, table
from teenpatti.bots.solver.game import ACTIONS, PACK, State, _expand, build_abstraction
from teenpatti.bots.solver.tables import FOLDER, load_path, state_rows
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


def test_the_expert_plays_the_solved_endgame_where_it_is_shipped() -> None:
    """At the shipped root `expert` draws from the solved row (which chaals blind) where without
    it it looks; with a stack short of the table's, or the endgames off, it plays as before."""
    shipped = table(SHIPPED)
    assert shipped is not None
    row = shipped.row(SHIPPED.state)
    assert row is not None
    support = {ActionKind(ACTIONS[a]) for a in range(len(ACTIONS)) if shipped.policy[row, a, 0]}
    hand = _at_shipped_root()
    v = view(hand, 0)

    def off() -> ExpertBot:
        bot = ExpertBot(1)
        bot.endgame = False
        return bot

    before = off().decide(v)
    moves = {ExpertBot(k).decide(v).kind for k in range(20)}
    assert moves <= support and before.kind not in support
    short = view(_at_shipped_root((10 * (shipped.chips - 1), 1000, 1000)), 0)
    assert ExpertBot(1).decide(short) == off().decide(short)


def test_every_shipped_endgame_is_its_roots_game() -> None:
    """Each shipped endgame is named for its root, holds the states of the root's game as it is
    built today (state for state), plays only while the stacks hold its game and leaves a best
    response no more than the heads-up table may."""
    files = sorted(FOLDER.glob("endgame-*.npz"))
    assert files
    for path in files:
        a, b, dead, stake, turn, bet = path.stem.split("-")[1:]
        root = Root((int(a), int(b)), int(dead[1:]), int(stake[1:]), int(turn[1:]), bet == "b1")
        assert root.name == path.stem
        stored = load_path(path)
        assert stored is not None and stored.row(root.state) is not None
        game = build_abstraction(RULES, root=root.state, dead=root.dead)
        assert np.array_equal(stored.rows, state_rows(game))  # solved on today's game
        assert stored.chips == least_stack(game)
        assert stored.exploitability <= 0.03  # the heads-up table's goal


def test_the_command_solves_and_writes_a_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m teenpatti.bots.solver.endgame`` writes a root's table where ``--out`` says,
    resumable from ``--state``; a root that is not six numbers is refused."""
    main(
        [
            "--root",
            "40,40,10,8,0,1",
            "--iterations",
            "30",
            "--out",
            str(tmp_path),
            "--state",
            str(tmp_path / "s"),
        ]
    )
    written = load_path(tmp_path / "endgame-40-40-d10-s8-t0-b1.npz")
    assert written is not None and written.iterations == 30
    assert (tmp_path / "s" / "endgame-40-40-d10-s8-t0-b1-state.npz").exists()
    with pytest.raises(SystemExit):
        main(["--root", "1,1,2"])
    assert "PUT0,PUT1,DEAD,STAKE,TURN,BET" in capsys.readouterr().err
