"""The arena: duplicate deals, rotations, reproducible results, and a bot that breaks the rules."""

from __future__ import annotations

import json
from typing import ClassVar

import pytest

from teenpatti.bots import BOTS, Bot
from teenpatti.bots.arena import (
    ArenaError,
    deal_seed,
    play_deal,
    play_game,
    run_arena,
    seatings,
)
from teenpatti.engine import Action, ActionKind, HandView, Rules


def test_seatings_rotate_every_bot_through_every_seat() -> None:
    assert seatings(2, 2) == [(0, 1), (1, 0)]
    assert seatings(2, 4) == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert seatings(1, 3) == [(0, 0, 0)]
    rotations = seatings(3, 4)
    assert len(rotations) == 4
    for seat in range(4):
        assert {r[seat] for r in rotations} == {0, 1, 2}
    with pytest.raises(ValueError):
        seatings(0, 2)


def test_deal_seeds_are_fixed_by_the_arena_seed() -> None:
    assert deal_seed(1, 0) == deal_seed(1, 0)
    assert len(deal_seed(1, 0)) == 32
    assert len({deal_seed(1, d) for d in range(50)}) == 50
    assert deal_seed(1, 0) != deal_seed(2, 0)


def test_a_run_is_reproducible_and_the_same_with_workers() -> None:
    one = run_arena(["hard", "easy", "random"], seats=3, deals=30, seed=5)
    again = run_arena(["hard", "easy", "random"], seats=3, deals=30, seed=5)
    shared = run_arena(["hard", "easy", "random"], seats=3, deals=410, seed=5, workers=2)
    alone = run_arena(["hard", "easy", "random"], seats=3, deals=410, seed=5, workers=1)
    assert one == again
    assert shared == alone
    other = run_arena(["hard", "easy", "random"], seats=3, deals=30, seed=6)
    assert other != one


def test_results_are_zero_sum_and_in_boots() -> None:
    result = run_arena(["medium", "random"], seats=4, deals=40, seed=3)
    a, b = result.bots
    assert a.boots_per_hand == pytest.approx(-b.boots_per_hand, abs=1e-9)
    assert a.ci95 == pytest.approx(b.ci95)
    assert a.ci95 > 0
    three = run_arena(["hard", "medium", "easy"], seats=3, deals=20, seed=3)
    assert sum(x.boots_per_hand for x in three.bots) == pytest.approx(0.0, abs=1e-9)


def test_a_per_deal_result_is_the_mean_over_rotations() -> None:
    rules = Rules()
    per_bot = play_deal(rules, ["easy", "random"], 2, seed=9, deal=0)
    assert len(per_bot) == 2
    assert per_bot[0] == pytest.approx(-per_bot[1])
    # boots: whole chips divided by the boot, averaged over the two rotations
    assert (per_bot[0] * 2 * rules.boot) == pytest.approx(round(per_bot[0] * 2 * rules.boot))


def test_json_shape() -> None:
    result = run_arena(["hard", "medium"], seats=2, deals=10, seed=1)
    data = json.loads(json.dumps(result.to_json()))
    assert data["deals"] == 10 and data["seats"] == 2
    assert [b["bot"] for b in data["bots"]] == ["hard", "medium"]
    assert set(data["bots"][0]) == {"bot", "boots_per_hand", "ci95"}


def test_progress_is_reported() -> None:
    calls: list[tuple[int, int]] = []
    run_arena(
        ["easy", "random"], seats=2, deals=450, seed=1, progress=lambda d, t: calls.append((d, t))
    )
    assert calls[-1] == (450, 450)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


class Cheater(Bot):
    """Raises the stake even when no raise is offered."""

    name = "cheater"

    def decide(self, view: HandView) -> Action:
        assert view.viewer is not None
        return Action(view.viewer, ActionKind.RAISE if view.stake < 1000 else ActionKind.PACK)


def test_an_illegal_move_stops_the_run_naming_the_bot(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(BOTS, "test-cheater", Cheater)
    rules = Rules.from_options({"stake_cap_boots": 1})
    with pytest.raises(ArenaError, match=r"test-cheater.*illegal"):
        run_arena(["test-cheater", "easy"], seats=2, deals=4, seed=1, rules=rules)


def test_bad_arguments() -> None:
    with pytest.raises(ArenaError):
        run_arena(["no-such-bot"], seats=2, deals=4, seed=1)
    with pytest.raises(ArenaError):
        run_arena(["easy"], seats=9, deals=4, seed=1)
    with pytest.raises(ArenaError):
        run_arena([], seats=2, deals=4, seed=1)
    with pytest.raises(ArenaError):
        run_arena(["easy"], seats=2, deals=1, seed=1)


def test_the_ladder_shows_in_a_short_run() -> None:
    """Not the measurement (that is 20,000 deals, in docs/bots.md), a smoke test of it."""
    result = run_arena(["hard", "random"], seats=4, deals=150, seed=2)
    hard = result.bots[0]
    assert hard.boots_per_hand - hard.ci95 > 0


def test_whole_games_carry_chips_and_are_reproducible() -> None:
    rules = Rules.from_options({"hands": 10})
    one = run_arena(["hard", "maniac"], seats=2, deals=4, seed=3, rules=rules, games=True)
    again = run_arena(["hard", "maniac"], seats=2, deals=4, seed=3, rules=rules, games=True)
    assert one == again
    a, b = one.bots
    assert a.boots_per_hand == pytest.approx(-b.boots_per_hand, abs=1e-9)
    data = one.to_json()
    assert data["games"] is True
    assert set(data["bots"][0]) == {"bot", "boots_per_game", "ci95"}  # type: ignore[index]


class Counter(Bot):
    """Chaals or packs, and counts the finished hands it is shown."""

    name = "counter"
    seen: ClassVar[list[int]] = []

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.hands = 0

    def decide(self, view: HandView) -> Action:
        assert view.viewer is not None
        legal = {a.kind: a for a in view.legal_actions}
        kind = ActionKind.CHAAL if ActionKind.CHAAL in legal else ActionKind.PACK
        return legal.get(kind, view.legal_actions[0]).action(view.viewer)

    def observe(self, view: HandView) -> None:
        assert view.finished
        self.hands += 1
        Counter.seen.append(self.hands)


def test_a_bot_lives_through_a_whole_game_and_sees_every_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOTS, "test-counter", Counter)
    Counter.seen.clear()
    rules = Rules.from_options({"hands": 10, "pot_limit_boots": 4})
    play_game(rules, ["test-counter", "test-counter"], 2, seed=1, game=0)
    # one bot per seat for the whole game (two seats, two rotations): each counts to ten
    assert sorted(Counter.seen) == sorted(list(range(1, 11)) * 4)


def test_the_arena_catches_a_level_that_loses_to_a_fixed_style() -> None:
    """A one-line trick against a player that always packs: the arena says who wins."""
    result = run_arena(["never_looks", "tight_aggressive"], seats=2, deals=200, seed=1)
    never, tight = result.bots
    assert never.boots_per_hand - never.ci95 > 0 or tight.boots_per_hand - tight.ci95 > 0
