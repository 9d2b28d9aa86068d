"""Fixtures for the browser tests: a real ``teenpatti serve`` process and Debian's Chromium driven
by Playwright (sync API), with phone-sized contexts.

- ``server``: one server for the module on a free port, with computer players and the pause after
  each hand cut short (``--bot-delay 0.05 --result-pause 0.3``); it can be stopped and started
  again on the same port and data folder (a restart rebuilds every table from its log).
- ``browser``: Chromium at ``/usr/bin/chromium``, headless. The tests are skipped when it is not
  installed (``scripts/test`` installs it). Never ``playwright install``: it downloads.
- ``phone()``: a new 360 x 640 touch context and its page; every page error or console error
  fails the test.
- ``shot(page, NAME)``: a screenshot, in a temporary folder; ``TEENPATTI_SCREENSHOTS=1`` writes
  the README's pictures in ``docs/screenshots`` instead.
- ``axe(page, what)``: axe-core (from npm, in ``node_modules``) run on the page as it is now; any
  violation fails the test.

Every wait is bounded; a failure shows the server's log.
"""

from __future__ import annotations

import contextlib
import functools
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.chromium import WAIT, launch
from support.page_server import Server
from support.table_page import CHOICES_JS

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"
"""Where the README's screenshots live: written only with ``TEENPATTI_SCREENSHOTS=1``."""
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 360, "height": 640}

sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Server]:
    """A table server for this module's tests. A module may set ``RESULT_PAUSE`` (seconds) to
    keep each hand's result on screen longer than the default 0.3 s, and ``GRACE`` (seconds) to
    hand a person's seat to the computer sooner than the default 45 s after they drop."""
    pause = float(getattr(request.module, "RESULT_PAUSE", 0.3))
    grace = getattr(request.module, "GRACE", None)
    srv = Server(tmp_path_factory.mktemp("ui-data"), result_pause=pause, grace=grace)
    srv.start()
    try:
        yield srv
    finally:
        srv.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, for this module (its event loop ends with the module, so it
    never overlaps the asyncio tests of other folders)."""
    with launch() as launched:
        yield launched


class Phone:
    """A browser context the size of a phone, and its one page."""

    def __init__(self, context: Any, page: Any, base: str) -> None:
        self.context = context
        self.page = page
        self.base = base
        self.errors: list[str] = []
        page.set_default_timeout(WAIT)
        page.on("pageerror", lambda err: self.errors.append(f"page error: {err}"))
        page.on(
            "console",
            lambda msg: (
                self.errors.append(f"console {msg.type}: {msg.text}")
                if msg.type == "error" and not _expected_console_error(msg.text)
                else None
            ),
        )

    def open(self, path: str = "/") -> Any:
        self.page.goto(self.base + path)
        self.page.wait_for_selector("html[data-ready='1']")
        return self.page


def _expected_console_error(text: str) -> bool:
    # A socket refused while the server restarts, and the lobby's 4xx replies in the form tests,
    # are part of what the tests do.
    return "WebSocket connection" in text or "the server responded with a status of 4" in text


@pytest.fixture
def phone(browser: Any, server: Server) -> Iterator[Callable[..., Phone]]:
    """Make phones: ``phone()`` is 360 x 640 portrait, ``phone(width=640, height=360)`` landscape,
    ``phone(mobile=False, width=1280, height=800)`` a desktop; ``locale`` is the phone's language
    (``"ne-NP"``: a phone set to Nepali), ``reduced_motion="reduce"`` asks for less motion."""
    made: list[Phone] = []

    def make(
        width: int = 360,
        height: int = 640,
        mobile: bool = True,
        locale: str = "en-GB",
        reduced_motion: str = "no-preference",
    ) -> Phone:
        context = browser.new_context(
            viewport={"width": width, "height": height},
            is_mobile=mobile,
            has_touch=mobile,
            device_scale_factor=2 if mobile else 1,
            locale=locale,
            reduced_motion=reduced_motion,
            bypass_csp=True,  # lets the accessibility checker be added to the page
        )
        made.append(Phone(context, context.new_page(), server.url))
        return made[-1]

    yield make
    errors = [e for p in made for e in p.errors]
    for p in made:
        with contextlib.suppress(Exception):
            p.context.close()
    assert not errors, "\n".join(errors) + "\n--- server log ---\n" + server.output()


def save_shot(folder: Path, page: Any, name: str, full_page: bool = False) -> Path:
    """Save a screenshot of the page as ``folder/NAME.png``; return its path."""
    folder.mkdir(parents=True, exist_ok=True)
    if full_page:
        page.evaluate("() => window.scrollTo(0, 0)")
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    return path


@pytest.fixture(scope="session")
def shots_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``docs/screenshots`` when ``TEENPATTI_SCREENSHOTS=1`` asks for the README's pictures to be
    redrawn; otherwise a temporary folder, so a test run never changes a tracked file."""
    if os.environ.get("TEENPATTI_SCREENSHOTS") == "1":
        return SHOTS
    return tmp_path_factory.mktemp("screenshots")


@pytest.fixture
def shot(shots_folder: Path) -> Callable[..., Path]:
    """``shot(page, "table")`` saves ``table.png`` in :func:`shots_folder` (the picture is taken
    either way, so a page that cannot be drawn still fails the test)."""
    return functools.partial(save_shot, shots_folder)


