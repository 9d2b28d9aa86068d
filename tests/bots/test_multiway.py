"""The multiway abstract game against the engine, and its solve."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from teenpatti.bots import expert as expert_module
from teenpatti.bots import load_bot
from teenpatti.bots.expert import ExpertBot
from teenpatti.bots.hard import HardBot
from teenpatti.bots.search import Rollouts
from teenpatti.bots.solver.distill import GROUPS, Sums, combined, corrections, group_of
from teenpatti.bots.solver.multiway import (
    BLUEPRINT_SEATS,
    CHAAL,
    DEEP,
    KEYS,
    MOVES,
    PACK,
    RAISE,
    SIDESHOW,
    STYLES,
    Deal,
    Play,
    Solver,
    blueprint_path,
    bucket_of,
    info_key,
    load_blueprint,
    main,
    multiway_key,
    style_move,
)
from teenpatti.engine import Action, ActionKind, Game, Hand, Rules, view
from teenpatti.engine.view import HandView
from teenpatti.odds import heads_up_equity


@pytest.mark.parametrize("seats", [3, 4, 6])
def test_the_multiway_game_follows_the_engine(seats: int) -> None:
    """Random walks of the abstract game replayed in the engine: the same moves are offered at
    every step (prices included) and the hand ends with the same chips."""
    rules = Rules()
    boot = rules.boot
    rng = random.Random(seats)
    deep = 0
    for walk in range(150):
        hand = Hand(
            rules, [rules.starting_chips] * seats, dealer=walk % seats, seed=rng.randbytes(32)
        )
        order = hand.deal_order
        deal = Deal(seats, [hand.strength[s] for s in order], [0] * seats)
        play = Play(seats)
        odds = {"pack": 0.05, "show": 0.1, "see": 0.4, "sideshow": 0.2}
        while play.gain is None:
            seat = order[play.actor()]
            assert hand.actor == seat
            offered = {a.kind: a for a in hand.legal_actions(seat)}
            moves = play.moves()
            assert {ActionKind(MOVES[m]) for m in moves} == set(offered), walk
            m = rng.choices(moves, [odds.get(MOVES[x], 1.0) for x in moves])[0]
            option = offered[ActionKind(MOVES[m])]
            if play.asker < 0:
                assert option.cost == play.cost(m) * boot, (walk, MOVES[m])
            hand.apply(
                option.action(
                    seat, None, order[play.previous_in(play.turn)] if m == SIDESHOW else None
                )
            )
            play.apply(m, deal)
            assert hand.finished == (play.gain is not None)
        deep += play.pot >= 100
        for k, s in enumerate(order):
            assert hand.chips[s] - rules.starting_chips == pytest.approx(play.gain[k] * boot), walk
    assert deep > 20


@pytest.mark.parametrize("style", STYLES)
def test_the_abstract_styles_play_as_the_style_bots(style: str) -> None:
    """Each style of a solve's population makes the style bot's move at every step of hands
    played in the engine (the other seats random), but where the hand's ``u`` lies between the
    style's own line and the bucket edge the abstract game draws it at."""
    rules = Rules()
    rng = random.Random(style)
    lines = {"tight_aggressive": (0.6, 0.65, 0.83, 0.85), "blind_presser": (0.6, 0.65, 0.83, 0.85)}
    lines["calldown"] = (0.3, 1 / 3, 2.0, 2.0)
    compared = 0
    for walk in range(40):
        seats = 3 + walk % 4
        hand = Hand(
            rules, [rules.starting_chips] * seats, dealer=walk % seats, seed=rng.randbytes(32)
        )
        order = hand.deal_order
        u = [heads_up_equity(hand.cards[s], rules.ranking) for s in order]
        deal = Deal(seats, [hand.strength[s] for s in order], [bucket_of(x) for x in u])
        play = Play(seats)
        styled = walk % seats
        a, b, c, d = lines.get(style, (0, 0, 0, 0))
        near = a <= u[styled] < b or c <= u[styled] < d
        bot = load_bot(style, walk)
        while play.gain is None:
            k = play.actor()
            seat = order[k]
            if k == styled:
                m = style_move(style, play, deal)
                if not near:
                    assert ActionKind(MOVES[m]) is bot.decide(view(hand, seat)).kind, walk
                    compared += 1
            else:
                m = rng.choice(play.moves())
            option = {a.kind: a for a in hand.legal_actions(seat)}[ActionKind(MOVES[m])]
            hand.apply(
                option.action(
                    seat, None, order[play.previous_in(play.turn)] if m == SIDESHOW else None
                )
            )
            play.apply(m, deal)
    assert compared > 40


