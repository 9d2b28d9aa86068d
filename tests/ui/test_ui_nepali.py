"""Every screen read as a player reads it, on a 360 x 640 phone: in Nepali no Latin letter and no
Latin digit outside names, the table code, the link and the words docs/nepali.md keeps in Latin;
in English no Devanagari outside what is marked as Nepali on purpose.

One phone walks home, Learn by playing (every step), the create form (every preset, every option
open), the join pages, the waiting room with house rules, the table (real moves, then a caption of
every kind and a side show asked of this seat, drawn by the page's own renderer), a hand's result,
the end of the game, past hands with a passed and a failed "Check this deal" (details open), the
rules' five sections, My tables, and an error of every code the server can send. What the screen
shows is read from the page itself: every visible text node, placeholder and screen-reader label,
and the options of every list; text inside an element marked with another language (``lang``) is
that language on purpose (the language switch, the words table's English column, a hand's name in
both languages).
"""

from __future__ import annotations

import json
import re
import time
from typing import Any

import pytest
from support.codes import server_error_codes

RESULT_PAUSE = 1.5
"""Seconds the server waits after each hand, so that a hand's result can be read."""

COMPUTERS = ("Asha", "Bikash", "Chandra", "Deepa", "Ekraj", "Firoza", "Gita", "Hari", "Indra")
"""The computer players' names (teenpatti/tables/play/table.py): names are kept as they are."""
HOST = "सीता"
FRIEND = "Ram"
KEPT_IN_LATIN = (
    re.compile(r"https?://\S+"),  # the link
    re.compile(r"--host|--public-url|Wi-Fi"),  # what an operator types, on a loopback server
    re.compile(r"\bAK47\b"),  # a variant's name
    re.compile(r"\bQR\b"),
    re.compile(r"(?<![A-Za-z])[AKQJ](?![A-Za-z])"),  # card letters in corners and labels
)
"""What docs/nepali.md ("Digits", "Kept in Latin") lets a Nepali screen show in Latin."""
LATIN = re.compile(r"[A-Za-z0-9]")
DEVANAGARI = re.compile(r"[\u0900-\u097F]")

READ_JS = r"""() => {
  const page = document.documentElement.lang;
  const out = [];
  const where = (el) => {
    const path = [];
    for (let e = el; e && e !== document.body; e = e.parentElement) {
      if (e.dataset && e.dataset.testid) path.unshift(e.dataset.testid);
    }
    return path.join(' > ') || el.tagName.toLowerCase();
  };
  const foreign = (el) => {
    const marked = el.closest('[lang]');
    return Boolean(marked) && marked !== document.documentElement && marked.lang !== page;
  };
  const skip = (el) => foreign(el) || el.closest('.code-text, code.hex, script, style, noscript');
  const shown = (el) => {
    if (el.closest('option')) {
      const list = el.closest('select');
      return Boolean(list) && list.checkVisibility();
    }
    return el.checkVisibility({ visibilityProperty: true });
  };
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    const text = node.nodeValue.trim();
    if (!text || !el || skip(el) || !shown(el)) continue;
    out.push({ text, where: where(el) });
  }
  for (const el of document.querySelectorAll('input[data-kind=int]')) {
    if (skip(el) || !el.checkVisibility() || !el.value) continue;
    out.push({ text: el.value, where: where(el) });
  }
  for (const el of document.querySelectorAll('[aria-label], [placeholder], img[alt]')) {
    if (skip(el) || !el.checkVisibility()) continue;
    for (const name of ['aria-label', 'placeholder', 'alt']) {
      const text = (el.getAttribute(name) || '').trim();
      if (text) out.push({ text, where: `${where(el)} @${name}` });
    }
  }
  return { lang: page, texts: out };
}"""

OPEN_ALL_JS = "() => { for (const d of document.querySelectorAll('details')) d.open = true; }"

