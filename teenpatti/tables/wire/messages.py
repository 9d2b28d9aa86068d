"""What the server sends on a socket, as types: one msgspec struct per message, tagged by ``type``.

These types are the contract of docs/protocol.md: the JSON Schema in docs/ is generated from them
(``python -m teenpatti.tables.wire.schema``), and the tests decode every message a real server sends
with them, strictly (an unknown key or a value of the wrong type fails), so the server's messages
and the page cannot drift apart. :func:`encode` writes one:

>>> encode(Error(code="turn/not_yours", reason="it is not your turn"))
b'{"type":"error","code":"turn/not_yours","reason":"it is not your turn"}'
>>> encode(Pong(version=17))
b'{"type":"pong","version":17}'
>>> decode(b'{"type":"pong","version":17,"extra":1}')
Traceback (most recent call last):
...
msgspec.ValidationError: Object contains unknown field `extra`

A field that is sent only in some states (``late`` on a seat, ``proof`` with shown cards...) is
``UNSET`` when absent: it is left out of the JSON, not sent as ``null``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType

from ...engine import ActionKind, Category, EndedBy
from ..play.chat import ChatLine
from ..play.commands import Candidate
from ..play.settings import Settings

__all__ = [
    "CallRoster",
    "CallSeat",
    "ChatLine",
    "Error",
    "HandView",
    "IceServer",
    "Legal",
    "LoggedMove",
    "Patch",
    "Pong",
    "PotView",
    "Proof",
    "RebuyOffer",
    "Score",
    "SeatRow",
    "ServerMessage",
    "SignalFrom",
    "Standing",
    "State",
    "TableSeat",
    "decode",
    "encode",
]


class _Part(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


class _Message(_Part, tag_field="type", kw_only=True):
    pass


class Proof(_Part):
    """A shown card's proof against the hand's ``cards_root``: its deal ``position``, its
    ``salt`` and the ``path`` of ``[side, sibling]`` up the tree (``side`` ``L`` or ``R``)."""

    position: int
    salt: str
    path: list[tuple[Literal["L", "R"], str]]


class TableSeat(_Part, kw_only=True):
    """A seat as the lobby shows it (``GET /api/tables/{code}``): a :class:`SeatRow` without
    its cards' proofs or whether its person is connected."""

    seat: int
    name: str
    bot: bool
    host: bool
    person: bool
    late: Literal[True] | UnsetType = UNSET
    """Only while a latecomer waits for the next hand."""
    chips: int | UnsetType = UNSET
    put_in: int | UnsetType = UNSET
    dealt: bool | UnsetType = UNSET
    packed: bool | UnsetType = UNSET
    seen: bool | UnsetType = UNSET
    all_in: bool | UnsetType = UNSET
    cards: list[str] | UnsetType | None = UNSET
    """``null`` where this viewer may not see them."""
    category: Category | UnsetType | None = UNSET


class SeatRow(TableSeat, kw_only=True):
    """A seat as a viewer sees it; the hand's fields only while a game has a hand."""

    proof: list[Proof] | UnsetType = UNSET
    connected: bool
    """Whether the seat's person has a socket open (a computer's seat always)."""


class LoggedMove(_Part, kw_only=True):
    """A move of the hand's public log: as played, and what it did."""

    seat: int
    do: ActionKind
    amount: int | UnsetType = UNSET
    target: int | UnsetType = msgspec.field(default=UNSET, name="with")
    paid: int
    stake: int
    loser: int | UnsetType = UNSET
    timeout: Literal[True] | UnsetType = UNSET
    """A move the turn timer made for its player."""


class PotView(_Part):
    """A settled pot; ``returned``: the top of a bet nobody called, back to the one who bet."""

    amount: int
    winners: list[int]
    returned: bool


class HandView(_Part, kw_only=True):
    """The hand in play (or the last one), as everyone sees it, with how it was dealt."""

    number: int
    of: int
    dealer: int
    to_act: int | None
    actor: int | None
    stake: int
    boot: int
    pot: int
    side_show: list[int] | None
    wild: str | None
    finished: bool
    ended_by: EndedBy | None
    pots: list[PotView]
    actions: list[LoggedMove]
    deck: str
    commitment: str
    secret: str | None
    contributions: list[str | None] | UnsetType = UNSET
    cards_root: str | UnsetType = UNSET
    wild_proof: Proof | UnsetType | None = UNSET


class Legal(_Part):
    """A move on offer and its cost (``cost`` to ``max`` under range bets); ``targets`` the
    seats a side show may ask."""

    do: ActionKind
    cost: int
    max: int
    label: str
    targets: list[int]


class Standing(_Part):
    """A player's place once the game is over (equal chips share a place); under the rebuy
    house rule a player who bought back in has ``rebuys`` and ``net`` (the chips less those
    bought), and places go by ``net``."""

    place: int
    seat: int
    name: str
    chips: int
    rebuys: int | UnsetType = UNSET
    net: int | UnsetType = UNSET


class Score(_Part):
    """A seat's running score at the table, over its finished games: the games it ``won``
    (first place, shared or not) and the ``chips`` it won or lost in all (less rebuys)."""

    seat: int
    name: str
    won: int
    chips: int