@pytest.mark.slow
def test_a_population_solve_learns_against_the_styles(tmp_path: Path) -> None:
    """With a population, a share of the hands seat a style whose moves teach nothing: fewer
    of the average strategy's counts than a plain solve's of the same hands; the share is kept
    in the state, and a solve goes on only with its own share."""
    plain, mixed = Solver(seed=5, seats=(3,)), Solver(seed=5, seats=(3,), population=1.0)
    plain.iterate(60)
    mixed.iterate(60)
    plain.sync()
    mixed.sync()
    assert 0 < mixed.average.sum() < plain.average.sum()
    state = tmp_path / "mixed.npz"
    main(["--seats", "3", "--population", "0.5", "--iterations", "10", "--state", str(state)])
    assert Solver.resume(state).population == 0.5
    with pytest.raises(SystemExit):
        main(["--seats", "3", "--iterations", "20", "--state", str(state)])


@pytest.mark.slow
def test_the_solve_goes_on_from_its_state_exactly(tmp_path) -> None:
    one = Solver(seed=3, population=0.5)
    one.iterate(40)
    one.save(tmp_path / "s.npz")
    two = Solver.resume(tmp_path / "s.npz")
    one.iterate(30)
    two.iterate(30)
    one.sync()
    two.sync()
    assert (one.average == two.average).all() and (one.regret == two.regret).all()


@pytest.mark.parametrize("seats", [3, 5, 6])
def test_the_expert_reads_the_information_set_the_solver_played(seats: int) -> None:
    """The expert's key, read from its view alone, is the abstract game's at every decision."""
    rules = Rules()
    rng = random.Random(10 + seats)
    for walk in range(40):
        hand = Hand(
            rules, [rules.starting_chips] * seats, dealer=walk % seats, seed=rng.randbytes(32)
        )
        order = hand.deal_order
        buckets = [bucket_of(heads_up_equity(hand.cards[s], rules.ranking)) for s in order]
        deal = Deal(seats, [hand.strength[s] for s in order], buckets)
        play = Play(seats)
        while play.gain is None:
            seat = order[play.actor()]
            assert multiway_key(view(hand, seat)) == play.key(deal), walk
            moves = play.moves()
            m = rng.choice(moves)
            option = {a.kind: a for a in hand.legal_actions(seat)}[ActionKind(MOVES[m])]
            hand.apply(option.action(seat))
            play.apply(m, deal)


def test_a_correction_needs_a_gain_beyond_its_noise() -> None:
    """A move replaces hard's only where its gain over the group's positions is clear; the sets
    of a group (differing only in what the positions are too few to tell apart) share it."""
    sums = Sums()
    clear = info_key(False, 4, 5, 2, True, 4, 50, True)
    pooled = info_key(False, 5, 5, 2, False, 4, 50, False)  # the same group
    blind = info_key(False, 4, 5, 0, True, 4, 50, True)  # nobody else has seen: another
    noisy = info_key(False, 4, 2, 2, True, 4, 50, True)
    few = info_key(False, 4, 3, 2, True, 4, 50, True)
    assert group_of(clear) == group_of(pooled) != group_of(noisy)
    assert group_of(blind) != group_of(clear)
    for key, n, gain, spread in ((clear, 10, 0.5, 0.0), (noisy, 10, 0.5, 5.0), (few, 2, 0.5, 0)):
        sums.count[key, CHAAL] = n
        sums.total[key, CHAAL, RAISE] = n * gain
        sums.squares[key, CHAAL, RAISE] = n * (gain * gain + spread * spread)
    table = corrections(sums)
    assert table[clear, CHAAL] == RAISE and table[pooled, CHAAL] == RAISE
    assert table[noisy, CHAAL] == -1 and table[few, CHAAL] == -1
    assert (table[:, PACK] == -1).all()
    assert int((table >= 0).sum()) == int((group_of(clear) == GROUPS).sum())


