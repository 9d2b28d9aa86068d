"""Tables from every source on the phone: a ten-seat club table opened from the create page fits
a 360-px screen, and a play-anytime duo table is left, shows up as "Your turn" in My tables, and
is resumed; a page left in the background says when the turn comes (tab title and a notice)."""

from __future__ import annotations

import re
from typing import Any

BOXES_JS = """() => [...document.querySelectorAll('[data-testid=seats] .seat')].map((el) => {
  const b = el.getBoundingClientRect();
  return {left: b.left, top: b.top, right: b.right, bottom: b.bottom};
})"""


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and (a["top"] < b["bottom"] - 1 and b["top"] < a["bottom"] - 1)
    )


def seats_fit(page: Any, count: int) -> None:
    """The table shows ``count`` seats, each within the screen's width and none over another."""
    boxes = page.evaluate(BOXES_JS)
    assert len(boxes) == count, boxes
    width = page.evaluate("document.documentElement.clientWidth")
    for box in boxes:
        assert box["left"] >= 0 and box["right"] <= width, box
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert not _overlaps(a, b), (a, b)


def _create(page: Any, name: str, preset: str) -> str:
    page.get_by_test_id("menu-friends").tap()
    page.get_by_test_id("create-form").wait_for()
    page.get_by_test_id("name").fill(name)
    page.get_by_test_id("opt-preset").select_option(f'"{preset}"')
    page.locator(f"[data-testid=create-form][data-preset={preset}]").wait_for()
    return preset


def test_ten_seat_club_table_on_a_phone(phone, shot, check_layout) -> None:
    host = phone()
    page = host.open("/")
    _create(page, "Sita", "club")
    assert page.get_by_test_id("name").input_value() == "Sita"  # kept through the redraw
    page.get_by_test_id("seats-10").check()
    assert page.get_by_test_id("play-live").is_checked()
    page.get_by_test_id("advanced").locator("summary").tap()
    for group in ("bets", "show", "sideshow", "ranking", "wild", "allin"):
        assert page.get_by_test_id(f"group-{group}").locator(".help").count() >= 1
    # the club's own rule is the one chosen: looking at any time
    assert page.get_by_test_id("opt-rule.see_anytime").input_value() == "true"
    check_layout(page)
    shot(page, "create-club", full_page=True)
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    assert page.get_by_test_id("preset").text_content().startswith("Club")
    page.get_by_test_id("start").tap()
    page.locator("[data-testid=table][data-status=playing]").wait_for()
    page.locator("[data-testid=seats].many").wait_for()
    seats_fit(page, 10)
    # and once the computers have moved: each seat then holds its badges and its last move
    page.locator("[data-testid=table][data-myturn='1']").wait_for()
    page.locator("[data-testid^=move-]").first.wait_for()
    seats_fit(page, 10)
    check_layout(page)
    shot(page, "table-ten-seats")


def test_play_anytime_duo_left_and_resumed(phone, shot, check_layout, state) -> None:
    host, guest = phone(), phone()
    page = host.open("/")
    _create(page, "Sita", "duo")
    assert page.get_by_test_id("play-anytime").is_checked()  # duo plays anytime by default
    assert page.get_by_test_id("choice-seats").count() == 0  # always two
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    gpage = guest.open(f"/t/{code}")
    gpage.get_by_test_id("name").fill("Ram")
    gpage.get_by_test_id("join-submit").tap()
    gpage.get_by_test_id("lobby").wait_for()
    page.get_by_test_id("lobby-seat-1").get_by_text("Ram").wait_for()
    page.get_by_test_id("start").tap()
    page.locator("[data-testid=table][data-status=playing]").wait_for()
    gpage.locator("[data-testid=table][data-status=playing]").wait_for()
    assert page.get_by_test_id("timer").count() == 0  # no turn timer

    # Whoever acts first plays a chaal; the other's turn comes (once the deal names them).
    for phone_page in (page, gpage):
        phone_page.locator("[data-testid=table][data-actor]:not([data-actor=''])").wait_for()
    pages = {state(page)["you"]: page, state(gpage)["you"]: gpage}
    first = pages[state(page)["actor"]]
    first.locator("[data-testid=table][data-myturn='1']").wait_for()
    second = gpage if first is page else page
    other_phone = guest if first is page else host
    # The second player has left the table: their phone is on the home page.
    second.goto(other_phone.base + "/")
    second.wait_for_selector("html[data-ready='1']")
    version = int(state(first)["version"])
    first.get_by_test_id("act-chaal").tap()
    first.wait_for_function(
        "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=version,
    )

    # Later, My tables shows it is their turn at this table.
    second.get_by_test_id("menu-mine").tap()
    row = second.get_by_test_id(f"mine-{code}")
    row.wait_for()
    second.locator(f"[data-testid=mine-{code}][data-turn=yours]").wait_for()
    assert row.get_by_text("Your turn").count() == 1
    check_layout(second)
    shot(second, "my-tables")

    # They come back and play: with the first player's page in the background, its tab title
    # and a notice on the page say that the turn is theirs again.
    first.evaluate(
        "() => Object.defineProperty(document, 'hidden', {value: true, configurable: true})"
    )
    row.tap()
    second.locator("[data-testid=table][data-myturn='1']").wait_for()
    version = int(state(second)["version"])
    second.get_by_test_id("act-chaal").tap()
    second.wait_for_function(
        "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=version,
    )
    first.locator("[data-testid=table][data-myturn='1']").wait_for()
    notice = first.get_by_test_id("turn-notice")
    notice.wait_for()
    assert notice.text_content() == f"Your turn at table {code}"
    assert re.match("● Your turn", first.title())
    notice.tap()
    notice.wait_for(state="hidden")


