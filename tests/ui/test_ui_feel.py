"""What players see of each other and of each move, on phones of 360 x 640 and 390 x 844 in English
and in Nepali: computer seats marked as the computer with their level everywhere, each move's
caption whole on its seat, a side show's outcome and a timeout told to everyone, chips of a bet
nobody called handed back (never a win), the deal and chips moving without delaying a move (with
and without reduced motion), a waiting turn on which nothing moves but its timer once its seat
has pulsed, sounds and buzzes that the mute switch silences, the phone's language on a first
visit, and the join page that shows the table before you sit.

This module's server pauses two seconds after each hand so that a hand's result can be read, and
hands a dropped person's seat to the computer after two seconds.
"""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

RESULT_PAUSE = 2.0
"""Seconds the server waits after each hand (read by the ``server`` fixture)."""
GRACE = 2.0
"""Seconds a person who drops keeps their seat before the computer plays it."""

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
SIZES = [(360, 640), (390, 844)]

CUT_JS = """() => {
  // every caption and badge of every seat is whole: not wider than its seat, not cut by it
  const cut = [];
  for (const seat of document.querySelectorAll('[data-testid=seats] [data-seat]')) {
    const box = seat.getBoundingClientRect();
    for (const el of seat.querySelectorAll('.last-move, .badge')) {
      const b = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1 || b.left < box.left - 1 || b.right > box.right + 1)
        cut.push(`${seat.dataset.seat}: ${el.textContent}`);
    }
  }
  return cut;
}"""
STATE_JS = "() => window.__tp.table.st"


def _post(server: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.load(reply))


def _sit(phone: Any, code: str, token: str, seat: int) -> Any:
    """Open the table on this phone as the seat the token holds."""
    page = phone.open("/")
    page.evaluate(
        "([code, token, seat]) => localStorage.setItem('tp.seats', JSON.stringify("
        "{[code]: {token, seat, at: Date.now()}}))",
        [code, token, seat],
    )
    return phone.open(f"/t/{code}")


def _captions_whole(*pages: Any) -> None:
    for page in pages:
        cut = page.evaluate(CUT_JS)
        assert not cut, f"cut on a {page.viewport_size['width']}-px phone: {cut}"


def _lang(page: Any, lang: str) -> None:
    if page.locator("html").get_attribute("lang") != lang:
        page.get_by_test_id("lang").tap()
    page.locator(f"html[lang={lang}]").wait_for()


