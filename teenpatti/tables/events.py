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
teenpatti.tables.events.BadEvent: Expected `int`, got `str` - at `$.seat`
"""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = [
    "Act",
    "Again",
    "BadEvent",
    "Control",
    "Created",
    "Event",
    "Hand",
    "Host",
    "Joined",
    "Part",
    "Started",
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
    """The table is opened with ``settings`` (as :meth:`Settings.to_json` gives them)."""

    settings: dict[str, Any]
    host: Host


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
    action: dict[str, Any]
    by: str
    id: str | None = None


class Control(_Event, tag="control", frozen=True):
    """The computer takes ``seat`` over (``bot`` true) or its person returns (false)."""

    seat: int
    bot: bool


Event = Created | Joined | Started | Again | Hand | Part | Act | Control
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
