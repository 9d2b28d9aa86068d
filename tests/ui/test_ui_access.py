"""Playing without a mouse or without sight, and with large text:

- three friends at a table, one of them only with the keyboard (Tab and Enter): a whole hand in
  English, then a whole hand in Nepali, each with a side show asked of the keyboard player. After
  every move focus stays on the table (never dropped to the page), the request is a dialog that
  takes focus and names who asks, and the screen-reader logs say everything in order: the turn
  with its time, the cards after See cards, every other player's move, the side show and the
  result; no line overwritten or lost;
- the turn timer speaks: the time at the turn, a warning before it runs out, and the pack when it
  has;
- 200 % text on a phone and 200 % zoom on a desktop: no sideways scrolling, the seats clear of the
  pot, names whole, and See cards reached with Tab, in view and not under the header.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from typing import Any

from support.chromium import WAIT
from support.table_page import my_turn_at

RESULT_PAUSE = 2.0
"""Seconds the server waits after each hand: the test reads the hand's moves from the page then."""
DEVANAGARI = re.compile(r"[\u0900-\u097F]")
STATE_JS = "() => Object.assign({}, document.querySelector('[data-testid=table]').dataset)"
READY_JS = """(last) => {
  const d = document.querySelector('[data-testid=table]').dataset;
  return d.status === 'finished' || d.handFinished === '1'
    || (Number(d.version) > last && d.personTurn === '1');
}"""
MY_TURN_JS = """(version) => {
  const d = document.querySelector('[data-testid=table]').dataset;
  return Number(d.version) >= version && d.myturn === '1' && d.pending === '0';
}"""
MOVED_JS = """(version) => {
  const d = document.querySelector('[data-testid=table]').dataset;
  return Number(d.version) > version && d.pending === '0';
}"""
LOGS_JS = """() => [...document.querySelectorAll('#announce > p, #alert > p')]
  .map((p) => ({seq: Number(p.dataset.seq), urgent: p.parentElement.id === 'alert',
                text: p.textContent}))
  .sort((a, b) => a.seq - b.seq)"""
FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el === document.documentElement) return null;
  const box = el.getBoundingClientRect();
  return {testid: el.dataset.testid || '', tag: el.tagName, role: el.getAttribute('role') || '',
          visible: box.width > 0 && box.height > 0,
          inTable: Boolean(el.closest('[data-testid=table]'))};
}"""
# What the page's own strings say for this hand's title and each move of the other players in it
# ("Ram: Chaal"), from the modules the page runs, in the language it shows.
MOVE_LINES_JS = """async () => {
  const { t } = await import('/static/js/i18n.js');
  const st = window.__tp.table.st;
  return {
    titles: ['en', 'ne'].map((w) => t('table.hand', { n: st.hand.number, of: st.hand.of }, w)),
    moves: st.hand.actions.filter((a) => a.seat !== st.you)
      .map((a) => t('did.line', { name: st.seats[a.seat].name, what: t(`did.${a.do}`) })),
  };
}"""


def table_state(page: Any) -> dict[str, str]:
    return dict(page.evaluate(STATE_JS))


def logs(page: Any) -> list[dict[str, Any]]:
    return list(page.evaluate(LOGS_JS))


def press_to(page: Any, testid: str, limit: int = 40) -> None:
    """Tab (forwards) until the control ``testid`` has focus, then press Enter on it."""
    for _ in range(limit):
        focused = page.evaluate(FOCUS_JS)
        if focused and focused["testid"] == testid:
            page.keyboard.press("Enter")
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {testid}")


def focus_kept(page: Any, move: str) -> None:
    focused = page.evaluate(FOCUS_JS)
    assert focused and focused["visible"] and focused["inTable"], f"focus lost after {move}"


def in_order(lines: list[str], text: str) -> None:
    """Each of ``lines`` appears in ``text``, in this order."""
    at = 0
    for line in lines:
        found = text.find(line, at)
        assert found >= 0, f"{line!r} not said (in order) in:\n{text}"
        at = found + len(line)


def keyboard_hand(me: Any, others: list[Any], words: dict[str, str], axe: Any = None) -> None:
    """Play one hand to its end: the keyboard player sees, chaals and answers the side show that
    the player after them asks; the others tap; once the side show is over they pack."""
    page = me.page
    page.locator("[data-testid=table][data-hand-finished='0']:not([data-hand='0'])").wait_for()
    you = table_state(page)["you"]
    by_seat = {table_state(p.page)["you"]: p for p in others}
    hand = table_state(page)["hand"]
    after_me: str | None = None
    asked = answered = False
    last_actor = None
    deadline = time.monotonic() + 240
    version = -1
    while True:
        page.wait_for_function(READY_JS, arg=version, timeout=WAIT)
        state = table_state(page)
        if state["hand"] != hand or state["handFinished"] == "1" or state["status"] == "finished":
            break
        assert time.monotonic() < deadline, f"the hand did not end: {state}"
        actor = state["actor"]
        if last_actor == you and actor != you and after_me is None:
            after_me = actor
        if actor == you:
            page.wait_for_function(MY_TURN_JS, arg=int(state["version"]), timeout=WAIT)
            version = int(table_state(page)["version"])
            if page.get_by_test_id("sideshow-request").count():
                # the request is a dialog that already has focus, and names who asks
                dialog = page.get_by_role("alertdialog")
                assert dialog.count() == 1
                focused = page.evaluate(FOCUS_JS)
                assert focused and focused["testid"] == "act-accept", focused
                asker = dialog.get_attribute("aria-label") or dialog.text_content() or ""
                assert words["asks"] in asker, asker
                if axe is not None:
                    axe(page, "a side show asked")
                page.keyboard.press("Enter")
                answered = True
                move = "accept"
            elif table_state(page)["seen"] == "0":
                press_to(page, "act-see")
                page.locator("[data-testid=table][data-seen='1']").wait_for()
                focus_kept(page, "See cards")
                # the cards are said, and focus is on the next move
                page.get_by_test_id("announce").get_by_text(words["cards"]).last.wait_for()
                page.wait_for_function(MY_TURN_JS, arg=version + 1, timeout=WAIT)
                version = int(table_state(page)["version"])
                press_to(page, "act-chaal")
                move = "chaal"
            else:
                press_to(page, "act-chaal" if not answered else "act-pack")
                move = "chaal/pack"
            page.wait_for_function(MOVED_JS, arg=version, timeout=WAIT)
            focus_kept(page, move)
        else:
            other = by_seat[actor].page
            other.wait_for_function(MY_TURN_JS, arg=int(state["version"]), timeout=WAIT)
            choices = [
                b.get_attribute("data-testid")
                for b in other.locator("[data-testid=table] button[data-do]:not([disabled])").all()
            ]
            if "act-accept" in choices:
                pick = "act-decline"
            elif "act-see" in choices:
                pick = "act-see"
            elif actor == after_me and not asked and "act-sideshow" in choices:
                pick, asked = "act-sideshow", True
            elif answered:
                pick = "act-pack"
            else:
                pick = "act-chaal"
            version = int(table_state(other)["version"])
            other.get_by_test_id(pick).first.tap()
            other.wait_for_function(MOVED_JS, arg=version, timeout=WAIT)
        last_actor = actor
    assert answered, "nobody asked the keyboard player for a side show"

    # What the screen reader was told, in order, none lost: the lines are numbered 1..n across
    # both logs with no gap, and every other player's move is said in the order it was made.
    page.locator(
        "[data-testid=table][data-hand-finished='1'], [data-testid=standings]"
    ).first.wait_for()
    page.get_by_test_id("announce").get_by_text(words["result"]).last.wait_for()
    said = logs(page)
    seqs = [line["seq"] for line in said]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), seqs
    expected = page.evaluate(MOVE_LINES_JS)
    # (said in the language of the moment the hand began)
    starts = [i for i, x in enumerate(said) if x["text"].startswith(tuple(expected["titles"]))]
    assert starts, f"the hand was not announced: {expected['titles']}"
    # from the first time this hand was named (a page that resyncs under load names it again)
    hand_lines = said[starts[0] :]
    text = "\n".join(line["text"] for line in hand_lines)
    urgent = "\n".join(line["text"] for line in hand_lines if line["urgent"])
    assert words["turn"] in urgent and words["left"] in urgent, urgent
    assert words["asks"] in urgent, urgent
    polite = "\n".join(line["text"] for line in hand_lines if not line["urgent"])
    in_order(expected["moves"], polite)
    in_order([words["turn"], words["cards"], words["asks"], words["result"]], text)


ENGLISH = {
    "turn": "Your turn",
    "left": "s left",
    "cards": "Your cards:",
    "asks": "asks you for a side show",
    "result": "win",
}
NEPALI = {
    "turn": "तपाईंको पालो",
    "left": "सेकेन्ड बाँकी",
    "cards": "तपाईंको तास:",
    "asks": "साइड सो माग्नुभयो",
    "result": "जित्नुभयो",
}


def test_keyboard_and_screen_reader_play_a_hand_in_both_languages(phone, axe) -> None:
    me, friend, other = phone(), phone(), phone()
    page = me.open("/#create")
    page.get_by_test_id("name").fill("Kiran")
    page.get_by_test_id("seats-3").check()
    page.get_by_test_id("hands-10").check()
    page.get_by_test_id("advanced").locator("summary").click()
    page.get_by_test_id("turn_seconds-60").check()
    page.get_by_test_id("create-submit").click()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    for p, name in ((friend, "Ram"), (other, "Gita")):
        q = p.open(f"/t/{code}")
        q.get_by_test_id("name").fill(name)
        q.get_by_test_id("join-submit").click()
        q.get_by_test_id("lobby").wait_for()
        # the host hears who sits down
        page.get_by_test_id("announce").get_by_text(name).last.wait_for()
    axe(page, "the waiting room, full")
    press_to(page, "start")
    page.locator("[data-testid=table][data-status=playing]").wait_for()

    keyboard_hand(me, [friend, other], ENGLISH, axe)
    axe(page, "a hand's result")

    page.get_by_test_id("lang").click()
    page.locator("html[lang=ne]").wait_for()
    page.locator("[data-testid=table][data-hand-finished='0']").wait_for()
    keyboard_hand(me, [friend, other], NEPALI)
    said = " ".join(line["text"] for line in logs(page))
    assert DEVANAGARI.search(said)


def test_the_turn_timer_speaks(phone, server) -> None:
    body = json.dumps({"name": "Asha", "computer": True, "turn_seconds": 7, "bots": "easy"})
    request = urllib.request.Request(
        server.url + "/api/tables", body.encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        made = json.load(reply)
    p = phone()
    page = p.open("/")
    page.evaluate(
        "([code, token, seat]) => localStorage.setItem('tp.seats', JSON.stringify("
        "{[code]: {token, seat, at: Date.now()}}))",
        [made["code"], made["token"], made["seat"]],
    )
    page = p.open(f"/t/{made['code']}")
    page.locator("[data-testid=table][data-myturn='1']").wait_for()
    alert = page.get_by_test_id("alert")
    alert.get_by_text(re.compile(r"Your turn, \d s left")).last.wait_for()
    # nobody moves: a warning, then the timer packs this seat and says so
    alert.get_by_text("Only 5 s left").last.wait_for(timeout=WAIT)
    page.get_by_test_id("announce").get_by_text("Time ran out: you packed").last.wait_for()


LARGE_JS = """() => {
  const wide = document.documentElement.scrollWidth > document.documentElement.clientWidth;
  const top = document.querySelector('#top');
  const headerCut = top.scrollWidth > top.clientWidth + 1;
  const pot = document.querySelector('[data-testid=pot]').getBoundingClientRect();
  const over = [...document.querySelectorAll('[data-testid=seats] [data-seat]')].filter((s) => {
    const b = s.getBoundingClientRect();
    return b.left < pot.right && b.right > pot.left && b.top < pot.bottom && b.bottom > pot.top;
  }).map((s) => s.dataset.seat);
  const cut = [...document.querySelectorAll('.seat-name')]
    .filter((n) => n.scrollWidth > n.clientWidth + 1).map((n) => n.textContent);
  return {wide, headerCut, over, cut};
}"""
LANDED_JS = "() => !document.getAnimations().some((a) => String(a.id).startsWith('fx-'))"
REACHABLE_JS = """() => {
  const el = document.activeElement;
  const b = el.getBoundingClientRect();
  const x = b.left + b.width / 2, y = b.top + b.height / 2;
  const hit = document.elementFromPoint(x, y);
  return {testid: el.dataset.testid || '', inView: b.top >= 0 && b.bottom <= innerHeight
          && b.left >= 0 && b.right <= innerWidth, onTop: Boolean(hit && el.contains(hit))};
}"""


def test_large_text_and_zoom(phone) -> None:
    # against the computer, on the longest turn: it does not run out while the keyboard looks
    page = my_turn_at(phone(), 4)
    page.locator("[data-testid=table][data-myturn='1'][data-seen='0']").wait_for()
    layouts = [
        ("200% text on a phone", {"width": 360, "height": 640}, "200%"),
        ("200% zoom on a desktop", {"width": 640, "height": 400}, "100%"),
    ]
    for what, size, text in layouts:
        page.set_viewport_size(size)
        page.evaluate("(size) => { document.documentElement.style.fontSize = size; }", text)
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.evaluate("() => window.scrollTo(0, 0)")
        # the layout is measured at rest: cards and chips still flying were sent off from places
        # measured before the text grew (a turned phone lands them at once: feel.js landAll)
        page.wait_for_function(LANDED_JS)
        report = page.evaluate(LARGE_JS)
        assert report == {"wide": False, "headerCut": False, "over": [], "cut": []}, (what, report)
        page.keyboard.press("Tab")
        for _ in range(30):
            if page.evaluate("() => document.activeElement.dataset.testid") == "act-see":
                break
            page.keyboard.press("Tab")
        reached = page.evaluate(REACHABLE_JS)
        assert reached == {"testid": "act-see", "inView": True, "onTop": True}, (what, reached)
