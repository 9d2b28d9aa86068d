"""The service's secrets: table codes, seat tokens and deck seeds.

A table code is six characters from an alphabet without the look-alikes 0/O and 1/I (and without
U, to keep words out): easy to read aloud and to type on a phone, and 31**6 (about 887 million)
of them, so a code cannot be guessed by trying (joins are rate-limited too). A seat token is 32
random bytes, URL-safe; the server keeps only its SHA-256. A deck seed is 32 random bytes, drawn
by the service and given to the table (the engine and :mod:`teenpatti.tables.play.table` draw
nothing).
"""

from __future__ import annotations

import re
import secrets

from ...engine.deck import SEED_BYTES

__all__ = ["ALPHABET", "CODE_LENGTH", "looks_like_code", "new_code", "new_seed", "new_token"]

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTVWXYZ"
"""The characters of a table code."""
CODE_LENGTH = 6
"""How many characters a table code has."""
_CODE = re.compile(f"[{ALPHABET}]{{{CODE_LENGTH}}}")


def new_code() -> str:
    """A fresh random table code, like ``K7WQ3M``."""
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def looks_like_code(text: str) -> bool:
    """Whether ``text`` (already upper-cased) has the shape of a table code."""
    return bool(_CODE.fullmatch(text))


def new_token() -> str:
    """A fresh secret seat token."""
    return secrets.token_urlsafe(32)


def new_seed() -> bytes:
    """A fresh secret deck seed for one hand: 32 bytes from the operating system's secure source."""
    return secrets.token_bytes(SEED_BYTES)
