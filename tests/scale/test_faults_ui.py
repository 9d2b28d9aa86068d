"""The phone UI through a store outage, in Debian's Chromium (Playwright): a move tapped while
PostgreSQL cannot be reached is answered ``store/unavailable`` (retryable); the page says
"Reconnecting to the table..." and sends the same command again by itself, with back-off; once
the store is back the move goes in, once, and the page says nothing more."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from support.chromium import launch
from support.cluster import FAST, Server, table_events
from support.faults import PgProxy

sync_api = pytest.importorskip("playwright.sync_api")
WAIT = 20_000
"""The longest any single wait for the page may take, in milliseconds."""
MY_TURN = "[data-testid=table][data-myturn='1'][data-pending='0'][data-seen='0']"


@pytest.fixture
def chromium() -> Iterator[Any]:
    with launch() as launched:
        yield launched


def test_a_move_tapped_during_a_store_outage_is_retried_by_the_page(
    proxied: tuple[PgProxy, str, str], chromium: Any, tmp_path: Path
) -> None:
    proxy, name, direct = proxied
    srv = Server(tmp_path / "a", args=[*FAST, "--database", proxy.url(name)])
    srv.start(60.0)
    errors: list[str] = []
    try:
        context = chromium.new_context(
            viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True, locale="en-GB"
        )
        page = context.new_page()
        page.set_default_timeout(WAIT)
        page.on("pageerror", lambda err: errors.append(f"page error: {err}"))
        sent: list[str] = []  # the ids of the "see" commands the page sends

        def frame(payload: str | bytes) -> None:
            message = json.loads(payload)
            if message.get("type") == "act" and message["action"].get("do") == "see":
                sent.append(message["id"])

        page.on("websocket", lambda socket: socket.on("framesent", frame))
        page.goto(srv.http + "/")
        page.wait_for_selector("html[data-ready='1']")
        page.get_by_test_id("menu-computer").tap()
        page.locator(MY_TURN).wait_for()  # a hand against the computer, our turn, cards unseen
        table = page.get_by_test_id("table")
        code, version = table.get_attribute("data-code"), table.get_attribute("data-version")
        assert code and version

        proxy.cut()  # PostgreSQL cannot be reached
        page.get_by_test_id("act-see").tap()
        banner = page.get_by_test_id("conn-banner")
        page.locator("[data-testid=conn-banner][data-state=retrying]").wait_for()
        assert banner.text_content() == "Reconnecting to the table..."
        # The page sends the same command again by itself (the same id); nothing moves.
        deadline = time.monotonic() + WAIT / 1000
        while len(sent) < 2:
            assert time.monotonic() < deadline, f"the page did not send the move again: {sent}"
            page.wait_for_timeout(50)  # lets Playwright deliver the frames sent meanwhile
        assert len(set(sent)) == 1, sent
        assert table.get_attribute("data-version") == version
        assert table.get_attribute("data-seen") == "0"

        proxy.restore()
        page.locator("[data-testid=table][data-seen='1']").wait_for()
        page.locator("[data-testid=conn-banner][data-state=ok]").wait_for(state="attached")
        assert banner.is_hidden()
        with ThreadPoolExecutor(1) as pool:  # Playwright's loop runs in this thread
            log = pool.submit(asyncio.run, table_events(direct, code)).result(30)
        seen = [e for _, e in log if e["type"] == "act" and e["action"].get("do") == "see"]
        assert len(seen) == 1, seen  # applied once, however many times the page sent it
        assert seen[0]["seat"] == 0 and seen[0]["id"] == sent[0], seen
        context.close()
    finally:
        srv.close()
    assert not errors, errors
    assert "Traceback" not in srv.log(), srv.log()[-4000:]
