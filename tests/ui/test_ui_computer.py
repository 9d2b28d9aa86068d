"""One phone against the computer: one tap to play, cards face down until See cards, a reload in
the middle of a hand puts you back in your seat, a hand's result shows the hands with their names,
a lost connection shows itself and recovers on its own, and the table in landscape and on a
desktop.

This module's server pauses two seconds after each hand (not 0.3 s) so that a hand's result stays
on screen long enough to be checked and photographed.
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from support.table_page import my_turn_at

CATEGORY = re.compile(r"^(Trail|Pure sequence|Sequence|Colour|Pair|High card) · [\u0900-\u097F ]+$")
MOVED = "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v"
OUT_OF_ORDER = """() => {
  const view = window.__tp.table;
  const send = view.socket.send.bind(view.socket);
  window.__sent = [];
  view.socket.send = (message) => { window.__sent.push(message.type); return send(message); };
  view.onState({ ...view.st, version: view.st.version - 1, code: "STALE1" });
  view.onState({ ...view.st, version: view.st.version + 1000, code: "GAPGAP" });
  return document.querySelector('[data-testid=table]').dataset.code;
}"""
SYNCED = "() => window.__sent.includes('sync') && !window.__tp.table.syncing"
RESULT_PAUSE = 2.0
"""Seconds the server waits after each hand (read by the ``server`` fixture)."""


def _my_turn(page: Any) -> None:
    page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").wait_for()


def _computer_game(page: Any) -> None:
    page.get_by_test_id("menu-computer").tap()
    page.locator("[data-testid=table][data-status=playing][data-you='0']").wait_for()
    assert re.search(r"/t/[A-Z2-9]{6}$", page.url), page.url


def test_one_tap_then_see_cards_and_reload(phone, shot, check_layout, state) -> None:
    p = phone()
    page = p.open("/")
    _computer_game(page)
    _my_turn(page)
    assert page.get_by_test_id("seats").locator("[data-seat]").count() == 4
    assert page.get_by_test_id("header-title").text_content().startswith("Hand ")
    assert re.fullmatch(r"Hand \d+ of 20", page.get_by_test_id("header-title").text_content())
    cards = page.get_by_test_id("my-cards")
    assert cards.get_attribute("data-face") == "down"
    assert cards.locator("[data-card]").count() == 0  # nothing of the cards is in the page
    costs = {
        b.get_attribute("data-do"): b.get_attribute("data-cost")
        for b in page.locator("[data-testid=actions] button").all()
    }
    assert costs["chaal"] and int(costs["chaal"]) > 0
    assert "pack" in costs

    page.get_by_test_id("act-see").tap()
    page.locator("[data-testid=table][data-seen='1']").wait_for()
    assert cards.get_attribute("data-face") == "up"
    faces = cards.locator("[data-card]")
    assert faces.count() == 3
    for i in range(3):
        assert re.fullmatch(
            r"(Ace|King|Queen|Jack|\d+) of (spades|hearts|diamonds|clubs)",
            faces.nth(i).get_attribute("aria-label"),
        )
    assert CATEGORY.match(page.get_by_test_id("my-category").text_content())
    _my_turn(page)
    check_layout(page)
    shot(page, "table-seen")

    # A reload in the middle of the hand puts you back in your seat, cards and all.
    before = state(page)
    seen_cards = [faces.nth(i).get_attribute("data-card") for i in range(3)]
    page.reload()
    page.locator(f"[data-testid=table][data-you='0'][data-hand='{before['hand']}']").wait_for()
    _my_turn(page)
    assert page.get_by_test_id("my-cards").get_attribute("data-face") == "up"
    again = page.get_by_test_id("my-cards").locator("[data-card]")
    assert [again.nth(i).get_attribute("data-card") for i in range(3)] == seen_cards
    page.get_by_test_id("act-pack").tap()
    page.locator(f"[data-testid=table][data-hand='{int(before['hand']) + 1}']").wait_for()


def test_a_show_names_the_hands(phone, shot, check_layout, state, axe) -> None:
    p = phone()
    page = p.open("/#create")
    page.get_by_test_id("name").fill("Maya")
    page.get_by_test_id("seats-2").check()
    page.get_by_test_id("hands-10").check()
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("start").tap()
    deadline = time.monotonic() + 90
    while True:
        assert time.monotonic() < deadline, "no show in 90 s"
        page.locator(
            "[data-myturn='1'][data-pending='0'], [data-testid=standings]"
        ).first.wait_for()
        if page.get_by_test_id("standings").count():
            # The computer ended every hand before a show came: play another game.
            version = int(state(page)["version"])
            page.get_by_test_id("again").tap()
            page.wait_for_function(MOVED, arg=version)
            continue
        version = int(state(page)["version"])
        for pick in ("act-see", "act-show", "act-chaal", "act-allin", "act-pack"):
            if page.get_by_test_id(pick).count():
                break
        page.get_by_test_id(pick).tap()
        page.wait_for_function(MOVED, arg=version)
        if pick == "act-show":
            break
    result = page.get_by_test_id("result")
    result.wait_for()
    hands = result.get_by_test_id("shown-category").all_text_contents()
    assert len(hands) == 2
    for name in hands:
        assert CATEGORY.match(name), name
    assert result.get_by_test_id("result-line").first.text_content()
    assert re.search(r"(wins|win) \d", result.get_by_test_id("result-line").first.text_content())
    page.get_by_test_id("announce").get_by_text(re.compile("win")).last.wait_for()
    check_layout(page)
    axe(page, "a hand's result")
    shot(page, "result")


def test_a_lost_connection_recovers(phone, server, shot, state) -> None:
    p = phone()
    # the longest turn: no turn runs out while the network and the server are away
    page = my_turn_at(p, 4)
    before = state(page)

    # The network drops: the page says so, and comes back when it returns.
    p.context.set_offline(True)
    banner = page.get_by_test_id("conn-banner")
    banner.wait_for()
    assert banner.get_attribute("data-state") == "offline"
    # No move can be sent, so none is offered, and no clock counts what the page cannot know.
    page.locator("[data-testid=table][data-online='0']").wait_for()
    moves = page.locator("[data-testid=actions] button, [data-testid=my-hand] button")
    assert moves.count() and all(b.is_disabled() for b in moves.all())
    assert not page.get_by_test_id("timer").is_visible()
    p.context.set_offline(False)
    banner.wait_for(state="hidden")

    # The server goes away and comes back: the page reconnects by itself, to the same seat.
    server.stop()
    banner.wait_for()
    page.locator("[data-testid=conn-banner][data-state=reconnecting]").wait_for()
    shot(page, "reconnecting")
    server.start()
    banner.wait_for(state="hidden")
    page.locator(f"[data-testid=table][data-you='0'][data-hand='{before['hand']}']").wait_for()
    _my_turn(page)
    page.get_by_test_id("announce").get_by_text("Connected again").last.wait_for()
    # The version is read before the tap: read after it, it may already hold the chaal and the
    # computers' answers, back at this player's turn, and then nothing would move again.
    version = int(state(page)["version"])
    page.get_by_test_id("act-chaal").tap()
    page.wait_for_function(MOVED, arg=version)

    # States are shown in version order only: an older one is dropped; one that skips versions is
    # not shown but asks for the whole state, and the answer is the table as it is.
    code = before["code"]
    assert page.evaluate(OUT_OF_ORDER) == code
    page.wait_for_function(SYNCED)
    assert page.get_by_test_id("table").get_attribute("data-code") == code


@pytest.mark.parametrize(
    ("name", "size", "mobile"),
    [("landscape", (640, 360), True), ("desktop", (1280, 800), False)],
)
def test_landscape_and_desktop(phone, shot, check_layout, name, size, mobile) -> None:
    p = phone(width=size[0], height=size[1], mobile=mobile)
    page = p.open("/")
    check_layout(page)
    if mobile:
        _computer_game(page)
    else:
        page.get_by_test_id("menu-computer").click()
        page.locator("[data-testid=table][data-status=playing]").wait_for()
    _my_turn(page)
    check_layout(page)
    # the table and the buttons are on screen together, without scrolling
    box = page.locator("[data-testid=actions] button").first.bounding_box()
    assert box is not None and box["y"] + box["height"] <= size[1]
    shot(page, name)


def test_range_bets_stepper_and_mute(phone, check_layout, state) -> None:
    p = phone()
    sent: list[Any] = []
    p.page.on(
        "websocket", lambda ws: ws.on("framesent", lambda data: sent.append(json.loads(data)))
    )
    page = p.open("/#create")
    page.get_by_test_id("name").fill("Binod")
    page.get_by_test_id("seats-2").check()
    page.get_by_test_id("advanced").locator("summary").tap()
    page.get_by_test_id("opt-rule.bets").select_option(label="Choose any amount in a range")
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("start").tap()
    _my_turn(page)

    # Range bets: a stepper sets the chaal, and the button says (and pays) what it shows.
    stepper = page.get_by_test_id("stepper")
    stepper.wait_for()
    chaal = page.get_by_test_id("act-chaal")
    low = int(chaal.get_attribute("data-cost"))
    page.get_by_test_id("step-more").tap()
    page.locator(f"[data-testid=act-chaal]:not([data-cost='{low}'])").wait_for()
    high = int(chaal.get_attribute("data-cost"))
    assert high > low
    assert chaal.text_content() == f"Chaal {high}"
    assert page.get_by_test_id("amount").text_content().startswith(str(high))
    check_layout(page)
    version = int(state(page)["version"])
    chaal.tap()
    page.wait_for_function(MOVED, arg=version)
    act = {"do": "chaal", "amount": high}
    moves = [{k: v for k, v in m.items() if k != "id"} for m in sent]  # the id is the socket's
    assert {"type": "act", "action": act, "version": version} in moves, sent

    # The sound switch: off, remembered across a reload, on again.
    sound = page.get_by_test_id("sound")
    assert sound.get_attribute("aria-pressed") == "true"
    sound.tap()
    page.locator("[data-testid=sound][aria-pressed=false]").wait_for()
    assert sound.get_attribute("aria-label") == "Sound off"
    page.reload()
    page.get_by_test_id("table").wait_for()
    assert page.get_by_test_id("sound").get_attribute("aria-pressed") == "false"
    page.get_by_test_id("sound").tap()
    page.locator("[data-testid=sound][aria-pressed=true]").wait_for()
