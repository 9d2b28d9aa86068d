"""The table page read the one way the browser tests (``tests/ui/conftest.py``'s ``drive``) and
the page benchmark (``bench/page_turn.py``) read it."""

from __future__ import annotations

__all__ = ["CHOICES_JS"]

CHOICES_JS = """() => [...document.querySelectorAll(
  '[data-testid=table] button[data-do]:not([disabled])')].map((b) => b.dataset.testid)"""
"""The moves the table offers now, as their buttons' ``data-testid`` (``act-chaal``, ...)."""
