"""Every move on the first screen: each row of moves the engine can offer, drawn with the longest
names a table accepts, at the phone sizes players hold, in both languages.

The rows are generated, not played to: every combination of the moves a seat can be offered on its
turn (see, a chaal of one price or a range, raise, show, a side show with one partner or with
several, all in, pack), the answer to a side show asked of it (with or without See cards), the rebuy
offered to a player out of chips, and a hand that waits for another player. Each is drawn from a
real table's state (the socket stopped) whose seats carry the longest names a table accepts, in
Latin letters and in Devanagari, with the computer's mark, and amounts in the millions. Before each
row the page is scrolled to its end, where a player reading a hand's result leaves it (the first row
comes after a result drawn); then the next hand comes with the row. The test fails when a move's
button or the stepper is cut (its words wider or taller than it), overlaps another, or is not wholly
on the screen (the window, and any box that scrolls inside it) where the page then is, and when a
hand that waits for another starts with the header (which hand it is) out of sight.

One browser and one page: each size and language is one redraw of every row in the page itself.
"""

from __future__ import annotations

import itertools
from typing import Any

from support.table_page import in_each_language, my_turn_at

from teenpatti.tables.play.names import NAME_MAX, name_length

SIZES = [(320, 568), (360, 640), (390, 844), (640, 360)]
SEATS = 6
LATIN = ("W" * NAME_MAX, "Maheshwari " + "W" * (NAME_MAX - 11))
DEVANAGARI = (
    "क्ष्म" * (NAME_MAX // 3),  # 24 characters as the server counts them, 40 code points
    "श्रीकृष्ण प्रसाद भट्टराई उपाध्याय क",  # 24 characters, 35 code points
)
BIG = 1234567


def _turns() -> list[list[dict[str, Any]]]:
    """Every combination of the moves a seat may be offered on its turn, in the engine's order."""
    rows: list[list[dict[str, Any]]] = []
    for see, chaal, raise_, show, side, allin in itertools.product(
        (False, True),
        (None, "one", "range"),
        (False, True),
        (False, True),
        (0, 1, SEATS - 2),
        (False, True),
    ):
        row: list[dict[str, Any]] = []
        if see:
            row.append({"do": "see", "cost": 0, "max": 0, "targets": []})
        if chaal:
            top = BIG * 4 if chaal == "range" else BIG
            row.append({"do": "chaal", "cost": BIG, "max": top, "targets": []})
        if raise_:
            row.append({"do": "raise", "cost": BIG * 2, "max": BIG * 2, "targets": []})
        if show:
            row.append({"do": "show", "cost": BIG, "max": BIG, "targets": [1]})
        if side:
            targets = list(range(SEATS - side, SEATS))
            row.append({"do": "sideshow", "cost": BIG, "max": BIG, "targets": targets})
        if allin:
            row.append({"do": "allin", "cost": BIG - 1, "max": BIG - 1, "targets": []})
        row.append({"do": "pack", "cost": 0, "max": 0, "targets": []})
        rows.append(row)
    return rows


def cases() -> list[dict[str, Any]]:
    """The rows to draw: each turn's moves (those naming a partner with each script's names), the
    side show's answer, and the rebuy."""
    out: list[dict[str, Any]] = []
    for row in _turns():
        named = any(a["do"] == "sideshow" for a in row)
        for names in (LATIN, DEVANAGARI) if named else (LATIN,):
            out.append({"kind": "turn", "legal": row, "names": names})
    answer = [
        {"do": "accept", "cost": 0, "max": 0, "targets": []},
        {"do": "decline", "cost": 0, "max": 0, "targets": []},
    ]
    see = {"do": "see", "cost": 0, "max": 0, "targets": []}
    for names in (LATIN, DEVANAGARI):
        out.append({"kind": "asked", "legal": answer, "names": names})
        out.append({"kind": "asked", "legal": [see, *answer], "names": names})
    out.append({"kind": "rebuy", "legal": [], "names": LATIN})
    out.append({"kind": "wait", "legal": [], "names": LATIN})
    return out


DRAW_JS = """async ([cases, big]) => {
  const view = window.__tp.table;
  view.socket.stop();
  const real = view.__real || (view.__real = JSON.parse(JSON.stringify(view.st)));
  // versions and hands only go forward, from one call to the next too
  let version = view.st.version;
  let number = view.st.hand.number;
  const problems = [];
  const state = (c, finished) => {
    const st = JSON.parse(JSON.stringify(real));
    const n = st.seats.length;
    version += 1;
    st.version = version;
    st.seats.forEach((seat, i) => {
      seat.name = c.names[i % c.names.length];
      seat.chips = big;
      seat.dealt = true;
      seat.packed = false;
      seat.seen = true;
      seat.cards = null;
      seat.category = null;
      if (i !== st.you) Object.assign(seat, {bot: true, person: false, connected: true});
    });
    const hand = st.hand;
    Object.assign(hand, {number, pot: big * 10, stake: big, boot: big});
    Object.assign(hand, {side_show: null, actions: []});
    st.out = false;
    st.rebuy = null;
    if (finished) {
      Object.assign(hand, {finished: true, actor: null, ended_by: 'show'});
      hand.pots = [{amount: big * 10, winners: [1 % n], returned: false}];
      st.seats.forEach((seat, i) => {
        seat.cards = ['Qh', 'Kh', 'Ah'];
        seat.category = i % 2 ? 'pure_sequence' : 'high_card';
      });
      st.legal = [];
      st.deadline = null;
      return st;
    }
    Object.assign(hand, {finished: false, actor: st.you, pots: []});
    st.deadline = Date.now() / 1000 + 3600;
    st.legal = c.legal;
    if (c.kind === 'asked') {
      hand.side_show = [(st.you + 1) % n, st.you];
    } else if (c.kind === 'wait') {
      hand.actor = (st.you + 1) % n;
    } else if (c.kind === 'rebuy') {
      hand.actor = (st.you + 1) % n;
      st.legal = [];
      st.seats[st.you].dealt = false;
      st.seats[st.you].chips = 0;
      st.out = true;
      st.rebuy = {chips: big, left: 99, until: 99};
    }
    return st;
  };
  const box = (el) => el.getBoundingClientRect();
  for (const [i, c] of cases.entries()) {
    // the first row after a result drawn; the others after the page is scrolled to its end as
    // a result leaves it (drawing the result every time would double the test's time)
    number += 1;
    if (i === 0) view.onState(state(c, true));
    window.scrollTo(0, document.documentElement.scrollHeight);
    number += 1;
    view.onState(state(c, false));
    for (const a of document.getAnimations()) {
      if (a.effect && a.effect.getComputedTiming().endTime !== Infinity) a.finish();
    }
    const moves = c.legal.map((a) => a.do + (a.targets.length > 1 ? a.targets.length : ''));
    const what = `${c.kind} ${moves.join(',')} (${c.names[0].slice(0, 4)})`;
    if (c.kind === 'wait' && document.getElementById('top').getBoundingClientRect().top < 0)
      problems.push(`${what}: the next hand starts with its header out of sight`);
    const buttons = [...document.querySelectorAll(
      '[data-testid=actions] button, [data-testid=sideshow-request] button, '
      + '[data-testid=my-hand] button, [data-testid=actions] select')];
    const offers = buttons.filter((b) => b.dataset.do || b.dataset.testid === 'rebuy');
    const offered = {rebuy: 1, wait: 0}[c.kind] ?? c.legal.length;
    if (offers.length < offered)
      problems.push(`${what}: ${offers.length} buttons for ${offered} moves`);
    const width = window.innerWidth, height = window.innerHeight;
    for (const b of buttons) {
      const r = box(b);
      const name = `${b.dataset.testid} "${b.textContent.slice(0, 40)}"`;
      if (r.width === 0 || r.height === 0) {
        problems.push(`${what}: ${name} not shown`);
        continue;
      }
      if (b.scrollWidth > b.clientWidth + 1 || b.scrollHeight > b.clientHeight + 1)
        problems.push(`${what}: ${name} cut (${b.scrollWidth}x${b.scrollHeight}`
          + ` in ${b.clientWidth}x${b.clientHeight})`);
      let left = 0, top = 0, right = width, bottom = height;
      for (let up = b.parentElement; up; up = up.parentElement) {
        const style = getComputedStyle(up);
        if (style.overflowY === 'visible' && style.overflowX === 'visible') continue;
        if (up === document.body || up === document.documentElement) continue;
        const u = box(up);
        left = Math.max(left, u.left); top = Math.max(top, u.top);
        right = Math.min(right, u.right); bottom = Math.min(bottom, u.bottom);
      }
      if (r.left < left - 1 || r.top < top - 1 || r.right > right + 1 || r.bottom > bottom + 1)
        problems.push(`${what}: ${name} off the first screen (${[r.left, r.top, r.right, r.bottom]}`
          + ` in ${[left, top, right, bottom]})`);
    }
    for (let i = 0; i < buttons.length; i++) for (let j = i + 1; j < buttons.length; j++) {
      const a = box(buttons[i]), b = box(buttons[j]);
      if (a.left < b.right - 1 && b.left < a.right - 1
          && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        problems.push(`${what}: ${buttons[i].dataset.testid} overlaps`
          + ` ${buttons[j].dataset.testid}`);
    }
  }
  return problems;
}"""


def test_every_row_of_moves_is_whole_and_on_the_first_screen(phone) -> None:
    # no cards or chips in flight: only the rows are drawn
    page = my_turn_at(phone(reduced_motion="reduce"), SEATS)
    rows = cases()
    problems: list[str] = []
    for lang in in_each_language(page):
        for width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            found = page.evaluate(DRAW_JS, [rows, BIG])
            problems += [f"{width}x{height} {lang}: {p}" for p in found]
    assert len(rows) > 150
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems[:80])


