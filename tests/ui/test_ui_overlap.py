"""Nothing on the table covers anything else, at every seat count and on every phone.

For each seat count from 2 to 10 a real table is opened against the computer and played until it
is this phone's turn; the state the server sent is then kept (the socket stopped) and made as
crowded as a table gets: the longest names, every badge a seat can wear at once (seen or blind,
all in, the computer's or "Computer for ...", offline, the dealer), a caption of the last move and
a chat bubble at every seat holding the most a bubble shows (BUBBLE_MAX characters, in Latin
letters and in Devanagari), a wild card, and every move offered. That table is drawn at 320x568,
360x640, 390x844 and a phone held sideways, in English and in Nepali, and the test fails when any
two of the pot, the seats, the bubbles, the header, the turn bar and the buttons overlap (their
boxes; a bubble is laid over its own seat), when any text is cut (an element whose content is
wider or taller than its box), or when the page scrolls sideways. The header is checked again with
the page scrolled to its end, where the moves are. The hand's result (winners and the kinds of
hand at every seat) is drawn the same way.

One browser, one page: each seat count is a new table, each size and language a redraw.
"""

from __future__ import annotations

from typing import Any

import pytest
from support.table_page import OPEN_JS, in_each_language, my_turn_at

SIZES = [(320, 568), (360, 640), (390, 844), (640, 360)]
LONG = ["Wwwwwwwwwwwwwwwwwwwwwwww", "मनकामनामनकामनामनकामनाम", "Alexandrina Wolfeschlegel"]

# The real state kept, then crowded: every seat the longest it can be.
CROWD_JS = """([names, finished]) => {
  const view = window.__tp.table;
  view.socket.stop();
  const real = view.__real || (view.__real = JSON.parse(JSON.stringify(view.st)));
  const st = JSON.parse(JSON.stringify(real));
  const n = st.seats.length;
  st.seats.forEach((seat, i) => {
    seat.name = names[i % names.length];
    seat.chips = 1234567;
    seat.dealt = true;
    seat.packed = false;
    seat.seen = i % 2 === 0;
    seat.all_in = true;
    if (i !== st.you) {
      seat.person = i % 3 !== 1;
      seat.bot = i % 3 !== 2;
      seat.connected = i % 3 !== 2 ? true : false;
    }
  });
  const hand = st.hand;
  hand.pot = 12345678;
  hand.stake = 1234567;
  hand.boot = 123456;
  hand.wild = hand.wild || 'Qh';
  hand.dealer = (st.you + 1) % n;
  hand.side_show = null;
  hand.actions = st.seats.map((seat, i) =>
    i % 2 ? {seat: i, do: 'sideshow', paid: 1234567} : {seat: i, do: 'decline', paid: 0});
  if (finished) {
    hand.finished = true;
    hand.actor = null;
    hand.pots = [{amount: 12345678, winners: [1 % n, st.you], returned: false}];
    st.seats.forEach((seat, i) => {
      seat.cards = ['Qh', 'Kh', 'Ah'];
      seat.category = i % 2 ? 'pure_sequence' : 'high_card';
    });
    st.legal = [];
  } else {
    hand.finished = false;
    hand.actor = st.you;
    st.deadline = Date.now() / 1000 + 3600;
    st.legal = [
      {do: 'see', cost: 0},
      {do: 'chaal', cost: 1234567, max: 2469134},
      {do: 'raise', cost: 2469134},
      {do: 'show', cost: 1234567},
      {do: 'sideshow', cost: 1234567, targets: [n - 1]},
      {do: 'allin', cost: 1234567},
      {do: 'pack', cost: 0},
    ];
  }
  // a message from every seat, new to the page: a bubble at each, the longest a bubble shows
  const words = [
    'Ramro khel sabai jana! Ab chai chito chito khelau hai, la la hunchha',
    'राम्रो खेल साथीहरू! अब चाहिँ छिटो छिटो खेलौं है, ल ल हुन्छ त साथी',
    '🎉',
  ];
  const top = Math.max(1000, ...(st.chat || []).map((m) => m.n));
  st.chat = [...(st.chat || []), ...st.seats.map((seat, i) => (
    {n: top + 1 + i, seat: i, kind: i % 3 === 2 ? 'emoji' : 'text', text: words[i % 3]}))];
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  return n;
}"""

