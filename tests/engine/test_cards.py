"""Cards: the numbering, parsing and printing of cards."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teenpatti.engine.cards import (
    JOKERS,
    STANDARD_DECK,
    CardError,
    card_rank,
    card_str,
    card_suit,
    cards_str,
    is_joker,
    make_card,
    parse_card,
    parse_cards,
)


def test_numbering_is_rank_times_four_plus_suit() -> None:
    assert parse_card("2c") == 0
    assert parse_card("2d") == 1
    assert parse_card("2h") == 2
    assert parse_card("2s") == 3
    assert parse_card("3c") == 4
    assert parse_card("As") == 51
    assert make_card(14, 3) == 51
    assert make_card(10, 1) == parse_card("Td")


def test_rank_and_suit_of_every_card() -> None:
    for card in STANDARD_DECK:
        assert make_card(card_rank(card), card_suit(card)) == card
        assert 2 <= card_rank(card) <= 14
        assert 0 <= card_suit(card) <= 3
    assert card_rank(parse_card("Ah")) == 14
    assert card_suit(parse_card("Ah")) == 2


@pytest.mark.parametrize(
    ("text", "card"),
    [("Td", 33), ("10d", 33), ("td", 33), ("AS", 51), ("kH", 46), (" 9c ", 28), ("Jk", 52)],
)
def test_spellings(text: str, card: int) -> None:
    assert parse_card(text) == card


@pytest.mark.parametrize("text", ["", "A", "Ax", "1s", "Zs", "Asd", "11s", "joke"])
def test_not_a_card(text: str) -> None:
    with pytest.raises(CardError):
        parse_card(text)


@pytest.mark.parametrize(("rank", "suit"), [(1, 0), (15, 0), (2, -1), (2, 4)])
def test_make_card_refuses_out_of_range(rank: int, suit: int) -> None:
    with pytest.raises(CardError):
        make_card(rank, suit)


def test_parse_cards_separators_and_jokers() -> None:
    assert parse_cards("As Kd, 9c") == (51, 45, 28)
    assert parse_cards(["As", "Kd"]) == (51, 45)
    assert parse_cards("Jk 2c jk") == (52, 0, 53)
    assert all(is_joker(card) for card in JOKERS)
    assert not is_joker(51)


@pytest.mark.parametrize("text", ["As As", "2c 3d 2C", "Jk Jk Jk", "10h Th"])
def test_parse_cards_refuses_a_card_named_twice(text: str) -> None:
    with pytest.raises(CardError):
        parse_cards(text)


def test_card_str_of_every_card() -> None:
    texts = [card_str(card) for card in range(54)]
    assert texts[:4] == ["2c", "2d", "2h", "2s"]
    assert texts[51] == "As"
    assert texts[52:] == ["Jk", "Jk"]
    assert len(set(texts[:52])) == 52
    for bad in (-1, 54):
        with pytest.raises(CardError):
            card_str(bad)


@given(st.permutations(list(range(54))).map(lambda cards: cards[:5]))
def test_cards_str_round_trip(cards: list[int]) -> None:
    text = cards_str(cards)
    parsed = parse_cards(text)
    # Both jokers print as "Jk"; parsing numbers them apart in the order they come.
    assert [min(c, 52) for c in parsed] == [min(c, 52) for c in cards]
    assert cards_str(parsed) == text