AT_MY_TURN_JS = """(version) => {
  const d = document.querySelector('[data-testid=table]').dataset;
  return d.status === 'finished'
    || (Number(d.version) > version && d.myturn === '1' && d.pending === '0');
}"""
FOCUSED_JS = """() => {
  const el = document.activeElement;
  return el ? (el.dataset.testid || el.tagName) : null;
}"""
SAID_JS = """() => [...document.querySelectorAll('#announce > p')].map((p) => p.textContent)"""


def test_after_a_move_the_keyboard_is_on_the_moves_again_and_the_move_is_said(phone) -> None:
    """A keyboard player taps Enter on a move; when their turn comes again, focus is on their
    moves (no Tab needed), and the screen reader's log said their own move."""
    page = my_turn_at(phone(reduced_motion="reduce"), 4)
    for lang in in_each_language(page):
        page.get_by_test_id("act-chaal").focus()  # Tab to the row (the language button had it)
        for _ in range(2):
            version = int(page.get_by_test_id("table").get_attribute("data-version") or 0)
            focused = page.evaluate(FOCUSED_JS)
            assert focused and focused.startswith("act-"), f"{lang}: focus on {focused}"
            if focused != "act-chaal" and page.get_by_test_id("act-chaal").count():
                page.get_by_test_id("act-chaal").focus()  # Tab along the row to Chaal
            page.keyboard.press("Enter")
            page.wait_for_function(AT_MY_TURN_JS, arg=version)
            if page.get_by_test_id("table").get_attribute("data-status") == "finished":
                return
            said = page.evaluate(SAID_JS)
            you = {"en": "You: ", "ne": "तपाईं: "}[lang]
            assert any(you in line for line in said), said[-6:]


