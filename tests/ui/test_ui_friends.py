"""Three phones at one table: the host opens it from the home page, one friend joins by typing
the code, another by the shared link; they play a 10-hand game to the end by tapping the buttons,
with the computer in the fourth seat, then play again (a friend asks, the host starts it). Along
the way: names are shown as text, the turn cue and timer, the language switch in the middle of a
hand, and the layout at 360 px.
"""

from __future__ import annotations

import re
from typing import Any

DEVANAGARI = re.compile(r"[\u0900-\u097F]")


def _policy(counts: dict[tuple[str, str], int], seen_sideshow: list[Any], shot: Any) -> Any:
    """How the people play: look at the cards on odd hands, take a show when offered, ask a side
    show now and then, accept it on odd hands; at most two bets a hand, then pack."""

    def policy(phone: Any, state: dict[str, str], choices: list[str]) -> str:
        number = int(state["hand"])
        key = (state["you"], state["hand"])
        if "act-accept" in choices:
            if not seen_sideshow:
                seen_sideshow.append(True)
                shot(phone.page, "sideshow")
            return "act-accept" if number % 2 else "act-decline"
        if "act-see" in choices and (number % 2 or counts.get(key, 0) >= 1):
            return "act-see"
        if "act-show" in choices:
            return "act-show"
        if "act-sideshow" in choices and number % 3 == 0:
            return "act-sideshow"
        if counts.get(key, 0) < 2:
            for pick in ("act-raise" if number % 4 == 2 else "act-chaal", "act-chaal", "act-allin"):
                if pick in choices:
                    counts[key] = counts.get(key, 0) + 1
                    return pick
        return "act-pack" if "act-pack" in choices else choices[0]

    return policy


def test_friends_play_a_whole_game(phone, shot, check_layout, play, axe) -> None:
    host, friend, other = phone(), phone(), phone()

    # The host opens a 10-hand table from the home page.
    page = host.open("/")
    page.get_by_test_id("menu-friends").tap()
    page.get_by_test_id("create-form").wait_for()
    page.get_by_test_id("name").fill("Sita")
    page.get_by_test_id("hands-10").check()
    page.get_by_test_id("boot-10").check()
    page.get_by_test_id("bots-easy").check()
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    assert re.fullmatch(r"[A-Z2-9]{6}", code), code
    # the link comes from the server (the address friends can open), a moment after the room
    page.wait_for_function("document.querySelector('[data-testid=share-link]').value !== ''")
    link = page.get_by_test_id("share-link").input_value()
    assert link.endswith(f"/t/{code}")
    page.wait_for_function("document.querySelector('[data-testid=qr]').naturalWidth > 0")

    # A friend joins with the code, typed on the home page's Join form.
    fpage = friend.open("/")
    fpage.get_by_test_id("menu-join").tap()
    fpage.get_by_test_id("join-code").fill(code.lower())
    fpage.get_by_test_id("name").fill("<b>Ram</b>")
    shot(fpage, "join")
    check_layout(fpage)
    axe(fpage, "the join form")
    fpage.get_by_test_id("join-submit").tap()
    fpage.get_by_test_id("lobby").wait_for()
    fpage.get_by_test_id("wait-host").wait_for()

    # Another opens the shared link and sits down there.
    opage = other.open(f"/t/{code}")
    opage.get_by_test_id("join-seated").get_by_text("Sita").wait_for()
    opage.get_by_test_id("name").fill("Gita")
    opage.get_by_test_id("join-submit").tap()
    opage.get_by_test_id("lobby").wait_for()

    # The host sees everyone, with names as plain text.
    page.get_by_test_id("lobby-seat-2").get_by_text("Gita").wait_for()
    assert page.get_by_test_id("lobby-seat-1").get_by_text("<b>Ram</b>").count() == 1
    assert page.locator("[data-testid=lobby] b").count() == 0
    assert page.get_by_test_id("lobby-seat-3").text_content().startswith("Empty")
    check_layout(page)
    axe(page, "the waiting room")
    shot(page, "share", full_page=True)

    page.get_by_test_id("start").tap()
    for p in (host, friend, other):
        p.page.locator("[data-testid=table][data-status=playing][data-hand='1']").wait_for()

    # The first person to act gets the cue (sound where allowed, the screen reader told) and a
    # visible timer; their cards are face down until they tap See cards.
    phones = [host, friend, other]
    state = play(phones, None, lambda s: s["personTurn"] == "1")
    me = next(
        p.page
        for p in phones
        if p.page.get_by_test_id("table").get_attribute("data-you") == state["actor"]
    )
    me.locator("[data-testid=table][data-myturn='1']").wait_for()
    assert me.locator("html").get_attribute("data-cue")
    me.get_by_test_id("alert").get_by_text("Your turn").last.wait_for()
    timer = me.get_by_test_id("timer")
    assert 0 < int(timer.get_attribute("data-left")) <= 30
    assert me.get_by_test_id("my-cards").get_attribute("data-face") == "down"
    labels = me.locator("[data-testid=actions] button").all_text_contents()
    assert any(re.fullmatch(r"Chaal \d+", text) for text in labels), labels
    assert "Pack" in labels
    assert me.locator("[data-testid=seats] b").count() == 0  # "<b>Ram</b>" is text
    check_layout(me)
    axe(me, "the table on your turn")
    shot(me, "table")

    # Play the whole game; switch one phone to Nepali in the middle of it.
    counts: dict[tuple[str, str], int] = {}
    sideshow: list[Any] = []
    policy = _policy(counts, sideshow, shot)
    play([host, friend, other], policy, lambda s: int(s["hand"]) >= 3)
    opage.get_by_test_id("lang").tap()
    opage.locator("html[lang=ne]").wait_for()
    assert DEVANAGARI.search(opage.get_by_test_id("header-title").text_content())

    def nepali_turn(phone_: Any, state: dict[str, str], choices: list[str]) -> str:
        if phone_ is other and "act-chaal" in choices and not nepali:
            text = opage.get_by_test_id("act-chaal").text_content()
            assert text.startswith("चाल "), text
            assert DEVANAGARI.search(text[4:]), text  # the cost in Nepali digits
            nepali.append(text)
            shot(opage, "table-ne")
        return policy(phone_, state, choices)

    nepali: list[str] = []
    play([host, friend, other], nepali_turn, lambda s: bool(nepali) or int(s["hand"]) >= 7)
    opage.get_by_test_id("lang").tap()
    opage.locator("html[lang=en]").wait_for()

    final = play([host, friend, other], policy, lambda s: s["status"] == "finished", limit=150)
    assert final["status"] == "finished"

    # Everyone sees the same standings; a friend asks for a new game and the host starts it.
    tables = []
    for p in (host, friend, other):
        p.page.get_by_test_id("standings").wait_for()
        rows = p.page.get_by_test_id("standing").all_text_contents()
        assert len(rows) == 4
        tables.append([re.sub(r"\s*\(you\)", "", r) for r in rows])
    assert tables[0] == tables[1] == tables[2]
    # each player hears the winner and their own place
    page.get_by_test_id("announce").get_by_text("Your place:").last.wait_for()
    check_layout(page)
    axe(page, "the standings")
    shot(page, "standings", full_page=True)
    friend.page.get_by_test_id("again").tap()
    page.get_by_test_id("votes").get_by_text("<b>Ram</b>").wait_for()
    page.get_by_test_id("again").tap()
    for p in (host, friend, other):
        p.page.locator("[data-testid=table][data-status=playing]").wait_for()
