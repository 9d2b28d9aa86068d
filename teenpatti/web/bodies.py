"""The lobby's HTTP bodies, typed: what each route of docs/protocol.md ("The lobby", "Turn alerts")
reads and answers. A request's body is decoded into its type once, where it arrives, and refused
with its field's stable code if it does not fit; an answer is encoded from its type. Their JSON
Schema is docs/schema/lobby.schema.json (:mod:`teenpatti.web.schema`).

The request to open a table is the table layer's
(:class:`~teenpatti.tables.play.settings.TableRequest`), and so is a push subscription
(:class:`~teenpatti.push.subscription.SubscriptionBody`).

>>> read_join({"name": "Asha", "colour": "red"})
Join(name='Asha')
>>> read_join({"name": 5})
Traceback (most recent call last):
...
teenpatti.tables.play.errors.TableError: a name must be text
>>> read_forget({"endpoint": ""})
Traceback (most recent call last):
...
teenpatti.push.endpoint.PushError: send the endpoint to forget
>>> encoded(Joined(token="Xq3", seat=1))
b'{"token":"Xq3","seat":1}'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, UnsetType
from starlette.responses import Response

from ..engine.hand import EndedBy
from ..push.endpoint import ENDPOINT_MAX, PushError
from ..tables.play.errors import TableError
from ..tables.play.fault import Fault, typed, value_at
from ..tables.play.names import clean_name
from ..tables.play.settings import Settings
from ..tables.wire.messages import LoggedMove, Proof, TableSeat

__all__ = [
    "Catalogue",
    "ChatRules",
    "ErrorBody",
    "ErrorDetail",
    "Forget",
    "HandHistory",
    "HistoryResult",
    "HistorySeat",
    "Join",
    "Joined",
    "Opened",
    "PushKey",
    "ServerInfo",
    "Share",
    "Subscribed",
    "TableInfo",
    "answer",
    "encoded",
    "read_forget",
    "read_join",
]


class _Body(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class Share(_Body):
    """The link to share for a table, and whether it reaches only this machine."""

    url: str
    local_only: bool


class Opened(_Body):
    """``POST /api/tables`` answers (201): the table's code, the host's seat token and seat,
    the page's path and the link to share."""

    code: str
    token: str
    seat: int
    link: str
    share: Share


class Join(_Body, forbid_unknown_fields=False):
    """``POST /api/tables/{code}/join``: the name to sit down with (other fields are left
    alone)."""

    name: str


class Joined(_Body):
    """``POST /api/tables/{code}/join`` answers: the new seat's token and number."""

    token: str
    seat: int


class TableInfo(_Body):
    """``GET /api/tables/{code}``: what anyone may see of a table before they sit down."""

    code: str
    status: Literal["waiting", "playing", "finished"]
    settings: Settings
    version: int
    seats: list[TableSeat]
    share: Share
    turn: int | None
    """The seat whose turn it is in the hand in play."""
    waited: int | None
    """Seconds since the table's last move (``null``: none since this process loaded it)."""


class HistorySeat(_Body, omit_defaults=True):
    """A seat of a hand history: its name, its chips before the boot, the cards this history
    may show (``""``: none), their proofs while the game is in play, and whether the computer
    held it as its own at the deal."""

    name: str
    chips: int
    cards: str
    proof: list[Proof] | UnsetType | None = UNSET
    computer: Literal[True] | UnsetType = UNSET


class PotWon(_Body):
    amount: int
    winners: list[int]


class HistoryResult(_Body, omit_defaults=True):
    """Where the hand stands at its end (``teenpatti replay`` prints the same)."""

    finished: bool
    chips: list[int]
    pot: int
    pots: list[PotWon] | UnsetType = UNSET
    ended_by: EndedBy | UnsetType = UNSET
    to_act: int | UnsetType | None = UNSET
    stake: int | UnsetType | None = UNSET
    waiting_for: int | UnsetType = UNSET


