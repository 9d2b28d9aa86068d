"""A table's events as types: one msgspec struct per kind, tagged by ``type`` in the log.

Events are checked against these types once, when a log is read (:func:`decode`); a row that does
not fit is refused there with :class:`BadEvent`, so a table is never half-built from a damaged log.
The stored form is plain JSON with ``type`` first (:func:`encode`):

>>> event = decode({"type": "control", "seat": 2, "bot": True})
>>> event
Control(seat=2, bot=True)
>>> encode(event)
{'type': 'control', 'seat': 2, 'bot': True}
>>> decode({"type": "control", "seat": "two", "bot": True})
Traceback (most recent call last):
...
teenpatti.tables.play.events.BadEvent: Expected `int`, got `str` - at `$.seat`
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from ...engine import Action, ActionKind
from .commands import Do
from .settings import Settings

__all__ = [
    "Act",
    "Again",
    "BadEvent",
    "Configured",
    "Control",
    "Created",
    "Event",
    "Hand",
    "Host",
    "Joined",
    "Left",
    "Part",
    "Paused",
    "Played",
    "Readmitted",
    "Rebought",
    "Said",
    "Seated",
    "Started",
    "Voted",
    "decode",
    "encode",
]


class BadEvent(ValueError):
    """A stored event that is not one of the known kinds, or has fields of the wrong type."""


class _Event(msgspec.Struct, tag_field="type", frozen=True, omit_defaults=True):
    pass


class Host(msgspec.Struct, frozen=True):
    """The person who opened the table (seat 0)."""

    name: str
    token_hash: str


class Created(_Event, tag="created", frozen=True):
    """The table is opened with ``settings``."""

    settings: Settings
    host: Host
    rules_edition: int = 1
    """The edition of the rules the table plays (the engine's ``RULES_EDITION`` when it was
    opened): a table opened before editions were recorded played edition 1, and replays so."""


class Played(msgspec.Struct, frozen=True, omit_defaults=True):
    """A move as the log keeps it (a hand-history action): ``seat`` plays ``do``, with
    ``amount`` or ``with`` where they apply.

    >>> Played.of(Played(seat=1, do="chaal", amount=20).action()) == Played(1, "chaal", 20)
    True
    """

    seat: int
    do: Do
    amount: int | None = None
    target: int | None = msgspec.field(default=None, name="with")

    def action(self) -> Action:
        """The engine's action."""
        return Action(self.seat, ActionKind(self.do), self.amount, self.target)

    @classmethod
    def of(cls, action: Action) -> Played:
        """The move the log keeps for the engine's ``action``."""
        return cls(action.seat, action.kind.value, action.amount, action.target)


class Joined(_Event, tag="joined", frozen=True):
    """A person takes ``seat``."""

    seat: int
    name: str
    token_hash: str


class Started(_Event, tag="started", frozen=True):
    """The game starts; empty seats get computer players named in ``names``; ``seed`` (hex) is
    the first hand's deck seed, committed before the deal."""

    names: list[str]
    dealer: int
    seed: str
    id: str | None = None
    """The client's id for the command that made it (a retried command applies once)."""


class Again(_Event, tag="again", frozen=True):
    """A new game at the same table, same seats."""

    dealer: int
    seed: str
    id: str | None = None


class Hand(_Event, tag="hand", frozen=True):
    """The next hand is dealt from the secret committed before (mixed, under
    ``teenpatti-deck/2``, with the parts the players sent since); ``next_seed`` is committed."""

    next_seed: str
    deck: str = "teenpatti-deck/1"
    """The deck algorithm (logs from before ``teenpatti-deck/2`` have none: version 1)."""


class Part(_Event, tag="part", frozen=True):
    """``seat``'s contribution (64 hex digits) to the next hand's deal."""

    seat: int
    part: str
    id: str | None = None


class Act(_Event, tag="act", frozen=True):
    """``seat`` plays ``action`` (a hand-history action), ``by`` ``person``/``bot``/``timer``."""

    seat: int
    action: Played
    by: Literal["person", "bot", "timer"]
    id: str | None = None


class Control(_Event, tag="control", frozen=True):
    """The computer takes ``seat`` over (``bot`` true) or its person returns (false)."""

    seat: int
    bot: bool


class Seated(_Event, tag="seated", frozen=True):
    """A person who arrived after the start takes ``seat``, a seat the computer plays: the
    computer plays on until the next hand is dealt (or the next game starts), then it is theirs."""

    seat: int
    name: str
    token_hash: str


class Left(_Event, tag="left", frozen=True):
    """The person at ``seat`` left the table (``removed``: the host removed them). Before the
    start their seat is freed; during a game the computer plays it on. The token stops working;
    a host who leaves passes the role to the next person seated."""

    seat: int
    removed: bool = False


class Readmitted(_Event, tag="readmitted", frozen=True):
    """The host lets a person they removed sit down again (``name``, as they were seated)."""

    name: str


class Rebought(_Event, tag="rebuy", frozen=True):
    """The person at ``seat``, out of chips, buys back in under the rebuy house rule (the rules'
    ``rebuy_chips``): the chips are theirs from the next hand dealt."""

    seat: int
    id: str | None = None


class Voted(_Event, tag="voted", frozen=True):
    """The person at ``seat`` asks for a new game (a majority of the people seated starts one)."""

    seat: int


class Paused(_Event, tag="paused", frozen=True):
    """The host paused the game (``paused`` true: no clocks, no moves) or resumed it (false)."""

    paused: bool


class Configured(_Event, tag="configured", frozen=True):
    """The host changed the table's own settings: ``late`` (people arriving after the start may
    take a computer's seat), ``chat`` (free text in the chat) and ``voice`` (the seated players'
    call); ``None`` leaves one as it is."""

    late: bool | None = None
    chat: bool | None = None
    voice: bool | None = None


class Said(_Event, tag="said", frozen=True):
    """A chat message from ``seat``: a quick ``phrase`` (its key), an ``emoji`` or ``text``;
    ``id`` the client's id for it (a message sent again with it is stored once)."""

    seat: int
    kind: Literal["phrase", "emoji", "text"]
    text: str
    id: str | None = None


Event = (
    Created
    | Joined
    | Started
    | Again
    | Hand
    | Part
    | Act
    | Control
    | Seated
    | Left
    | Readmitted
    | Rebought
    | Voted
    | Paused
    | Configured
    | Said
)
"""Every kind of event a table's log holds."""


def decode(data: Any) -> Event:
    """The typed event for one stored JSON object; :class:`BadEvent` if it does not fit."""
    try:
        event: Event = msgspec.convert(data, Event)
    except msgspec.ValidationError as error:
        raise BadEvent(str(error)) from None
    return event


def encode(event: Event) -> dict[str, Any]:
    """The JSON object stored for ``event`` (``type`` first)."""
    out: dict[str, Any] = msgspec.to_builtins(event)
    return out