OPEN_JS = """async (body) => {
  const reply = await fetch('/api/tables', {
    method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify(body),
  });
  const made = await reply.json();
  if (!reply.ok) throw new Error(JSON.stringify(made));
  const saved = JSON.parse(localStorage.getItem('tp.seats') || '{}');
  saved[made.code] = {token: made.token, seat: made.seat, at: Date.now()};
  localStorage.setItem('tp.seats', JSON.stringify(saved));
  return made.code;
}"""
GOLD = "rgb(240, 193, 90)"


def test_my_tables_puts_your_turn_first(phone, check_layout) -> None:
    p = phone()
    page = p.open("/")
    # a play-anytime game against the computer, waiting for this phone ...
    mine = page.evaluate(
        OPEN_JS,
        {"name": "Asha", "computer": True, "seats": 3, "play": "anytime", "turn_seconds": None},
    )
    p.open(f"/t/{mine}").locator("[data-testid=table][data-myturn='1']").wait_for()
    # ... then, more recent, a waiting room, and a table the server no longer has
    waiting = page.evaluate(OPEN_JS, {"name": "Asha", "seats": 4})
    page.evaluate(
        "() => { const s = JSON.parse(localStorage.getItem('tp.seats'));"
        " s.GGGGGG = {token: 'x', seat: 0, at: Date.now() + 1000};"
        " localStorage.setItem('tp.seats', JSON.stringify(s)); }"
    )
    p.open("/#mine")
    page.locator(f"[data-testid=mine-{mine}][data-turn=yours]").wait_for()
    page.locator("[data-testid=mine-GGGGGG][data-turn=gone]").wait_for()
    page.locator(f"[data-testid=mine-{waiting}][data-turn=waiting]").wait_for()
    order = page.locator("[data-testid=mine-row]").evaluate_all(
        "(rows) => rows.map((r) => r.dataset.code)"
    )
    assert order == [mine, waiting, "GGGGGG"], order
    first = page.get_by_test_id(f"mine-{mine}")
    assert first.evaluate("(el) => getComputedStyle(el).backgroundColor") == GOLD
    assert (
        page.get_by_test_id(f"mine-{waiting}").evaluate(
            "(el) => getComputedStyle(el).backgroundColor"
        )
        != GOLD
    )
    # each names its players and how long it has waited
    players = page.get_by_test_id(f"mine-{mine}-players").text_content()
    assert re.fullmatch(r".+ \(computer\) and .+ \(computer\)", players), players
    assert page.get_by_test_id(f"mine-{waiting}-players").text_content() == "Only you so far"
    status = page.get_by_test_id(f"mine-{mine}-status").text_content()
    assert re.fullmatch(r"Your turn · waiting \d+ s", status), status
    # a table that is no more can be taken off the list; a table in play cannot
    assert first.locator("xpath=..").get_by_test_id("mine-remove").count() == 0
    check_layout(page)
    gone = page.locator("[data-testid=mine-row][data-code=GGGGGG]")
    gone.get_by_test_id("mine-remove").tap()
    gone.wait_for(state="detached")
    assert "GGGGGG" not in page.evaluate("() => localStorage.getItem('tp.seats')")
    page.get_by_test_id("lang").click()
    page.get_by_test_id(f"mine-{mine}-status").get_by_text("तपाईंको पालो").wait_for()
