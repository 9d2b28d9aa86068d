"""A table's settings: what the host chose, as a typed value, and the checks of what a client sent.

:class:`Settings` is stored in the log's ``created`` event and sent in every state (as
:meth:`Settings.to_json`). A request to open a table is typed as a :class:`TableRequest`
(:func:`read_request`: a field that does not fit is refused with a stable code, ``settings/...``,
or the engine's ``rules/...`` for a house rule), and :meth:`Settings.of` makes the checks its type
cannot say; :meth:`Settings.from_json` does both.

>>> Settings.from_json({"seats": 3, "boot": 20}).to_json()["rules"]["boot"]
20
>>> Settings.from_json({"preset": "duo", "seats": 2}).play
'anytime'
>>> Settings.from_json({"bots": "genius"})
Traceback (most recent call last):
...
teenpatti.tables.play.errors.TableError: the computer plays random, easy, medium, hard, expert
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

import msgspec
from msgspec import UNSET, UnsetType

from ...engine import Rules, RulesError
from .errors import TableError
from .fault import Fault, typed, value_at
from .house_rules import OPTIONS, HouseRules, refusal
from .names import clean_name

__all__ = [
    "BOT_LEVELS",
    "HANDS_MAX",
    "PLAY_MODES",
    "BotLevel",
    "PlayMode",
    "Settings",
    "TableRequest",
    "read_request",
]

BotLevel = Literal["random", "easy", "medium", "hard", "expert"]
BOT_LEVELS: tuple[str, ...] = get_args(BotLevel)
"""The computer players' strengths a host may choose."""

PlayMode = Literal["live", "anytime"]
PLAY_MODES: tuple[str, ...] = get_args(PlayMode)
"""``live``: a turn timer; ``anytime``: no timer, the table waits for each player as long as it
takes (the default for ``duo``)."""

HANDS_MAX = 100
"""The most hands a game may have at a table here (the nepal table allows 10, 20 or 30)."""

_FLAGS = ("computer", "late", "chat", "voice")


class TableRequest(HouseRules, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a client asks for when it opens a table (``POST /api/tables``): the host's name,
    the settings, and the house rules (in ``rules``, or each at the top level, where it wins).
    ``computer``: the host plays the computer at once.

    >>> asked = read_request({"name": "Asha", "preset": "duo", "seats": 2})
    >>> asked.seats, asked.given(), Settings.of(asked).play
    (2, {'preset': 'duo'}, 'anytime')
    >>> read_request({"seats": "4"})
    Traceback (most recent call last):
    ...
    teenpatti.tables.play.errors.TableError: seats must be a whole number
    """

    name: str | UnsetType = UNSET
    """The host's name (the lobby refuses a request without one)."""
    seats: int = 4
    rules: HouseRules = HouseRules()
    bots: BotLevel = "medium"
    play: PlayMode | None = None
    """``None``: ``anytime`` for a duo table or one asked for without a timer, else ``live``."""
    turn_seconds: Annotated[int, msgspec.Meta(ge=5, le=600)] | UnsetType | None = UNSET
    """Left out: 30 for a live table."""
    computer: bool = False
    late: bool = True
    chat: bool = True
    voice: bool = True


_REFUSED: dict[str, tuple[str, str]] = {
    "": ("settings/invalid", "table settings must be an object"),
    "rules": ("settings/rules", "rules must be an object of house-rule options"),
    "seats": ("settings/seats", "seats must be a whole number"),
    "bots": ("settings/bots", f"the computer plays {', '.join(BOT_LEVELS)}"),
    "play": ("settings/play", "play is live (with a turn timer) or anytime"),
    "turn_seconds": ("settings/timer", "a live table's turn timer is 5 to 600 seconds"),
} | {key: (f"settings/{key}", f"{key} must be true or false") for key in _FLAGS}
"""The code and sentence of each setting that does not fit its type (clients know the codes)."""


def read_request(data: Any) -> TableRequest:
    """``data`` (a parsed JSON body) as a :class:`TableRequest`; a value that does not fit is
    refused with its field's code: ``settings/...``, ``name/...``, or the engine's
    ``rules/...`` (with the engine's sentence) for a house rule."""
    return typed(data, TableRequest, _refusal)


def _refusal(fault: Fault, data: Any) -> TableError | RulesError:
    path, value = fault.path, value_at(data, fault.path)
    if len(path) > 1 and path[0] == "rules":  # an option in rules: the engine says what it takes
        return refusal(path[1], value)
    field = path[0] if path else ""
    if field in OPTIONS or field == "preset":
        return refusal(field, value)
    if field == "name":
        try:
            clean_name(value)
        except TableError as refused:
            return refused
    if fault.unknown:
        return TableError("settings/unknown", f"unknown table setting {field!r}")
    return TableError(*_REFUSED.get(field, _REFUSED[""]))


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What the host chose: seats, rules (preset and options, hands and boot included), the
    computer players' strength, how the table plays (``live`` with a turn timer in seconds, or
    ``anytime``: no timer) and the timer; whether people arriving after the start may take a
    computer's seat (``late``), whether the chat takes free text (``chat``) and whether the
    seated players may talk on a voice call (``voice``): the host may change these three
    during the game.

    Logs from before ``play`` have only the timer: a table without one plays ``anytime``.

    >>> Settings(turn_seconds=None).play
    'anytime'
    """

    seats: int = 4
    rules: dict[str, Any] = msgspec.field(default_factory=lambda: {"preset": "nepal"})
    """The preset and every house-rule option, by their names in docs/rules.md."""
    bots: BotLevel = "medium"
    turn_seconds: int | None = 30
    play: PlayMode = "live"
    late: bool = True
    chat: bool = True
    voice: bool = True

    def __post_init__(self) -> None:
        if self.play == "live" and self.turn_seconds is None:  # a log from before ``play``
            msgspec.structs.force_setattr(self, "play", "anytime")

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Check what a client sent (parsed JSON); raise :class:`TableError` or ``RulesError``
        on bad input (:func:`read_request`, then :meth:`of`)."""
        return cls.of(read_request(data))

    @classmethod
    def of(cls, asked: TableRequest) -> Settings:
        """The settings a typed request asks for, after the checks its type cannot say (the
        preset's seats, the hands allowed here, a timer that fits the way the table plays)."""
        rules = Rules.from_options(asked.rules.given() | HouseRules.given(asked))
        if rules.hands > HANDS_MAX:
            raise RulesError(
                "hands", f"a game here is at most {HANDS_MAX} hands, not {rules.hands}"
            )
        if not rules.min_players <= asked.seats <= rules.max_players:
            raise TableError(
                "settings/seats",
                f"a {rules.preset} table seats {rules.min_players} to {rules.max_players} players",
            )
        play = asked.play
        if play is None:  # no timer asked for, or a duo table: play anytime
            untimed = asked.turn_seconds is None
            play = "anytime" if untimed or rules.preset == "duo" else "live"
        turn = asked.turn_seconds
        if turn is UNSET:
            turn = 30 if play == "live" else None
        if play == "anytime" and turn is not None:
            raise TableError("settings/timer", "an anytime table has no turn timer")
        if play == "live" and turn is None:
            raise TableError(*_REFUSED["turn_seconds"])
        return cls(
            seats=asked.seats,
            play=play,
            rules=rules.options(),
            bots=asked.bots,
            turn_seconds=turn,
            late=asked.late,
            chat=asked.chat,
            voice=asked.voice,
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and as clients see them."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out
