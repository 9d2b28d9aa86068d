"""Cards: a card is a small int, and text like ``As Kd 9c`` (also ``10h``, ``Jk``) parses to it.

A standard card is ``rank_index * 4 + suit_index`` where ``rank_index`` is 0 for a two up to 12 for
an ace and ``suit_index`` is 0 clubs, 1 diamonds, 2 hearts, 3 spades (the order in which
``suits_break_ties`` ranks them, lowest first). The two jokers are 52 and 53.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "JOKERS",
    "RANKS",
    "STANDARD_DECK",
    "SUITS",
    "CardError",
    "card_rank",
    "card_str",
    "card_suit",
    "cards_str",
    "is_joker",
    "make_card",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
"""Rank letters, lowest first; a card's rank value is its index here plus 2 (ace = 14)."""
SUITS = "cdhs"
"""Suit letters in ascending order: clubs, diamonds, hearts, spades."""
JOKERS: tuple[int, int] = (52, 53)
"""The two jokers of the ``jokers`` variant."""
STANDARD_DECK: tuple[int, ...] = tuple(range(52))
"""The 52 standard cards in ascending order."""


class CardError(ValueError):
    """Text that does not name a card, or a wrong set of cards."""


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2-14, ace high) and ``suit`` (0 clubs .. 3 spades)."""
    if not 2 <= rank <= 14 or not 0 <= suit <= 3:
        raise CardError(f"no card has rank {rank} and suit {suit}")
    return (rank - 2) * 4 + suit


def card_rank(card: int) -> int:
    """The rank of a standard card, 2-14 (ace = 14)."""
    return card // 4 + 2


def card_suit(card: int) -> int:
    """The suit of a standard card: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card % 4


def is_joker(card: int) -> bool:
    """Whether ``card`` is one of the two jokers."""
    return card >= 52


def parse_card(text: str) -> int:
    """Parse one card: ``As``, ``Td`` or ``10d``, ``9c``; ``Jk`` (or ``JK``, ``Jo``) is a joker.

    Ranks are case-insensitive, as are suits. The first joker parsed is 52; use
    :func:`parse_cards` to get both jokers of a hand numbered apart.
    """
    t = text.strip()
    if t.lower() in ("jk", "jo", "joker"):
        return JOKERS[0]
    if len(t) == 3 and t[:2] == "10":
        t = "T" + t[2]
    if len(t) != 2:
        raise CardError(f"{text!r} is not a card (write rank then suit, like As, Td or 10d)")
    rank = RANKS.find(t[0].upper())
    suit = SUITS.find(t[1].lower())
    if rank < 0:
        raise CardError(
            f"{text!r} is not a card: {t[0]!r} is not a rank (2-9, T or 10, J, Q, K, A)"
        )
    if suit < 0:
        raise CardError(f"{text!r} is not a card: {t[1]!r} is not a suit (s, h, d, c)")
    return rank * 4 + suit


def parse_cards(text: str | Iterable[str]) -> tuple[int, ...]:
    """Parse cards separated by spaces or commas, like ``"As Kd 9c"``; jokers are numbered apart.

    A card named twice is refused (the second joker is 53, a third joker is refused).
    """
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards: list[int] = []
    for word in words:
        card = parse_card(word)
        if card == JOKERS[0] and card in cards:
            card = JOKERS[1]
        if card in cards:
            raise CardError(f"{word} is named twice")
        cards.append(card)
    return tuple(cards)


def card_str(card: int) -> str:
    """The text of one card: ``As``, ``Td``, ``Jk``."""
    if card >= 52:
        if card > 53:
            raise CardError(f"{card} is not a card")
        return "Jk"
    if card < 0:
        raise CardError(f"{card} is not a card")
    return RANKS[card // 4] + SUITS[card % 4]


def cards_str(cards: Iterable[int]) -> str:
    """The text of several cards separated by spaces: ``As Kd 9c``."""
    return " ".join(card_str(c) for c in cards)
