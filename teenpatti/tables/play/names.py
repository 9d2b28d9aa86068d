"""Player names: what a name may hold, and when two names at one table look the same.

A name is NFKC-normalised (full-width letters, ligatures and other compatibility forms become
the plain characters they stand for) and its runs of white space become one space. It is refused
if it holds control characters, lone surrogates, characters that show nothing (format characters,
fillers such as U+3164, U+115F, U+2800, combining grapheme joiners, variation selectors: Unicode's
default-ignorable code points), or nothing visible at all. The zero-width joiner and non-joiner
stay between letters, as Devanagari and other scripts need them.

Two names at a table may not look alike: :func:`name_key` is the name's confusable skeleton
(Unicode Technical Standard #39): each character is replaced by the prototype of its class of
look-alikes, from the confusables data the ``confusable_homoglyphs`` package ships, so Cyrillic
"Аsha" and Latin "Asha" share a key, as do "ASHA" and "asha". Spaces of every kind (a
no-break space as much as a plain one) and the accents that sit on any letter (the combining
diacritical marks: "Asha" with an acute on its last a, or a dot above) are left out of the key:
"As ha", "As\u00a0ha" and "Ashá" are taken where "Asha" sits. The vowel signs and other marks
of Devanagari and the other scripts stay: they make different names.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Any

from .errors import TableError

__all__ = ["NAME_MAX", "clean_name", "name_key", "name_length"]

NAME_MAX = 24
"""The longest player name, in characters as a reader counts them: a vowel sign, a virama or an
accent (a combining mark) is part of the letter it sits on, so a Devanagari name of 24 letters
fits as a Latin one does ("श्रीकृष्ण प्रसाद भट्टराई उपाध्याय" is 33 code points, 22 characters)."""

_CODE_POINTS_MAX = 3 * NAME_MAX
"""The most code points a name may hold, marks and all: what a seat has room to draw."""


def name_length(text: str) -> int:
    """How many characters ``text`` has as a reader counts them: its code points less the
    combining marks, which belong to the letter before them.

    >>> name_length("Asha"), name_length("श्रीकृष्ण")
    (4, 5)
    """
    return sum(1 for ch in text if unicodedata.category(ch)[0] != "M")


_JOINERS = frozenset("\u200c\u200d")

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt), and the blank Braille
# pattern, which draws nothing though it is a symbol.
_INVISIBLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _within(ch: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    point = ord(ch)
    return any(low <= point <= high for low, high in ranges)


def _invisible(ch: str) -> bool:
    return _within(ch, _INVISIBLE) and ch not in _JOINERS


def _format(ch: str) -> bool:
    return unicodedata.category(ch) == "Cf" and ch not in _JOINERS


def _visible(ch: str) -> bool:
    """Whether ``ch`` draws something by itself (a letter, digit, mark on a letter, symbol or
    punctuation)."""
    return unicodedata.category(ch)[0] in "LNPS" and ch != "\u2800"


def clean_name(name: Any, error: Callable[[str, str], Exception] = TableError) -> str:
    """A player's name, normalised; ``error`` (a ``name/...`` code) if it cannot be one.

    >>> clean_name("  Ａｓｈａ   Rai ")
    'Asha Rai'
    >>> clean_name("\\u3164")
    Traceback (most recent call last):
    ...
    teenpatti.tables.play.errors.TableError: a name cannot hold invisible or blank characters
    """
    if not isinstance(name, str):
        raise error("name/invalid", "a name must be text")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in name):
        # A lone surrogate (JSON "\ud800") cannot be written as UTF-8: stored in the log, it
        # would make every reply about the table fail to encode, for good.
        raise error("name/invalid", "a name must be valid text")
    if len(name) > 4 * NAME_MAX:  # before normalising: NFKC may grow a text eighteen-fold
        raise error("name/too_long", f"a name can be at most {NAME_MAX} characters")
    text = " ".join(unicodedata.normalize("NFKC", name).split())
    if not text:
        raise error("name/empty", "type a name to sit at the table")
    if name_length(text) > NAME_MAX or len(text) > _CODE_POINTS_MAX:
        raise error("name/too_long", f"a name can be at most {NAME_MAX} characters")
    if any(ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0 for ch in text):
        raise error("name/invalid", "a name cannot hold control characters")
    if any(_invisible(ch) or _format(ch) for ch in text):
        # Invisible and direction-changing characters would let a name hide or pose as another.
        raise error("name/invalid", "a name cannot hold invisible or blank characters")
    if any(ch in _JOINERS for ch in text) and not _joiners_between_letters(text):
        raise error("name/invalid", "a name cannot hold invisible or blank characters")
    if not any(_visible(ch) for ch in text):
        raise error("name/invalid", "a name needs a letter, digit or sign you can see")
    return text


def _joiners_between_letters(text: str) -> bool:
    """Whether every zero-width (non-)joiner sits between two characters that are not spaces."""
    for i, ch in enumerate(text):
        if ch in _JOINERS:
            before = text[i - 1] if i else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            if before.isspace() or after.isspace() or before in _JOINERS or after in _JOINERS:
                return False
    return True


def name_key(name: str) -> str:
    """What two names at a table must differ in: their confusable skeleton, ignoring case and
    joiners.

    >>> name_key("Аsha") == name_key("Asha") == name_key("ASHA")  # the first A is Cyrillic
    True
    >>> name_key("Asha") == name_key("Usha")
    False
    >>> len({name_key(n) for n in ("Asha", "As\u00a0ha", "Asha\u0301", "Ashá", "A s h a")})
    1
    >>> name_key("सुनिता") == name_key("सनिता")  # a vowel sign is not an accent
    False
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if ch not in _JOINERS and not ch.isspace())
    key = _skeleton(_skeleton(text.casefold()).casefold())
    return "".join(ch for ch in key if not _within(ch, _ACCENTS))


_ACCENTS = (
    (0x0300, 0x036F),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
)
"""Unicode's blocks of combining diacritical marks: accents any letter may carry."""


def _skeleton(text: str) -> str:
    prototype = _prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(prototype.get(ch, ch) for ch in decomposed))


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype: the least code point of its class of look-alikes
    (classes as the package's data groups them; a class's members all map to one prototype)."""
    from confusable_homoglyphs.confusables import confusables_data  # about 1 MB: load once

    out: dict[str, str] = {}
    for char, homoglyphs in confusables_data.items():
        if len(char) != 1:
            continue
        members = [char, *(h["c"] for h in homoglyphs if len(h["c"]) == 1)]
        out[char] = min(members)
    return out
