"""Hand odds against brute-force counts: heads-up and two opponents exact, the percentile exact,
sampling seeded and close, every ranking and variant, card removal."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest

from teenpatti.engine import Evaluator, Rules, parse_cards
from teenpatti.engine.evaluate import Ranking
from teenpatti.odds import hand_odds, heads_up, heads_up_equity, percentile, view_odds

STANDARD = Ranking()


def _pack(ranking: Ranking) -> list[int]:
    return list(range(54 if ranking.variant == "jokers" else 52))


def brute_heads_up(
    cards: tuple[int, ...], ranking: Ranking, wild: int | None = None, dead: tuple[int, ...] = ()
) -> tuple[float, float]:
    evaluator = Evaluator.get(ranking)
    mine = evaluator.strength(cards, wild)
    out = set(cards) | set(dead) | ({wild} if wild is not None else set())
    rest = [c for c in _pack(ranking) if c not in out]
    win = tie = total = 0
    for other in combinations(rest, 3):
        s = evaluator.strength(other, wild)
        win += s < mine
        tie += s == mine
        total += 1
    return win / total, tie / total


def brute_two(cards: tuple[int, ...], ranking: Ranking) -> tuple[float, float]:
    """Every ordered pair of disjoint opponent hands, with numpy."""
    evaluator = Evaluator.get(ranking)
    mine = evaluator.strength(cards)
    rest = [c for c in _pack(ranking) if c not in cards]
    hands = list(combinations(rest, 3))
    strength = np.array([evaluator.strength(h) for h in hands])
    masks = np.array([(1 << a) | (1 << b) | (1 << c) for a, b, c in hands], dtype=np.uint64)
    win = beat_or_tie = 0
    for i in range(len(hands)):
        if strength[i] > mine:
            continue
        apart = (masks & masks[i]) == 0
        if strength[i] < mine:
            win += int(np.count_nonzero(apart & (strength < mine)))
        beat_or_tie += int(np.count_nonzero(apart & (strength <= mine)))
    total = len(hands) * int(np.count_nonzero((masks & masks[0]) == 0))
    return win / total, (beat_or_tie - win) / total


HANDS = ["As Kd 9c", "2c 3d 5h", "Ah Ad 7c", "Qs Js Ts", "7h 7d 7c", "Kc 9c 4c", "Ah 2s 3d"]


@pytest.mark.parametrize("text", HANDS)
def test_heads_up_is_exact(text: str) -> None:
    cards = parse_cards(text)
    assert heads_up(cards) == pytest.approx(brute_heads_up(cards, STANDARD), abs=1e-12)


@pytest.mark.parametrize(
    ("ranking", "text", "wild"),
    [
        (Ranking(variant="muflis"), "2c 3d 5h", None),
        (Ranking(variant="muflis"), "As Kd 9c", None),
        (Ranking(a23="lowest", suits_break_ties=True, two_three_five=True), "2s 3s 5s", None),
        (Ranking(suits_break_ties=True), "Ah Kd 9c", None),
        (Ranking(variant="jokers"), "Jk 9c 8c", None),
        (Ranking(variant="ak47"), "Ah 9c 8c", None),
        (Ranking(variant="wild_rank"), "Ks 9c 8c", "5d"),
        (Ranking(variant="wild_rank"), "5s 9c 2c", "5d"),
    ],
)
def test_heads_up_is_exact_under_every_ranking(
    ranking: Ranking, text: str, wild: str | None
) -> None:
    cards = parse_cards(text)
    turned = parse_cards(wild)[0] if wild else None
    expected = brute_heads_up(cards, ranking, turned)
    assert heads_up(cards, ranking, turned) == pytest.approx(expected, abs=1e-12)


def test_dead_cards_are_taken_out() -> None:
    cards = parse_cards("Ah Kh 2c")
    dead = parse_cards("As Ad Qh Jh")
    assert heads_up(cards, dead=dead) == pytest.approx(brute_heads_up(cards, STANDARD, None, dead))
    assert heads_up(cards, dead=dead) != heads_up(cards)


@pytest.mark.parametrize(
    ("text", "ranking"),
    [("As Kd 9c", STANDARD), ("Ah Ad 7c", STANDARD), ("Jk 9c 8c", Ranking(variant="jokers"))],
)
def test_two_opponents_is_exact(text: str, ranking: Ranking) -> None:
    cards = parse_cards(text)
    odds = hand_odds(cards, 2, ranking)
    assert odds.exact
    win, tie = brute_two(cards, ranking)
    assert odds.win == pytest.approx(win, abs=1e-12)
    assert odds.tie == pytest.approx(tie, abs=1e-12)


def test_percentile_is_exact() -> None:
    evaluator = Evaluator.get()
    strengths = sorted(evaluator.strength(h) for h in combinations(range(52), 3))
    for text in HANDS:
        cards = parse_cards(text)
        s = evaluator.strength(cards)
        below = sum(x < s for x in strengths)
        equal = sum(x == s for x in strengths) - 1
        expected = 100 * (below + equal / 2) / (len(strengths) - 1)
        assert percentile(cards) == pytest.approx(expected, abs=1e-9)
    assert percentile(parse_cards("As Ad Ah")) > 99.98
    assert percentile(parse_cards("2c 3d 5h")) < 0.2
    # muflis turns the order round
    assert percentile(parse_cards("2c 3d 5h"), Ranking(variant="muflis")) > 99.8


def test_sampling_is_seeded_and_close() -> None:
    cards = parse_cards("Ah Ad 7c")
    first = hand_odds(cards, 3, samples=40_000)
    again = hand_odds(cards, 3, samples=40_000)
    assert first == again
    assert not first.exact and first.samples == 40_000
    assert 0 < first.error < 0.01
    # against three independent opponents the exact heads-up chance cubed is within a point
    win, _tie = heads_up(cards)
    assert first.win == pytest.approx(win**3, abs=0.015)
    assert first.win <= hand_odds(cards, 2).win <= hand_odds(cards, 1).win


def test_odds_are_refused_for_impossible_questions() -> None:
    with pytest.raises(ValueError):
        hand_odds(parse_cards("As Kd 9c"), 0)
    with pytest.raises(ValueError):
        hand_odds(parse_cards("As Kd 9c"), 17)
    with pytest.raises(ValueError):
        heads_up(parse_cards("As Kd"))


def test_equity_is_the_bots_scale() -> None:
    for text in HANDS:
        cards = parse_cards(text)
        win, tie = heads_up(cards)
        assert heads_up_equity(cards) == pytest.approx(win + tie / 2)


def test_view_odds_are_for_the_seen_viewer_against_players_still_in() -> None:
    from teenpatti.engine import Hand, view

    cards = [parse_cards("As Ad Ac"), parse_cards("Kh Qh Jh"), parse_cards("2c 3d 5h")]
    hand = Hand(Rules(), [1000] * 3, 0, cards)
    assert view_odds(view(hand, 2)) is None  # blind: no tip about cards it has not seen
    hand.see(2)
    tip = view_odds(view(hand, 2))
    assert tip is not None and tip.opponents == 2 and tip.win == 0.0
    assert tip == hand_odds(cards[2], 2)
