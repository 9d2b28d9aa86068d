"""The smaller things friends met, on a 360 x 640 phone: browsing the presets resets the seats, a
code typed with a space or a dash joins, a play-anytime table never speaks of a timer, Duo's own
number of hands and its chips, "Add to home screen" where the browser offers it, the link and QR
code to copy by hand on a plain-http address, and the others' new chat messages marked on Chat.
"""

from __future__ import annotations

import re
from typing import Any

from support.table_page import settled

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
JOIN_JS = """async ([code, name]) => {
  const reply = await fetch(`/api/tables/${code}/join`, {
    method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({name}),
  });
  const made = await reply.json();
  if (!reply.ok) throw new Error(JSON.stringify(made));
  const saved = JSON.parse(localStorage.getItem('tp.seats') || '{}');
  saved[code] = {token: made.token, seat: made.seat, at: Date.now()};
  localStorage.setItem('tp.seats', JSON.stringify(saved));
  return made.seat;
}"""


def _preset(page: Any, name: str) -> None:
    page.get_by_test_id("opt-preset").select_option(f'"{name}"')
    page.locator(f"[data-testid=create-form][data-preset={name}]").wait_for()


def test_browsing_presets_resets_the_seats_and_duo_says_its_own_game(phone) -> None:
    page = phone().open("/#create")
    page.get_by_test_id("create-form").wait_for()
    assert page.get_by_test_id("seats-4").is_checked()
    _preset(page, "duo")
    assert page.get_by_test_id("opt-hands").input_value() == "10"
    hands = page.get_by_test_id("opt-hands").locator("xpath=..")
    assert "10 hands" in hands.locator(".help").text_content()  # not "Twenty is the standard"
    help_text = (
        page.get_by_test_id("opt-preset").locator("xpath=..").locator(".help").text_content()
    )
    assert "chips" in help_text and "points" not in help_text, help_text
    _preset(page, "nepal")  # "Our table": its own four seats again, not Duo's two
    assert page.get_by_test_id("seats-4").is_checked()
    assert "20 hands" in page.get_by_test_id("choice-hands").locator(".help").text_content()


def test_changing_the_game_keeps_the_advanced_rules_open_and_the_focus(phone) -> None:
    page = phone().open("/#create")
    page.get_by_test_id("create-form").wait_for()
    page.get_by_test_id("advanced").locator("summary").click()
    _preset(page, "classic")
    assert page.get_by_test_id("advanced").evaluate("(d) => d.open")
    assert page.evaluate("document.activeElement.dataset.testid") == "opt-preset"
    _preset(page, "nepal")
    assert page.get_by_test_id("advanced").evaluate("(d) => d.open")


def test_a_code_typed_with_a_space_or_a_dash_joins(phone) -> None:
    host = phone()
    code = host.open("/").evaluate(OPEN_JS, {"name": "Asha", "seats": 4})
    for typed, name in (
        (f"{code[:3]} {code[3:]}".lower(), "Bina"),
        (f"{code[:3]}-{code[3:]}", "Chandra"),
    ):
        page = phone().open("/#join")
        page.get_by_test_id("join-code").press_sequentially(typed)
        page.get_by_test_id("name").fill(name)
        page.get_by_test_id("join-submit").tap()
        page.get_by_test_id("lobby").wait_for()
        assert page.get_by_test_id("table-code").get_attribute("data-code") == code


def test_a_play_anytime_table_speaks_of_no_timer(phone) -> None:
    p = phone()
    page = p.open("/#create")
    page.get_by_test_id("create-form").wait_for()
    assert page.get_by_test_id("advanced").locator("summary").text_content() == (
        "Advanced: turn timer and house rules"
    )
    page.get_by_test_id("play-anytime").check()
    page.get_by_test_id("choice-play").locator(".help").wait_for()
    summary = page.get_by_test_id("advanced").locator("summary")
    assert summary.text_content() == "Advanced: house rules", summary.text_content()
    page.get_by_test_id("name").fill("Asha")
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    line = page.get_by_test_id("lobby").get_by_text(re.compile("hands · boot")).text_content()
    assert "None" not in line and line.endswith("no timer: play anytime"), line
    page.get_by_test_id("lang").click()
    line = page.get_by_test_id("lobby").get_by_text(re.compile("बाजी · बुट")).text_content()
    assert line.endswith("समय सीमा छैन: जुनसुकै बेला खेल्नुहोस्"), line