PACKED_SHOWN_JS = """() => {
  const view = window.__tp.table;
  view.socket.stop();
  const st = JSON.parse(JSON.stringify(view.st));
  st.version += 1;
  const n = st.seats.length;
  Object.assign(st.hand, {finished: true, actor: null, ended_by: 'show'});
  st.hand.pots = [{amount: 100, winners: [(st.you + 1) % n], returned: false}];
  st.seats.forEach((seat, i) => {
    seat.cards = ['2c', '7d', '9h'];
    seat.category = 'high_card';
    seat.packed = i === st.you;
  });
  st.legal = [];
  view.onState(st);
  const mine = [...document.querySelectorAll('[data-testid=shown-hand]')]
    .find((li) => li.querySelector('.shown-name').textContent === document.querySelector(
      `[data-testid=seat-${st.you}] .seat-name`).textContent);
  return mine ? mine.textContent : null;
}"""


def test_a_packed_hand_among_the_shown_hands_says_it_packed(phone) -> None:
    page = my_turn_at(phone(reduced_motion="reduce"), 3)
    for lang in in_each_language(page):
        shown = page.evaluate(PACKED_SHOWN_JS)
        assert shown and {"en": "Packed", "ne": "प्याक"}[lang] in shown, shown


WORDS_WHOLE_JS = """(names) => {
  const view = window.__tp.table;
  view.socket.stop();
  const st = JSON.parse(JSON.stringify(view.st));
  st.version += 1;
  st.seats.forEach((seat, i) => { if (i !== st.you) seat.name = names[i % names.length]; });
  view.onState(st);
  const cut = [];
  for (const el of document.querySelectorAll('[data-testid=seats] .seat-name')) {
    const text = el.firstChild;
    if (!text || text.nodeType !== 3) continue;
    let at = 0;
    for (const word of text.nodeValue.split(' ')) {
      const range = document.createRange();
      range.setStart(text, at);
      range.setEnd(text, at + word.length);
      const rects = [...range.getClientRects()];
      const lines = new Set(rects.map((r) => Math.round(r.top)));
      const long = rects.reduce((sum, r) => sum + r.width, 0);
      // a word that fits the seat's width is never broken across lines
      if (lines.size > 1 && long <= el.clientWidth) cut.push(word);
      at += word.length + 1;
    }
  }
  return cut;
}"""


