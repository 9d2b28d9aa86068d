"""The page's strings in both languages, as the page itself holds them: read by Node from the very
modules the page loads (``tests/web/strings.mjs``), once a test process."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "teenpatti" / "web" / "static" / "js"
READER = ROOT / "tests" / "web" / "strings.mjs"


def node() -> str:
    """Node's path; skips where it is missing (it fails in CI)."""
    found = shutil.which("node")
    if found is None:
        why = "Node is not installed (scripts/test installs it)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return found


@cache
def page_strings() -> dict[str, Any]:
    """What ``strings.mjs`` prints: ``strings`` (``en`` and ``ne``), the rules page's
    ``content`` and the ``cards`` as named in each language."""
    out = subprocess.run(
        [node(), str(READER), str(JS)], capture_output=True, check=True, timeout=60
    )
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def said(code: str) -> bool:
    """Whether an error code has a sentence in both languages (a house rule's ``rules/...``
    codes share one, as the page's ``errorText`` reads them)."""
    key = "err.rules" if code.startswith("rules/") else f"err.{code}"
    en, ne = page_strings()["strings"]["en"], page_strings()["strings"]["ne"]
    return key in en and key in ne
