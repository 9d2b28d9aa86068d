"""Hand evaluation: how strong three cards are under a table's ranking, by one list lookup.

An :class:`Evaluator` (one per :class:`Ranking`, from :meth:`Evaluator.get`) gives every hand a
*strength*: an int, higher is better, equal ints are equal hands. Strengths are dense class numbers:
``0`` is the worst class of hand that three standard cards can make (repeats allowed, since a wild
card may copy a card already held) and the best class has the highest number. Under ``muflis`` the
whole order is reversed, so the lowest hand gets the highest strength.

The fast path is :meth:`Evaluator.table`: a flat list in which ``table[a * 2916 + b * 54 + c]`` is
the strength of the cards ``a``, ``b``, ``c`` in any order (54 counts the jokers;
:func:`table_index` computes the index). It is built lazily, once per ranking and per wild rank.

Wild cards (``ak47``: every A, K, 4 and 7; ``jokers``: the two jokers; ``wild_rank``: every card of
the rank of the card turned up; ``fixed_rank``: every card of one rank named before the game) take
whatever rank and suit gives the best hand, copies of held cards included; the hand then ranks as
that hand. The best hand with one wild card and natural
cards ``x``, ``y`` is the best of the 52 entries ``table[x, y, z]`` of the natural table (a
contiguous slice), with two wild cards it is the best of those over ``y``, and so on: building a
wild table costs a few hundred thousand list reads.

Ranking, best first: trail, pure sequence, sequence, colour, pair, high card. Runs rank by their top
card, A-K-Q highest; A-2-3 ranks second, highest or lowest (option ``a23``); K-A-2 is no run;
``two_three_five`` makes 2-3-5 of one suit the lowest pure sequence. Other hands compare their
highest card, then the next, then the last; pairs compare the pair, then the odd card. With
``suits_break_ties`` (spades > hearts > diamonds > clubs) equal hands are then told apart by the
suits of the cards that decide the hand, highest first: a trail's cards by suit; a pair's two
paired cards (higher suit first), then the odd card; a run's cards from its top (A-2-3: the ace,
then 3, then 2; 2-3-5: 5, 3, 2); other hands by rank, highest first.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from .cards import JOKERS, RANKS, CardError, card_str

__all__ = [
    "A23",
    "CARD_COUNT",
    "TABLE_SIZE",
    "Category",
    "Evaluator",
    "Ranking",
    "Variant",
    "table_index",
]


class Category(StrEnum):
    """The six kinds of hand, best first."""

    TRAIL = "trail"
    PURE_SEQUENCE = "pure_sequence"
    SEQUENCE = "sequence"
    COLOUR = "colour"
    PAIR = "pair"
    HIGH_CARD = "high_card"


class A23(StrEnum):
    """Where the run A-2-3 ranks: second (below A-K-Q), highest, or lowest (below 4-3-2)."""

    SECOND = "second"
    HIGHEST = "highest"
    LOWEST = "lowest"


class Variant(StrEnum):
    """Which cards are wild: none, every A, K, 4 and 7, two jokers, the rank of a card turned up
    after the deal, or one rank fixed for the whole game (option ``fixed_rank``).

    ``muflis`` (the lowest hand wins) is its own option, so it combines with every wild-card
    variant; ``variant: muflis`` is still read, as ``variant: standard`` with ``muflis: true``.
    """

    STANDARD = "standard"
    MUFLIS = "muflis"
    AK47 = "ak47"
    JOKERS = "jokers"
    WILD_RANK = "wild_rank"
    FIXED_RANK = "fixed_rank"


@dataclass(frozen=True, slots=True)
class Ranking:
    """The options that decide which hand beats which.

    ``variant`` says which cards are wild (``standard``: none); ``muflis`` turns the whole order
    upside down and combines with any variant (``variant="muflis"`` alone means the same as
    ``muflis=True``); ``fixed_rank`` is the rank index (0 for deuces, 12 for aces) that is wild
    under ``variant="fixed_rank"``.
    """

    a23: A23 = A23.SECOND
    suits_break_ties: bool = False
    two_three_five: bool = False
    variant: Variant = Variant.STANDARD
    muflis: bool = False
    fixed_rank: int | None = None

    @property
    def lowest_wins(self) -> bool:
        """Whether the lowest hand wins (muflis)."""
        return self.muflis or self.variant == Variant.MUFLIS


CARD_COUNT = 54
"""Cards a table index ranges over: the 52 standard cards and the two jokers."""
TABLE_SIZE = CARD_COUNT**3
"""Length of an :meth:`Evaluator.table`: one entry per ordered triple of card numbers."""

_STRIDE_A = CARD_COUNT * CARD_COUNT
_STRIDE_B = CARD_COUNT
assert (CARD_COUNT, _STRIDE_A, _STRIDE_B) == (54, 2916, 54)  # written out in Evaluator.strength

# Categories by their place in the key, worst first.
_KINDS: tuple[Category, ...] = (
    Category.HIGH_CARD,
    Category.PAIR,
    Category.COLOUR,
    Category.SEQUENCE,
    Category.PURE_SEQUENCE,
    Category.TRAIL,
)
_HIGH, _PAIR, _COLOUR, _SEQUENCE, _PURE, _TRAIL = range(6)
# A key is ((kind * 4096 + rank part) * 64 + suit part); the rank part uses 4 bits per rank.
_KIND_SHIFT = 4096 * 64

# Run positions (rank part of a run's key): a run with top rank index t is at 2 * t, so that
# 4-3-2 is 4 and A-K-Q is 24; A-2-3 goes to 23 (second), 25 (highest) or 1 (lowest); 2-3-5 of
# one suit is 0, below every other pure sequence.
_A23_POSITION = {A23.SECOND: 23, A23.HIGHEST: 25, A23.LOWEST: 1}
_VARIANTS = frozenset(Variant)
_AK47_RANKS = frozenset({RANKS.index("A"), RANKS.index("K"), RANKS.index("4"), RANKS.index("7")})

_LABELS = {
    Category.TRAIL: "Trail",
    Category.PURE_SEQUENCE: "Pure sequence",
    Category.SEQUENCE: "Sequence",
    Category.COLOUR: "Colour",
    Category.PAIR: "Pair",
    Category.HIGH_CARD: "High card",
}


_NOT_DEALT = [-1] * CARD_COUNT


def table_index(cards: Sequence[int]) -> int:
    """The index of three cards in an :meth:`Evaluator.table`: ``a * 2916 + b * 54 + c``."""
    a, b, c = cards
    return a * _STRIDE_A + b * _STRIDE_B + c


def _key(a: int, b: int, c: int, a23: int, two_three_five: bool, suits: bool) -> int:
    """The ranking key of three standard cards given highest first (``a >= b >= c``).

    Repeats are allowed: ranks decide the kind first, so a repeated rank is a pair (or a trail)
    even when the cards are one suit.
    """
    ra, rb, rc = a >> 2, b >> 2, c >> 2
    sa, sb, sc = a & 3, b & 3, c & 3
    if ra == rc:
        kind, rank_part, order = _TRAIL, ra, (sa, sb, sc)
    elif ra == rb:
        kind, rank_part, order = _PAIR, ra * 16 + rc, (sa, sb, sc)
    elif rb == rc:
        kind, rank_part, order = _PAIR, rb * 16 + ra, (sb, sc, sa)
    else:
        flush = sa == sb == sc
        order = (sa, sb, sc)
        if ra - rc == 2:
            kind, rank_part = (_PURE if flush else _SEQUENCE), 2 * ra
        elif ra == 12 and rb == 1 and rc == 0:  # A-3-2: the ace leads the suits, then 3, then 2
            kind, rank_part = (_PURE if flush else _SEQUENCE), a23
        elif flush and two_three_five and ra == 3 and rb == 1 and rc == 0:
            kind, rank_part = _PURE, 0
        else:
            kind, rank_part = (_COLOUR if flush else _HIGH), ra * 256 + rb * 16 + rc
    suit_part = order[0] * 16 + order[1] * 4 + order[2] if suits else 0
    return (kind * 4096 + rank_part) * 64 + suit_part


def _hand_text(hand: Sequence[int], kind: Category) -> str:
    """The ranks of a hand of standard cards as players read it: ``A-K-Q``, ``K-K-9``, ``A-2-3``."""
    ranks = sorted((card >> 2 for card in hand), reverse=True)
    if kind in (Category.SEQUENCE, Category.PURE_SEQUENCE) and ranks in ([12, 1, 0], [3, 1, 0]):
        ranks = [12, 0, 1] if ranks[0] == 12 else [0, 1, 3]  # A-2-3 and 2-3-5
    elif kind is Category.PAIR and ranks[1] == ranks[2]:
        ranks = [ranks[1], ranks[2], ranks[0]]
    return "-".join("10" if RANKS[r] == "T" else RANKS[r] for r in ranks)


class Evaluator:
    """Strengths of hands under one :class:`Ranking`; get one with :meth:`get`.

    >>> from teenpatti.engine.cards import parse_cards
    >>> ev = Evaluator.get()
    >>> ev.compare(parse_cards("As Ks Qs"), parse_cards("Ah 2h 3h"))
    1
    >>> ev.describe(parse_cards("Qs As Ks"))
    'Pure sequence, A-K-Q'
    """

    _cache: ClassVar[dict[Ranking, Evaluator]] = {}

    ranking: Ranking
    """The ranking these strengths follow."""

    def __init__(self, ranking: Ranking = Ranking()) -> None:
        """Check ``ranking``; the tables are built when first needed. Prefer :meth:`get`."""
        if ranking.a23 not in _A23_POSITION:
            raise ValueError(f"a23 cannot be {ranking.a23!r} (choose second, highest or lowest)")
        if ranking.variant not in _VARIANTS:
            raise ValueError(f"unknown variant {ranking.variant!r}")
        if (ranking.variant == Variant.FIXED_RANK) != (ranking.fixed_rank is not None) or not (
            ranking.fixed_rank is None or 0 <= ranking.fixed_rank < 13
        ):
            raise ValueError("fixed_rank is a rank index, 0-12, given with variant fixed_rank only")
        self.ranking = ranking
        self._top = CARD_COUNT if ranking.variant == Variant.JOKERS else 52
        self._natural: list[int] | None = None
        self._kinds: list[Category] = []
        self._tables: dict[int | None, list[int]] = {}
        self._checked_tables: dict[int | None, array[int]] = {}
        """:meth:`_checked` per wild rank."""
        self._plain: array[int] | None = None
        """``_checked(None)``, the checked table when no card is turned up, once built."""
        self._best_one: list[int] = []
        self._best_two: list[int] = []

    @classmethod
    def get(cls, ranking: Ranking = Ranking()) -> Evaluator:
        """The evaluator of ``ranking``, made once and then shared."""
        evaluator = cls._cache.get(ranking)
        if evaluator is None:
            evaluator = cls._cache.setdefault(ranking, cls(ranking))
        return evaluator

    # ----------------------------------------------------------------- wild cards
    def wild_cards(self, wild: int | None = None) -> frozenset[int]:
        """The cards that are wild under this ranking.

        ``wild`` is the card turned up under ``wild_rank``; other variants ignore it.
        """
        variant = self.ranking.variant
        if variant == Variant.AK47:
            return frozenset(c for c in range(52) if c >> 2 in _AK47_RANKS)
        if variant == Variant.JOKERS:
            return frozenset(JOKERS)
        if variant == Variant.FIXED_RANK:
            assert self.ranking.fixed_rank is not None
            rank = self.ranking.fixed_rank * 4
            return frozenset(range(rank, rank + 4))
        if variant == Variant.WILD_RANK and wild is not None:
            self._check_wild(wild)
            return frozenset(range(wild & ~3, (wild & ~3) + 4))
        return frozenset()

    def _wild_key(self, wild: int | None) -> int | None:
        """Which cached table serves ``wild``: its rank under ``wild_rank``, else ``None``."""
        if wild is None or self.ranking.variant != Variant.WILD_RANK:
            return None
        self._check_wild(wild)
        return wild >> 2

    @staticmethod
    def _check_wild(wild: int) -> None:
        if not isinstance(wild, int) or not 0 <= wild < 52:
            raise CardError(f"{wild!r} cannot be the card turned up (a standard card, 0-51)")

    # ----------------------------------------------------------------- tables
    def table(self, wild: int | None = None) -> list[int]:
        """The flat strength table: ``table[a * 2916 + b * 54 + c]`` for cards in any order.

        Built on first use and cached per wild rank (``wild`` matters only under ``wild_rank``).
        Entries for hands that cannot be dealt (repeated cards, jokers outside the ``jokers``
        variant) hold some strength but mean nothing. Do not change the list.
        """
        key = self._wild_key(wild)
        table = self._tables.get(key)
        if table is None:
            table = self._build(key)
            self._tables[key] = table
        return table

    def _build_natural(self) -> list[int]:
        """Strengths of three standard cards, repeats included, with no card wild."""
        r = self.ranking
        a23, t35, suits = _A23_POSITION[r.a23], r.two_three_five, r.suits_break_ties
        triples = [(a, b, c) for a in range(52) for b in range(a + 1) for c in range(b + 1)]
        keys = [_key(a, b, c, a23, t35, suits) for a, b, c in triples]
        order = sorted(set(keys))
        if r.lowest_wins:
            order.reverse()
        place = {k: i for i, k in enumerate(order)}
        self._kinds = [_KINDS[k // _KIND_SHIFT] for k in order]
        table = [0] * TABLE_SIZE
        sa, sb = _STRIDE_A, _STRIDE_B
        for (a, b, c), k in zip(triples, keys, strict=True):
            s = place[k]
            table[a * sa + b * sb + c] = s
            table[a * sa + c * sb + b] = s
            table[b * sa + a * sb + c] = s
            table[b * sa + c * sb + a] = s
            table[c * sa + a * sb + b] = s
            table[c * sa + b * sb + a] = s
        return table

    @property
    def classes(self) -> int:
        """How many classes of equal hands three standard cards make (repeats allowed, as a wild
        card may copy a card held): strengths range from 0 to ``classes - 1``."""
        self._natural_table()
        return len(self._kinds)

    def _natural_table(self) -> list[int]:
        if self._natural is None:
            self._natural = self._build_natural()
        return self._natural

    def _wild_bests(self) -> tuple[list[int], list[int]]:
        """Best strengths with one wild card (per pair of naturals) and two (per natural)."""
        if not self._best_one:
            natural = self._natural_table()
            sa, sb = _STRIDE_A, _STRIDE_B
            self._best_one = [
                max(natural[x * sa + y * sb : x * sa + y * sb + 52])
                for x in range(52)
                for y in range(52)
            ]
            one = self._best_one
            self._best_two = [max(one[x * 52 : x * 52 + 52]) for x in range(52)]
        return self._best_one, self._best_two

    def _build(self, wild_key: int | None) -> list[int]:
        natural = self._natural_table()
        variant = self.ranking.variant
        if variant in (Variant.STANDARD, Variant.MUFLIS) or (
            variant == Variant.WILD_RANK and wild_key is None
        ):
            return natural
        wilds = self.wild_cards(None if wild_key is None else wild_key * 4)
        one, two = self._wild_bests()
        best = max(two)
        table = list(natural)
        sa, sb = _STRIDE_A, _STRIDE_B
        cards = range(54) if variant == Variant.JOKERS else range(52)
        for a in cards:
            for b in range(a):
                for c in range(b):
                    naturals = [x for x in (a, b, c) if x not in wilds]
                    if len(naturals) == 3:
                        continue
                    if len(naturals) == 2:
                        s = one[naturals[0] * 52 + naturals[1]]
                    elif len(naturals) == 1:
                        s = two[naturals[0]]
                    else:
                        s = best
                    table[a * sa + b * sb + c] = s
                    table[a * sa + c * sb + b] = s
                    table[b * sa + a * sb + c] = s
                    table[b * sa + c * sb + a] = s
                    table[c * sa + a * sb + b] = s
                    table[c * sa + b * sb + a] = s
        return table

    # ----------------------------------------------------------------- one hand
    def _check(self, cards: Sequence[int]) -> tuple[int, int, int]:
        if len(cards) == 3:
            a, b, c = cards
            top = self._top
            if 0 <= a < top and 0 <= b < top and 0 <= c < top and a != b and a != c and b != c:
                return a, b, c
        raise CardError(self._refusal(cards))

    def _refusal(self, cards: Sequence[int]) -> str:
        """Why ``cards`` is not a hand of this pack."""
        if len(cards) != 3:
            return f"a hand is three cards, not {len(cards)}"
        for card in cards:
            if card in JOKERS:
                return "jokers are in the pack only under the jokers variant"
            if not 0 <= card < CARD_COUNT:
                return f"{card!r} is not a card"
        twice = next(card for card in cards if list(cards).count(card) > 1)
        return f"a hand cannot hold the same card twice ({card_str(twice)})"

    def strength(self, cards: Sequence[int], wild: int | None = None) -> int:
        """The strength of three cards in any order: higher is better, equal is an equal hand.

        ``wild`` is the card turned up under ``wild_rank`` (``None``: no card is wild); other
        variants ignore it. Raises :class:`~teenpatti.engine.cards.CardError` for anything but
        three different cards of this pack.
        """
        # The engine's hottest call: the checks of :meth:`_check` are one look-up in a copy of
        # the table that holds -1 for every hand this pack cannot deal. The numbers are
        # CARD_COUNT and the strides written out (a literal costs no lookup; asserted with them).
        try:
            a, b, c = cards
        except ValueError:
            raise CardError(self._refusal(cards)) from None
        checked = self._plain
        if wild is None and checked is not None and 0 <= a < 54 and 0 <= b < 54 and 0 <= c < 54:
            s = checked[a * 2916 + b * 54 + c]
            if s >= 0:
                return s
        return self._strength(cards, a, b, c, wild)

    def _strength(self, cards: Sequence[int], a: int, b: int, c: int, wild: int | None) -> int:
        """:meth:`strength` with a card turned up, before the first look-up, or refused."""
        if 0 <= a < CARD_COUNT and 0 <= b < CARD_COUNT and 0 <= c < CARD_COUNT:
            if wild is None:
                checked = self._plain or self._checked(None)
            else:
                checked = self._checked_tables.get(self._wild_key(wild)) or self._checked(wild)
            s = checked[a * _STRIDE_A + b * _STRIDE_B + c]
            if s >= 0:
                return s
        raise CardError(self._refusal(cards))

    def _checked(self, wild: int | None) -> array[int]:
        """:meth:`table` with -1 for hands that cannot be dealt (a card twice, a joker outside
        the ``jokers`` variant), built once per table. It is a compact array (two bytes an
        entry: there are fewer strengths than three-card hands, 24,804 with jokers) rather than
        a list of pointers to ints: a quarter of the memory, so more of it stays in the caches
        when hands are looked up at random."""
        key = self._wild_key(wild)
        known = self._checked_tables.get(key)
        if known is None:
            checked = list(self.table(wild))
            top, sa, sb = self._top, _STRIDE_A, _STRIDE_B
            for x in range(CARD_COUNT):
                for y in range(CARD_COUNT):
                    if x >= top or y >= top:
                        checked[x * sa + y * sb : x * sa + y * sb + CARD_COUNT] = _NOT_DEALT
                        continue
                    checked[x * sa + y * sb + x] = -1
                    checked[x * sa + x * sb + y] = -1
                    checked[y * sa + x * sb + x] = -1
                    for z in range(top, CARD_COUNT):
                        checked[x * sa + y * sb + z] = -1
            known = array("h" if max(checked) < 2**15 else "i", checked)
            self._checked_tables[key] = known
            if key is None:
                self._plain = known
        return known

    def category(self, cards: Sequence[int], wild: int | None = None) -> Category:
        """The kind of hand the cards make, wild cards taken as chosen."""
        strength = self.strength(cards, wild)  # first: building a table fills the class kinds
        return self._kinds[strength]

    def compare(self, a: Sequence[int], b: Sequence[int], wild: int | None = None) -> int:
        """1 if hand ``a`` beats hand ``b``, -1 if it loses, 0 if the hands are equal."""
        sa, sb = self.strength(a, wild), self.strength(b, wild)
        return (sa > sb) - (sa < sb)

    def best_cards(self, cards: Sequence[int], wild: int | None = None) -> tuple[int, int, int]:
        """The hand the cards count as: each wild card replaced by the card it best stands for.

        Naturals keep their place. Among equally good choices a card not already held is
        preferred, then the highest.
        """
        held = self._check(cards)
        wilds = self.wild_cards(wild)
        if not wilds.intersection(held):
            return held
        natural = self._natural_table()
        one, two = self._wild_bests()
        chosen = [x for x in held if x not in wilds]
        kept = len(chosen)

        def pick(score: Sequence[int]) -> int:
            top = max(score)
            ties = [z for z in range(51, -1, -1) if score[z] == top]
            fresh = [z for z in ties if z not in held and z not in chosen]
            return (fresh or ties)[0]

        while len(chosen) < 3:
            if not chosen:
                chosen.append(pick(two))
            elif len(chosen) == 1:
                x = chosen[0]
                chosen.append(pick(one[x * 52 : x * 52 + 52]))
            else:
                base = chosen[0] * _STRIDE_A + chosen[1] * _STRIDE_B
                chosen.append(pick(natural[base : base + 52]))
        substitutes = iter(chosen[kept:])
        out = [next(substitutes) if card in wilds else card for card in held]
        return out[0], out[1], out[2]

    def describe(self, cards: Sequence[int], wild: int | None = None) -> str:
        """The hand in words, like ``Pure sequence, A-K-Q`` or ``Trail, 7-7-7 (Jk as 7s)``."""
        held = self._check(cards)
        hand = self.best_cards(held, wild)
        kind = self.category(held, wild)
        ranks = _hand_text(hand, kind)
        stood = [
            f"{card_str(h)} as {card_str(n)}" for h, n in zip(held, hand, strict=True) if h != n
        ]
        return f"{_LABELS[kind]}, {ranks}" + (f" ({', '.join(stood)})" if stood else "")
