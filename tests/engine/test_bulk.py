"""Bulk evaluation with numpy agrees with the evaluator, hand by hand."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from teenpatti.engine.bulk import (
    bulk_index,
    bulk_strength,
    bulk_strength_of_index,
    strength_array,
)
from teenpatti.engine.cards import parse_card
from teenpatti.engine.evaluate import Evaluator, Ranking

ALL_HANDS = np.array(list(itertools.combinations(range(52), 3)), dtype=np.int64)
RANKINGS = [
    Ranking(),
    Ranking(a23="lowest", two_three_five=True),
    Ranking(suits_break_ties=True, a23="highest"),
    Ranking(variant="muflis"),
    Ranking(variant="ak47"),
]


@pytest.mark.parametrize("ranking", RANKINGS)
def test_every_hand_in_every_order(ranking: Ranking) -> None:
    evaluator = Evaluator.get(ranking)
    expected = np.array([evaluator.strength(tuple(int(c) for c in h)) for h in ALL_HANDS])
    for order in itertools.permutations(range(3)):
        assert np.array_equal(bulk_strength(ALL_HANDS[:, order], ranking), expected)


def test_jokers_hands() -> None:
    ranking = Ranking(variant="jokers", suits_break_ties=True)
    evaluator = Evaluator.get(ranking)
    hands = np.array([h for h in itertools.combinations(range(54), 3) if max(h) >= 52])
    expected = [evaluator.strength(tuple(int(c) for c in h)) for h in hands]
    assert bulk_strength(hands, ranking).tolist() == expected


def test_wild_rank_uses_the_card_turned_up() -> None:
    ranking = Ranking(variant="wild_rank")
    evaluator = Evaluator.get(ranking)
    for wild in (parse_card("9c"), parse_card("As"), None):
        expected = [evaluator.strength(tuple(int(c) for c in h), wild) for h in ALL_HANDS]
        assert bulk_strength(ALL_HANDS, ranking, wild).tolist() == expected
    nine = bulk_strength(ALL_HANDS, ranking, parse_card("9c"))
    assert not np.array_equal(nine, bulk_strength(ALL_HANDS, ranking, parse_card("8c")))
    assert np.array_equal(nine, bulk_strength(ALL_HANDS, ranking, parse_card("9h")))


@given(
    st.lists(st.permutations(list(range(52))).map(lambda d: d[:3]), min_size=1, max_size=40),
    st.sampled_from([np.uint8, np.int16, np.int32, np.int64, np.uint64]),
)
def test_any_integer_dtype(hands: list[list[int]], dtype: type[np.integer]) -> None:
    evaluator = Evaluator.get()
    array = np.array(hands, dtype=dtype)
    expected = [evaluator.strength(h) for h in hands]
    assert bulk_strength(array).tolist() == expected
    assert bulk_strength(hands).tolist() == expected  # plain lists too
    assert bulk_strength_of_index(bulk_index(array)).tolist() == expected


def test_index_and_table() -> None:
    hands = np.array([[51, 47, 43], [0, 1, 2]])
    assert bulk_index(hands).tolist() == [51 * 2916 + 47 * 54 + 43, 0 * 2916 + 1 * 54 + 2]
    array = strength_array()
    assert array.dtype == np.uint16
    assert array.tolist() == Evaluator.get().table()
    with pytest.raises(ValueError):
        array[0] = 1  # read-only: it is shared


def test_empty() -> None:
    assert bulk_strength(np.zeros((0, 3), dtype=np.int64)).shape == (0,)


@pytest.mark.parametrize(
    "hands",
    [
        np.array([[0, 1]]),
        np.array([0, 1, 2]),
        np.array([[0, 1, 54]]),
        np.array([[-1, 1, 2]]),
        np.array([[0.0, 1.0, 2.0]]),
        np.array([[True, False, True]]),
    ],
)
def test_refuses_what_is_not_an_array_of_hands(hands: np.ndarray) -> None:
    with pytest.raises(ValueError):
        bulk_strength(hands)
