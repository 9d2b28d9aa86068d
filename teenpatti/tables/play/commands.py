"""What a client sends on its socket, as types: one msgspec struct per command, tagged by ``type``.

A message is decoded once, where it arrives (:func:`decode` for the socket's text,
:func:`convert` for a Python caller's dict), into a :data:`Command`; a message that does not fit
is refused there with a :class:`~teenpatti.tables.play.errors.TableError` naming the field at fault,
and nothing changes. Fields this module does not know are ignored (a newer page may send more).

>>> decode('{"type": "act", "action": {"do": "chaal"}, "version": 17}')
Act(id=None, action=Move(do='chaal', amount=None, target=None), version=17)
>>> decode('{"type": "remove", "seat": "two"}')
Traceback (most recent call last):
...
teenpatti.tables.play.errors.TableError: say which seat, by its number
>>> decode('{"type": "act", "action": {"do": "pack"}, "version": "x"}')
Traceback (most recent call last):
...
teenpatti.tables.play.errors.TableError: version is not valid: expected an int or null
>>> decode('{"type": "dance"}')
Traceback (most recent call last):
...
teenpatti.tables.play.errors.TableError: 'dance' is not a message this table knows

The refusal's code is ``message/invalid``, or the older code of a field that has one (see
:data:`FIELD_CODES`): ``message/unknown`` for a ``type`` this table does not know,
``action/malformed`` for a move that is not one, ``message/id`` for a bad command id...
"""

from __future__ import annotations

import itertools
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from .chat import TEXT_MAX, Emoji, Phrase
from .errors import TableError
from .fault import fault_of

__all__ = [
    "COMMANDS",
    "FIELD_CODES",
    "ID_MAX",
    "MAX_SDP",
    "Act",
    "Again",
    "Call",
    "Candidate",
    "Chat",
    "ClientMessage",
    "Command",
    "Configure",
    "Hello",
    "Leave",
    "Move",
    "Part",
    "Pause",
    "Ping",
    "Readmit",
    "Rebuy",
    "Remove",
    "Resume",
    "Signal",
    "Start",
    "Sync",
    "Voice",
    "convert",
    "decode",
    "decode_hello",
    "echo",
    "read",
]

ID_MAX = 64
"""The longest command id a client may give."""

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=ID_MAX, pattern=r"^[ -~]+$")]
"""Text the client makes up to name a command (1 to 64 printable ASCII characters): a command
sent again with the same id is applied at most once."""

Do = Literal["see", "chaal", "raise", "pack", "show", "sideshow", "accept", "decline", "allin"]


class Move(msgspec.Struct, frozen=True, omit_defaults=True):
    """A move as a client asks for it (the seat is the socket's own): ``do``, and ``amount``
    (a chaal under range bets) or ``with`` (a side show under ``any_seen``) where they apply."""

    do: Do
    amount: int | None = None
    target: int | None = msgspec.field(default=None, name="with")


class _Message(msgspec.Struct, tag_field="type", frozen=True, kw_only=True, omit_defaults=True):
    pass


class Hello(_Message, tag="hello", frozen=True):
    """The first message: take the seat of ``token`` (``None``: watch). ``patches``: this client
    applies patches (the default: a client that cannot says ``false`` and gets whole states)."""

    token: str | None = None
    patches: bool = True


class _Command(_Message, frozen=True):
    id: CommandId | None = None
    """The client's id for the command (a command sent again with it applies at most once)."""


class Start(_Command, tag="start", frozen=True):
    """The host starts the game."""


class Act(_Command, tag="act", frozen=True, kw_only=True):
    """A move for the socket's seat; ``version`` the version the client saw (``state/stale`` if
    the game has moved on since)."""

    action: Move
    version: int | None = None


class Again(_Command, tag="again", frozen=True):
    """Play again once the game is over (the host's starts it, anyone else's is a vote)."""


class Leave(_Command, tag="leave", frozen=True):
    """Give up the seat for good."""


class Remove(_Command, tag="remove", frozen=True, kw_only=True):
    """The host removes the person at ``seat``."""

    seat: int


class Readmit(_Command, tag="readmit", frozen=True, kw_only=True):
    """The host lets a person they removed (by ``name``) sit down again."""

    name: str


class Rebuy(_Command, tag="rebuy", frozen=True):
    """A player out of chips buys back in (the rebuy house rule)."""


class Pause(_Command, tag="pause", frozen=True):
    """The host pauses the game."""


class Resume(_Command, tag="resume", frozen=True):
    """The host resumes the game."""


class Configure(_Command, tag="configure", frozen=True):
    """The host changes ``late``, ``chat`` and/or ``voice`` (``None``: as it is)."""

    late: bool | None = None
    chat: bool | None = None
    voice: bool | None = None


