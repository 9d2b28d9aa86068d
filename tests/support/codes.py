"""The stable error codes the server can send, as its source writes them: the Nepali screens and
the page's strings are checked against every one of them.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ERROR_CALL = re.compile(r"\w+\(\s*\"([a-z_0-9]+/[a-z_0-9]+)\"\s*,")
"""An error raised or sent with its code and a reason for the player (a metric's label, with no
reason, is not one)."""
REFUSAL = re.compile(r"\(\s*\"([a-z_0-9]+/[a-z_0-9]+)\"\s*,\s*\"")
"""The engine's refusal of a move: a tuple of its code, its reason and the reason's values."""
WRITTEN_CODE = re.compile(r"(?:\"code\"\s*:|\bcode\s*=)\s*\"([a-z_0-9]+/[a-z_0-9]+)\"")
"""A code written out as JSON text or a mapping (``{"code": "server/busy", ...}``, as the edge
writes its own replies) or given by name (``code="http/timeout"``)."""


def server_error_codes() -> set[str]:
    """Every stable error code raised or sent to a player anywhere in the package."""
    codes: set[str] = set()
    for path in (ROOT / "teenpatti").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        codes.update(ERROR_CALL.findall(text), REFUSAL.findall(text), WRITTEN_CODE.findall(text))
    return codes