CAPTIONS_JS = """async () => {
  const view = window.__tp.table;
  const real = view.st;
  const kinds = ['see', 'chaal', 'raise', 'pack', 'show', 'sideshow', 'accept', 'decline', 'allin'];
  const st = structuredClone(real);
  const seats = st.seats.length;
  st.hand.finished = false;
  st.hand.actions = kinds.map((kind, k) => ({
    seat: 1 + (k % (seats - 1)), do: kind, paid: ['chaal', 'raise', 'show', 'sideshow', 'allin']
      .includes(kind) ? 20 * (k + 1) : 0,
  }));
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
  const happened = await import('/static/js/happened.js');
  const shown = kinds.map((kind) => happened.caption({ do: kind, paid: 40 }));
  return { shown, real };
}"""

SIDESHOW_JS = """(ask) => {
  const view = window.__tp.table;
  const st = structuredClone(view.st);
  st.hand.finished = false;
  st.hand.side_show = ask ? [1, st.you] : [st.you, 1];
  st.hand.actor = ask ? st.you : 1;
  st.legal = ask ? [{ do: 'accept', cost: 0 }, { do: 'decline', cost: 0 }] : [];
  view.store.dispatch({type: 'received', st: st, now: Date.now()});
  view.render();
}"""

NEXT_JS = """(resultRead) => {
  const t = document.querySelector('[data-testid=table]');
  return t.dataset.status === 'finished' || (t.dataset.myturn === '1' && t.dataset.pending === '0')
    || (!resultRead && Boolean(document.querySelector('[data-testid=result]')));
}"""
MOVED_JS = "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v"

RESTORE_JS = """(real) => { const view = window.__tp.table;
  view.store.dispatch({type: 'received', st: real, now: Date.now()}); view.render(); }"""

ERRORS_JS = """async (codes) => {
  const i18n = await import('/static/js/i18n.js');
  const toast = document.querySelector('[data-testid=toast]');
  const out = [];
  for (const code of codes) {
    window.__tp.table.app.toast(i18n.errorText(code, 'the server says this in English'));
    out.push({ code, text: toast.textContent.trim(), shown: toast.checkVisibility() });
  }
  return out;
}"""

TAMPER_JS = """(hands) => hands.map(
  (h, i) => (i === 0 ? { ...h, cards_root: '0'.repeat(64) } : h))"""


class Reader:
    """Reads every screen it is shown and keeps what a player of that language should not see."""

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.code = ""
        self.wrong: list[str] = []
        self.screens: list[str] = []

    def clean(self, text: str) -> str:
        for name in sorted(self.names, key=len, reverse=True):
            text = text.replace(name, " ")
        if self.code:
            text = re.sub(re.escape(self.code), " ", text, flags=re.IGNORECASE)
        for kept in KEPT_IN_LATIN:
            text = kept.sub(" ", text)
        return text

    def read(self, page: Any, screen: str) -> None:
        seen = page.evaluate(READ_JS)
        self.screens.append(screen)
        assert seen["texts"], f"{screen}: nothing read"
        for item in seen["texts"]:
            text = item["text"]
            if seen["lang"] == "ne":
                bad = LATIN.search(self.clean(text))
            else:
                bad = DEVANAGARI.search(text.replace(HOST, " "))
            line = f"[{seen['lang']}] {item['where']}: {text!r} ({screen})"
            if bad and not any(w.startswith(line.split(" (")[0]) for w in self.wrong):
                self.wrong.append(line)

    def text(self, screen: str, text: str, lang: str) -> None:
        self.screens.append(screen)
        bad = LATIN.search(self.clean(text)) if lang == "ne" else DEVANAGARI.search(text)
        if bad:
            self.wrong.append(f"[{lang}] {screen}: {text!r}")


def _create_form(page: Any, base: str, reader: Reader) -> None:
    page.goto(base + "/#create")
    page.get_by_test_id("create-form").wait_for()
    presets = (
        page.get_by_test_id("opt-preset")
        .locator("option")
        .evaluate_all("(options) => options.map((o) => JSON.parse(o.value))")
    )
    assert len(presets) >= 4, presets
    for preset in presets:
        page.get_by_test_id("opt-preset").select_option(json.dumps(preset))
        page.locator(f"[data-testid=create-form][data-preset='{preset}']").wait_for()
        for play in ("live", "anytime"):
            if page.get_by_test_id(f"play-{play}").count():
                page.get_by_test_id(f"play-{play}").check()
            page.evaluate(OPEN_ALL_JS)
            reader.read(page, f"create form, {preset}, {play}")
    # the options that show only with another: the one-rank-wild variant's list of ranks, the
    # range bets' largest bet
    variant = page.get_by_test_id("opt-rule.variant")
    variant.select_option(json.dumps("fixed_rank"))
    page.get_by_test_id("opt-rule.fixed_rank").wait_for()
    page.get_by_test_id("opt-rule.bets").select_option(json.dumps("range"))
    page.get_by_test_id("opt-rule.range_max_stakes").wait_for()
    page.evaluate(OPEN_ALL_JS)
    reader.read(page, "create form, one rank wild, range bets")
    # a form error
    page.get_by_test_id("name").fill("")
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("form-error").wait_for()
    assert page.get_by_test_id("form-error").text_content()
    reader.read(page, "create form, no name")