class Chat(_Command, tag="chat", frozen=True):
    """A chat message: one of a quick ``phrase``, an ``emoji`` or free ``text``."""

    phrase: Phrase | None = None
    emoji: Emoji | None = None
    text: Annotated[str, msgspec.Meta(max_length=4 * TEXT_MAX)] | None = None
    """(Held to :data:`~.chat.TEXT_MAX` once its white space is tidied, by the chat's checks.)"""

    def fields(self) -> dict[str, str]:
        """The fields given, by name (the chat's own checks want exactly one)."""
        given = {"phrase": self.phrase, "emoji": self.emoji, "text": self.text}
        return {k: v for k, v in given.items() if v is not None}


class Part(_Command, tag="part", frozen=True, kw_only=True):
    """The seat's part of the next hand's deal (64 lowercase hex digits), for the commitment
    ``for``."""

    answers: str = msgspec.field(name="for")
    part: Annotated[str, msgspec.Meta(pattern=r"^[0-9a-f]{64}$")]


MAX_SDP = 10_000
"""The longest session description a client may send (a browser's audio offer is 2-5 KB)."""


class Call(_Message, tag="call", frozen=True, kw_only=True):
    """The seat's place on the table's voice call: ``join`` it (or stay on it) or leave it,
    with its microphone ``muted`` or not. Sent again after a reconnect, it rejoins."""

    join: bool
    muted: bool = False


class Candidate(msgspec.Struct, frozen=True, omit_defaults=True):
    """An ICE candidate as ``RTCIceCandidate.toJSON()`` gives it (``candidate`` empty: the end
    of the candidates)."""

    candidate: Annotated[str, msgspec.Meta(max_length=512)]
    sdpMid: Annotated[str, msgspec.Meta(max_length=32)] | None = None
    sdpMLineIndex: Annotated[int, msgspec.Meta(ge=0, le=63)] | None = None
    usernameFragment: Annotated[str, msgspec.Meta(max_length=256)] | None = None


class Signal(_Message, tag="signal", frozen=True, kw_only=True):
    """WebRTC signalling for the call, passed to the seat ``to`` (on the call) as from this
    socket's seat: an ``offer`` or ``answer`` (``sdp``), or the ICE ``candidates`` gathered
    since the last (at most 16 in one message)."""

    to: int
    kind: Literal["offer", "answer", "candidates"]
    sdp: Annotated[str, msgspec.Meta(max_length=MAX_SDP)] | None = None
    candidates: Annotated[list[Candidate], msgspec.Meta(max_length=16)] | None = None


class Sync(_Message, tag="sync", frozen=True):
    """Send me the whole state again."""


class Ping(_Message, tag="ping", frozen=True):
    """Answered with ``pong`` and the table's version."""


Command = (
    Start
    | Act
    | Again
    | Leave
    | Remove
    | Readmit
    | Rebuy
    | Pause
    | Resume
    | Configure
    | Chat
    | Part
)
"""The commands that may change a table (each may carry an ``id``)."""
Voice = Call | Signal
"""The voice call's messages: passed between the seats on the call, they change no table."""
ClientMessage = Hello | Command | Sync | Ping | Voice
"""Every message a client sends."""
AfterHello = Command | Sync | Ping | Voice
"""What a socket may send once it has said hello."""

COMMANDS: tuple[str, ...] = tuple(t.__struct_config__.tag for t in Command.__args__)
"""The commands' ``type`` names (docs/protocol.md)."""

FIELD_CODES: dict[str, tuple[str, str]] = {
    "type": ("message/unknown", "that is not a message this table knows"),
    "id": ("message/id", f"a command id is text of 1 to {ID_MAX} printable ASCII characters"),
    "action": ("action/malformed", "an action is an object with do (and whole numbers)"),
    "action.do": ("action/unknown", "that is not an action"),
    "action.amount": ("action/malformed", "amount must be a whole number"),
    "action.with": ("action/malformed", "with must be a whole number"),
    "seat": ("seat/invalid", "say which seat, by its number"),
    "name": ("seat/not_removed", "nobody of that name was removed from this game"),
    "late": ("settings/late", "late must be true or false"),
    "chat": ("settings/chat", "chat must be true or false"),
    "voice": ("settings/voice", "voice must be true or false"),
    "phrase": ("chat/phrase", "that is not one of the quick phrases"),
    "emoji": ("chat/emoji", "that is not one of the reactions"),
    "text": ("chat/text", f"a chat message is text of at most {TEXT_MAX} characters"),
    "part": ("deal/part", "a part is 64 lowercase hex digits"),
    "for": ("deal/late", "that hand is dealt already: your part came too late"),
    "token": ("token/invalid", "that seat token is not valid"),
    "join": ("call/invalid", "join must be true or false"),
    "muted": ("call/invalid", "muted must be true or false"),
    "to": ("call/no_peer", "that seat is not on the call"),
    "kind": ("call/invalid", "a call's signal is an offer, an answer or candidates"),
    "sdp": ("call/sdp", "that is not a session description this call takes"),
    "candidates": ("call/candidate", "that is not a list of connection candidates"),
}
"""The code and sentence of a refused field, by its path, where the field had a code of its own
before commands were typed (clients know them; each path is one command's); any other field:
``message/invalid``, naming it."""

