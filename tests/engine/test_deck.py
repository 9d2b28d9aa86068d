"""The fair deck: seed, commitment, the shuffle the seed decides, and the deal."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from teenpatti.engine import deck as deck_module
from teenpatti.engine.deck import commitment, deal, shuffled_deck

SEED = bytes(range(32))

# Computed once with this implementation and checked against the independent derivation below.
KNOWN_DECK = [
    9, 40, 24, 5, 26, 13, 17, 3, 16, 36, 37, 49, 32, 19, 46, 43, 50, 18, 41, 34, 15, 22, 21, 8, 23,
    7, 29, 2, 28, 27, 51, 47, 39, 12, 14, 30, 38, 25, 4, 1, 45, 20, 48, 6, 0, 10, 11, 31, 33, 35,
    42, 44,
]  # fmt: skip
KNOWN_JOKER_DECK = [
    50, 33, 19, 52, 47, 30, 23, 0, 35, 37, 45, 29, 41, 32, 34, 53, 5, 16, 18, 11, 10, 44, 43, 1,
    15, 24, 48, 42, 27, 8, 7, 3, 6, 21, 46, 4, 20, 14, 38, 17, 49, 13, 39, 36, 26, 12, 31, 40, 22,
    9, 2, 51, 25, 28,
]  # fmt: skip
KNOWN_COMMITMENT = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"


def rederive(seed: bytes, count: int) -> list[int]:
    """The shuffle written again from the module's documentation alone."""
    stream = b"".join(
        hmac.new(seed, b"teenpatti-deck/1" + n.to_bytes(8, "big"), hashlib.sha256).digest()
        for n in range(64)
    )
    words = [int.from_bytes(stream[k : k + 4], "big") for k in range(0, len(stream), 4)]
    cards = list(range(count))
    used = 0
    for i in reversed(range(1, count)):
        bound = i + 1
        while words[used] >= (1 << 32) - (1 << 32) % bound:
            used += 1
        j = words[used] % bound
        used += 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def test_known_answer() -> None:
    assert shuffled_deck(SEED) == KNOWN_DECK
    assert shuffled_deck(SEED, jokers=True) == KNOWN_JOKER_DECK
    assert commitment(SEED) == KNOWN_COMMITMENT


def test_documented_algorithm_rederives_the_deck() -> None:
    assert rederive(SEED, 52) == KNOWN_DECK
    assert rederive(SEED, 54) == KNOWN_JOKER_DECK
    for n in range(20):
        seed = hashlib.sha256(n.to_bytes(4, "big")).digest()
        assert shuffled_deck(seed) == rederive(seed, 52)


@given(st.binary(min_size=32, max_size=32), st.booleans())
def test_deterministic_permutation(seed: bytes, jokers: bool) -> None:
    cards = shuffled_deck(seed, jokers=jokers)
    assert cards == shuffled_deck(seed, jokers=jokers)
    assert sorted(cards) == list(range(54 if jokers else 52))


def test_different_seeds_give_different_decks() -> None:
    decks = {tuple(shuffled_deck(hashlib.sha256(bytes([n])).digest())) for n in range(50)}
    assert len(decks) == 50


def test_rejection_sampling_throws_away_high_words(monkeypatch: pytest.MonkeyPatch) -> None:
    # 2**32 - 1 is at or above the limit for every bound up to 54: it must be skipped, not
    # reduced modulo the bound.
    def words(rest: list[int]) -> Iterator[int]:
        yield from rest
        while True:
            yield 7

    plain = [5, 11, 3] * 30
    monkeypatch.setattr(deck_module, "_words", lambda seed: words(list(plain)))
    expected = shuffled_deck(SEED)
    monkeypatch.setattr(deck_module, "_words", lambda seed: words([2**32 - 1, *plain]))
    assert shuffled_deck(SEED) == expected
    # ... while a word just below the limit is used.
    limit = (2**32 // 52) * 52
    monkeypatch.setattr(deck_module, "_words", lambda seed: words([limit - 1, *plain]))
    assert shuffled_deck(SEED) != expected


def test_top_card_is_uniform_enough() -> None:
    # Deterministic seeds, so this cannot flake: a chi-square test of which card ends on top.
    shuffles = 5200
    counts = [0] * 52
    for n in range(shuffles):
        counts[shuffled_deck(hashlib.sha256(n.to_bytes(4, "big")).digest())[0]] += 1
    expected = shuffles / 52
    chi_square = sum((c - expected) ** 2 / expected for c in counts)
    assert chi_square < 100  # 51 degrees of freedom: p < 0.0001 above 100


@pytest.mark.parametrize("seed", [b"", bytes(31), bytes(33)])
def test_refuses_a_seed_of_the_wrong_size(seed: bytes) -> None:
    with pytest.raises(ValueError, match="32 bytes"):
        shuffled_deck(seed)
    with pytest.raises(ValueError, match="32 bytes"):
        commitment(seed)


def test_refuses_a_seed_that_is_not_bytes() -> None:
    with pytest.raises(ValueError):
        shuffled_deck("0" * 32)  # type: ignore[arg-type]


def test_deal_one_card_at_a_time() -> None:
    cards = list(range(52))
    hands, rest = deal(cards, [3, 1, 2])
    assert hands == {3: (0, 3, 6), 1: (1, 4, 7), 2: (2, 5, 8)}
    assert list(hands) == [3, 1, 2]
    assert rest == list(range(9, 52))


@given(st.binary(min_size=32, max_size=32), st.integers(min_value=1, max_value=17))
def test_deal_gives_every_card_once(seed: bytes, players: int) -> None:
    cards = shuffled_deck(seed)
    order = list(range(players))[::-1]
    hands, rest = deal(cards, order)
    dealt = [card for hand in hands.values() for card in hand]
    assert sorted(dealt + rest) == list(range(52))
    assert rest == cards[3 * players :]
    for k in range(3 * players):
        assert cards[k] in hands[order[k % players]]


def test_deal_refusals() -> None:
    with pytest.raises(ValueError):
        deal(list(range(52)), [])
    with pytest.raises(ValueError):
        deal(list(range(52)), [0, 1, 0])
    with pytest.raises(ValueError):
        deal(list(range(8)), [0, 1, 2])