def _open_table(page: Any, base: str) -> str:
    """The host opens a three-seat play-anytime table with a house rule of its own."""
    page.goto(base + "/#create")
    page.get_by_test_id("create-form").wait_for()
    page.get_by_test_id("opt-preset").select_option(json.dumps("nepal"))
    page.locator("[data-testid=create-form][data-preset=nepal]").wait_for()
    page.get_by_test_id("name").fill(HOST)
    page.get_by_test_id("seats-3").check()
    page.get_by_test_id("hands-10").check()
    page.get_by_test_id("bots-random").check()
    page.get_by_test_id("play-anytime").check()
    page.evaluate(OPEN_ALL_JS)
    page.get_by_test_id("opt-rule.show_tie").select_option(json.dumps("split"))
    # a rule with a number in it: range bets up to four stakes
    page.get_by_test_id("opt-rule.bets").select_option(json.dumps("range"))
    page.get_by_test_id("opt-rule.range_max_stakes").fill("4")
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    return str(page.get_by_test_id("table-code").get_attribute("data-code"))


def _walk(p: Any, friend: Any, reader: Reader, lang: str) -> None:
    page = p.open("/")
    page.locator(f"html[lang={lang}]").wait_for()
    reader.read(page, "home")

    # The rules, each section with every question open.
    for section in ("rules", "ranking", "words", "faq", "tips"):
        page.goto(p.base + f"/#{section}")
        page.locator(f"[data-testid=rules][data-section={section}]").wait_for()
        page.evaluate(OPEN_ALL_JS)
        reader.read(page, f"rules: {section}")

    # Learn by playing: every step of the guided hand, and its end.
    page.goto(p.base + "/#learn")
    page.get_by_test_id("learn-start").wait_for()
    reader.read(page, "learn by playing")
    page.get_by_test_id("learn-start").tap()
    for step in range(40):
        page.locator(f"[data-testid=learn][data-step='{step}']").wait_for()
        reader.read(page, f"learn by playing, step {step}")
        page.locator("[data-testid=learn-coach] .btn.primary").tap()
        page.locator(
            f"[data-testid=learn][data-step='{step + 1}'], [data-testid=learn][data-step=end]"
        ).wait_for()  # the tap's step drawn before it is asked whether it was the last
        if page.locator("[data-testid=learn][data-step=end]").count():
            break
    page.locator("[data-testid=learn][data-step=end]").wait_for()
    reader.read(page, "learn by playing, the end")

    _create_form(page, p.base, reader)

    # Join with a code that is not a table's.
    page.goto(p.base + "/#join")
    page.get_by_test_id("join-form").wait_for()
    reader.read(page, "join")
    page.get_by_test_id("join-code").fill("ZZZZZ9")
    page.get_by_test_id("name").fill(HOST)
    page.get_by_test_id("join-submit").tap()
    page.get_by_test_id("form-error").get_by_text(re.compile(".")).wait_for()
    reader.read(page, "join, no such table")

    # The waiting room, with a house rule; a friend's join page for it.
    reader.code = code = _open_table(page, p.base)
    page.get_by_test_id("house-rules").wait_for()
    reader.read(page, "waiting room")
    fpage = friend.open(f"/t/{code}")
    fpage.get_by_test_id("join-seated").get_by_text(HOST).wait_for()
    reader.read(fpage, "join a friend's table")

    # The table: real moves until this seat has seen its cards and a hand has ended.
    page.get_by_test_id("start").tap()
    table = page.locator("[data-testid=table][data-status=playing]")
    table.wait_for()
    my_turn = page.locator("[data-testid=table][data-myturn='1'][data-pending='0']")
    my_turn.wait_for()
    reader.read(page, "table, my turn, blind")
    page.get_by_test_id("act-see").tap()
    page.locator("[data-testid=table][data-seen='1']").wait_for()
    my_turn.wait_for()
    reader.read(page, "table, my turn, seen")
    page.get_by_test_id("hands-toggle").tap()
    page.get_by_test_id("past-hands").wait_for()
    reader.read(page, "past hands, none yet")
    page.get_by_test_id("hands-toggle").tap()

    # Every kind of caption, and a side show both ways, drawn by the page's renderer.
    drawn = page.evaluate(CAPTIONS_JS)
    for text in drawn["shown"]:
        reader.text("caption", text, lang)
    page.locator("[data-testid^=move-]").first.wait_for()
    reader.read(page, "table, every caption")
    page.evaluate(SIDESHOW_JS, True)
    page.get_by_test_id("sideshow-request").wait_for()
    reader.read(page, "side show asked of me")
    page.evaluate(SIDESHOW_JS, False)
    reader.read(page, "side show I asked")
    page.evaluate(RESTORE_JS, drawn["real"])
    my_turn.wait_for()

    # Errors of every code, through the page's own toast.
    codes = sorted(server_error_codes() | {"network", "http/502", "rules/show_tie", "no/such"})
    for row in page.evaluate(ERRORS_JS, codes):
        assert row["shown"] and row["text"], row
        reader.text(f"error {row['code']}", row["text"], lang)
    page.evaluate(RESTORE_JS, drawn["real"])

    # Pack each hand; read the first hand's result; then the end of the game.
    result_read = False
    deadline = time.monotonic() + 180
    while page.get_by_test_id("table").get_attribute("data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end"
        page.wait_for_function(NEXT_JS, arg=result_read)
        if not result_read and page.get_by_test_id("result").count():
            reader.read(page, "a hand's result")
            result_read = True
        elif page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").count():
            version = int(page.get_by_test_id("table").get_attribute("data-version") or 0)
            page.get_by_test_id("act-pack").tap()
            page.wait_for_function(MOVED_JS, arg=version)
    page.get_by_test_id("standings").wait_for()
    assert result_read, "no hand's result was read"
    reader.read(page, "the end of the game")

    # Past hands after the game: one check passes, one (a changed record) fails; details open.
    def tamper(route: Any) -> None:
        reply = route.fetch()
        hands = reply.json()
        route.fulfill(response=reply, json=page.evaluate(TAMPER_JS, hands))

    page.route(f"**/api/tables/{code}/hands", tamper)
    page.get_by_test_id("hands-toggle").tap()
    items = page.get_by_test_id("past-hand")
    items.nth(1).wait_for()
    for i in (0, 1):
        items.nth(i).get_by_test_id("hands-check").tap()
        items.nth(i).locator("[data-testid=hands-verdict]:not([data-verified=''])").wait_for()
        items.nth(i).get_by_test_id("hands-details").tap()
        items.nth(i).get_by_test_id("hands-details-body").wait_for()
    assert items.nth(0).get_by_test_id("hands-verdict").get_attribute("data-verified") == "0"
    assert items.nth(1).get_by_test_id("hands-verdict").get_attribute("data-verified") == "1"
    reader.read(page, "past hands, a failed and a passed check")
    page.unroute(f"**/api/tables/{code}/hands")

    page.goto(p.base + "/#mine")
    page.get_by_test_id(f"mine-{code}").wait_for()
    page.wait_for_function(
        "(code) => document.querySelector(`[data-testid=mine-${code}]`).dataset.turn !== ''",
        arg=code,
    )
    reader.read(page, "my tables")


@pytest.mark.parametrize("lang", ["ne", "en"])
def test_every_screen_speaks_one_language(phone, lang: str) -> None:
    locale = "ne-NP" if lang == "ne" else "en-GB"
    reader = Reader((HOST, FRIEND, *COMPUTERS))
    _walk(phone(locale=locale), phone(locale=locale), reader, lang)
    assert len(reader.screens) >= 30, reader.screens
    assert reader.wrong == [], "\n".join(reader.wrong)