class HandHistory(_Body, kw_only=True, omit_defaults=True):
    """``GET /api/tables/{code}/hands`` answers a list of these: one hand in the
    ``teenpatti-hand/1`` format (docs/hand-history.md), its fair deal's fields as far as this
    viewer may have them now."""

    format: Literal["teenpatti-hand/1"]
    hand: int | UnsetType = UNSET
    rules: dict[str, str | int | bool | None]
    rules_edition: int
    dealer: int
    seats: list[HistorySeat]
    actions: list[LoggedMove]
    """Each move as played and what it did, as the state's log of the hand has them."""
    wild: str | UnsetType = UNSET
    deck: str | UnsetType = UNSET
    commitment: str | UnsetType = UNSET
    seed: str | UnsetType = UNSET
    contributions: list[str | None] | UnsetType = UNSET
    cards_root: str | UnsetType = UNSET
    wild_proof: Proof | UnsetType | None = UNSET
    secret: str | UnsetType = UNSET
    result: HistoryResult | UnsetType = UNSET


class Forget(_Body):
    """``DELETE /api/tables/{code}/push``: the endpoint of the subscription to forget."""

    endpoint: Annotated[str, msgspec.Meta(min_length=1, max_length=ENDPOINT_MAX)]


class PushKey(_Body):
    """``GET /api/push``: the VAPID public key a phone subscribes with."""

    key: str


class Subscribed(_Body):
    """``POST /api/tables/{code}/push`` answers (201)."""

    subscribed: Literal[True] = True


class SeatRange(_Body):
    min: int
    max: int


class Preset(_Body):
    """A preset's seats, its value of every option, and where it allows only some values of an
    option, those values."""

    seats: SeatRange
    options: dict[str, str | int | bool | None]
    only: dict[str, list[int]]


class Option(_Body, omit_defaults=True):
    """An option's kind and its values (``choice``, ``bool``), or its least value, whether it
    may be unset and, where this server has one, its greatest value (``int``)."""

    kind: Literal["choice", "bool", "int"]
    values: list[str | bool] | UnsetType = UNSET
    min: int | UnsetType = UNSET
    null: bool | UnsetType = UNSET
    max: int | UnsetType = UNSET


class ChatRules(_Body):
    """The chat's quick phrases (by key), reactions and longest typed message."""

    phrases: list[str]
    emoji: list[str]
    text_max: int


class Catalogue(_Body):
    """``GET /api/rules``: every preset and house-rule option, and the chat's limits."""

    default: str
    presets: dict[str, Preset]
    options: dict[str, Option]
    chat: ChatRules


class ServerInfo(_Body):
    """``GET /`` on a server without the page's files."""

    teenpatti: str
    api: str
    docs: str


class ErrorDetail(_Body):
    code: str
    reason: str


class ErrorBody(_Body):
    """Every refusal over HTTP: a stable code (each has a sentence in the page, in English and
    Nepali) and the reason in English."""

    error: ErrorDetail


def read_join(data: Any) -> Join:
    """A join's body (parsed JSON), or the name's refusal (``name/...``)."""
    return typed(data, Join, _name_refused)


def read_forget(data: Any) -> Forget:
    """An unsubscribe's body, or ``push/invalid``."""
    return typed(data, Forget, _forget_refused)


def encoded(body: msgspec.Struct) -> bytes:
    """An answer's bytes (compact JSON, UTF-8)."""
    return msgspec.json.encode(body)


def answer(
    body: msgspec.Struct, status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    """An answer as an HTTP response."""
    return Response(encoded(body), status, headers, media_type="application/json")


def _name_refused(fault: Fault, data: Any) -> Exception:
    try:
        clean_name(value_at(data, ("name",)))
    except TableError as refused:
        return refused
    return TableError("name/invalid", "send the name to sit down with")  # pragma: no cover


def _forget_refused(fault: Fault, data: Any) -> Exception:
    return PushError("push/invalid", "send the endpoint to forget")
