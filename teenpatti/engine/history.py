"""Hand histories in the ``teenpatti-hand/1`` format: export a hand, read one back, replay it.

The format is described in ``docs/hand-history.md``: one JSON object per hand (or an array of them)
with ``rules``, ``dealer``, ``seats`` (name, chips before the boot, cards) and ``actions``. This
project adds optional fields: on each action what it did (``paid``: the chips it put in,
``stake``: the stake after it, ``loser``: the seat an accepted side show knocked out; replay ignores
them), the fair deal (``deck``, ``commitment``, ``contributions``, ``cards_root``, ``secret`` or
``seed``: see :func:`export`; :func:`verify_deal` and :func:`verify_game` check them) and
``result`` (what replay prints). :func:`replay` gives a
:class:`~teenpatti.engine.hand.HandResult` (or the :class:`HistoryError` that stopped it),
:func:`verify_deal` a :class:`Verified` or
:class:`NotVerified`; their ``to_json()`` is what ``teenpatti replay`` and ``teenpatti verify``
print. The commands read the files (the engine does no I/O).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Literal

from .actions import Action
from .cards import JOKERS, CardError, cards_str, is_joker, parse_card, parse_cards
from .deck import DECK_V1, DECK_V2, DECKS, PART_BYTES, CardTree, Shuffle, check_card, commitment
from .errors import EngineError, IllegalAction
from .hand import Hand, HandResult
from .rules import RULES_EDITION, Rules, Variant
from .view import can_see_cards

__all__ = [
    "EVERYONE",
    "FORMAT",
    "Everyone",
    "HistoryError",
    "NotVerified",
    "Replayed",
    "Verdict",
    "Verified",
    "export",
    "load_hand",
    "replay",
    "replay_text",
    "verify_deal",
    "verify_game",
]

FORMAT = "teenpatti-hand/1"
"""The value of the ``format`` field."""


class HistoryError(EngineError):
    """A hand history that cannot be read: not JSON, a missing field, an unknown rule, bad cards.
    ``action`` is the index of the action at fault, or ``None`` for the file itself."""

    action: int | None

    def __init__(self, code: str, reason: str, action: int | None = None) -> None:
        super().__init__(code, reason)
        self.action = action

    def to_json(self) -> dict[str, Any]:
        """``{"error": {"action": 1, "code": "show/seen_vs_blind", "reason": "..."}}``."""
        return {"error": {"action": self.action, "code": self.code, "reason": self.reason}}


Replayed = HandResult | HistoryError
"""What a replay comes to: where the hand stands, or what stopped it."""


@dataclass(frozen=True, slots=True)
class Verified:
    """A deal found fair: dealt by ``deck`` (the algorithm); ``complete`` whether the whole hand
    was checked (``False``: a history given out during a game, whose shown cards, the seats in
    ``checked``, were proved against ``cards_root``); the ``commitment`` and ``cards_root`` it
    was checked against.

    >>> Verified("teenpatti-deck/2", complete=False, checked=(0, 2)).to_json()
    {'verified': True, 'complete': False, 'deck': 'teenpatti-deck/2', 'checked': [0, 2]}
    """

    deck: str
    complete: bool | None = None
    commitment: str | None = None
    cards_root: str | None = None
    checked: tuple[int, ...] | None = None

    @property
    def verified(self) -> Literal[True]:
        return True

    def to_json(self) -> dict[str, Any]:
        """What ``teenpatti verify`` prints: the fields that apply, ``verified`` first."""
        out: dict[str, Any] = {"verified": True}
        for key in ("complete", "deck", "commitment", "cards_root"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.checked is not None:
            out["checked"] = list(self.checked)
        return out


@dataclass(frozen=True, slots=True)
class NotVerified:
    """A deal that could not be shown fair, and why."""

    reason: str

    @property
    def verified(self) -> Literal[False]:
        return False

    def to_json(self) -> dict[str, Any]:
        """``{"verified": false, "reason": ...}``."""
        return {"verified": False, "reason": self.reason}


Verdict = Verified | NotVerified
"""What checking a deal comes to."""


class Everyone(Enum):
    """The viewer of a complete history: every card, as after the game."""

    EVERYONE = "everyone"


EVERYONE = Everyone.EVERYONE
"""Export a hand for everyone: every card dealt (see :func:`export`)."""


def export(
    hand: Hand,
    names: Sequence[str] | None = None,
    *,
    with_result: bool = True,
    viewer: int | Everyone | None = EVERYONE,
    reveal: bool = True,
    number: int | None = None,
) -> dict[str, Any]:
    """The hand as a ``teenpatti-hand/1`` object (its actions so far).

    ``viewer`` is whom it is for: a seat or ``None`` (a spectator) gets only the cards the rules
    showed it (:func:`~teenpatti.engine.view.can_see_cards`), each with its proof against the
    published ``cards_root``; ``EVERYONE`` gets every card. The server's ``secret`` (or the
    ``teenpatti-deck/1`` ``seed``) is written only if ``reveal`` and the hand is over: a table
    reveals them when its game ends. ``number`` is the hand's number in its game.
    """
    names = list(names) if names is not None else [f"Seat {s + 1}" for s in range(hand.seats)]
    everyone = viewer is EVERYONE
    tree = hand.tree
    seats: list[dict[str, Any]] = []
    for s, c in enumerate(hand.cards):
        shown = c is not None and (everyone or can_see_cards(hand, viewer, s))  # type: ignore[arg-type]
        seat: dict[str, Any] = {
            "name": names[s],
            "chips": hand.start_chips[s],
            "cards": cards_str(c) if c and shown else "",
        }
        if shown and tree is not None and not reveal:
            proofs = hand.proofs(s)
            seat["proof"] = None if proofs is None else [p.to_json() for p in proofs]
        seats.append(seat)
    out: dict[str, Any] = {"format": FORMAT}
    if number is not None:
        out["hand"] = number
    out.update(
        rules=hand.rules.changed_options(),
        rules_edition=hand.rules.edition,
        dealer=hand.dealer,
        seats=seats,
        actions=[
            {**a.to_json(), **o.to_json()} for a, o in zip(hand.log, hand.outcomes, strict=True)
        ],
    )
    if hand.wild is not None:
        out["wild"] = cards_str([hand.wild])
    shuffle = hand.shuffle
    if shuffle is not None:
        out["deck"] = shuffle.version
        out["commitment"] = shuffle.commitment
        if shuffle.version == DECK_V1:
            if reveal and hand.finished:
                out["seed"] = shuffle.secret.hex()
        else:
            assert tree is not None
            out["contributions"] = [None if p is None else p.hex() for p in shuffle.parts]
            out["cards_root"] = tree.root
            if hand.wild is not None and not reveal:
                wild = hand.wild_proof()
                out["wild_proof"] = None if wild is None else wild.to_json()
            if reveal and hand.finished:
                out["secret"] = shuffle.secret.hex()
    if with_result:
        out["result"] = hand.result().to_json()
    return out


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise HistoryError("history/format", f"the hand needs a valid {name!r} field")
    return value


def load_hand(data: Any) -> tuple[Hand, list[Any]]:
    """Set up the hand a history describes (boots paid) and return it with its raw actions.

    Raises :class:`HistoryError` (``action`` ``None``) for a file that cannot be set up.
    """
    if not isinstance(data, dict):
        raise HistoryError("history/format", "a hand history must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise HistoryError("history/format", f"unknown format {fmt!r} (expected {FORMAT!r})")
    options = data.get("rules", {})
    if not isinstance(options, dict):
        raise HistoryError("history/format", "rules must be an object of house-rule options")
    edition = data.get("rules_edition", RULES_EDITION)
    try:
        rules = Rules.from_options(options).of_edition(edition)
    except EngineError as error:
        raise HistoryError(error.code, error.reason) from None
    seats = _field(data, "seats", list)
    dealer = _field(data, "dealer", int)
    actions = data.get("actions", [])
    if not isinstance(actions, list):
        raise HistoryError("history/format", "actions must be a list")
    chips: list[int] = []
    cards: list[tuple[int, ...] | None] = []
    jokers = iter(JOKERS)  # the pack's two jokers, numbered apart across the whole hand
    for i, seat in enumerate(seats):
        if not isinstance(seat, dict):
            raise HistoryError("history/format", f"seat {i} must be an object")
        amount = seat.get("chips")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
            raise HistoryError("history/format", f"seat {i} needs a whole number of chips")
        text = seat.get("cards") or ""
        if isinstance(text, list) and all(isinstance(card, str) for card in text):
            text = " ".join(text)  # ["As", "Kd", "9c"], as other programs may write it
        if not isinstance(text, str):
            raise HistoryError("history/format", f"seat {i}: cards must be text like 'As Kd 9c'")
        try:
            held = parse_cards(text) if text.strip() else None
        except CardError as error:
            raise HistoryError("hand/cards", f"seat {i}: {error}") from None
        if held is not None and any(is_joker(c) for c in held):
            renumbered: list[int] = []
            for card in held:
                if is_joker(card):
                    card = next(jokers, -1)
                    if card < 0:
                        raise HistoryError("hand/cards", "the pack has only two jokers")
                renumbered.append(card)
            held = tuple(renumbered)
        chips.append(amount)
        cards.append(held)
    wild: int | None = None
    if rules.variant is Variant.WILD_RANK:
        text = data.get("wild")
        if not isinstance(text, str):
            raise HistoryError("history/wild", "under wild_rank the hand needs the card turned up")
        try:
            wild = parse_card(text)
        except CardError as error:
            raise HistoryError("history/wild", f"wild: {error}") from None
    try:
        hand = Hand(rules, chips, dealer, cards, wild=wild)
    except EngineError as error:
        raise HistoryError(error.code, error.reason) from None
    return hand, actions


def replay(data: Any) -> Replayed:
    """Replay one hand history through the engine: where it stands at its end.

    An illegal action stops the replay there: the result is the :class:`HistoryError` naming it
    (``{"error": {"action": INDEX, ...}}`` as JSON).
    """
    try:
        hand, actions = load_hand(data)
        for index, raw in enumerate(actions):
            try:
                hand.apply(Action.from_json(raw))
            except IllegalAction as error:
                raise HistoryError(error.code, error.reason, index) from None
    except HistoryError as error:
        return error
    return hand.result()


def replay_text(text: str) -> list[Replayed]:
    """Replay every hand in a JSON text (one object, or an array of them)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # bad JSON or UTF-8, or nested too deep
        return [HistoryError("history/json", f"not valid JSON: {error}")]
    if isinstance(data, list):
        if not data:
            return [HistoryError("history/format", "the file holds no hands")]
        return [replay(item) for item in data]
    return [replay(data)]


