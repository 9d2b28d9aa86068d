"""A table's settings: what the host chose, as a typed value, and the checks of what a client sent.

:class:`Settings` is stored in the log's ``created`` event and sent in every state (as
:meth:`Settings.to_json`); :meth:`Settings.from_json` checks a create request's fields and refuses
bad ones with a stable code (``settings/...``, or the engine's ``rules/...`` for a house rule).

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

from typing import Any, Literal, get_args

import msgspec

from ...engine import Rules, RulesError
from ...engine.rules import OPTION_NAMES
from .errors import TableError

__all__ = ["BOT_LEVELS", "HANDS_MAX", "PLAY_MODES", "BotLevel", "PlayMode", "Settings"]

BotLevel = Literal["random", "easy", "medium", "hard", "expert"]
BOT_LEVELS: tuple[str, ...] = get_args(BotLevel)
"""The computer players' strengths a host may choose."""

PlayMode = Literal["live", "anytime"]
PLAY_MODES: tuple[str, ...] = get_args(PlayMode)
"""``live``: a turn timer; ``anytime``: no timer, the table waits for each player as long as it
takes (the default for ``duo``)."""

HANDS_MAX = 100
"""The most hands a game may have at a table here (the nepal table allows 10, 20 or 30)."""

_SETTING_KEYS = frozenset(
    {"name", "seats", "preset", "rules", "bots", "turn_seconds", "computer", "play"}
    | {"late", "chat", "voice"}
)


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
        """Check what a client sent; raise :class:`TableError` or ``RulesError`` on bad input."""
        if not isinstance(data, dict):
            raise TableError("settings/invalid", "table settings must be an object")
        unknown = sorted(set(data) - _SETTING_KEYS - OPTION_NAMES)
        if unknown:
            raise TableError("settings/unknown", f"unknown table setting {unknown[0]!r}")
        rules_in = data.get("rules", {})
        if not isinstance(rules_in, dict):
            raise TableError("settings/rules", "rules must be an object of house-rule options")
        opts = dict(rules_in)
        for key in (*OPTION_NAMES, "preset"):  # a house rule given at the top level wins
            if key in data:
                opts[key] = data[key]
        rules = Rules.from_options(opts)
        if rules.hands > HANDS_MAX:
            raise RulesError(
                "hands", f"a game here is at most {HANDS_MAX} hands, not {rules.hands}"
            )
        if not isinstance(data.get("computer", False), bool):
            raise TableError("settings/computer", "computer must be true or false")
        seats = data.get("seats", 4)
        if isinstance(seats, bool) or not isinstance(seats, int):
            raise TableError("settings/seats", "seats must be a whole number")
        if not rules.min_players <= seats <= rules.max_players:
            raise TableError(
                "settings/seats",
                f"a {rules.preset} table seats {rules.min_players} to {rules.max_players} players",
            )
        bots = data.get("bots", "medium")
        if bots not in BOT_LEVELS:
            raise TableError("settings/bots", f"the computer plays {', '.join(BOT_LEVELS)}")
        play: Any = data.get("play")
        if play is None:  # no timer asked for, or a duo table: play anytime
            untimed = "turn_seconds" in data and data["turn_seconds"] is None
            play = "anytime" if untimed or rules.preset == "duo" else "live"
        if play not in PLAY_MODES:
            raise TableError("settings/play", "play is live (with a turn timer) or anytime")
        turn = data.get("turn_seconds", 30 if play == "live" else None)
        if play == "anytime" and turn is not None:
            raise TableError("settings/timer", "an anytime table has no turn timer")
        if play == "live" and (
            isinstance(turn, bool) or not isinstance(turn, int) or not 5 <= turn <= 600
        ):
            raise TableError("settings/timer", "a live table's turn timer is 5 to 600 seconds")
        for key in ("late", "chat", "voice"):
            if not isinstance(data.get(key, True), bool):
                raise TableError(f"settings/{key}", f"{key} must be true or false")
        return cls(
            seats=seats,  # the values are checked above: mypy cannot follow the checks
            play=play,
            rules=rules.options(),
            bots=bots,
            turn_seconds=turn,
            late=data.get("late", True),
            chat=data.get("chat", True),
            voice=data.get("voice", True),
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as stored and as clients see them."""
        out: dict[str, Any] = msgspec.to_builtins(self)
        return out
