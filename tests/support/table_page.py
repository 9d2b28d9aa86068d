"""The table page read the one way the browser tests (``tests/ui/conftest.py``'s ``drive``) and
the page benchmark (``bench/page_turn.py``) read it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

__all__ = [
    "CHOICES_JS",
    "OPEN_JS",
    "SETTLED",
    "in_each_language",
    "my_turn_at",
    "no_bubbles",
    "settled",
]

CHOICES_JS = """() => [...document.querySelectorAll(
  '[data-testid=table] button[data-do]:not([disabled])')].map((b) => b.dataset.testid)"""
"""The moves the table offers now, as their buttons' ``data-testid`` (``act-chaal``, ...)."""

OPEN_JS = """async (seats) => {
  const reply = await fetch('/api/tables', {
    method: 'POST', headers: {'content-type': 'application/json'},
    body: JSON.stringify({name: 'Host', computer: true, seats, hands: 20, turn_seconds: 600,
      rules: {preset: seats > 6 ? 'club' : 'nepal'}}),
  });
  const body = await reply.json();
  if (!reply.ok) throw new Error(JSON.stringify(body));
  const saved = JSON.parse(localStorage.getItem('tp.seats') || '{}');
  saved[body.code] = {token: body.token, seat: body.seat, at: Date.now()};
  localStorage.setItem('tp.seats', JSON.stringify(saved));
  return body.code;
}"""
"""Opens a table of ``seats`` seats through the lobby against the computer (club rules past six
seats, the longest timer: no turn runs out while a test looks at it) and keeps its seat for this
phone, as the home page would; gives its code."""


def my_turn_at(phone: Any, seats: int) -> Any:
    """A table of ``seats`` opened by ``phone`` (the browser tests' ``Phone``), its page once it is
    this phone's turn there."""
    code = phone.open("/").evaluate(OPEN_JS, seats)
    page = phone.open(f"/t/{code}")
    page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").wait_for()
    return page


SETTLED = (
    "[data-testid=table][data-status=playing][data-hand-finished='0'][data-person-turn='1']"
    ":not([data-hand='0'])"
)
"""The table with a hand dealt and a person to move: at a table without a turn timer nothing on
the page moves then until someone does something."""


def settled(*pages: Any) -> None:
    """Wait until each page shows :data:`SETTLED`. The first hand is dealt a second and a half
    after the start, by the server's clock, and the computer's moves follow it: each draws the
    table again, and a tap whose touch began before that redraw lands where its button was."""
    for page in pages:
        page.locator(SETTLED).wait_for()


def no_bubbles(*pages: Any) -> None:
    """Wait until no chat bubble shows on any of ``pages``. A bubble is laid over its seat and
    moves nothing, but it covers the seat's words (a name, chips, a last move) until it goes, four
    seconds after it came, by the page's own clock."""
    for page in pages:
        page.locator(".chat-bubble").first.wait_for(state="detached")


def in_each_language(page: Any) -> Iterator[str]:
    """English, then Nepali: the page switched to each by its language button."""
    for lang in ("en", "ne"):
        if page.evaluate("document.documentElement.lang") != lang:
            page.get_by_test_id("lang").click()
            page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        yield lang