def _refuse(reason: str) -> NotVerified:
    return NotVerified(reason)


def _hex_bytes(text: Any, size: int) -> bytes | None:
    if not isinstance(text, str) or len(text) != 2 * size:
        return None
    try:
        return bytes.fromhex(text)
    except ValueError:
        return None


def verify_deal(data: Any) -> Verdict:
    """Check a hand's fair deal from its history alone.

    ``teenpatti-deck/2`` (``deck`` says which; none is ``teenpatti-deck/1``): the revealed
    ``secret`` matches the ``commitment`` published before the deal; the secret and the
    ``contributions`` give the ``cards_root`` published at the deal; every card the history shows
    (and the card turned up) is the one dealt at its place; the actions lead to the ``result``
    shown. A history given out during the game has no secret yet: then each card it shows is
    checked against ``cards_root`` with its proof (``"complete": false``).
    ``teenpatti-deck/1``: the ``seed`` matches the ``commitment`` and deals the cards shown.

    Returns a :class:`Verified` or a :class:`NotVerified` (its reason).
    """
    if not isinstance(data, dict):
        return _refuse("a hand history must be a JSON object")
    version = data.get("deck", DECK_V1)
    if version not in DECKS:
        return _refuse(f"unknown deck algorithm {version!r}")
    if version == DECK_V2:
        return _verify_v2(data)
    seed_hex, published = data.get("seed"), data.get("commitment")
    if not isinstance(seed_hex, str) or not isinstance(published, str):
        return _refuse("the hand has no seed and commitment to check (was it dealt by a server?)")
    seed = _hex_bytes(seed_hex, 32)
    if seed is None:
        return _refuse("the seed must be 64 hex digits")
    if commitment(seed) != published.lower():
        return _refuse("the seed does not match the commitment published before the deal")
    try:
        recorded, _ = load_hand(data)
    except HistoryError as error:
        return _refuse(error.reason)
    dealt = Hand(recorded.rules, recorded.start_chips, recorded.dealer, seed=seed)
    for seat, (mine, theirs) in enumerate(zip(dealt.cards, recorded.cards, strict=True)):
        if mine != theirs:
            shown = cards_str(mine) if mine else "nothing"
            return _refuse(f"seat {seat} was dealt {shown} from this seed, not what the file shows")
    if dealt.wild != recorded.wild:
        return _refuse("the card turned up is not the one this seed deals")
    return Verified(DECK_V1, commitment=published.lower())


