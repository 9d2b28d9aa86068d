"""``teenpatti-deck/2``: the players' parts in the seed, the cards drawn lazily, each card
committed apart, and the whole chain checked from the histories alone."""

from __future__ import annotations

import copy
import hashlib
import hmac
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support.properties import examples

from teenpatti.engine import Action, Rules
from teenpatti.engine.deck import (
    DECK_V2,
    CardTree,
    Shuffle,
    check_card,
    deck_seed,
    draw,
    shuffled_deck,
)
from teenpatti.engine.game import Game
from teenpatti.engine.hand import Hand
from teenpatti.engine.history import EVERYONE, Verified, export, verify_deal, verify_game
from teenpatti.engine.view import can_see_cards

SECRET = bytes(range(32))
PARTS = (bytes([7]) * 32, None, bytes([9]) * 32)


def rederive(seed: bytes, count: int, n: int = 52) -> list[int]:
    """The draw written again from the documentation alone (a full array, swapped forwards)."""
    stream = b"".join(
        hmac.new(seed, b"teenpatti-deck/2" + k.to_bytes(8, "big"), hashlib.sha256).digest()
        for k in range(64)
    )
    words = iter(int.from_bytes(stream[k : k + 4], "big") for k in range(0, len(stream), 4))
    cards = list(range(n))
    for p in range(count):
        m = n - p
        w = next(words)
        while w >= (2**32 // m) * m:
            w = next(words)
        j = p + w % m
        cards[p], cards[j] = cards[j], cards[p]
    return cards[:count]


def test_seed_is_documented_mix_of_secret_and_parts() -> None:
    message = b"teenpatti-deck/2 seed" + b"\x01" + PARTS[0] + b"\x00" + b"\x01" + PARTS[2]  # type: ignore[operator]
    assert deck_seed(SECRET, PARTS) == hmac.new(SECRET, message, hashlib.sha256).digest()


@given(st.binary(min_size=32, max_size=32), st.booleans())
def test_draw_is_the_documented_lazy_shuffle(seed: bytes, jokers: bool) -> None:
    n = 54 if jokers else 52
    full = draw(seed, n, jokers=jokers)
    assert sorted(full) == list(range(n))
    assert full == rederive(seed, n, n)
    assert draw(seed, 13, jokers=jokers) == full[:13]


def test_every_part_changes_the_deal() -> None:
    base = Shuffle(SECRET, PARTS).cards(12)
    for seat in range(3):
        parts = list(PARTS)
        parts[seat] = bytes([1]) * 32
        assert Shuffle(SECRET, tuple(parts)).cards(12) != base
    # A missing part is not the same as a part of zeros.
    assert Shuffle(SECRET, (PARTS[0], bytes(32), PARTS[2])).cards(12) != base
    assert Shuffle(bytes(31) + b"\x01", PARTS).cards(12) != base


@given(st.binary(min_size=32, max_size=32), st.integers(1, 31))
@settings(max_examples=examples(40))
def test_each_card_proves_alone(seed: bytes, count: int) -> None:
    cards = draw(seed, count)
    tree = CardTree(seed, cards)
    for position, card in enumerate(cards):
        proof = tree.proof(position)
        assert check_card(tree.root, card, proof)
        other = cards[(position + 1) % count] if count > 1 else (card + 1) % 52
        assert not check_card(tree.root, other, proof)
        moved = {**proof.to_json(), "position": (position + 1) % 64}
        assert not check_card(tree.root, card, moved)
    assert not check_card(tree.root, cards[0], {"position": 0, "salt": "zz", "path": []})
    assert not check_card(tree.root, cards[0], None)


def test_old_v1_seed_still_deals_the_whole_shuffle() -> None:
    hand = Hand(Rules(), [100, 100, 100], 0, seed=SECRET)
    deck = shuffled_deck(SECRET)
    order = hand.deal_order
    assert hand.cards[order[0]] == (deck[0], deck[3], deck[6])
    assert hand.tree is None and hand.proofs(order[0]) is None


# ---------------------------------------------------------------------- whole games
def played_game(hands: int = 5, preset: str = "classic", **options: Any) -> Game:
    """A whole game dealt with teenpatti-deck/2, every move the first legal one but see."""
    rules = Rules.from_options({"preset": preset, "hands": hands, **options})
    game = Game(rules, ["A", "B", "C"], bytes(32))
    k = 0
    while not game.finished:
        k += 1
        secret = hashlib.sha256(b"secret %d" % k).digest()
        parts = (hashlib.sha256(b"part %d" % k).digest(), None, None)
        hand = game.start_hand(Shuffle(secret, parts))
        moves = 0
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            legal = [a for a in hand.legal_actions(seat) if a.kind.value != "see"]
            if not hand.seen[seat] and moves % 3 == 0:
                hand.see(seat)
                continue
            choice = legal[(moves * 7 + k) % len(legal)]
            target = choice.targets[0] if choice.kind.value == "sideshow" else None
            game.apply(Action(seat, choice.kind, None, target))
            moves += 1
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return played_game()


def test_a_whole_game_verifies(game: Game) -> None:
    results = verify_game(game.histories)
    assert all(r.verified and r.complete for r in results), results
    assert {r.to_json()["deck"] for r in results} == {DECK_V2}


@pytest.mark.parametrize(
    "preset,options", [("limited", {"variant": "wild_rank"}), ("limited", {"variant": "jokers"})]
)
def test_variants_verify(preset: str, options: dict[str, Any]) -> None:
    histories = played_game(3, preset, **options).histories
    assert all(r.verified for r in verify_game(histories))


def tampered(histories: list[dict[str, Any]], change: Any) -> list[dict[str, Any]]:
    out = copy.deepcopy(histories)
    change(out)
    return out


def flip(text: str) -> str:
    return ("1" if text[0] == "0" else "0") + text[1:]


def swap_cards(h: list[dict[str, Any]]) -> None:
    a, b = h[0]["seats"][0], h[0]["seats"][1]
    a["cards"], b["cards"] = b["cards"], a["cards"]


TAMPERING = {
    "secret": (lambda h: h[0].update(secret=flip(h[0]["secret"])), "commitment"),
    "contribution": (
        lambda h: h[0]["contributions"].__setitem__(0, flip(h[0]["contributions"][0])),
        "contribution",
    ),
    "dropped contribution": (
        lambda h: h[0]["contributions"].__setitem__(0, None),
        "contribution",
    ),
    "root": (lambda h: h[0].update(cards_root=flip(h[0]["cards_root"])), "cards_root"),
    "card": (swap_cards, "was dealt"),
    "order": (lambda h: h.insert(0, h.pop(1)), "order"),
    "result": (lambda h: h[0]["result"].update(ended_by="other"), "result"),
}


@pytest.mark.parametrize("kind", sorted(TAMPERING))
def test_each_kind_of_tampering_fails_clearly(game: Game, kind: str) -> None:
    change, words = TAMPERING[kind]
    results = verify_game(tampered(game.histories, change))
    failed = [r for r in results if not r.verified]
    assert failed, kind
    assert words in failed[0].to_json()["reason"]


def test_a_history_during_the_game_holds_only_what_the_rules_showed(game: Game) -> None:
    for viewer in (None, 0, 1, 2):
        for hand, history in zip(
            game.played, game.histories_for(viewer, reveal=False), strict=True
        ):
            assert "secret" not in history and "seed" not in history
            for seat, row in enumerate(history["seats"]):
                visible = viewer is not None and can_see_cards(hand, viewer, seat)
                visible = visible or hand.shown[seat]
                assert bool(row["cards"]) == visible, (viewer, seat)
                assert ("proof" in row) == visible
            result = verify_deal(history)
            assert isinstance(result, Verified) and not result.complete
    complete = export(game.played[0], game.names, viewer=EVERYONE, reveal=True)
    assert all(row["cards"] for row in complete["seats"])


def test_a_forged_card_in_a_history_during_the_game_fails(game: Game) -> None:
    history = game.histories_for(0, reveal=False)[0]
    row = history["seats"][0]
    cards = row["cards"].split()
    cards[0] = "As" if cards[0] != "As" else "Ks"
    row["cards"] = " ".join(cards)
    assert not verify_deal(history).verified