def test_add_to_home_screen_where_the_browser_offers_it(phone) -> None:
    page = phone().open("/")
    hint = page.get_by_test_id("install-hint")
    assert hint.count() == 1 and hint.is_hidden()  # no offer: nothing said
    page.evaluate(
        """() => {
      const offer = new Event('beforeinstallprompt', {cancelable: true});
      offer.prompt = () => {
        window.__prompted = (window.__prompted || 0) + 1;
        return Promise.resolve();
      };
      window.dispatchEvent(offer);
    }"""
    )
    hint.wait_for()
    assert hint.get_by_text("home screen").count() >= 1
    page.get_by_test_id("install").tap()
    hint.wait_for(state="hidden")  # the offer is used once
    assert page.evaluate("window.__prompted") == 1


def test_a_plain_http_address_shows_the_link_to_copy_by_hand(phone) -> None:
    p = phone()
    # a phone on http://192.168.x.y: no secure context, so no clipboard and no share sheet
    p.context.add_init_script(
        "Object.defineProperty(window, 'isSecureContext', {value: false});"
        "Object.defineProperty(navigator, 'clipboard', {value: undefined});"
        "Object.defineProperty(navigator, 'share', {value: undefined});"
    )
    code = p.open("/").evaluate(OPEN_JS, {"name": "Asha", "seats": 4})
    page = p.open(f"/t/{code}")
    page.get_by_test_id("lobby").wait_for()
    whole = page.get_by_test_id("share-whole")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=share-whole]').textContent.length > 0"
    )
    assert whole.text_content().endswith(f"/t/{code}")
    page.get_by_test_id("share-manual").wait_for()  # shown, not only there
    page.wait_for_function("document.querySelector('[data-testid=qr]').naturalWidth > 0")
    assert (
        page.get_by_test_id("copy-link").count() == 0 and page.get_by_test_id("share").count() == 0
    )
    # the whole link fits the screen, to read and to select
    box = whole.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360


def test_the_chat_button_marks_what_the_others_said(phone) -> None:
    host, guest = phone(), phone()
    hpage = host.open("/")
    # the longest turn there is: no turn runs out (and no result moves the Chat button) meanwhile
    code = hpage.evaluate(OPEN_JS, {"name": "Asha", "seats": 2, "turn_seconds": 600})
    host.open(f"/t/{code}").get_by_test_id("lobby").wait_for()
    gpage = guest.open("/")
    gpage.evaluate(JOIN_JS, [code, "Bina"])
    guest.open(f"/t/{code}").get_by_test_id("lobby").wait_for()
    hpage.get_by_test_id("start").tap()
    # the first hand is dealt a second and a half after the start: its cards push the Chat button
    # down, and a tap begun before they are drawn would land on them instead
    settled(hpage, gpage)
    assert hpage.get_by_test_id("chat-unread").count() == 0
    # Bina says two things: Asha's closed chat counts them. Each tap waits for the last line on
    # Bina's own page: its line in her log moves the phrases down.
    gpage.get_by_test_id("chat-open").tap()
    gpage.get_by_test_id("phrase-shabash").tap()
    hpage.get_by_test_id("chat-unread").get_by_text("1 new").wait_for()
    gpage.get_by_test_id("bubble-1").wait_for()
    gpage.get_by_test_id("phrase-thanks").tap()
    hpage.get_by_test_id("chat-unread").get_by_text("2 new").wait_for()
    gpage.get_by_test_id("chat-line").nth(1).wait_for()
    assert gpage.get_by_test_id("chat-unread").count() == 0  # one's own words are not news
    # Asha opens the chat: read; closes it: still read
    hpage.get_by_test_id("chat-open").tap()
    hpage.get_by_test_id("chat-unread").wait_for(state="detached")
    hpage.get_by_test_id("chat-open").tap()
    hpage.get_by_test_id("chat").wait_for(state="detached")  # closed before Bina speaks again
    assert hpage.get_by_test_id("chat-unread").count() == 0
    hpage.get_by_test_id("lang").click()
    hpage.locator("html[lang=ne]").wait_for(state="attached")
    gpage.get_by_test_id("phrase-bye").tap()
    hpage.get_by_test_id("chat-unread").get_by_text("१ नयाँ").wait_for()
