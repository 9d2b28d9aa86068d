"""Bulk hand evaluation with numpy: the strengths of millions of hands in one call.

The strengths are exactly those of :meth:`teenpatti.engine.evaluate.Evaluator.strength`: this
module keeps a ``uint16`` numpy copy of the evaluator's flat table (315 KiB, it stays in cache) and
looks every hand up with one gather. For the fastest path, turn the hands into table indices once
with :func:`bulk_index` and evaluate the indices with :func:`bulk_strength_of_index`, or use
:func:`bulk_strength`, which does both.

Cards become indices with ``numpy.ravel_multi_index``, which checks that every card is 0-53 in
the same pass, and :func:`bulk_strength` works through the hands in blocks of 65,536, so that the
indices of a block are still in the processor's cache when they are looked up (three to four
times faster than whole-array arithmetic, which writes and reads back temporaries as large as
the input).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

from .evaluate import CARD_COUNT, Evaluator, Ranking, Variant

__all__ = [
    "DEFAULT_RANKING",
    "bulk_index",
    "bulk_strength",
    "bulk_strength_of_index",
    "strength_array",
]

_SHAPE = (CARD_COUNT, CARD_COUNT, CARD_COUNT)
_BLOCK = 1 << 16
"""Hands per block in :func:`bulk_strength`."""
DEFAULT_RANKING = Ranking()
"""The ranking used when none is given: our table's (``nepal``)."""


@lru_cache(maxsize=64)
def _array(ranking: Ranking, wild_rank: int | None) -> npt.NDArray[np.uint16]:
    evaluator = Evaluator.get(ranking)
    table = evaluator.table(None if wild_rank is None else wild_rank * 4)
    array = np.asarray(table, dtype=np.uint16)  # strengths are class numbers below 2**16
    array.flags.writeable = False
    return array


def strength_array(
    ranking: Ranking = DEFAULT_RANKING, wild: int | None = None
) -> npt.NDArray[np.uint16]:
    """The evaluator's flat strength table as a read-only ``uint16`` array (cached).

    ``array[a * 2916 + b * 54 + c]`` is the strength of cards ``a``, ``b``, ``c`` in any order;
    ``wild`` is the card turned up under ``wild_rank`` and ignored otherwise.
    """
    wild_rank = None
    if wild is not None and ranking.variant == Variant.WILD_RANK:
        Evaluator.get(ranking).wild_cards(wild)  # refuses a card that cannot be turned up
        wild_rank = wild // 4
    return _array(ranking, wild_rank)


def bulk_index(hands: npt.ArrayLike) -> npt.NDArray[np.signedinteger[Any]]:
    """The table index ``a * 2916 + b * 54 + c`` of every row of an ``(N, 3)`` array of cards.

    The index is ``int64`` for 8-byte card arrays and ``int32`` otherwise. Raises
    :class:`ValueError` for another shape or a number that is not a card (0-53).
    """
    cards = _cards(hands)
    index = _index(cards)
    return index if cards.dtype.itemsize == 8 else index.astype(np.int32)


def _cards(hands: npt.ArrayLike) -> npt.NDArray[np.integer[Any]]:
    """``hands`` as an ``(N, 3)`` integer array (refused with :class:`ValueError` otherwise)."""
    cards = np.asarray(hands)
    if cards.ndim != 2 or cards.shape[1] != 3:
        raise ValueError(f"hands must be an (N, 3) array of cards, not shape {cards.shape}")
    if not np.issubdtype(cards.dtype, np.integer):
        raise ValueError(f"hands must hold integer cards, not {cards.dtype}")
    if cards.dtype == np.uint64:  # numpy's indices are signed: a huge card turns negative
        cards = cards.astype(np.int64)
    return cards


def _index(cards: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.signedinteger[Any]]:
    """The table indices of ``cards`` (from :func:`_cards`), each card checked to be 0-53."""
    try:
        index: npt.NDArray[np.signedinteger[Any]] = np.ravel_multi_index(
            (cards[:, 0], cards[:, 1], cards[:, 2]), _SHAPE
        )
    except ValueError:
        raise ValueError(f"cards are numbers from 0 to {CARD_COUNT - 1}") from None
    return index


def bulk_strength_of_index(
    index: npt.NDArray[np.integer[Any]], ranking: Ranking = DEFAULT_RANKING, wild: int | None = None
) -> npt.NDArray[np.uint16]:
    """The strengths of hands given by their table indices (see :func:`bulk_index`)."""
    return np.take(strength_array(ranking, wild), index)


def bulk_strength(
    hands: npt.ArrayLike, ranking: Ranking = DEFAULT_RANKING, wild: int | None = None
) -> npt.NDArray[np.uint16]:
    """The strength of every row of an ``(N, 3)`` integer array of cards, as ``uint16``.

    Equal to :meth:`Evaluator.strength` row by row, for valid hands. Rows are not checked for
    repeated cards, nor for jokers outside the ``jokers`` variant: such rows get a meaningless
    strength. ``wild`` is the card turned up under ``wild_rank`` (the same for every row).
    """
    cards = _cards(hands)
    table = strength_array(ranking, wild)
    out = np.empty(len(cards), dtype=np.uint16)
    for start in range(0, len(cards), _BLOCK):
        stop = start + _BLOCK
        np.take(table, _index(cards[start:stop]), out=out[start:stop], mode="clip")
    return out
