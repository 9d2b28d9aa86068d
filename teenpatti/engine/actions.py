"""Actions: what a seat does (``Action``), what it did (``Outcome``) and may do now, at what cost
(``LegalAction``)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .errors import IllegalAction

__all__ = ["Action", "ActionKind", "LegalAction", "Outcome"]


class ActionKind(StrEnum):
    """The moves of a hand, by their names in the hand-history format."""

    SEE = "see"
    CHAAL = "chaal"
    RAISE = "raise"
    PACK = "pack"
    SHOW = "show"
    SIDESHOW = "sideshow"
    ACCEPT = "accept"
    DECLINE = "decline"
    ALLIN = "allin"


_set = object.__setattr__
"""Sets a field of a frozen instance: the hand-written ``__init__`` methods below do what the
generated ones do, with one lookup fewer a field (these objects are made at every move)."""

_LABELS = {
    ActionKind.SEE: "See cards",
    ActionKind.CHAAL: "Chaal",
    ActionKind.RAISE: "Raise",
    ActionKind.PACK: "Pack",
    ActionKind.SHOW: "Show",
    ActionKind.SIDESHOW: "Side show",
    ActionKind.ACCEPT: "Accept",
    ActionKind.DECLINE: "Decline",
    ActionKind.ALLIN: "All in",
}


@dataclass(frozen=True, slots=True)
class Action:
    """One move by one seat. ``amount`` is what a ``chaal`` pays under range bets; ``target`` is
    the seat asked for a side show (``"with"`` in a hand history)."""

    seat: int
    kind: ActionKind
    amount: int | None = None
    target: int | None = None

    def __init__(
        self, seat: int, kind: ActionKind, amount: int | None = None, target: int | None = None
    ) -> None:
        if type(kind) is not ActionKind:
            try:
                kind = ActionKind(str(kind))
            except ValueError:
                raise IllegalAction("action/unknown", f"{kind!r} is not an action") from None
        _set(self, "seat", seat)
        _set(self, "kind", kind)
        _set(self, "amount", amount)
        _set(self, "target", target)

    def to_json(self) -> dict[str, Any]:
        """The action as a hand-history entry: ``{"seat": 2, "do": "chaal"}``."""
        out: dict[str, Any] = {"seat": self.seat, "do": self.kind.value}
        if self.amount is not None:
            out["amount"] = self.amount
        if self.target is not None:
            out["with"] = self.target
        return out

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Read a hand-history entry; a malformed one raises :class:`IllegalAction`."""
        if not isinstance(data, dict):
            raise IllegalAction("action/malformed", "an action must be an object with seat and do")
        seat, do = data.get("seat"), data.get("do")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalAction("action/malformed", "an action needs a seat number")
        try:
            kind = ActionKind(str(do))
        except ValueError:
            raise IllegalAction("action/unknown", f"{do!r} is not an action") from None
        amount, target = data.get("amount"), data.get("with")
        for name, value in (("amount", amount), ("with", target)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                raise IllegalAction("action/malformed", f"{name} must be a whole number")
        return cls(seat, kind, amount, target)


@dataclass(frozen=True, slots=True)
class LegalAction:
    """A move the seat may make now and what it costs: ``cost`` chips (the least, under range
    bets, where anything up to ``max_cost`` may be paid). ``targets`` are the seats a side show
    may ask, or the seat a show is asked of."""

    kind: ActionKind
    cost: int = 0
    max_cost: int = 0
    targets: tuple[int, ...] = ()

    def __init__(
        self, kind: ActionKind, cost: int = 0, max_cost: int = 0, targets: tuple[int, ...] = ()
    ) -> None:
        _set(self, "kind", kind)
        _set(self, "cost", cost)
        _set(self, "max_cost", max_cost)
        _set(self, "targets", targets)

    @property
    def label(self) -> str:
        """What a button shows: ``Chaal 20``, ``Raise 40``, ``Pack``, ``Chaal 10-20``."""
        name = _LABELS[self.kind]
        if self.cost == 0 and self.max_cost == 0:
            return name
        if self.max_cost > self.cost:
            return f"{name} {self.cost}-{self.max_cost}"
        return f"{name} {self.cost}"

    def action(self, seat: int, amount: int | None = None, target: int | None = None) -> Action:
        """The :class:`Action` that takes this option (the first target, when one is needed)."""
        kind = self.kind
        if target is None:
            if kind is _SIDESHOW and self.targets:
                target = self.targets[0]
            elif amount is None and type(seat) is int:
                return _plain_action(seat, kind)
        return Action(seat, kind, amount, target)


_SIDESHOW = ActionKind.SIDESHOW
_PLAIN: dict[tuple[int, ActionKind], Action] = {}
"""Actions with neither an amount nor a seat asked, by seat and kind, made once and shared (they
are frozen): a move is made at every turn, from a handful of these."""


def _plain_action(seat: int, kind: ActionKind) -> Action:
    key = (seat, kind)
    action = _PLAIN.get(key)
    if action is None:
        if len(_PLAIN) >= 1024:
            _PLAIN.clear()
        action = _PLAIN[key] = Action(seat, kind)
    return action


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one move in a hand's public log did, as everyone saw it: the chips it ``paid`` into
    the pot, the ``stake`` after it, and the seat an accepted side show knocked out (``loser``)."""

    paid: int
    stake: int
    loser: int | None = None

    def __init__(self, paid: int, stake: int, loser: int | None = None) -> None:
        _set(self, "paid", paid)
        _set(self, "stake", stake)
        _set(self, "loser", loser)

    def to_json(self) -> dict[str, Any]:
        """The fields a hand-history entry adds: ``{"paid": 20, "stake": 10}`` (and ``loser``)."""
        out: dict[str, Any] = {"paid": self.paid, "stake": self.stake}
        if self.loser is not None:
            out["loser"] = self.loser
        return out