def test_who_is_who_and_a_side_show_told_to_all(phone, server, play, shot) -> None:
    # Three friends and the computer (hard) at a three-hand table.
    made = _post(
        server,
        "/api/tables",
        {
            "name": "Asha",
            "seats": 4,
            "bots": "hard",
            "turn_seconds": 60,
            "rules": {"preset": "classic", "hands": 3, "sideshow_all_seen": False},
        },
    )
    code = made["code"]
    joined = [_post(server, f"/api/tables/{code}/join", {"name": n}) for n in ("Bikash", "Chandra")]
    phones = [
        phone(width=360, height=640),
        phone(width=390, height=844, locale="ne-NP"),
        phone(width=390, height=844),
    ]
    host = _sit(phones[0], code, made["token"], made["seat"])
    pages = [host] + [
        _sit(p, code, j["token"], j["seat"]) for p, j in zip(phones[1:], joined, strict=True)
    ]
    # The waiting room says the computer (at its level) takes the empty seat, in both languages.
    assert "Computer · Hard" in host.get_by_test_id("lobby-seat-3").text_content()
    pages[1].locator("html[lang=ne]").wait_for()
    assert "कम्प्युटर · कडा" in pages[1].get_by_test_id("lobby-seat-3").text_content()
    host.get_by_test_id("start").tap()
    for page in pages:
        page.locator("[data-testid=table][data-status=playing]").wait_for()
    # The computer's seat: its badge on every phone; its name marked wherever it is named.
    host.get_by_test_id("seat-3").get_by_text("Computer · Hard").wait_for()
    pages[1].get_by_test_id("seat-3").get_by_text("कम्प्युटर · कडा").wait_for()
    assert host.get_by_test_id("seat-3").get_attribute("aria-label").endswith("(computer)")
    for i in range(3):
        assert host.get_by_test_id(f"seat-{i}").locator(".badge.bot").count() == 0

    def outcome() -> bool:
        log = pages[0].get_by_test_id("announce").get_by_text(re.compile(r"hand was better"))
        return log.count() > 0

    def policy(p: Any, state: dict[str, str], choices: list[str]) -> str:
        _captions_whole(p.page)
        if "act-accept" in choices:
            return "act-accept"
        if "act-see" in choices:
            return "act-see"
        if not outcome():
            if "act-sideshow" in choices:
                return "act-sideshow"
            picks: tuple[str, ...] = ("act-chaal", "act-show", "act-allin", "act-pack")
        else:  # then on to the end of the game
            picks = ("act-show", "act-pack")
        for pick in picks:
            if pick in choices:
                return pick
        return choices[0]

    hand = play(phones, policy, lambda s: outcome() or s["status"] == "finished")["hand"]
    assert outcome(), "no side show was accepted in the game"
    # Everyone is told the outcome, without cards: whose hand was better and who packs.
    said = re.compile(r"hand was better: .* packs?$")
    for page in (pages[0], pages[2]):
        page.get_by_test_id("announce").get_by_text(said).last.wait_for()
    pages[1].get_by_test_id("announce").get_by_text(
        re.compile("को तास राम्रो थियो: ")
    ).last.wait_for()
    # The news line clears with the next move; the hand's result keeps the outcome.
    told = play(phones, policy, lambda s: s["status"] == "finished" or s["hand"] != hand)
    for page in (pages[0], pages[2]):
        page.locator("[data-testid=result-news], [data-testid=last-hand]").filter(
            has_text="hand was better"
        ).first.wait_for()
    assert told["status"] == "finished" or told["hand"] != hand
    shot(pages[0], "sideshow-result", full_page=True)
    _captions_whole(*pages)

    # Chandra's phone goes away: the computer plays her seat, and the seat says for whom.
    phones[2].context.close()
    pages[0].get_by_test_id("seat-2").get_by_text("Computer for Chandra").wait_for()
    pages[1].get_by_test_id("seat-2").get_by_text("Chandra को ठाउँमा कम्प्युटर").wait_for()
    assert pages[0].get_by_test_id("seat-2").get_attribute("aria-label") == "Chandra"
    final = play(phones[:2], policy, lambda s: s["status"] == "finished")
    assert final["status"] == "finished"
    # Standings: the computer's row says it is the computer, and at which level.
    host.get_by_test_id("standings").wait_for()
    row = host.get_by_test_id("standing").filter(has=host.get_by_test_id("standing-bot"))
    assert row.count() == 1 and "Computer · Hard" in row.text_content()
    pages[1].get_by_test_id("standings").get_by_text("कम्प्युटर · कडा").wait_for()


def test_a_timeout_and_chips_handed_back(phone, server) -> None:
    # Two players with 30 chips each: the first hand's first player lets the timer run out; in
    # the second, the richer one raises and the other can only go all in for less, so the top of
    # that raise goes back to the one who bet it. (Ten seconds a turn: time enough for each move
    # of the second hand to be tapped on a busy machine before its timer runs out too.)
    made = _post(
        server,
        "/api/tables",
        {
            "name": "Asha",
            "seats": 2,
            "turn_seconds": 10,
            "rules": {"preset": "nepal", "starting_chips": 30},
        },
    )
    code = made["code"]
    joined = _post(server, f"/api/tables/{code}/join", {"name": "Bikash"})
    asha_phone = phone(width=390, height=844)
    bikash_phone = phone(width=360, height=640, locale="ne-NP")
    asha = _sit(asha_phone, code, made["token"], 0)
    bikash = _sit(bikash_phone, code, joined["token"], 1)
    asha.get_by_test_id("start").tap()
    # Bikash (seat 1, after the dealer) acts first and does nothing.
    bikash.locator("[data-testid=table][data-myturn='1']").wait_for()
    bikash.get_by_test_id("announce").get_by_text("समय सकियो: तपाईं प्याक हुनुभयो").last.wait_for()
    asha.get_by_test_id("announce").get_by_text("Bikash ran out of time").last.wait_for()
    asha.locator("[data-testid=result-news], [data-testid=last-hand]").filter(
        has_text="Bikash ran out of time"
    ).first.wait_for()

    # Hand 2: Asha (40 chips) raises; Bikash (20) goes all in for less.
    asha.locator("[data-testid=table][data-hand='2'][data-myturn='1'][data-pending='0']").wait_for()
    asha.get_by_test_id("act-raise").tap()
    bikash.locator(
        "[data-testid=table][data-hand='2'][data-myturn='1'][data-pending='0']"
    ).wait_for()
    bikash.get_by_test_id("act-allin").tap()
    asha.locator("[data-testid=table][data-hand='2'][data-hand-finished='1']").wait_for()
    seen = asha.evaluate(RESULT_JS)  # all read at once, before the next hand is dealt
    assert seen["hand"] == 2, seen
    assert seen["lines"][-1] == "You get 10 back: nobody called it", seen
    assert seen["marked"] == ["won", "returned"], seen
    pots = seen["pots"]
    assert [p["returned"] for p in pots] == [False, True]
    # Asha's seat is lit only if she won the main pot; the chips handed back win her nothing.
    assert seen["lit"] == (0 in pots[0]["winners"]), seen
    assert seen["pot"] == str(pots[0]["amount"]), seen
    bikash.get_by_test_id("announce").get_by_text("Asha लाई १० फिर्ता").last.wait_for()


