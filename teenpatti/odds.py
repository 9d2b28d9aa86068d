"""Hand odds: the chance that three cards beat random hands, and where they stand among all hands.

Everything is computed on the engine's evaluator (:class:`~teenpatti.engine.evaluate.Evaluator`),
so it follows every ranking option and variant (``muflis``, wild cards) exactly. The opponents'
hands are dealt from the cards the viewer does not hold and has not seen (card removal): the
viewer's own three cards, the card turned up under ``wild_rank`` and any ``dead`` cards it knows.

* **One opponent: exact.** The hands that avoid the removed cards are counted by
  inclusion-exclusion over the removed cards, with sorted strength lists per card and per pair of
  cards (built once per ranking and wild rank), so a query is a few dozen binary searches.
* **Two opponents: exact**, by the same counting: the ordered pairs of disjoint weaker hands are
  ``sum over card sets T (|T| <= 3) of (-1)^|T| * M_T^2``, with ``M_T`` the weaker hands holding
  ``T`` (a few milliseconds).
* **Three or more: seeded sampling** (numpy): many deals of the remaining cards, always from the
  same seed, so the same question gets the same answer; the standard error is reported.

Answers for two or more opponents are cached, so a tip shown again costs nothing.

The **percentile** is exact: the share of all hands that could be dealt (given the card turned up)
that are weaker, counting equal hands (other than the hand itself) as half.

:func:`heads_up_equity` is the fast path the computer players use (cached, microseconds);
:func:`hand_odds` and :func:`view_odds` give the full figures the ``odds`` command and the players'
tips show.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np
import numpy.typing as npt

from .engine.bulk import strength_array
from .engine.evaluate import CARD_COUNT, TABLE_SIZE, Evaluator, Ranking, Variant, table_index
from .engine.view import HandView

__all__ = [
    "DEFAULT_SAMPLES",
    "Odds",
    "Universe",
    "hand_odds",
    "heads_up",
    "heads_up_equity",
    "percentile",
    "universe",
    "view_odds",
]

DEFAULT_SAMPLES = 200_000
"""Deals sampled for three or more opponents."""
_SAMPLE_SEED = 0x7E3A
_STRIDES = np.array([table_index((1, 0, 0)), table_index((0, 1, 0)), table_index((0, 0, 1))])
"""What each of three cards adds to a table index (:func:`table_index`), for numpy."""


class Universe:
    """Every hand the pack can deal under one ranking and one wild rank, as sorted strength lists.

    ``all`` holds the strength of every hand; ``by_card[c]`` of every hand holding ``c``;
    ``by_pair[c * CARD_COUNT + d]`` (``c < d``) of every hand holding both. Counting the hands
    weaker than a strength that avoid some removed cards is then inclusion-exclusion over those
    cards.
    """

    def __init__(self, ranking: Ranking, wild: int | None) -> None:
        evaluator = Evaluator.get(ranking)
        self.ranking = ranking
        self.wild = wild
        self.table: list[int] = evaluator.table(wild)
        self.cards = CARD_COUNT if ranking.variant == Variant.JOKERS else 52
        n = self.cards
        table = self.table
        everything: list[int] = []
        by_card: list[list[int]] = [[] for _ in range(n)]
        by_pair: list[list[int]] = [[] for _ in range(CARD_COUNT * CARD_COUNT)]
        for a in range(n):
            for b in range(a + 1, n):
                ab = by_pair[a * CARD_COUNT + b]
                base = table_index((a, b, 0))
                for c in range(b + 1, n):
                    s = table[base + c]
                    everything.append(s)
                    by_card[a].append(s)
                    by_card[b].append(s)
                    by_card[c].append(s)
                    ab.append(s)
                    by_pair[a * CARD_COUNT + c].append(s)
                    by_pair[b * CARD_COUNT + c].append(s)
        everything.sort()
        for hands in by_card:
            hands.sort()
        for hands in by_pair:
            hands.sort()
        self.all = everything
        self.by_card = by_card
        self.by_pair = by_pair
        self._equities: list[float] | None = None

    def strength(self, cards: Sequence[int]) -> int:
        """The strength of three cards (not checked)."""
        return self.table[table_index(cards)]

    def count(self, strength: int, removed: Sequence[int], *, equal: bool = False) -> int:
        """How many hands avoiding every card in ``removed`` (sorted, distinct) are weaker than
        ``strength`` (or weaker or equal, with ``equal``)."""
        find = bisect_right if equal else bisect_left
        total = find(self.all, strength)
        by_card, by_pair, table = self.by_card, self.by_pair, self.table
        for c in removed:
            total -= find(by_card[c], strength)
        for c, d in combinations(removed, 2):
            total += find(by_pair[c * CARD_COUNT + d], strength)
        for c, d, e in combinations(removed, 3):
            s = table[table_index((c, d, e))]
            if s < strength or (equal and s == strength):
                total -= 1
        return total

    def available(self, removed: Sequence[int]) -> int:
        """How many hands avoid every card in ``removed``."""
        return math.comb(self.cards - len(removed), 3)

    def equities(self) -> list[float]:
        """:func:`heads_up_equity` of every hand with no other card removed (no dead card, no
        card turned up), at the hand's table index with its cards in ascending order: the same
        counts as :meth:`count`, done for all hands at once with numpy (built once, cached)."""
        if self._equities is None:
            self._equities = self._all_equities()
        return self._equities

    def _all_equities(self) -> list[float]:
        n, table = self.cards, self.table
        hands = np.array(list(combinations(range(n), 3)), dtype=np.int64)
        strength = np.asarray(table, dtype=np.int64)[hands @ _STRIDES]
        # Each sorted list keyed by (group, strength): one searchsorted counts within a group.
        every = np.asarray(self.all, dtype=np.int64)
        card_keys, card_starts = _grouped(self.by_card)
        pair_lists = [self.by_pair[c * CARD_COUNT + d] for c, d in combinations(range(n), 2)]
        pair_keys, pair_starts = _grouped(pair_lists)
        pair_number = np.full((CARD_COUNT, CARD_COUNT), -1, dtype=np.int64)
        for k, (c, d) in enumerate(combinations(range(n), 2)):
            pair_number[c, d] = k
        counts = []
        for side in ("left", "right"):  # weaker; weaker or equal
            total = np.searchsorted(every, strength, side)
            for col in range(3):
                card = hands[:, col]
                total -= np.searchsorted(card_keys, card << 16 | strength, side) - card_starts[card]
            for x, y in ((0, 1), (0, 2), (1, 2)):
                pair = pair_number[hands[:, x], hands[:, y]]
                total += np.searchsorted(pair_keys, pair << 16 | strength, side) - pair_starts[pair]
            if side == "right":
                total -= 1  # the hand itself, the one triple of removed cards: equal, not weaker
            counts.append(total)
        below, up_to = counts
        available = math.comb(n - 3, 3)
        out = [0.0] * TABLE_SIZE
        for index, b, u in zip(
            (hands @ _STRIDES).tolist(), below.tolist(), up_to.tolist(), strict=True
        ):
            out[index] = b / available + (u - b) / available / 2
        return out


def _grouped(lists: Sequence[list[int]]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Sorted lists of strengths (below 2**16) as one sorted array of ``group << 16 | strength``,
    and where each group starts in it."""
    sizes = np.array([len(x) for x in lists], dtype=np.int64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    groups = np.repeat(np.arange(len(lists), dtype=np.int64), sizes)
    values = np.fromiter((v for x in lists for v in x), dtype=np.int64, count=int(sizes.sum()))
    return groups << 16 | values, starts


@lru_cache(maxsize=128)
def universe(ranking: Ranking, wild: int | None = None) -> Universe:
    """The (cached) :class:`Universe` of ``ranking``; ``wild`` matters only under ``wild_rank``,
    and only its rank."""
    if ranking.variant != Variant.WILD_RANK or wild is None:
        return _universe(ranking, None)
    return _universe(ranking, wild & ~3)


@lru_cache(maxsize=128)
def _universe(ranking: Ranking, wild: int | None) -> Universe:
    return Universe(ranking, wild)


@dataclass(frozen=True, slots=True)
class Odds:
    """The odds of one hand against ``opponents`` random hands.

    ``win``: no opponent's hand is as good; ``tie``: none is better but at least one is equal;
    ``lose`` is the rest. ``exact`` is false when the figures come from ``samples`` seeded deals,
    with ``error`` their standard error. ``percentile``: the share (0-100) of all hands that are
    weaker, equal hands counting half.
    """

    cards: tuple[int, ...]
    opponents: int
    win: float
    tie: float
    exact: bool
    samples: int
    error: float
    percentile: float

    @property
    def lose(self) -> float:
        """The chance that some opponent's hand is better."""
        return max(0.0, 1.0 - self.win - self.tie)

    def to_json(self) -> dict[str, object]:
        """The figures as plain JSON values."""
        return {
            "opponents": self.opponents,
            "win": round(self.win, 6),
            "tie": round(self.tie, 6),
            "lose": round(self.lose, 6),
            "exact": self.exact,
            "samples": self.samples,
            "error": round(self.error, 6),
            "percentile": round(self.percentile, 4),
        }


def _removed(
    cards: Iterable[int], dead: Iterable[int], ranking: Ranking, wild: int | None
) -> tuple[int, ...]:
    out = set(cards)
    out.update(dead)
    if wild is not None and ranking.variant == Variant.WILD_RANK:
        out.add(wild)
    return tuple(sorted(out))


def _check(cards: Sequence[int], ranking: Ranking, wild: int | None) -> tuple[int, int, int]:
    evaluator = Evaluator.get(ranking)
    evaluator.strength(cards, wild)  # raises CardError for anything but a hand of this pack
    if wild is not None and ranking.variant == Variant.WILD_RANK and wild in cards:
        raise ValueError("the card turned up cannot be in the hand")
    a, b, c = sorted(cards)
    return a, b, c


def heads_up(
    cards: Sequence[int],
    ranking: Ranking = Ranking(),
    wild: int | None = None,
    dead: Iterable[int] = (),
) -> tuple[float, float]:
    """Exact ``(win, tie)`` of ``cards`` against one random hand from the cards left.

    >>> from teenpatti.engine.cards import parse_cards
    >>> win, tie = heads_up(parse_cards("Ah As Ad"))
    >>> round(win, 6), tie
    (1.0, 0.0)
    """
    hand = _check(cards, ranking, wild)
    removed = _removed(hand, dead, ranking, wild)
    return _heads_up(hand, removed, ranking, wild)


def _heads_up(
    hand: tuple[int, int, int], removed: tuple[int, ...], ranking: Ranking, wild: int | None
) -> tuple[float, float]:
    world = universe(ranking, wild)
    strength = world.strength(hand)
    below = world.count(strength, removed)
    up_to = world.count(strength, removed, equal=True)
    total = world.available(removed)
    return below / total, (up_to - below) / total


@lru_cache(maxsize=1 << 17)
def _equity(
    hand: tuple[int, int, int], removed: tuple[int, ...], ranking: Ranking, wild: int | None
) -> float:
    win, tie = _heads_up(hand, removed, ranking, wild)
    return win + tie / 2


def heads_up_equity(
    cards: Sequence[int],
    ranking: Ranking = Ranking(),
    wild: int | None = None,
    dead: Iterable[int] = (),
) -> float:
    """Exact share of the pot ``cards`` expect against one random hand (win + half the ties),
    cached: the computer players' measure of a hand, from 0 to 1. Cards are not checked."""
    a, b, c = sorted(cards)
    if not dead and (wild is None or ranking.variant != Variant.WILD_RANK):
        return universe(ranking).equities()[table_index((a, b, c))]
    removed = _removed((a, b, c), dead, ranking, wild)
    turned = wild if ranking.variant == Variant.WILD_RANK else None
    return _equity((a, b, c), removed, ranking, turned)


def percentile(
    cards: Sequence[int], ranking: Ranking = Ranking(), wild: int | None = None
) -> float:
    """The share (0-100) of all hands that could be dealt that are weaker than ``cards``;
    equal hands other than ``cards`` count half. Exact.

    >>> from teenpatti.engine.cards import parse_cards
    >>> round(percentile(parse_cards("3c 2d 5h")), 2)  # the 59 other 5-3-2 count half
    0.13
    """
    hand = _check(cards, ranking, wild)
    world = universe(ranking, wild)
    removed = _removed((), (), ranking, wild)
    strength = world.strength(hand)
    below = world.count(strength, removed)
    equal = world.count(strength, removed, equal=True) - below - 1
    total = world.available(removed)
    return 100.0 * (below + equal / 2) / (total - 1)


@lru_cache(maxsize=4096)
def _two(
    hand: tuple[int, int, int], removed: tuple[int, ...], ranking: Ranking, wild: int | None
) -> tuple[float, float]:
    """Exact ``(win, tie)`` against two random hands, by counting ordered pairs of disjoint
    hands that are both weaker (both weaker or equal)."""
    world = universe(ranking, wild)
    strength = world.strength(hand)
    left = [c for c in range(world.cards) if c not in removed]
    table, by_card, by_pair = world.table, world.by_card, world.by_pair
    rem_pairs = list(combinations(removed, 2))

    def pairs(equal: bool) -> int:
        find = bisect_right if equal else bisect_left

        def weak(s: int) -> bool:
            return s < strength or (equal and s == strength)

        m_empty = world.count(strength, removed, equal=equal)
        total = m_empty * m_empty - m_empty  # |T| = 0 and |T| = 3 (each M_T is 0 or 1)
        for c in left:
            m = find(by_card[c], strength)
            for r in removed:
                m -= find(by_pair[min(c, r) * CARD_COUNT + max(c, r)], strength)
            for r, q in rem_pairs:
                x, y, z = sorted((c, r, q))
                if weak(table[table_index((x, y, z))]):
                    m += 1
            total -= m * m
        for c, d in combinations(left, 2):
            m = find(by_pair[c * CARD_COUNT + d], strength)
            base = table_index((c, d, 0))
            for r in removed:
                if weak(table[base + r]):
                    m -= 1
            total += m * m
        return total

    n = len(left)
    deals = math.comb(n, 3) * math.comb(n - 3, 3)
    win = pairs(False)
    return win / deals, (pairs(True) - win) / deals


@lru_cache(maxsize=4096)
def _sampled(
    hand: tuple[int, int, int],
    removed: tuple[int, ...],
    opponents: int,
    ranking: Ranking,
    wild: int | None,
    samples: int,
    seed: int,
) -> tuple[float, float, float]:
    """``(win, tie, standard error of win)`` from ``samples`` seeded deals."""
    world = universe(ranking, wild)
    strength = world.strength(hand)
    left = np.array([c for c in range(world.cards) if c not in removed], dtype=np.int64)
    if 3 * opponents > len(left):
        raise ValueError(f"the pack has not enough cards for {opponents} opponents")
    table = strength_array(ranking, wild)
    rng = np.random.default_rng(seed)
    wins = 0
    ties = 0
    chunk = 50_000
    done = 0
    while done < samples:
        size = min(chunk, samples - done)
        deals = rng.permuted(np.broadcast_to(left, (size, len(left))), axis=1)
        dealt = deals[:, : 3 * opponents].reshape(size, opponents, 3)
        index = dealt @ _STRIDES
        best = table[index].max(axis=1)
        wins += int(np.count_nonzero(best < strength))
        ties += int(np.count_nonzero(best == strength))
        done += size
    win = wins / samples
    return win, ties / samples, math.sqrt(max(win * (1 - win), 1e-12) / samples)


def hand_odds(
    cards: Sequence[int],
    opponents: int = 1,
    ranking: Ranking = Ranking(),
    wild: int | None = None,
    dead: Iterable[int] = (),
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = _SAMPLE_SEED,
) -> Odds:
    """The odds of ``cards`` against ``opponents`` random hands dealt from the cards left
    (exact for one or two opponents, else from ``samples`` deals drawn from ``seed``).

    >>> from teenpatti.engine.cards import parse_cards
    >>> odds = hand_odds(parse_cards("As Ks Qs"), 1)
    >>> odds.exact, round(odds.win, 4), round(odds.percentile, 2)
    (True, 0.9975, 99.76)
    """
    if opponents < 1:
        raise ValueError("odds need at least one opponent")
    hand = _check(cards, ranking, wild)
    removed = _removed(hand, dead, ranking, wild)
    world = universe(ranking, wild)
    if 3 * opponents > world.cards - len(removed):
        raise ValueError(f"the pack has not enough cards for {opponents} opponents")
    share = percentile(hand, ranking, wild)
    if opponents == 1:
        win, tie = _heads_up(hand, removed, ranking, wild)
        return Odds(hand, 1, win, tie, True, 0, 0.0, share)
    if opponents == 2:
        win, tie = _two(hand, removed, ranking, wild)
        return Odds(hand, 2, win, tie, True, 0, 0.0, share)
    win, tie, error = _sampled(hand, removed, opponents, ranking, wild, samples, seed)
    return Odds(hand, opponents, win, tie, False, samples, error, share)


def view_odds(view: HandView, *, samples: int = 20_000) -> Odds | None:
    """The odds a seat's tip shows: its own cards (once it has seen them) against the other
    players still in, with every card it has been shown taken out of the pack; ``None`` while
    it has not seen its cards or when nobody else is in."""
    if view.viewer is None:
        return None
    you = view.seats[view.viewer]
    if you.cards is None or not you.seen:
        return None
    opponents = sum(1 for s in view.seats if s.dealt and not s.packed and s.seat != view.viewer)
    if opponents == 0:
        return None
    dead = [c for s in view.seats if s.seat != view.viewer and s.cards for c in s.cards]
    return hand_odds(you.cards, opponents, view.rules.ranking, view.wild, dead, samples=samples)