LAYOUT_JS = """
() => {
  const width = document.documentElement.clientWidth;
  const wide = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  const selector = 'button, [role=button], a.btn, a.icon-btn, a.menu-item, a.tab, summary, '
    + 'input:not([type=radio]), select, .segment';
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width === 0 || box.height === 0 || style.visibility === 'hidden') continue;
    const html = el.outerHTML.slice(0, 90);
    if (box.height < 44 - 0.5) small.push(`${Math.round(box.height)}px: ${html}`);
  }
  const unlabelled = [];
  for (const el of document.querySelectorAll('button, a[href], input, select')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const name = (el.getAttribute('aria-label') || el.textContent || '').trim()
      || (el.labels && el.labels.length ? el.labels[0].textContent.trim() : '')
      || (el.id && document.querySelector(`label[for="${el.id}"]`) ? 'label' : '');
    if (!name && el.type !== 'radio') unlabelled.push(el.outerHTML.slice(0, 90));
  }
  return {width, wide, small, unlabelled};
}
"""


def layout_problems(page: Any) -> None:
    """No sideways scrolling, every control at least 44 px high and labelled."""
    report = page.evaluate(LAYOUT_JS)
    assert report["wide"] <= report["width"], f"the page scrolls sideways: {report}"
    assert not report["small"], "controls under 44 px high:\n" + "\n".join(report["small"])
    assert not report["unlabelled"], "controls without a label:\n" + "\n".join(report["unlabelled"])


@pytest.fixture
def check_layout() -> Callable[[Any], None]:
    """``check_layout(page)``: no sideways scrolling; every control 44 px high and labelled."""
    return layout_problems


AXE_RUN_JS = r"""async () => {
  const result = await window.axe.run(document, { resultTypes: ['violations'] });
  return result.violations.map((v) => `${v.id} (${v.impact}): ${v.help}\n` + v.nodes.slice(0, 6)
    .map((n) => `    ${n.target.join(' ')}: ${n.failureSummary.replace(/\s+/g, ' ')}`).join('\n'));
}"""


def axe_check(page: Any, what: str) -> None:
    """Run axe-core's default rules (WCAG 2 A and AA, and best practice) on the page as it is
    now; fail with every violation found."""
    if not AXE.exists():
        why = "axe-core is not installed (scripts/test runs npm ci)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    found = page.evaluate(AXE_RUN_JS)
    assert not found, f"axe on {what}:\n" + "\n".join(found)


@pytest.fixture
def axe() -> Callable[[Any, str], None]:
    """``axe(page, "the waiting room")``: no accessibility violation on the page as it is now."""
    return axe_check


# ---------------------------------------------------------------------- playing through the page
STATE_JS = """() => {
  const t = document.querySelector('[data-testid=table]');
  return t ? Object.assign({}, t.dataset) : null;
}"""
READY_JS = """(last) => {
  const t = document.querySelector('[data-testid=table]');
  if (!t) return false;
  const d = t.dataset;
  if (d.status === 'finished') return true;
  return Number(d.version) > last && d.personTurn === '1' && d.handFinished === '0';
}"""
MY_TURN_JS = """(version) => {
  const t = document.querySelector('[data-testid=table]');
  return Boolean(t) && Number(t.dataset.version) >= version && t.dataset.myturn === '1'
    && t.dataset.pending === '0';
}"""
MOVED_JS = """(version) => {
  const t = document.querySelector('[data-testid=table]');
  return Boolean(t) && Number(t.dataset.version) > version;
}"""

Policy = Callable[[Phone, dict[str, str], list[str]], str]


def table_state(page: Any) -> dict[str, str]:
    """The table's data attributes as this page shows them (status, version, actor, ...)."""
    state = page.evaluate(STATE_JS)
    assert state is not None, "no table on this page"
    return dict(state)


def drive(
    phones: list[Phone],
    policy: Policy,
    until: Callable[[dict[str, str]], bool],
    limit: float = 120.0,
) -> dict[str, str]:
    """Play through the pages: whenever a person's turn comes, the page of that seat taps the
    button ``policy(phone, state, choices)`` names (a ``data-testid``), until ``until(state)``
    holds for the first phone's view of the table. The computer plays the other seats."""
    watcher = phones[0].page
    by_seat = {table_state(p.page)["you"]: p for p in phones}
    last = -1
    deadline = time.monotonic() + limit
    while True:
        assert time.monotonic() < deadline, (
            f"no end in {limit} s; last state {table_state(watcher)}"
        )
        watcher.wait_for_function(READY_JS, arg=last, timeout=WAIT)
        state = table_state(watcher)
        if until(state):
            return state
        assert state["status"] != "finished", f"the game ended first: {state}"
        actor = by_seat[state["actor"]]
        actor.page.wait_for_function(MY_TURN_JS, arg=int(state["version"]), timeout=WAIT)
        mine = table_state(actor.page)
        choices = actor.page.evaluate(CHOICES_JS)
        pick = policy(actor, mine, choices)
        assert pick in choices, f"{pick} is not offered: {choices}"
        version = int(mine["version"])
        actor.page.get_by_test_id(pick).first.tap()
        try:
            actor.page.wait_for_function(MOVED_JS, arg=version, timeout=WAIT)
        except Exception as error:  # the move was refused: say why
            toast = actor.page.get_by_test_id("toast").text_content()
            raise AssertionError(f"{pick} did not move the table on: {toast!r}") from error
        last = version


@pytest.fixture
def play() -> Callable[..., dict[str, str]]:
    """``play(phones, policy, until)``: see :func:`drive`."""
    return drive


@pytest.fixture
def state() -> Callable[[Any], dict[str, str]]:
    """``state(page)``: the table's data attributes as that page shows them."""
    return table_state