RESULT_JS = """() => {
  const st = window.__tp.table.st;
  return {
    hand: st.hand.number,
    pots: st.hand.pots,
    lines: [...document.querySelectorAll('[data-testid=result-line]')].map((li) => li.textContent),
    marked: [...document.querySelectorAll('[data-testid=result-line]')].map((li) => li.className),
    lit: document.querySelector('[data-testid=seat-0]').classList.contains('winner'),
    pot: document.querySelector('[data-testid=pot] strong').textContent,
  };
}"""


WATCH_DEAL_JS = """() => {
  // Note how many cards fly when a new hand is drawn, then tap a move in the very task that draws
  // this player's turn in it (an observer's callback runs right after it): nothing waits.
  const view = document.getElementById('view');
  const flying = () => document.getAnimations()
    .filter((a) => a.id === 'fx-deal' && a.playState === 'running').length;
  const first = document.querySelector('[data-testid=table]').dataset.hand;
  const dealt = {};
  const watch = new MutationObserver(() => {
    const t = document.querySelector('[data-testid=table]');
    const hand = t ? t.dataset.hand : first;
    if (hand === first) return;
    if (!(hand in dealt)) dealt[hand] = flying();
    if (t.dataset.myturn !== '1') return;
    const button = document.querySelector('[data-testid=act-pack]');
    if (!button || button.disabled) return;
    watch.disconnect();
    const now = flying();
    button.click();
    window.__dealMove = {hand: Number(hand), dealt: dealt[hand], flying: now,
                         version: Number(t.dataset.version)};
  });
  watch.observe(view, {subtree: true, attributes: true, childList: true});
}"""


def _feel_game(phone: Any, server: Any, motion: str, size: tuple[int, int], locale: str) -> None:
    # Against the computer, two seats.
    made = _post(
        server,
        "/api/tables",
        {"name": "Asha", "computer": True, "seats": 2, "turn_seconds": 60, "bots": "easy"},
    )
    p = phone(width=size[0], height=size[1], locale=locale, reduced_motion=motion)
    page = _sit(p, made["code"], made["token"], made["seat"])
    page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").wait_for()
    page.evaluate(WATCH_DEAL_JS)
    page.get_by_test_id("act-pack").tap()  # a tap: the page may make sound from now on
    done = page.wait_for_function("() => window.__dealMove", timeout=30_000).json_value()
    # The move tapped the moment the turn was drawn is played at once.
    page.wait_for_function(
        "(v) => Number(document.querySelector('[data-testid=table]').dataset.version) > v",
        arg=done["version"],
    )
    if motion == "reduce":
        assert done["dealt"] == done["flying"] == 0
        assert (
            page.evaluate(
                "() => document.getAnimations().filter((a) => a.id.startsWith('fx')).length"
            )
            == 0
        )
    else:
        assert done["dealt"] == 6  # three cards to each of the two seats, one by one
    played = page.locator("html").get_attribute("data-played") or ""
    assert {"sound:deal", "sound:turn", "sound:chips"} <= set(played.split()), played
    # chips flew to the winner of hand 1, unless the phone asked for less motion
    flown = int(page.locator("html").get_attribute("data-flown") or 0)
    assert (flown > 0) == (motion != "reduce"), flown
    # Muted: no sound and no buzz from then on.
    page.get_by_test_id("sound").tap()
    page.locator("html").evaluate("(el) => { el.dataset.played = ''; }")
    page.wait_for_function(
        "(n) => { const t = document.querySelector('[data-testid=table]');"
        " return Number(t.dataset.hand) > n && t.dataset.myturn === '1'; }",
        arg=done["hand"],
        timeout=30_000,
    )
    assert not (page.locator("html").get_attribute("data-played") or "").strip()
    page.get_by_test_id("sound").tap()


