"""How many examples a property runs: its full count in CI (``CI`` set) or with
``TEST_HYPOTHESIS=full`` (or ``deep``); a fifth of it (at least 10) in a quick local run."""

from __future__ import annotations

import os

FULL = bool(os.environ.get("CI")) or os.environ.get("TEST_HYPOTHESIS") in ("full", "deep")
"""Whether properties run their full example counts."""


def examples(full: int) -> int:
    """The example count of a property whose full count is ``full``.

    >>> examples(300) in (60, 300)
    True
    """
    return full if FULL else max(10, full // 5)
