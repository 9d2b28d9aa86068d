"""Hand evaluation: counts, every ranking option, the variants, the table against a reference."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.properties import examples

from teenpatti.engine.cards import CardError, parse_card, parse_cards
from teenpatti.engine.evaluate import TABLE_SIZE, Category, Evaluator, Ranking, table_index

ALL_HANDS = list(itertools.combinations(range(52), 3))
A23S = ("second", "highest", "lowest")
KINDS = [  # worst first
    Category.HIGH_CARD,
    Category.PAIR,
    Category.COLOUR,
    Category.SEQUENCE,
    Category.PURE_SEQUENCE,
    Category.TRAIL,
]

RefKey = tuple[int, tuple[float, ...], tuple[int, ...]]


def reference_key(
    cards: Sequence[int], a23: str = "second", suits: bool = False, two_three_five: bool = False
) -> RefKey:
    """A slow, plain evaluator written from rules.md: bigger key = better hand (repeats allowed)."""
    held = sorted(((c // 4 + 2, c % 4) for c in cards), reverse=True)
    ranks = [rank for rank, _ in held]
    flush = len({suit for _, suit in held}) == 1
    counts = Counter(ranks)
    if len(counts) == 1:
        return (5, (ranks[0],), tuple(sorted((s for _, s in held), reverse=True)) if suits else ())
    if len(counts) == 2:
        pair = next(rank for rank, n in counts.items() if n == 2)
        odd = next(rank for rank, n in counts.items() if n == 1)
        paired = sorted((s for r, s in held if r == pair), reverse=True)
        order = (*paired, *(s for r, s in held if r == odd))
        return (1, (pair, odd), order if suits else ())
    order = tuple(s for _, s in held)  # highest rank first: also A-3-2 and 5-3-2
    run: float = 0
    if ranks[0] - ranks[2] == 2:
        run = ranks[0]
    elif ranks == [14, 3, 2]:
        run = {"second": 13.5, "highest": 14.5, "lowest": 3.5}[a23]
    elif ranks == [5, 3, 2] and flush and two_three_five:
        run = 3
    if run:
        return (4 if flush else 3, (run,), order if suits else ())
    return (2 if flush else 0, tuple(ranks), order if suits else ())


def hand(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def ev(**options: object) -> Evaluator:
    return Evaluator.get(Ranking(**options))  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- counts
def category_counts(evaluator: Evaluator) -> Counter[Category]:
    return Counter(evaluator.category(h) for h in ALL_HANDS)


def test_standard_counts() -> None:
    evaluator = ev()
    assert category_counts(evaluator) == {
        Category.TRAIL: 52,
        Category.PURE_SEQUENCE: 48,
        Category.SEQUENCE: 720,
        Category.COLOUR: 1096,
        Category.PAIR: 3744,
        Category.HIGH_CARD: 16440,
    }
    assert len({evaluator.strength(h) for h in ALL_HANDS}) == 741


@pytest.mark.parametrize("a23", A23S)
def test_every_a23_order_has_741_classes(a23: str) -> None:
    evaluator = ev(a23=a23)
    assert len({evaluator.strength(h) for h in ALL_HANDS}) == 741


def test_two_three_five_counts() -> None:
    counts = category_counts(ev(two_three_five=True))
    assert counts[Category.PURE_SEQUENCE] == 52
    assert counts[Category.COLOUR] == 1092
    assert counts[Category.SEQUENCE] == 720


@pytest.mark.parametrize("a23", A23S)
@pytest.mark.parametrize("two_three_five", [False, True])
def test_suits_break_every_tie(a23: str, two_three_five: bool) -> None:
    evaluator = ev(a23=a23, suits_break_ties=True, two_three_five=two_three_five)
    assert len({evaluator.strength(h) for h in ALL_HANDS}) == 22100


# ----------------------------------------------------------------------------- the reference
@pytest.mark.parametrize("a23", A23S)
@pytest.mark.parametrize("suits", [False, True])
@pytest.mark.parametrize("two_three_five", [False, True])
def test_table_orders_every_hand_like_the_reference(
    a23: str, suits: bool, two_three_five: bool
) -> None:
    evaluator = ev(a23=a23, suits_break_ties=suits, two_three_five=two_three_five)
    table = evaluator.table()
    pairs = sorted(
        (reference_key(h, a23, suits, two_three_five), table[table_index(h)]) for h in ALL_HANDS
    )
    keys = [key for key, _ in pairs]
    strengths = [strength for _, strength in pairs]
    for (key_a, s_a), (key_b, s_b) in itertools.pairwise(pairs):
        assert (s_a < s_b) if key_a < key_b else (s_a == s_b), (key_a, key_b)
    assert len(set(keys)) == len(set(strengths))
    # The kind of each hand agrees with the reference's kind too.
    for h in ALL_HANDS[::37]:
        assert evaluator.category(h) == KINDS[reference_key(h, a23, suits, two_three_five)[0]]


def test_table_is_the_same_in_any_order() -> None:
    evaluator = ev(suits_break_ties=True)
    table = evaluator.table()
    assert len(table) == TABLE_SIZE == 54**3
    for h in ALL_HANDS:
        values = {table[table_index(p)] for p in itertools.permutations(h)}
        assert values == {evaluator.strength(h)}


def test_strength_ignores_order() -> None:
    evaluator = ev()
    assert evaluator.strength(hand("Qs As Ks")) == evaluator.strength(hand("As Ks Qs"))


# ----------------------------------------------------------------------------- the order
def ordered(evaluator: Evaluator, texts: Sequence[str]) -> bool:
    """Whether ``texts`` are strictly best first under ``evaluator``."""
    strengths = [evaluator.strength(hand(t)) for t in texts]
    return all(a > b for a, b in itertools.pairwise(strengths))


def test_kinds_best_first() -> None:
    assert ordered(ev(), ["2c 2d 2h", "4s 3s 2s", "Ac Kd Qh", "As Js 9s", "Ac Ad Kh", "Ac Kd Jh"])


def test_a23_second() -> None:
    evaluator = ev()
    assert ordered(evaluator, ["As Ks Qs", "Ah 2h 3h", "Kd Qd Jd", "5c 4c 3c", "4s 3s 2s"])
    assert ordered(evaluator, ["Ac Kd Qh", "Ac 2d 3h", "Kc Qd Jh", "4c 3d 2h"])


def test_a23_highest() -> None:
    assert ordered(ev(a23="highest"), ["Ah 2h 3h", "As Ks Qs", "Kd Qd Jd", "4s 3s 2s"])
    assert ordered(ev(a23="highest"), ["Ac 2d 3h", "Ac Kd Qh", "4c 3d 2h"])


def test_a23_lowest() -> None:
    assert ordered(ev(a23="lowest"), ["As Ks Qs", "Kd Qd Jd", "4s 3s 2s", "Ah 2h 3h"])
    assert ordered(ev(a23="lowest"), ["Ac Kd Qh", "4c 3d 2h", "Ac 2d 3h", "As Js 9s"])


def test_k_a_2_is_no_run() -> None:
    evaluator = ev()
    assert evaluator.category(hand("Kc Ad 2h")) == Category.HIGH_CARD
    assert evaluator.category(hand("Kc Ac 2c")) == Category.COLOUR
    assert ordered(evaluator, ["4c 3d 2h", "Ac Kd 3h", "Kc Ad 2h"])


def test_same_kind_compares_highest_card_then_next_then_last() -> None:
    evaluator = ev()
    assert ordered(evaluator, ["Ac Kd 2h", "Ac Qd Jh", "Ac Qd Th", "Ac Qd 9h"])
    assert ordered(evaluator, ["As 9s 3s", "As 9s 2s", "Ks Qs Ts"])
    assert evaluator.compare(hand("Ac Kd 2h"), hand("As Kh 2c")) == 0


def test_pairs_compare_the_pair_then_the_odd_card() -> None:
    evaluator = ev()
    assert ordered(evaluator, ["Kc Kd 2h", "Qc Qd Ah", "Qs Qh Kd", "2c 2d 3h"])
    assert evaluator.compare(hand("Kc Kd 9h"), hand("Ks Kh 9s")) == 0


def test_compare() -> None:
    evaluator = ev()
    assert evaluator.compare(hand("As Ks Qs"), hand("2c 2d 2h")) == -1
    assert evaluator.compare(hand("2c 2d 2h"), hand("As Ks Qs")) == 1
    assert evaluator.compare(hand("2c 3c 5c"), hand("2d 3d 5d")) == 0


def test_two_three_five_is_the_lowest_pure_sequence() -> None:
    for a23 in A23S:
        evaluator = ev(two_three_five=True, a23=a23)
        assert evaluator.category(hand("2c 3c 5c")) == Category.PURE_SEQUENCE
        lowest = min(
            (h for h in ALL_HANDS if evaluator.category(h) == Category.PURE_SEQUENCE),
            key=evaluator.strength,
        )
        assert sorted(c // 4 for c in lowest) == [0, 1, 3]
        assert ordered(evaluator, ["4s 3s 2s", "2c 3c 5c", "Ac Kd Qh"])
        assert ordered(evaluator, ["Ah 2h 3h", "2c 3c 5c"])
        assert evaluator.category(hand("2c 3d 5c")) == Category.HIGH_CARD
    assert ev().category(hand("2c 3c 5c")) == Category.COLOUR


def test_suits_break_ties_on_the_deciding_cards() -> None:
    evaluator = ev(suits_break_ties=True)
    assert ordered(evaluator, ["As Ah Ad", "As Ah Ac", "As Ad Ac", "Ah Ad Ac"])
    # Pair: the paired cards (higher suit first), then the odd card.
    assert ordered(evaluator, ["Ks Kc 9c", "Kh Kd 9s", "Kh Kc 9s", "Kd Kc 9s", "Kd Kc 9h"])
    # Runs from the top; A-2-3 takes the ace first, then 3, then 2.
    assert ordered(evaluator, ["Ks Qc Jc", "Kh Qs Js"])
    assert ordered(evaluator, ["Ad 3c 2c", "Ac 3s 2s", "Ac 3h 2s", "Ac 3h 2h"])
    assert ordered(evaluator, ["Kh Qd Js", "Kd Qs Jh"])
    assert ordered(evaluator, ["Ad 2s 3c", "Ac 2c 3s"])  # ace first, then the 3
    # Colour and high card: highest rank first.
    assert ordered(evaluator, ["As 9c 2c", "Ah 9s 2s", "Ah 9d 2s", "Ah 9d 2h"])
    # Suits decide only after everything else.
    assert ordered(evaluator, ["Ac Kd 3c", "As Kh 2h"])
    assert ordered(evaluator, ["Kc Kd 9c", "Ks Kh 8s"])
    assert ordered(evaluator, ["2c 3c 4c", "As Ks Js"])


def test_suits_two_three_five_reads_five_three_two() -> None:
    evaluator = ev(suits_break_ties=True, two_three_five=True)
    assert ordered(evaluator, ["5s 3s 2s", "5h 3h 2h", "5d 3d 2d", "5c 3c 2c"])


def test_muflis_reverses_the_whole_order() -> None:
    for suits in (False, True):
        standard = ev(suits_break_ties=suits)
        muflis = ev(suits_break_ties=suits, variant="muflis")
        by_standard = sorted(ALL_HANDS, key=standard.strength)
        flipped = [muflis.strength(h) for h in by_standard]
        assert flipped == sorted(flipped, reverse=True)
        for a, b in itertools.pairwise(by_standard):
            assert (standard.strength(a) == standard.strength(b)) == (
                muflis.strength(a) == muflis.strength(b)
            )
    muflis = ev(variant="muflis")
    assert ordered(muflis, ["2c 3d 5h", "2c 3d 6h", "As Kd Jh", "2c 2d 3h", "As Ks Qs", "Ac Ad Ah"])
    assert muflis.category(hand("As Ks Qs")) == Category.PURE_SEQUENCE


# ----------------------------------------------------------------------------- wild cards
def test_jokers_take_the_best_card() -> None:
    evaluator = ev(variant="jokers")
    assert evaluator.category(hand("Jk As Ks")) == Category.PURE_SEQUENCE
    assert evaluator.compare(hand("Jk As Ks"), hand("Ah Kh Qh")) == 0
    assert evaluator.compare(hand("Jk Jk 2c"), hand("2s 2h 2d")) == 0
    assert evaluator.compare(hand("Jk Jk 2c"), hand("As Ks Qs")) == 1
    assert evaluator.compare(hand("Jk Jk Ac"), hand("As Ah Ad")) == 0
    assert evaluator.compare(hand("Jk 7s 7h"), hand("7c 7d 7s")) == 0  # no bonus for naturals
    assert evaluator.category(hand("Jk 9c 2d")) == Category.PAIR
    assert evaluator.describe(hand("Jk 9c 2d")) == "Pair, 9-9-2 (Jk as 9s)"


def test_a_wild_card_plays_a23_by_the_options() -> None:
    # 2h 3h and a joker: A-2-3 or 4-3-2 of hearts, whichever ranks higher.
    assert ev(variant="jokers").describe(hand("Jk 2h 3h")) == "Pure sequence, A-2-3 (Jk as Ah)"
    lowest = ev(variant="jokers", a23="lowest")
    assert lowest.describe(hand("Jk 2h 3h")) == "Pure sequence, 4-3-2 (Jk as 4h)"


def test_a_wild_card_may_copy_a_card_held() -> None:
    evaluator = ev(variant="jokers", suits_break_ties=True)
    # The joker stands for a second seven of spades: better than any natural trail of sevens.
    assert evaluator.strength(hand("Jk 7s 7h")) > evaluator.strength(hand("7s 7h 7d"))
    assert evaluator.describe(hand("Jk 7s 7h")) == "Trail, 7-7-7 (Jk as 7s)"
    # Ranks decide first: a repeated rank is a pair even when the cards are one suit.
    assert evaluator.category(hand("Jk 9s 2d")) == Category.PAIR


def test_ak47() -> None:
    evaluator = ev(variant="ak47")
    assert evaluator.compare(hand("Ac Kd 4h"), hand("As Ah Ad")) == 0
    assert evaluator.category(hand("7c 9d 9s")) == Category.TRAIL
    assert evaluator.describe(hand("Ac 2d 3s")) == "Sequence, A-2-3 (Ac as As)"
    assert evaluator.compare(hand("Ac 2d 3s"), hand("Ah 2c 3d")) == 0
    assert evaluator.category(hand("Qc 9d 2s")) == Category.HIGH_CARD
    assert evaluator.category(hand("Qc Jd 4s")) == Category.SEQUENCE
    assert evaluator.category(hand("Qc Jc 4s")) == Category.PURE_SEQUENCE
    assert evaluator.wild_cards() == {c for c in range(52) if "23456789TJQKA"[c // 4] in "AK47"}
    assert evaluator.strength(hand("Qc 9d 4s"), wild=parse_card("9c")) == evaluator.strength(
        hand("Qc 9d 4s")
    )


def test_wild_rank() -> None:
    evaluator = ev(variant="wild_rank")
    nine, five = parse_card("9c"), parse_card("5c")
    assert evaluator.category(hand("9s 9h 2d"), wild=nine) == Category.TRAIL
    assert evaluator.category(hand("9s 9h 2d"), wild=five) == Category.PAIR
    assert evaluator.category(hand("9s 9h 2d")) == Category.PAIR  # no card turned up: no wild
    assert evaluator.table(nine) is evaluator.table(parse_card("9h"))  # one table per rank
    assert evaluator.table(nine) is not evaluator.table(five)
    assert evaluator.table() == ev().table()
    assert evaluator.describe(hand("2s 3s 9s"), wild=nine) == "Pure sequence, A-2-3 (9s as As)"
    with pytest.raises(CardError):
        evaluator.strength(hand("2s 3s 9s"), wild=52)


def test_three_wild_cards_make_the_best_hand() -> None:
    for suits in (False, True):
        ak47 = ev(variant="ak47", suits_break_ties=suits)
        best = max(ak47.strength(h) for h in ALL_HANDS)
        assert ak47.strength(hand("Ac Kd 4h")) == ak47.strength(hand("As Ks 7s")) == best
        assert ak47.describe(hand("Ac Kd 4h")).startswith("Trail, A-A-A (")
        wild_rank = ev(variant="wild_rank", suits_break_ties=suits)
        nine = parse_card("9c")
        assert wild_rank.strength(hand("9s 9h 9d"), nine) == max(
            wild_rank.strength(h, nine) for h in ALL_HANDS
        )
        jokers = ev(variant="jokers", suits_break_ties=suits)
        natural = jokers.strength(hand("As Ah Ad"))
        # Two jokers and an ace: a trail of aces; with suits, aces of spades beat any three aces.
        two_jokers = jokers.strength(hand("Jk Jk Ac"))
        if suits:
            assert natural < two_jokers < jokers.strength(hand("Jk Jk As"))
        else:
            assert two_jokers == natural == jokers.strength(hand("Jk Jk As"))


@cache
def best_reference(
    cards: tuple[int, ...], wilds: frozenset[int], a23: str, suits: bool, t35: bool
) -> RefKey:
    """The best reference key over every card the wild cards could stand for (repeats allowed)."""
    naturals = [c for c in cards if c not in wilds]
    count = 3 - len(naturals)
    return max(
        reference_key([*naturals, *chosen], a23, suits, t35)
        for chosen in itertools.product(range(52), repeat=count)
    )


WILD_SETUPS = [
    ("jokers", None),
    ("ak47", None),
    ("wild_rank", parse_card("9c")),
    ("wild_rank", parse_card("As")),
]


@settings(max_examples=examples(60), deadline=None)
@given(
    st.sampled_from(WILD_SETUPS),
    st.sampled_from(A23S),
    st.booleans(),
    st.booleans(),
    st.permutations(list(range(54))),
)
def test_wild_hands_order_like_the_best_substitution(
    setup: tuple[str, int | None], a23: str, suits: bool, t35: bool, deck: list[int]
) -> None:
    variant, wild = setup
    evaluator = ev(variant=variant, a23=a23, suits_break_ties=suits, two_three_five=t35)
    if variant != "jokers":
        deck = [c for c in deck if c < 52]
    wilds = evaluator.wild_cards(wild)
    first, second = tuple(deck[:3]), tuple(deck[3:6])
    if sum(c in wilds for c in first) == 3 or sum(c in wilds for c in second) == 3:
        return  # three wild cards: see test_three_wild_cards_make_the_best_trail
    key_a = best_reference(first, wilds, a23, suits, t35)
    key_b = best_reference(second, wilds, a23, suits, t35)
    expected = (key_a > key_b) - (key_a < key_b)
    assert evaluator.compare(first, second, wild) == expected
    assert evaluator.category(first, wild) == KINDS[key_a[0]]
    best = evaluator.best_cards(first, wild)
    assert reference_key(best, a23, suits, t35) == key_a


@settings(max_examples=examples(80), deadline=None)
@given(
    st.sampled_from(WILD_SETUPS),
    st.booleans(),
    st.permutations(list(range(54))),
    st.integers(min_value=0, max_value=51),
)
def test_a_wild_card_is_never_worse_than_a_natural_one(
    setup: tuple[str, int | None], suits: bool, deck: list[int], natural: int
) -> None:
    variant, wild = setup
    evaluator = ev(variant=variant, suits_break_ties=suits)
    plain = ev(suits_break_ties=suits)  # the same ranking with no card wild
    wilds = evaluator.wild_cards(wild)
    cards = [c for c in deck if c < 52 or variant == "jokers"][:3]
    held = [i for i, c in enumerate(cards) if c in wilds]
    if not held or natural in cards:
        return
    replaced = list(cards)
    replaced[held[0]] = natural
    if all(c in wilds for c in replaced):
        return
    # The replaced hand, with its other wild cards still wild, and with no card wild at all.
    assert evaluator.strength(cards, wild) >= evaluator.strength(replaced, wild)
    if not any(c in wilds for c in replaced):
        assert evaluator.strength(cards, wild) >= plain.strength(replaced)


def test_wild_table_agrees_with_strength_in_any_order() -> None:
    evaluator = ev(variant="jokers")
    table = evaluator.table()
    for h in itertools.combinations(range(54), 3):
        if 52 in h or 53 in h:
            values = {table[table_index(p)] for p in itertools.permutations(h)}
            assert values == {evaluator.strength(h)}


def test_natural_hands_keep_their_strength_under_wild_variants() -> None:
    plain = ev()
    for variant, wild in WILD_SETUPS:
        evaluator = ev(variant=variant)
        wilds = evaluator.wild_cards(wild)
        for h in ALL_HANDS[::7]:
            if not wilds.intersection(h):
                assert evaluator.strength(h, wild) == plain.strength(h)


# ----------------------------------------------------------------------------- the API
def test_get_is_cached_per_ranking() -> None:
    assert Evaluator.get(Ranking()) is Evaluator.get(Ranking(a23="second"))
    assert Evaluator.get(Ranking()) is not Evaluator.get(Ranking(a23="lowest"))
    assert Evaluator.get().table() is Evaluator.get().table()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Qs As Ks", "Pure sequence, A-K-Q"),
        ("3h Ah 2h", "Pure sequence, A-2-3"),
        ("4c 3d 2h", "Sequence, 4-3-2"),
        ("Kd 9s Kh", "Pair, K-K-9"),
        ("7s 7h 7d", "Trail, 7-7-7"),
        ("Td 4d Qd", "Colour, Q-10-4"),
        ("Ac Kd 2h", "High card, A-K-2"),
    ],
)
def test_describe(text: str, words: str) -> None:
    assert ev().describe(hand(text)) == words


def test_describe_two_three_five() -> None:
    assert ev(two_three_five=True).describe(hand("5c 2c 3c")) == "Pure sequence, 2-3-5"
    assert ev().describe(hand("5c 2c 3c")) == "Colour, 5-3-2"


@pytest.mark.parametrize("text", ["As Ks", "As Ks Qs Js", "Jk As Ks"])
def test_refuses_what_is_not_a_hand(text: str) -> None:
    with pytest.raises(CardError):
        ev().strength(hand(text))


def test_refuses_a_card_twice_and_numbers_out_of_range() -> None:
    for cards in ([51, 51, 3], [0, 1, 1], [0, 1, 54], [-1, 2, 3]):
        with pytest.raises(CardError):
            ev(variant="jokers").strength(cards)


def test_refuses_an_unknown_ranking() -> None:
    with pytest.raises(ValueError):
        Evaluator(Ranking(a23="top"))
    with pytest.raises(ValueError):
        Evaluator(Ranking(variant="poker"))


def test_strengths_are_class_numbers() -> None:
    evaluator = Evaluator(Ranking())
    assert evaluator.classes == 741  # no card repeated or not: suits aside, repeats add no class
    strengths = {evaluator.strength(h) for h in ALL_HANDS}
    assert strengths == set(range(741))
    assert Evaluator(Ranking(suits_break_ties=True)).classes == 24804  # C(54, 3) multisets


# ------------------------------------------------------------------ muflis with wild cards
@pytest.mark.parametrize(
    ("ranking", "wild"),
    [
        (Ranking(variant="jokers", muflis=True), None),
        (Ranking(variant="fixed_rank", fixed_rank=0, muflis=True), None),
        (Ranking(variant="fixed_rank", fixed_rank=11), None),
        (Ranking(variant="wild_rank", muflis=True), parse_card("7d")),
    ],
)
def test_wild_cards_by_brute_force(ranking: Ranking, wild: int | None) -> None:
    """Every wild card tried as each of the 52 cards (repeats allowed): the table holds the best
    result, which under muflis is the lowest hand."""
    evaluator = Evaluator.get(ranking)
    natural = Evaluator.get(Ranking(muflis=ranking.muflis)).table()
    wilds = evaluator.wild_cards(wild)
    assert wilds
    pack = range(54 if ranking.variant == "jokers" else 52)
    hands = [h for h in itertools.combinations(pack, 3) if wilds.intersection(h)]
    for hand in hands[:: max(1, len(hands) // 1500)]:
        choices = [range(52) if card in wilds else (card,) for card in hand]
        best = max(natural[table_index(c)] for c in itertools.product(*choices))
        assert evaluator.strength(hand, wild) == best, hand


def test_muflis_wild_card_makes_the_lowest_hand() -> None:
    ev = Evaluator.get(Ranking(variant="jokers", muflis=True))
    assert ev.describe(parse_cards("Jk 5c 3s")).startswith("High card, 5-3-2")
    assert ev.describe(parse_cards("Jk 9s 9c")).startswith("Pair, 9-9-2")
    assert ev.compare(parse_cards("Jk 5c 3s"), parse_cards("6d 4h 2c")) == 1


def test_fixed_rank_is_wild_in_every_hand() -> None:
    ev = Evaluator.get(Ranking(variant="fixed_rank", fixed_rank=0))
    assert ev.wild_cards() == frozenset(parse_cards("2c 2d 2h 2s"))
    assert ev.describe(parse_cards("2h 9s 9c")).startswith("Trail, 9-9-9")
    with pytest.raises(ValueError):
        Evaluator(Ranking(variant="fixed_rank"))
    with pytest.raises(ValueError):
        Evaluator(Ranking(fixed_rank=3))