def test_the_deal_and_chips_move_without_delaying_play(phone, server) -> None:
    _feel_game(phone, server, "no-preference", SIZES[0], "en-GB")


def test_reduced_motion_moves_nothing_and_plays_at_once(phone, server) -> None:
    _feel_game(phone, server, "reduce", SIZES[1], "ne-NP")


MOVING_JS = """() => document.getAnimations()
  .filter((a) => !(a.effect && a.effect.target
    && a.effect.target.closest('[data-timer-bar], [data-timer-text]')))
  .map((a) => a.animationName || a.id || a.transitionProperty || 'an animation')"""
"""What moves on the page but the turn's clocks (its bars and countdown, run once a turn by the
compositor, clock.js)."""


def test_a_waiting_turn_stops_moving_but_for_its_timer(phone, server) -> None:
    # A live table's turn lasts seconds to minutes (here the longest, so that it does not run
    # out while the test watches), a play-anytime one's days: once the deal has landed and the
    # seat has pulsed as its turn came, nothing on the page moves but the timer bars.
    made = _post(
        server,
        "/api/tables",
        {"name": "Asha", "computer": True, "bots": "easy", "turn_seconds": 600},
    )
    page = _sit(phone(), made["code"], made["token"], made["seat"])
    page.locator("[data-testid=table][data-myturn='1'][data-pending='0']").wait_for()
    version = page.get_by_test_id("table").get_attribute("data-version")
    ring = page.evaluate(
        "() => getComputedStyle(document.querySelector('[data-testid=seats] .seat.active'),"
        " '::after').animationName"
    )
    assert ring == "glow", ring  # the seat whose turn it is pulses as its turn comes
    try:
        page.wait_for_function(f"() => ({MOVING_JS})().length === 0")
    except Exception as error:  # say what still moves
        raise AssertionError(f"still moving: {page.evaluate(MOVING_JS)}") from error
    # still the same turn: nothing happened at the table meanwhile
    assert page.get_by_test_id("table").get_attribute("data-version") == version
    assert page.locator("[data-testid=table][data-myturn='1']").count() == 1


def test_the_phones_language_and_the_join_page(phone, server) -> None:
    made = _post(
        server,
        "/api/tables",
        {
            "name": "Asha",
            "seats": 3,
            "bots": "medium",
            "rules": {"preset": "nepal", "show_tie": "split"},
        },
    )
    code = made["code"]
    for (width, height), locale, lang in ((SIZES[0], "ne-NP", "ne"), (SIZES[1], "en-US", "en")):
        p = phone(width=width, height=height, locale=locale)
        page = p.open(f"/t/{code}")
        page.locator(f"html[lang={lang}]").wait_for()
        info = page.get_by_test_id("join-info")
        info.get_by_test_id("join-seated").get_by_text("Asha").wait_for()
        settings = info.get_by_test_id("join-settings").text_content()
        assert (
            ("20 hands · boot 10" in settings) if lang == "en" else ("२० बाजी · बुट १०" in settings)
        )
        assert info.get_by_test_id("house-rules").count() == 1
        assert page.evaluate("() => document.documentElement.scrollWidth") <= width
    # The choice sticks: a Nepali phone switched to English stays in English.
    p = phone(width=SIZES[1][0], height=SIZES[1][1], locale="ne-NP")
    page = p.open("/")
    page.locator("html[lang=ne]").wait_for()
    _lang(page, "en")
    page = p.open("/")
    page.locator("html[lang=en]").wait_for()
    assert DEVANAGARI.search(page.get_by_test_id("lang").text_content())