T = TypeVar("T")
_decoder = msgspec.json.Decoder(AfterHello)
_any = msgspec.json.Decoder(ClientMessage)  # a lone struct's tag may be left out: not a hello's


class _Kind(msgspec.Struct):
    type: Any = None


class _Echo(msgspec.Struct):
    id: Any = None


def echo(text: str | bytes) -> str | None:
    """The ``id`` of a message refused before it was typed, if it has text there (an error
    answering a command carries its id).

    >>> echo('{"type": "act", "action": 5, "id": "k3-17"}'), echo("{")
    ('k3-17', None)
    """
    try:
        cid = msgspec.json.decode(text, type=_Echo).id
    except (msgspec.DecodeError, RecursionError):
        return None
    return cid if isinstance(cid, str) else None


def decode(text: str | bytes) -> Command | Sync | Ping | Voice:
    """The message a socket sent after its hello, typed; :class:`TableError` if it is not JSON
    (``message/json``), not an object, or does not fit (the field at fault named)."""
    try:
        return _decoder.decode(text)
    except msgspec.ValidationError as error:
        raise _refusal(error, text) from None
    except msgspec.DecodeError:
        raise TableError("message/json", "send each message as a JSON object") from None


def decode_hello(text: str | bytes) -> Hello:
    """A socket's first message, typed: anything but a hello that fits is :class:`TableError`
    (``message/hello``, or ``token/invalid`` for a token that is not text).

    >>> decode_hello('{"type": "hello", "token": "Xq3"}')
    Hello(token='Xq3', patches=True)
    >>> decode_hello('{"type": "hello", "token": null, "patches": false}')
    Hello(token=None, patches=False)
    >>> decode_hello('{"token": "Xq3"}')
    Traceback (most recent call last):
    ...
    teenpatti.tables.play.errors.TableError: say hello first, with your seat token if you have one
    """
    try:
        hello = _any.decode(text)
        if isinstance(hello, Hello):
            return hello
    except msgspec.ValidationError as error:
        refused = _refusal(error, text, "hello")
        if refused.code == "token/invalid":
            raise refused from None
    except msgspec.DecodeError:
        pass
    raise TableError("message/hello", "say hello first, with your seat token if you have one")


def read(kind: type[T], data: Any, at: str = "") -> T:
    """``data`` as one command (or a :class:`Move`, ``at`` its path in the command), refused as
    :func:`decode` refuses a message.

    >>> read(Move, {"do": "chaal", "amount": 20})
    Move(do='chaal', amount=20, target=None)
    >>> read(Move, "chaal", "action")
    Traceback (most recent call last):
    ...
    teenpatti.tables.play.errors.TableError: an action is an object with do (and whole numbers)
    """
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise _refusal(error, None, at=at) from None


def convert(data: Any) -> Command | Sync | Ping | Voice:
    """:func:`decode` for a message already parsed (a Python caller's dict)."""
    if not isinstance(data, dict):
        raise TableError("message/json", "send each message as a JSON object")
    try:
        message: Command | Sync | Ping | Voice = msgspec.convert(data, AfterHello)
        return message
    except msgspec.ValidationError as error:
        raise _refusal(error, None, data.get("type")) from None


def _refusal(
    error: msgspec.ValidationError, text: str | bytes | None, kind: Any = None, at: str = ""
) -> TableError:
    """The refusal for a message that does not fit: its field's code and a sentence naming it."""
    fault = fault_of(error)
    steps = list(itertools.takewhile(lambda step: not step.isdigit(), fault.path))
    path = ".".join([at, *steps] if at else steps)  # a list's item: the list's own code
    if not path:
        return TableError("message/json", "send each message as a JSON object")
    known = FIELD_CODES.get(path)
    if known is None:
        why = f"expected {_words(fault.expected)}" if fault.expected else "it is missing"
        return TableError("message/invalid", f"{path} is not valid: {why}")
    code, reason = known
    if code == "message/unknown":
        if kind is None and text is not None:
            try:
                kind = msgspec.json.decode(text, type=_Kind).type
            except (msgspec.DecodeError, RecursionError):  # nested too deep to skip
                kind = None
        if isinstance(kind, str):
            reason = f"{kind[:40]!r} is not a message this table knows"
    return TableError(code, reason)


def _words(expected: str) -> str:
    """msgspec's name of a type, as the sentence says it (``int | null`` -> an int or null)."""
    kinds = [k.strip() for k in expected.split("|")]
    names = {"null": "null", "int": "an int", "str": "text", "bool": "true or false"}
    return " or ".join(names.get(k, f"an {k}" if k[0] in "aeio" else f"a {k}") for k in kinds)