class RebuyOffer(_Part):
    """What a rebuy gives a player out of chips now: ``chips``, the rebuys ``left``, and the
    last hand a rebuy may play from (``until``)."""

    chips: int
    left: int
    until: int


class State(_Message, tag="state", kw_only=True):
    """Everything one socket's seat (``you``; ``null``: a spectator) may know of the table.

    The fields go as they are sent: what every viewer sees alike, the serving process's clock,
    then what is the seat's own."""

    version: int
    code: str
    status: Literal["waiting", "playing", "finished"]
    settings: Settings
    you: int | None
    seats: list[SeatRow]
    hand: HandView | None
    legal: list[Legal]
    paused: bool
    votes: list[int]
    chat: list[ChatLine]
    removed: list[str] | UnsetType = UNSET
    """The names of the persons the host removed from this game (only while there are any)."""
    next_commitment: str | UnsetType = UNSET
    next_parts: list[int] | UnsetType = UNSET
    standings: list[Standing] | UnsetType = UNSET
    rebuys: list[int] | UnsetType = UNSET
    """Each seat's rebuys this game (once someone has bought back in)."""
    score: list[Score] | UnsetType = UNSET
    """The table's running score across its games, once one has ended (each seat, computers
    too)."""
    game: int | UnsetType = UNSET
    """This game's number at the table, from the second game on: the hands of the earlier ones
    stay reachable (``/api/tables/{code}/hands?game=N``)."""
    deadline: float | None
    """When the turn timer runs out (epoch seconds)."""
    now: float
    """The server's time when it sent this state (epoch seconds)."""
    out: Literal[True] | UnsetType = UNSET
    """This seat is out of chips: it sits out the rest of the game (or buys back in)."""
    rebuy: RebuyOffer | UnsetType = UNSET
    """The rebuy this seat, out of chips, may make now."""


OpPath = Annotated[list[str | int], msgspec.Meta(min_length=1)]
"""Where an operation applies: the object keys and list indexes from the top of the state."""


class Set(_Part, array_like=True, tag="s"):
    """``["s", path, value]``: set the key (or list index) at ``path`` to ``value``."""

    path: OpPath
    value: Any


class Delete(_Part, array_like=True, tag="d"):
    """``["d", path]``: delete the key at ``path``."""

    path: OpPath


class Append(_Part, array_like=True, tag="a"):
    """``["a", path, values]``: append ``values`` to the list at ``path``."""

    path: OpPath
    values: list[Any]


Op = Set | Delete | Append
"""One operation of a patch, a JSON array whose first item names it (docs/protocol.md)."""


class Patch(_Message, tag="patch"):
    """What turns the state held (at version ``from``) into the state at ``version``: ``ops``,
    each ``["s", path, value]``, ``["d", path]`` or ``["a", path, values]``, in order; a path is
    the object keys and list indexes from the top of the state."""

    version: int
    from_: int = msgspec.field(name="from")
    ops: list[Op]


class Error(_Message, tag="error"):
    """A refusal: a stable ``code``, a ``reason`` for a person; ``id`` the command's it
    answers; ``retryable`` when the same command may succeed if sent again."""

    code: str
    reason: str
    id: str | UnsetType = UNSET
    retryable: Literal[True] | UnsetType = UNSET


class Pong(_Message, tag="pong"):
    """The answer to ``ping``: the table's version now."""

    version: int


class IceServer(_Part, kw_only=True):
    """One entry of ``RTCConfiguration.iceServers``: its ``urls``, and for TURN the seat's own
    short-lived ``username`` and ``credential``."""

    urls: list[str]
    username: str | UnsetType = UNSET
    credential: str | UnsetType = UNSET


class CallSeat(_Part):
    """A seat on the voice call: ``n`` counts the call's joins (a seat that joins again, from a
    reloaded page, has a new one: its old connections are over)."""

    seat: int
    n: int
    muted: bool


class CallRoster(_Message, tag="call", kw_only=True):
    """Who is on the table's voice call now, sent to every seated socket when it changes (and
    on connecting, while anyone is on it); a spectator never gets one. To a socket on the call,
    ``ice``: its STUN and TURN servers, and ``policy`` (``relay``: through TURN only)."""

    seats: list[CallSeat]
    ice: list[IceServer] | UnsetType = UNSET
    policy: Literal["all", "relay"] | UnsetType = UNSET


class SignalFrom(_Message, tag="signal", kw_only=True):
    """WebRTC signalling from the seat ``from`` on the call to this socket's seat, as it sent it
    (see the client's ``signal``)."""

    from_: int = msgspec.field(name="from")
    kind: Literal["offer", "answer", "candidates"]
    sdp: str | UnsetType = UNSET
    candidates: list[Candidate] | UnsetType = UNSET


ServerMessage = State | Patch | Error | Pong | CallRoster | SignalFrom
"""Every message the server sends on a socket."""

_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(ServerMessage)


def encode(message: ServerMessage) -> bytes:
    """The JSON of one message."""
    return _encoder.encode(message)


def decode(data: str | bytes) -> ServerMessage:
    """One message as sent, checked strictly against its type (for tests and tools)."""
    message: ServerMessage = _decoder.decode(data)
    return message
