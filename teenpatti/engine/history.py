"""Hand histories in the ``teenpatti-hand/1`` format: export a hand, read one back, replay it.

The format is described in ``docs/hand-history.md``: one JSON object per hand (or an array of them)
with ``rules``, ``dealer``, ``seats`` (name, chips before the boot, cards) and ``actions``. This
project adds optional fields: on each action what it did (``paid``: the chips it put in,
``stake``: the stake after it, ``loser``: the seat an accepted side show knocked out; replay ignores
them), ``seed`` (the 64 hex digits the deck was shuffled from), ``commitment`` (its SHA-256,
published before the deal) and ``result`` (what replay prints). :func:`replay` gives exactly the
object ``teenpatti replay`` prints; the commands read the files (the engine does no I/O).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from .actions import Action
from .cards import JOKERS, CardError, cards_str, is_joker, parse_card, parse_cards
from .deck import commitment
from .errors import EngineError, IllegalAction
from .hand import Hand
from .rules import Rules, Variant

__all__ = [
    "FORMAT",
    "HistoryError",
    "export",
    "load_hand",
    "replay",
    "replay_text",
    "verify_deal",
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


def export(
    hand: Hand, names: Sequence[str] | None = None, *, with_result: bool = True
) -> dict[str, Any]:
    """The hand as a ``teenpatti-hand/1`` object (its actions so far)."""
    names = list(names) if names is not None else [f"Seat {s + 1}" for s in range(hand.seats)]
    out: dict[str, Any] = {
        "format": FORMAT,
        "rules": hand.rules.changed_options(),
        "dealer": hand.dealer,
        "seats": [
            {"name": names[s], "chips": hand.start_chips[s], "cards": cards_str(c) if c else ""}
            for s, c in enumerate(hand.cards)
        ],
        "actions": [
            {**a.to_json(), **o.to_json()} for a, o in zip(hand.log, hand.outcomes, strict=True)
        ],
    }
    if hand.wild is not None:
        out["wild"] = cards_str([hand.wild])
    if hand.seed is not None:
        out["commitment"] = commitment(hand.seed)
        if hand.finished:
            out["seed"] = hand.seed.hex()
    if with_result:
        out["result"] = hand.result()
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
    try:
        rules = Rules.from_options(options)
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


def replay(data: Any) -> dict[str, Any]:
    """Replay one hand history through the engine; return what ``teenpatti replay`` prints.

    An illegal action stops the replay there: the result is ``{"error": {"action": INDEX, ...}}``.
    """
    try:
        hand, actions = load_hand(data)
        for index, raw in enumerate(actions):
            try:
                hand.apply(Action.from_json(raw))
            except IllegalAction as error:
                raise HistoryError(error.code, error.reason, index) from None
    except HistoryError as error:
        return error.to_json()
    return hand.result()


def replay_text(text: str) -> list[dict[str, Any]]:
    """Replay every hand in a JSON text (one object, or an array of them)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # bad JSON or UTF-8, or nested too deep
        return [HistoryError("history/json", f"not valid JSON: {error}").to_json()]
    if isinstance(data, list):
        if not data:
            return [HistoryError("history/format", "the file holds no hands").to_json()]
        return [replay(item) for item in data]
    return [replay(data)]


def verify_deal(data: Any) -> dict[str, Any]:
    """Check a hand's fair deal: its ``seed`` matches the ``commitment`` published before the
    deal, and shuffling and dealing from that seed gives exactly the cards the history shows.

    Returns ``{"verified": true, "commitment": ...}`` or ``{"verified": false, "reason": ...}``.
    """

    def refuse(reason: str) -> dict[str, Any]:
        return {"verified": False, "reason": reason}

    if not isinstance(data, dict):
        return refuse("a hand history must be a JSON object")
    seed_hex, published = data.get("seed"), data.get("commitment")
    if not isinstance(seed_hex, str) or not isinstance(published, str):
        return refuse("the hand has no seed and commitment to check (was it dealt by a server?)")
    try:
        seed = bytes.fromhex(seed_hex)
        if len(seed) != 32:
            raise ValueError
    except ValueError:
        return refuse("the seed must be 64 hex digits")
    if commitment(seed) != published.lower():
        return refuse("the seed does not match the commitment published before the deal")
    try:
        recorded, _ = load_hand(data)
    except HistoryError as error:
        return refuse(error.reason)
    dealt = Hand(recorded.rules, recorded.start_chips, recorded.dealer, seed=seed)
    for seat, (mine, theirs) in enumerate(zip(dealt.cards, recorded.cards, strict=True)):
        if mine != theirs:
            shown = cards_str(mine) if mine else "nothing"
            return refuse(f"seat {seat} was dealt {shown} from this seed, not what the file shows")
    if dealt.wild != recorded.wild:
        return refuse("the card turned up is not the one this seed deals")
    return {"verified": True, "commitment": published.lower()}