MEASURE_JS = """async () => {
  // measured once the page has drawn the state (two frames) with every animation that ends
  // brought to its end (a card dealt in slides across the seat: mid-way it may stick out of it),
  // as a person sees it a moment later
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  for (const a of document.getAnimations()) {
    if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
  }
  await new Promise((done) => requestAnimationFrame(done));
  const box = (el) => { const b = el.getBoundingClientRect();
    return {left: b.left, top: b.top, right: b.right, bottom: b.bottom}; };
  const shown = (el) => {
    const b = el.getBoundingClientRect();
    return b.width > 0 && b.height > 0;
  };
  const named = [];
  const add = (what, el) => { if (el && shown(el)) named.push({what, el, box: box(el)}); };
  add('header', document.getElementById('top'));
  for (const el of document.querySelectorAll('[data-testid=felt] > p')) add('pot', el);
  const all = (selector) => document.querySelectorAll(selector);
  for (const el of all('[data-testid=seats] .seat')) add(`seat ${el.dataset.seat}`, el);
  for (const el of all('.chat-bubble')) add(`bubble ${el.dataset.testid}`, el);
  add('turn bar', document.querySelector('[data-testid=turn-line]'));
  for (const el of all('[data-testid=actions] button, [data-testid=my-hand] button'))
    add(`button ${el.dataset.testid}`, el);
  const overlaps = [];
  for (let i = 0; i < named.length; i++) for (let j = i + 1; j < named.length; j++) {
    const a = named[i], b = named[j];
    if (a.what === 'pot' && b.what === 'pot') continue;
    if (a.el.contains(b.el) || b.el.contains(a.el)) continue; // a bubble in its own seat's box
    if (a.box.left < b.box.right - 1 && b.box.left < a.box.right - 1
        && a.box.top < b.box.bottom - 1 && b.box.top < a.box.bottom - 1)
      overlaps.push(`${a.what} ${JSON.stringify(a.box)} / ${b.what} ${JSON.stringify(b.box)}`);
  }
  const clipped = [];
  const texts = document.querySelectorAll(
    '#top *, [data-testid=felt] *, [data-testid=seats] .seat *, .chat-bubble, '
    + '[data-testid=turn-line], [data-testid=turn-line] *, [data-testid=actions] *, '
    + '[data-testid=my-hand] *, .result *, [data-testid=news]');
  for (const el of texts) {
    if (!shown(el) || el.closest('.sr-only') || el.closest('svg') || el.tagName === 'svg') continue;
    const style = getComputedStyle(el);
    // words running out of a box they do not clip cover what is beside it: as bad as cut
    const spills = el.matches('button, .badge, .news, .seat-top, .seat-mid, .last-move, .turn-line')
      && el.scrollWidth > el.clientWidth + 1;
    if (spills) {
      clipped.push(`${el.className || el.tagName} spills ${el.scrollWidth} > ${el.clientWidth}: `
        + el.textContent.slice(0, 40));
      continue;
    }
    if ([style.overflow, style.overflowX, style.overflowY].every((o) => o === 'visible')) continue;
    // the countdown is a window one line high onto a line for every second (clock.js): only
    // its width must hold its words
    const tall = !el.matches('.timer-text');
    if (el.scrollWidth > el.clientWidth + 1 || (tall && el.scrollHeight > el.clientHeight + 1))
      clipped.push(`${el.className || el.tagName} ${el.scrollWidth}x${el.scrollHeight} in `
        + `${el.clientWidth}x${el.clientHeight}: ${el.textContent.slice(0, 40)}`);
  }
  const width = document.documentElement.clientWidth;
  const wide = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth);
  const out = named
    .filter((n) => n.what !== 'header' && (n.box.left < -1 || n.box.right > width + 1))
    .map((n) => `${n.what} ${JSON.stringify(n.box)}`);
  return {overlaps, clipped, wide, width, out};
}"""


def _problems(page: Any, where: str) -> list[str]:
    found = page.evaluate(MEASURE_JS)
    problems = [f"{where}: overlap {o}" for o in found["overlaps"]]
    problems += [f"{where}: clipped {c}" for c in found["clipped"]]
    problems += [f"{where}: off the screen {o}" for o in found["out"]]
    if found["wide"] > found["width"]:
        problems.append(f"{where}: scrolls sideways ({found['wide']} > {found['width']})")
    return problems


@pytest.mark.parametrize("seats", list(range(2, 11)))
def test_nothing_covers_anything(phone, seats: int) -> None:
    page = my_turn_at(phone(), seats)
    problems: list[str] = []
    for lang in in_each_language(page):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            for finished in (False, True):
                assert page.evaluate(CROWD_JS, [LONG, finished]) == seats
                where = f"{seats} seats, {width}x{height}, {lang}, " + (
                    "result" if finished else "turn"
                )
                page.evaluate("() => window.scrollTo(0, 0)")
                problems += _problems(page, where)
                page.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
                problems += [p for p in _problems(page, where + ", scrolled") if "header" in p]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:60])


IN_SIGHT_JS = """(testid) => {
  const b = document.querySelector(`[data-testid=${testid}]`).getBoundingClientRect();
  return b.top >= 0 && b.bottom <= window.innerHeight && b.height > 0;
}"""


def test_typing_on_your_turn_keeps_the_turn_in_sight(phone) -> None:
    p = phone()
    code = p.open("/").evaluate(OPEN_JS, 4)
    page = p.open(f"/t/{code}")
    page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").wait_for()
    page.get_by_test_id("chat-open").tap()
    box = page.get_by_test_id("chat-text")
    box.tap()
    # the box is brought into view with the keyboard's room below it, as a phone does
    page.evaluate(
        "() => { const b = document.querySelector('[data-testid=chat-text]');"
        " window.scrollTo(0, window.scrollY + b.getBoundingClientRect().bottom"
        " - window.innerHeight / 2); }"
    )
    assert page.evaluate(IN_SIGHT_JS, "chat-text")
    assert not page.evaluate(IN_SIGHT_JS, "turn-line")  # the turn bar is off the screen ...
    assert page.evaluate(IN_SIGHT_JS, "chat-turn")  # ... and said again beside the box
    turn = page.get_by_test_id("chat-turn")
    assert turn.text_content().startswith("Your turn")
    page.wait_for_function(
        "() => /\\d+ s left/.test(document.querySelector('[data-testid=chat-turn]').textContent)"
    )