def test_names_are_the_longest_the_server_takes_and_wrap_between_words(phone) -> None:
    assert [name_length(name) for name in (*LATIN, *DEVANAGARI)] == [NAME_MAX] * 4
    page = my_turn_at(phone(reduced_motion="reduce"), 6)
    names = ["Maheshwari Shrestha Rai", "Alexandrina Wolfeschl", *DEVANAGARI]
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate(WORDS_WHOLE_JS, names) == [], f"{width}x{height}"


DRAWN_JS = """async () => {
  // The state after a move as the page gets it, a patch: the mover's chips and the turn change,
  // everything else stays the same objects (versions.js). Which seats are drawn for it? A seat
  // drawn is built with its data-key (play.js), so the keys set during the state say which.
  const view = window.__tp.table;
  view.socket.stop();
  const { applyPatch } = await import('/static/js/versions.js');
  const st = view.st;
  const n = st.seats.length;
  const mover = st.hand.actor;
  const next = (mover + 1) % n;
  const patch = {type: 'patch', from: st.version, version: st.version + 1, ops: [
    ['s', ['version'], st.version + 1],
    ['s', ['seats', mover, 'chips'], st.seats[mover].chips - st.hand.stake],
    ['s', ['hand', 'pot'], st.hand.pot + st.hand.stake],
    ['a', ['hand', 'actions'], [{seat: mover, do: 'chaal', paid: st.hand.stake}]],
    ['s', ['hand', 'actor'], next],
    ['s', ['legal'], []],
  ]};
  const drawn = new Set();
  const panels = [];  // Past hands' panel and the call's, each time one is built
  const set = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {
    if (name === 'data-key' && /^seat\\d+$/.test(value)) drawn.add(Number(value.slice(4)));
    if (name === 'data-testid' && ['past-hands', 'call'].includes(value)) panels.push(value);
    return set.call(this, name, value);
  };
  try {
    view.onState(applyPatch(st, patch));
  } finally {
    Element.prototype.setAttribute = set;
  }
  const shown = document.querySelector(`[data-testid=chips-${mover}] .sr-only`).textContent;
  return {drawn: [...drawn].sort(), panels, mover, next, n, actor: document.querySelector(
    '[data-testid=table]').dataset.actor, chips: shown.replace(/[^0-9]/g, ''),
    paid: String(st.seats[mover].chips - st.hand.stake)};
}"""


def test_a_state_draws_again_only_the_seats_it_changed(phone) -> None:
    """A move changes the mover's seat (chips, last move, no longer on turn) and the next seat (on
    turn): the page draws those two seats for it, and leaves the others as they are, unbuilt."""
    page = my_turn_at(phone(reduced_motion="reduce"), 6)
    got = page.evaluate(DRAWN_JS)
    assert got["drawn"] == sorted([got["mover"], got["next"]]), got
    assert got["actor"] == str(got["next"])
    assert got["chips"] == got["paid"], got  # the mover's seat shows its new chips


def test_a_move_leaves_past_hands_open_as_they_were(phone) -> None:
    """With Past hands open, a move draws the seats it changed and not the panel, whose part of the
    page's state (and the little of the table it shows) is the same as before; nor the call's."""
    page = my_turn_at(phone(reduced_motion="reduce"), 6)
    page.get_by_test_id("hands-toggle").click()
    page.get_by_test_id("past-hands").get_by_test_id("hands-none").wait_for()
    got = page.evaluate(DRAWN_JS)
    assert got["drawn"] == sorted([got["mover"], got["next"]]), got
    assert got["panels"] == [], got
    assert page.get_by_test_id("past-hands").get_by_test_id("hands-none").is_visible()