@pytest.mark.parametrize(("everywhere", "moved"), [(False, 0), (True, 0), (True, 3)])
def test_the_expert_plays_hards_move_or_its_correction(
    monkeypatch: pytest.MonkeyPatch, everywhere: bool, moved: int
) -> None:
    """At 4 seats of our table the expert is hard reading as the expert does (no search) but
    where the table of corrections names another move for that one: at every decision of its
    own (not an answer to a side show) in the deals that play the table learnt everywhere, else
    only after every other player has seen; in a game's first hand and in its later ones
    (``moved``: the stacks that many boots apart). The solved endgames of two blind players,
    which take over from the corrections where a hand comes down to them, are off here
    (``tests/bots/test_endgame.py``)."""
    monkeypatch.setattr(expert_module, "SEAT_TABLES", {4: "everywhere"} if everywhere else {})
    monkeypatch.setattr(ExpertBot, "endgame", False)
    rules = Rules()
    none = np.full((KEYS, len(MOVES)), -1, dtype=np.int8)
    always = np.full((KEYS, len(MOVES)), PACK, dtype=np.int8)  # pack instead of anything
    chips = [rules.starting_chips + (s - 1) * moved * rules.boot for s in range(4)]
    changed = same = 0
    for number in range(60):
        seed = random.Random(number).randbytes(32)
        hand = Hand(rules, chips, dealer=number % 4, seed=seed)
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            reader = HardBot(number)
            reader.level = ExpertBot.multiway_level
            hard = reader.decide(v)
            monkeypatch.setattr(expert_module, "load_corrections", lambda which: none)
            assert ExpertBot(number).decide(v) == hard
            monkeypatch.setattr(expert_module, "load_corrections", lambda which: always)
            move = ExpertBot(number).decide(v)
            searched = v.side_show is None and (
                everywhere
                or all(s.seen for s in v.seats if s.dealt and not s.packed and s.seat != seat)
            )
            if searched and hard.kind.value in MOVES:
                assert move.kind is ActionKind.PACK
                changed += hard.kind is not ActionKind.PACK
            else:
                assert move == hard
                same += 1
            hand.apply(hard)
    assert changed > 10 and (same > 10 or everywhere)


def _played_by_hard(
    sizes: tuple[int, ...], hands: int = 20, stacks: tuple[int, ...] | None = None
) -> Iterator[tuple[int, int, HandView]]:
    """Every decision of ``hands`` hands at each table size, played on by ``hard`` (which asks
    for side shows more often than ``expert``, whose reading of a seen chaal is stronger): the
    table size, the hand's number and the view of the player to decide. Every seat starts with
    the table's chips, or with ``stacks`` boots, seat by seat."""
    rules = Rules()
    for seats in sizes:
        chips = [rules.starting_chips] * seats
        if stacks is not None:
            chips = [b * rules.boot for b in stacks]
        for number in range(hands):
            seed = random.Random(number).randbytes(32)
            hand = Hand(rules, chips, dealer=number % seats, seed=seed)
            while not hand.finished:
                seat = hand.actor
                assert seat is not None
                v = view(hand, seat)
                yield seats, number, v
                hand.apply(HardBot(number).decide(v))