def _candidates(text: str) -> list[int]:
    """The card numbers a card's text may stand for (a joker is 52 or 53)."""
    card = parse_card(text)
    return list(JOKERS) if is_joker(card) else [card]


def _check_shown(data: dict[str, Any], root: str) -> Verdict:
    """Check every card a history given out during a game shows against ``root``."""
    seats = data.get("seats")
    if not isinstance(seats, list):
        return _refuse("the hand needs a valid 'seats' field")
    checked: list[int] = []
    for i, seat in enumerate(seats):
        text = seat.get("cards") if isinstance(seat, dict) else None
        if not text:
            continue
        proofs = seat.get("proof")
        cards = text.split() if isinstance(text, str) else text
        if not isinstance(proofs, list) or len(proofs) != 3 or len(cards) != 3:
            return _refuse(f"seat {i}'s cards come without the proof of each card")
        try:
            ok = all(
                any(check_card(root, c, proof) for c in _candidates(card))
                for card, proof in zip(cards, proofs, strict=True)
            )
        except (CardError, TypeError):
            ok = False
        if not ok:
            return _refuse(f"seat {i}'s cards are not the ones committed to at the deal")
        checked.append(i)
    wild, proof = data.get("wild"), data.get("wild_proof")
    if isinstance(wild, str) and proof is not None:
        try:
            ok = any(check_card(root, c, proof) for c in _candidates(wild))
        except CardError:
            ok = False
        if not ok:
            return _refuse("the card turned up is not the one committed to at the deal")
    return Verified(DECK_V2, complete=False, checked=tuple(checked))


