"""The fair deck: a secret seed per hand, its published commitment, and the shuffle it decides.

Before the deal the server draws a fresh secret seed of 32 bytes (the engine draws none) and
publishes :func:`commitment`, the SHA-256 of the seed as lowercase hex. After the hand it reveals
the seed; anyone can then check the commitment and re-derive the deck exactly like this:

1. Start from the cards in ascending order: ``[0, 1, ..., 51]``, then ``52, 53`` when the pack has
   jokers. A card is ``rank_index * 4 + suit_index`` (rank 0 = two .. 12 = ace; suit 0 clubs,
   1 diamonds, 2 hearts, 3 spades); 52 and 53 are the jokers.
2. Random words: for ``counter = 0, 1, 2, ...`` compute
   ``block = HMAC-SHA256(key=seed, msg=b"teenpatti-deck/1" + counter.to_bytes(8, "big"))`` and
   cut each 32-byte block into eight 32-bit big-endian unsigned words, first bytes first. The words
   of block 0, then of block 1, and so on, form one stream, read in order.
3. Fisher-Yates: for ``i`` from ``n - 1`` down to ``1`` (``n`` the number of cards), let
   ``m = i + 1`` and ``limit = (2**32 // m) * m``; take the next word ``w`` of the stream; if
   ``w >= limit`` throw it away and take the next one (rejection sampling: no modulo bias);
   otherwise ``j = w % m``, and swap the cards at positions ``i`` and ``j``.
4. The result is the deck, top card first (position 0 is dealt first).

:func:`deal` then gives the cards out one at a time in the order of play.
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Iterator, Sequence

__all__ = ["DOMAIN", "SEED_BYTES", "commitment", "deal", "shuffled_deck"]

SEED_BYTES = 32
"""Length of a deck seed in bytes."""
DOMAIN = b"teenpatti-deck/1"
"""The prefix of every HMAC message; it names this algorithm and its version."""

_BLOCK = struct.Struct(">8I")
_LIMITS = [0] + [(2**32 // m) * m for m in range(1, 55)]


def _check_seed(seed: bytes) -> None:
    if not isinstance(seed, bytes | bytearray) or len(seed) != SEED_BYTES:
        size = len(seed) if isinstance(seed, bytes | bytearray) else type(seed).__name__
        raise ValueError(f"a deck seed is {SEED_BYTES} bytes, not {size}")


def commitment(seed: bytes) -> str:
    """The SHA-256 of ``seed`` in lowercase hex: published before the deal, checked after it."""
    _check_seed(seed)
    return hashlib.sha256(seed).hexdigest()


def _words(seed: bytes) -> Iterator[int]:
    """The endless stream of 32-bit big-endian words drawn from the HMAC-SHA256 counter blocks."""
    counter = 0
    while True:
        yield from _BLOCK.unpack(hmac.digest(seed, DOMAIN + counter.to_bytes(8, "big"), "sha256"))
        counter += 1


def shuffled_deck(seed: bytes, *, jokers: bool = False) -> list[int]:
    """The deck that ``seed`` decides, top card first (the algorithm is in the module docstring).

    >>> sorted(shuffled_deck(bytes(32))) == list(range(52))
    True

    Raises :class:`ValueError` if ``seed`` is not 32 bytes.
    """
    _check_seed(seed)
    deck = list(range(54 if jokers else 52))
    words = _words(bytes(seed))
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        limit = _LIMITS[m]
        w = next(words)
        while w >= limit:
            w = next(words)
        j = w % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal(
    deck: Sequence[int], order: Sequence[int]
) -> tuple[dict[int, tuple[int, int, int]], list[int]]:
    """Deal three cards each, one at a time: card ``k`` goes to seat ``order[k % len(order)]``.

    ``order`` lists the seats in the order they receive cards (the first to act first). Returns
    each seat's three cards in the order received, and the rest of the deck, whose first card is
    the one turned up under ``wild_rank``.

    >>> hands, rest = deal(list(range(10)), [2, 0])
    >>> hands
    {2: (0, 2, 4), 0: (1, 3, 5)}
    >>> rest
    [6, 7, 8, 9]
    """
    seats = len(order)
    if seats == 0:
        raise ValueError("nobody to deal to")
    if len(set(order)) != seats:
        raise ValueError(f"a seat appears twice in the order of the deal: {list(order)}")
    dealt = 3 * seats
    if len(deck) < dealt:
        raise ValueError(f"{seats} players need {dealt} cards; the deck has {len(deck)}")
    hands = {seat: (deck[s], deck[s + seats], deck[s + 2 * seats]) for s, seat in enumerate(order)}
    return hands, list(deck[dealt:])