def test_the_expert_answers_its_own_exploiter_at_the_response_seats(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In deals of the response seats (three here), the move after the first corrections is
    replaced by the second layer's (``distill --respond``) wherever that names one for it, an
    answer to a side show included; at four seats, and with ``respond`` off, the second layer is
    not read. (The hands are played on by ``hard``, which asks for side shows more often than
    ``expert``, whose reading of a seen chaal is stronger; the solved endgames, which take over
    from the layers where a hand comes down to two blind players, are off.)"""
    monkeypatch.setattr(ExpertBot, "endgame", False)
    monkeypatch.setattr(expert_module, "RESPONSE_SEATS", frozenset({3}))
    monkeypatch.setattr(ExpertBot, "blueprint_seats", frozenset())
    none = np.full((KEYS, len(MOVES)), -1, dtype=np.int8)
    layer = np.full((KEYS, len(MOVES)), PACK, dtype=np.int8)  # pack instead of anything
    layer[:, MOVES.index("accept")] = MOVES.index("decline")  # and decline every side show
    monkeypatch.setattr(
        expert_module, "load_corrections", lambda which: layer if which == "response" else none
    )
    changed = answers = kept = 0
    for seats, number, v in _played_by_hard((3, 4)):
        plain = ExpertBot(number)
        plain.respond = False
        first = plain.decide(v)
        move = ExpertBot(number).decide(v)
        layered = seats == 3 and first.kind.value in MOVES
        if layered and any(a.kind is ActionKind.PACK for a in v.legal_actions):
            assert move.kind is ActionKind.PACK
            changed += first.kind is not ActionKind.PACK
        elif layered and first.kind is ActionKind.ACCEPT:
            assert move.kind is ActionKind.DECLINE
            answers += 1
        else:
            assert move == first
            kept += 1
    assert changed > 10 and kept > 10 and answers > 0


def test_the_expert_plays_the_blueprint_at_its_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """In hands dealt to the blueprint's seats (three here) every decision of the expert's,
    an answer to a side show included, is drawn from the blueprint's row for its information
    set; where the row is empty (never reached in the solve) the move is the one it would play
    without a blueprint, and at four seats the blueprint is not read. (The solved endgames are
    off.)"""
    monkeypatch.setattr(ExpertBot, "endgame", False)
    monkeypatch.setattr(ExpertBot, "blueprint_seats", frozenset({3}))
    policy = np.zeros((KEYS, len(MOVES)), dtype=np.uint8)
    policy[:, PACK] = 255  # pack wherever the row is read
    policy[:, MOVES.index("accept")] = 0
    policy[:, MOVES.index("decline")] = 255  # and decline every side show
    empty = info_key(False, 3, None, 0, False, 1, 3, False)  # the first move, all blind
    policy[empty] = 0
    read: list[Path] = []

    def blueprint(path: Path) -> np.ndarray:
        read.append(path)
        return policy

    monkeypatch.setattr(expert_module, "load_blueprint", blueprint)
    drawn = answers = kept = 0
    for seats, number, v in _played_by_hard((3, 4)):
        plain = ExpertBot(number)
        plain.blueprint_seats = frozenset()
        first = plain.decide(v)
        move = ExpertBot(number).decide(v)
        if seats == 3 and multiway_key(v) != empty:
            if v.side_show is not None:
                assert move.kind is ActionKind.DECLINE
                answers += 1
            else:
                assert move.kind is ActionKind.PACK
                drawn += first.kind is not ActionKind.PACK
        else:
            assert move == first
            kept += 1
    assert drawn > 10 and kept > 10 and answers > 0
    assert read and all(p.name == "multiway_blueprint3.npz" for p in read)


def _packing_blueprint(monkeypatch: pytest.MonkeyPatch) -> None:
    """Play a made-up blueprint at three seats that packs (and declines) wherever it is read, the
    solved endgames (which take over from it at two blind players) off."""
    monkeypatch.setattr(ExpertBot, "endgame", False)
    monkeypatch.setattr(ExpertBot, "blueprint_seats", frozenset({3}))
    policy = np.zeros((KEYS, len(MOVES)), dtype=np.uint8)
    policy[:, PACK] = 255
    policy[:, MOVES.index("decline")] = 255
    monkeypatch.setattr(expert_module, "load_blueprint", lambda path: policy)


@pytest.mark.parametrize(
    ("stacks", "read"),
    [
        ((100, 99, 101), True),  # a game's later hand: the stacks moved a boot
        ((30, 170, 100), True),
        ((100, 29, 101), False),  # a stack short of DEEP, still in at the deal
    ],
)
def test_the_blueprint_is_read_while_every_stack_still_in_is_deep(
    monkeypatch: pytest.MonkeyPatch, stacks: tuple[int, int, int], read: bool
) -> None:
    """A hand whose stacks have moved from the start (a game's later hands, a rebuy) is played
    from the blueprint as long as every player still in holds 30 % of the pot limit (``DEEP``
    boots); while a shorter one is in, the expert plays at every decision as it would without a
    blueprint (the abstract game has no all in), and once it has packed the blueprint is read
    again."""
    _packing_blueprint(monkeypatch)
    drawn = kept = 0
    for _, number, v in _played_by_hard((3,), 12, stacks):
        short = any(s.chips + s.put_in < DEEP * v.boot for s in v.seats if s.dealt and not s.packed)
        assert (multiway_key(v) is None) == short
        plain = ExpertBot(number)
        plain.blueprint_seats = frozenset()
        move = ExpertBot(number).decide(v)
        if short:
            assert move == plain.decide(v)
            kept += 1
        else:
            assert move.kind in (ActionKind.PACK, ActionKind.DECLINE)
            drawn += 1
    assert (drawn > 20) if read else (kept > 20)


@pytest.mark.parametrize("played", ["corrections", "blueprint"])
def test_every_hand_of_a_game_is_played_as_the_first(
    monkeypatch: pytest.MonkeyPatch, played: str
) -> None:
    """Chips carry from hand to hand of a game, so after the first hand the stacks have moved
    from the pot limit; the expert at three seats still plays its later hands from its
    corrections (as shipped) or its blueprint (made up here to pack wherever they are read). The
    solved endgames, which take over from both at two blind players, are off."""
    monkeypatch.setattr(ExpertBot, "endgame", False)
    if played == "blueprint":
        _packing_blueprint(monkeypatch)
    else:
        always = np.full((KEYS, len(MOVES)), PACK, dtype=np.int8)
        monkeypatch.setattr(ExpertBot, "blueprint_seats", frozenset())
        monkeypatch.setattr(expert_module, "SEAT_TABLES", {3: "everywhere"})
        monkeypatch.setattr(expert_module, "load_corrections", lambda which: always)
    rules = Rules()
    game = Game(rules, ["expert", "hard", "hard"], random.Random(5).randbytes(32), dealer=0)
    players = [ExpertBot(1), HardBot(2), HardBot(3)]
    read_in: set[int] = set()
    while not game.finished and game.hands_played < 6:
        hand = game.start_hand()
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            if seat == 0 and multiway_key(v) is not None and v.side_show is None:
                assert players[0].decide(v).kind is ActionKind.PACK
                read_in.add(game.hands_played)
            game.apply(players[seat].decide(v))
    assert min(game.chips) < rules.starting_chips
    assert len(read_in) >= 5 and max(read_in) >= 5


@pytest.mark.parametrize("seats", sorted(BLUEPRINT_SEATS | {3}))
def test_the_shipped_blueprint_has_a_row_wherever_the_expert_plays_it(seats: int) -> None:
    """A blueprint is shipped for three seats (not played there as shipped: ``expert`` plays
    its corrections) and for every size in ``BLUEPRINT_SEATS``; played by ``expert`` against
    itself, every decision finds a row in it (a blueprint missing, or solved for other
    information sets, fails it)."""
    rules = Rules()
    policy = load_blueprint(blueprint_path(seats))
    assert policy is not None and policy.shape == (KEYS, len(MOVES))
    met = 0
    for number in range(20):
        seed = random.Random(number).randbytes(32)
        hand = Hand(rules, [rules.starting_chips] * seats, dealer=number % seats, seed=seed)
        bots = [ExpertBot(number * seats + s) for s in range(seats)]
        for bot in bots:
            bot.blueprint_seats = frozenset({seats})
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            v = view(hand, seat)
            key = multiway_key(v)
            assert key is not None and policy[key].sum() > 0, number
            met += 1
            hand.apply(bots[seat].decide(v))
    assert met > 100


def test_a_solve_keeps_its_table_sizes(tmp_path: Path) -> None:
    """A solve dealt to three seats deals only three, keeps that in its state, and goes on
    only as a solve of the same sizes."""
    state = tmp_path / "three.npz"
    main(["--seats", "3", "--iterations", "20", "--every", "20", "--state", str(state)])
    solver = Solver.resume(state)
    assert solver.seats == (3,) and solver.iterations == 20
    three = solver.average.reshape(2, 5, -1, len(MOVES)).sum(axis=(2, 3))
    assert three[0, 1] > 0 and three[:, 2:].sum() == 0  # three in at most, never four
    with pytest.raises(SystemExit):
        main(["--seats", "4", "--iterations", "40", "--state", str(state)])
    with pytest.raises(SystemExit):
        main(["--seats", "7", "--iterations", "40", "--state", str(tmp_path / "seven.npz")])


@pytest.mark.slow
def test_a_respond_build_searches_the_experts_own_decisions(tmp_path: Path) -> None:
    """A ``--respond`` build plays ``expert`` against itself and counts a position at its
    decisions in every seat, its answers to side shows included, against ``expert``'s own move;
    its state goes on from the file and is not combined with a build of another kind."""
    sums = Sums(seed=3, respond=True)
    search = Rollouts(samples=2)
    while sums.hands < 3:
        sums.add_hand(search)
    assert sums.everywhere and sums.positions == int(sums.count.sum()) > 3
    path = tmp_path / "respond.npz"
    sums.save(path)
    again = Sums.resume(path)
    assert again.respond and again.positions == sums.positions
    plain = tmp_path / "plain.npz"
    Sums(seed=3).save(plain)
    with pytest.raises(ValueError):
        combined([path, plain])


@pytest.mark.slow
def test_a_respond_build_answers_the_policy_it_is_given() -> None:
    """A ``--respond`` build given another policy (a later round of the response loop,
    ``bench/response_loop.py``) plays it in every seat and in the rollouts, at the table sizes
    given, and counts its moves."""
    sizes: set[int] = set()

    class Answered(HardBot):
        def decide(self, view: HandView) -> Action:
            sizes.add(sum(s.dealt for s in view.seats))
            return super().decide(view)

    sums = Sums(seed=3, respond=True, answered=Answered, answered_seats=(4,))
    search = Rollouts(samples=2)
    while sums.hands < 2:
        sums.add_hand(search)
    assert sums.positions == int(sums.count.sum()) > 3
    assert sizes == {4}