def _verify_v2(data: dict[str, Any]) -> Verdict:
    published, root = data.get("commitment"), data.get("cards_root")
    if not isinstance(published, str) or not isinstance(root, str):
        return _refuse("the hand has no commitment and cards_root to check")
    if "secret" not in data:
        return _check_shown(data, root)
    secret = _hex_bytes(data["secret"], 32)
    if secret is None:
        return _refuse("the secret must be 64 hex digits")
    if hashlib.sha256(secret).hexdigest() != published.lower():
        return _refuse("the secret does not match the commitment published before the deal")
    raw = data.get("contributions")
    seats = data.get("seats")
    if not isinstance(raw, list) or not isinstance(seats, list) or len(raw) != len(seats):
        return _refuse("the hand needs one contribution (or null) per seat")
    parts: list[bytes | None] = []
    for seat, text in enumerate(raw):
        part = None if text is None else _hex_bytes(text, PART_BYTES)
        if text is not None and part is None:
            return _refuse(f"seat {seat}'s contribution must be 64 hex digits or null")
        parts.append(part)
    try:
        recorded, actions = load_hand(data)
    except HistoryError as error:
        return _refuse(error.reason)
    shuffle = Shuffle(secret, tuple(parts))
    dealt = Hand(recorded.rules, recorded.start_chips, recorded.dealer, seed=shuffle)
    if CardTree(shuffle.seed, dealt.deck).root != root.lower():
        return _refuse(
            "the secret and the contributions do not give the cards_root published at the deal"
            " (a contribution, the secret or the root was changed)"
        )
    for seat, (mine, theirs) in enumerate(zip(dealt.cards, recorded.cards, strict=True)):
        if (cards_str(mine) if mine else "") != (cards_str(theirs) if theirs else ""):
            shown = cards_str(mine) if mine else "nothing"
            return _refuse(f"seat {seat} was dealt {shown}, not what the file shows")
    if dealt.wild != recorded.wild:
        return _refuse("the card turned up is not the one dealt")
    if "result" in data:
        for index, move in enumerate(actions):
            try:
                recorded.apply(Action.from_json(move))
            except IllegalAction as error:
                return _refuse(f"action {index} is not legal: {error.reason}")
        if recorded.result().to_json() != data["result"]:
            return _refuse("the moves and the cards do not give the result the history shows")
    return Verified(DECK_V2, complete=True, commitment=published.lower(), cards_root=root.lower())


def verify_game(hands: Sequence[Any]) -> list[Verdict]:
    """Check every hand of a game (:func:`verify_deal`) and the chain between them: the hands
    numbered 1, 2, 3... in order, each starting with the chips the one before left, every
    server secret fresh (no commitment used twice). A break fails the hand after it.

    >>> verify_game([])
    [NotVerified(reason='the file holds no hands')]
    """
    if not hands:
        return [_refuse("the file holds no hands")]
    results = [verify_deal(hand) for hand in hands]
    seen: set[str] = set()
    for k, (hand, result) in enumerate(zip(hands, results, strict=True)):
        if not result.verified or not isinstance(hand, dict):
            continue
        published = str(hand.get("commitment"))
        if published in seen:
            results[k] = _refuse(f"hand {k + 1} repeats an earlier hand's commitment")
            continue
        seen.add(published)
        if k == 0:
            continue
        before = hands[k - 1]
        number = hand.get("hand")
        previous = before.get("hand") if isinstance(before, dict) else None
        if isinstance(number, int) and isinstance(previous, int) and number != previous + 1:
            results[k] = _refuse(f"hand {number} follows hand {previous}: hands out of order")
            continue
        left = before.get("result", {}).get("chips") if isinstance(before, dict) else None
        chips = [s.get("chips") for s in hand.get("seats", []) if isinstance(s, dict)]
        if isinstance(left, list) and left != chips:
            results[k] = _refuse(
                f"hand {k + 1} starts with chips {chips}, not the {left} the hand before left"
                " (hands out of order or changed)"
            )
    return results
