"""Long names on a full six-seat table fit a phone: every seat's name is shown whole (on up to three
lines where it must), at 360 x 640 and 390 x 844, no seat over another, nothing past the screen,
at the start and at every person's turn while the seats grow in play."""

from __future__ import annotations

from typing import Any

import pytest
from test_ui_tables import seats_fit

LONG = ("Ramchandra Bahadur Thapa", "Krishna Prasad Bhattarai")  # 24 characters: the most allowed

CUT_JS = """() => [...document.querySelectorAll('[data-testid=seats] .seat-name')]
  .filter((n) => n.scrollWidth > n.clientWidth + 1 || n.scrollHeight > n.clientHeight + 1)
  .map((n) => `${n.textContent}: ${n.clientHeight} of ${n.scrollHeight} px high`)"""


@pytest.mark.parametrize("size", [(360, 640), (390, 844)])
def test_long_names_on_six_seats_are_shown_whole(phone, play, check_layout, size) -> None:
    host = phone()
    page = host.open("/")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.get_by_test_id("menu-friends").tap()
    page.get_by_test_id("create-form").wait_for()
    page.get_by_test_id("name").fill("Sita")
    page.get_by_test_id("seats-6").check()
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    friends = [phone() for _ in LONG]
    for friend, name in zip(friends, LONG, strict=True):
        friend.open(f"/t/{code}")
        friend.page.get_by_test_id("name").fill(name)
        friend.page.get_by_test_id("join-submit").tap()
        friend.page.get_by_test_id("lobby").wait_for()
    page.get_by_test_id("lobby").get_by_text(LONG[1]).wait_for()
    page.get_by_test_id("start").tap()
    page.locator("[data-testid=table][data-status=playing]").wait_for()
    page.locator("[data-testid=seats] .seat-name").first.wait_for()
    assert page.evaluate(CUT_JS) == []
    names = page.locator("[data-testid=seats] .seat-name").all_text_contents()
    assert all(any(long in name for name in names) for long in LONG), names
    seats_fit(page, 6)
    check_layout(page)
    # the seats grow as the hand goes on (seen, last moves, the computer's badge under three-line
    # names): they still fit at every person's turn of the first hands
    turns: list[str] = []

    def still_fits(state: dict[str, str]) -> bool:
        seats_fit(page, 6)
        turns.append(state["version"])
        return len(turns) >= 8 or state["status"] == "finished"

    play([host, *friends], _see_then_chaal, still_fits)
    assert len(turns) >= 8


def _see_then_chaal(phone: Any, state: dict[str, str], choices: list[str]) -> str:
    """Look at the cards, then pay each turn (a side show asked of this seat is declined)."""
    for pick in ("act-decline", "act-see", "act-chaal", "act-show", "act-pack"):
        if pick in choices:
            return pick
    return choices[0]
