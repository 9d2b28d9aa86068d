"""Table chat: quick phrases, emoji reactions and short free text, checked before they are stored.

A chat message is an event in the table's log like a move (so it survives restarts and reaches
every process), but it never holds cards and never changes the game. What a client may send:

- ``{"type": "chat", "phrase": KEY}``: one of :data:`PHRASES` (each page shows it in its language);
- ``{"type": "chat", "emoji": E}``: one of :data:`EMOJI`;
- ``{"type": "chat", "text": "..."}``: free text of at most :data:`TEXT_MAX` characters, when the
  host allows it; pages show it as text, never as markup.

>>> message({"phrase": "shabash"}, free_text=True)
('phrase', 'shabash')
>>> message({"text": "  ramro   khel!  "}, free_text=True)
('text', 'ramro khel!')
>>> message({"text": "hello"}, free_text=False)
Traceback (most recent call last):
...
teenpatti.tables.play.chat.ChatError: the host has turned free text off
"""

from __future__ import annotations

import unicodedata
from collections import deque
from typing import Any, Literal, get_args

import msgspec

from .errors import TableError

__all__ = [
    "CHAT_KEPT",
    "EMOJI",
    "PHRASES",
    "RATE",
    "TEXT_MAX",
    "ChatError",
    "ChatLine",
    "Emoji",
    "Limiter",
    "Phrase",
    "clean_text",
    "message",
]

Phrase = Literal[
    "shabash", "ramro_khel", "chito", "good_luck", "nice_hand", "oops", "thanks", "bye"
]
"""A quick phrase's key (the page holds their words in English and Nepali)."""
PHRASES: tuple[str, ...] = get_args(Phrase)
"""The quick phrases, by key, in the order the page offers them (``/api/rules`` serves them)."""

Emoji = Literal["👍", "😂", "😮", "😢", "😡", "🎉", "🙏", "🔥"]
"""An emoji reaction."""
EMOJI: tuple[str, ...] = get_args(Emoji)
"""The emoji reactions, in the order the page offers them."""

TEXT_MAX = 120
"""The longest free-text message, in characters (after spaces are tidied)."""

CHAT_KEPT = 20
"""How many of the latest messages a table keeps in memory and sends in its state (as many as
the page shows: every state carries them, so they are kept few)."""

RATE = (5, 10.0)
"""At most 5 messages per seat in any 10 seconds."""


class ChatLine(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A chat message: ``n`` counts the table's messages; ``text`` is a phrase's key, an emoji
    or free text, by ``kind``."""

    n: int
    seat: int
    kind: Literal["phrase", "emoji", "text"]
    text: str


class ChatError(TableError):
    """A chat message the table refuses."""


def clean_text(raw: Any) -> str:
    """Free text made tidy: NFC, control and format characters dropped, runs of white space made
    one space, trimmed; :class:`ChatError` if it is not text, is empty or is too long.

    >>> clean_text("a\\u202eb\\n\\n c")
    'ab c'
    """
    if not isinstance(raw, str) or len(raw) > 4 * TEXT_MAX:
        raise ChatError("chat/text", f"a chat message is text of at most {TEXT_MAX} characters")
    text = unicodedata.normalize("NFC", raw)
    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch)[0] != "C"
    )
    text = " ".join(kept.split())
    if not text:
        raise ChatError("chat/empty", "there is nothing to say in that message")
    if len(text) > TEXT_MAX:
        raise ChatError("chat/text", f"a chat message is text of at most {TEXT_MAX} characters")
    return text


def message(data: dict[str, Any], *, free_text: bool) -> tuple[str, str]:
    """The ``(kind, text)`` a chat command asks for, or :class:`ChatError`."""
    given = [k for k in ("phrase", "emoji", "text") if k in data]
    if len(given) != 1:
        raise ChatError("chat/invalid", "a chat message is one phrase, one emoji or one text")
    kind = given[0]
    value = data[kind]
    if kind == "phrase":
        if value not in PHRASES:
            raise ChatError("chat/phrase", "that is not one of the quick phrases")
        return kind, str(value)
    if kind == "emoji":
        if value not in EMOJI:
            raise ChatError("chat/emoji", "that is not one of the reactions")
        return kind, str(value)
    if not free_text:
        raise ChatError("chat/text_off", "the host has turned free text off")
    return kind, clean_text(value)


class Limiter:
    """At most ``count`` messages per seat in any ``seconds``; remembers a bounded number of
    times per seat (``count``), for the seats of one table.

    >>> limit = Limiter(2, 10.0)
    >>> [limit.take(0, t) for t in (0.0, 1.0, 2.0, 10.5)]
    [True, True, False, True]
    """

    def __init__(self, count: int = RATE[0], seconds: float = RATE[1]) -> None:
        self.count = count
        self.seconds = seconds
        self._times: dict[int, deque[float]] = {}

    def take(self, seat: int, now: float) -> bool:
        """Whether ``seat`` may send a message at ``now`` (counted if so)."""
        times = self._times.setdefault(seat, deque(maxlen=self.count))
        if len(times) == self.count and now - times[0] < self.seconds:
            return False
        times.append(now)
        return True
