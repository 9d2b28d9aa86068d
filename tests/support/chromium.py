"""Debian's Chromium, launched the one way every browser test launches it.

Playwright drives the Chromium Debian installs (``scripts/test`` installs it), not a browser of
its own. Without it a browser test is skipped, except in CI (``CI`` set), where it fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = "/usr/bin/chromium"
WAIT = 30_000
"""The longest any single wait for the page may take, in milliseconds: a ceiling for a wait on
what the page shows, never a pause (a passing wait returns as soon as the page shows it); this
long so that a machine whose cores are all busy (two browsers and two servers on two cores, a
CPU hog beside them) does not fail a test that would pass."""
ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-gpu",
]
"""Headless on a shared machine: no sandbox (it needs privileges a CI container lacks), no GPU,
nothing fetched in the background."""


def need_chromium() -> None:
    """Skip the calling test when Debian's chromium is missing (fail it in CI)."""
    if not Path(CHROMIUM).exists():
        why = "Debian's chromium is not installed (scripts/test installs it)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)


@contextmanager
def launch(env: Mapping[str, str] | None = None) -> Iterator[Any]:
    """Debian's Chromium, headless, closed on leaving; ``env`` replaces the browser's environment
    (a ``HOME`` with its own certificate store, say)."""
    sync_api = pytest.importorskip("playwright.sync_api")
    need_chromium()
    extra = {} if env is None else {"env": dict(env)}
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=ARGS, headless=True, **extra
        )
        try:
            yield browser
        finally:
            browser.close()
