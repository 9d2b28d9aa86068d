"""The host's say and the chat on several phones, in English and Nepali, at 360 x 640 and
390 x 844: quick phrases and reactions as bubbles at the sender's seat and lines in the screen
reader's log, typed text shown as text, a mute, the host turning typed chat off; the host pausing
and resuming, removing a person (whose page goes back to the join form), a latecomer taking a
computer's seat at the next hand, a person giving up their seat and the host's role passing on;
a new game started by a majority of the people seated; a chat and a table menu that offer
nothing to send while the connection is down; and a chat bubble that moves nothing on any page
(320 x 568 and 360 x 640, six seats).

Tables are opened through the lobby API and each phone is given its seat token as the page keeps
it (local storage), so every test starts at the table at once."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from support.table_page import no_bubbles, settled

DEVANAGARI = r"[\u0900-\u097F]"


def lobby(server: Any, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        server.url + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        data: dict[str, Any] = json.loads(reply.read())
    return data


def open_table(server: Any, people: list[str], **settings: Any) -> tuple[str, list[dict[str, Any]]]:
    """A table opened by ``people[0]`` and joined by the others; their lobby replies."""
    body = {"name": people[0], "preset": "limited", "turn_seconds": None, **settings}
    host = lobby(server, "/api/tables", body)
    code = host["code"]
    seats = [host] + [lobby(server, f"/api/tables/{code}/join", {"name": n}) for n in people[1:]]
    return code, seats


def sit(phone: Any, code: str, seat: dict[str, Any], lang: str = "en") -> Any:
    """Open the table on ``phone`` holding ``seat``'s token, in ``lang``."""
    page = phone.open("/")
    page.evaluate(
        """([code, token, seat, lang]) => {
          localStorage.setItem('tp.seats', JSON.stringify({[code]: {token, seat, at: Date.now()}}));
          localStorage.setItem('tp.lang', lang);
        }""",
        [code, seat["token"], seat["seat"], lang],
    )
    page.goto(f"{phone.base}/t/{code}")
    page.wait_for_selector("html[data-ready='1']")
    page.locator(f"[data-testid=table][data-you='{seat['seat']}']").wait_for()
    return page


def playing(page: Any) -> None:
    page.locator("[data-testid=table][data-status=playing]").wait_for()


def test_chat_bubbles_log_mute_and_typed_text(phone, server, check_layout, axe, shot) -> None:
    code, seats = open_table(server, ["Sita", "Ram", "Gita"], seats=4, hands=10)
    host, ram, gita = phone(), phone(width=390, height=844), phone()
    hpage = sit(host, code, seats[0])
    rpage = sit(ram, code, seats[1], "ne")
    gpage = sit(gita, code, seats[2])
    hpage.get_by_test_id("start").tap()
    settled(hpage, rpage, gpage)  # no tap while the deal or the computer's move draws the table

    # Ram (in Nepali) says a quick phrase: a bubble at his seat everywhere, in each one's language.
    rpage.get_by_test_id("chat-open").tap()
    rpage.get_by_test_id("phrase-shabash").tap()
    hpage.get_by_test_id("bubble-1").get_by_text("Shabash!").wait_for()
    gpage.get_by_test_id("bubble-1").get_by_text("Shabash!").wait_for()
    rpage.get_by_test_id("bubble-1").get_by_text("स्याबास!").wait_for()
    hpage.get_by_test_id("announce").get_by_text("Ram: Shabash!").last.wait_for()
    rpage.get_by_test_id("phrase-chito").wait_for()
    assert rpage.get_by_test_id("phrase-chito").text_content() == "छिटो खेल्नुहोस् न!"
    check_layout(rpage)
    axe(rpage, "the chat in Nepali")

    # The bubble goes after a few seconds; the log keeps the line.
    hpage.get_by_test_id("bubble-1").wait_for(state="detached")
    hpage.get_by_test_id("chat-open").tap()
    hpage.get_by_test_id("chat-log").get_by_text("Shabash!").wait_for()

    # Typed text is shown as text, never as markup; a reaction is a bubble too.
    gpage.get_by_test_id("chat-open").tap()
    gpage.get_by_test_id("chat-text").fill("<img src=x onerror=alert(1)> chito!")
    gpage.get_by_test_id("chat-send").tap()
    hpage.get_by_test_id("chat-log").get_by_text("<img src=x onerror=alert(1)> chito!").wait_for()
    hpage.get_by_test_id("bubble-2").get_by_text("<img src=x").wait_for()
    assert hpage.locator("[data-testid=chat-log] img, .chat-bubble img").count() == 0
    hpage.get_by_test_id("emoji-5").tap()
    gpage.get_by_test_id("bubble-0").get_by_text("🎉").wait_for()
    check_layout(hpage)
    axe(hpage, "the chat")
    shot(gpage, "chat")

    # Sita mutes Ram, from the chat, for herself ("for you": it is no host's power, and the host's
    # menu holds none): his next message shows for Gita, not for Sita.
    assert hpage.get_by_test_id("mute-1").text_content() == "Mute Ram for you"
    hpage.get_by_test_id("mute-1").tap()
    hpage.locator("[data-testid=mute-1][aria-pressed=true]").wait_for()
    rpage.get_by_test_id("phrase-ramro_khel").tap()
    gpage.get_by_test_id("bubble-1").get_by_text("Ramro khel!").wait_for()
    gpage.get_by_test_id("chat-log").get_by_text("Ramro khel!").wait_for()
    hpage.get_by_test_id("chat-log").get_by_text("<img src=x onerror=alert(1)> chito!").wait_for()
    # what the mute hides is said, with how many and whose (his earlier message too): once it
    # says two, Sita's page has his new message, and shows it nowhere
    hpage.get_by_test_id("chat-hidden").get_by_text(
        "2 messages from Ram hidden: you muted them."
    ).wait_for()
    assert hpage.get_by_test_id("chat-log").get_by_text("Ramro khel!").count() == 0
    assert hpage.get_by_test_id("bubble-1").count() == 0
    rpage.get_by_test_id("mute-2").tap()  # Ram (in Nepali) mutes Gita
    rpage.get_by_test_id("chat-hidden").get_by_text("Gita को १ सन्देश लुकाइएको छ").wait_for()

    # The host turns typed chat off: the others' text box gives way to a note.
    hpage.get_by_test_id("menu-open").tap()
    hpage.get_by_test_id("table-menu").wait_for()
    assert hpage.get_by_test_id("table-menu").locator("[data-testid^=mute-]").count() == 0
    hpage.get_by_test_id("setting-chat").tap()
    gpage.get_by_test_id("chat-off").wait_for()
    assert gpage.get_by_test_id("chat-text").count() == 0
    rpage.get_by_test_id("chat-off").get_by_text("होस्टले").wait_for()
    # a guest has no host controls
    gpage.get_by_test_id("menu-open").tap()
    gpage.get_by_test_id("host-line").get_by_text("Host: Sita").wait_for()
    assert gpage.get_by_test_id("pause").count() == 0
    assert gpage.get_by_test_id("remove-0").count() == 0

    # The host closes the table to latecomers: a friend opening the link can only watch, and a
    # spectator reads the chat without writing in it.
    hpage.get_by_test_id("setting-late").tap()
    hpage.locator("[data-testid=setting-late][aria-checked=false]").wait_for()
    watcher = phone(width=390, height=844)
    wpage = watcher.open(f"/t/{code}")
    wpage.get_by_test_id("join-info").get_by_text("you can watch it").wait_for()
    wpage.get_by_test_id("watch").tap()
    wpage.locator("[data-testid=table][data-you='']").wait_for()
    wpage.get_by_test_id("chat-open").tap()
    wpage.get_by_test_id("chat-log").get_by_text("Shabash!").wait_for()
    wpage.get_by_text("Only the players can chat").wait_for()
    assert wpage.locator("[data-testid^=phrase-], [data-testid=chat-text]").count() == 0
    check_layout(wpage)


def _pack(phone: Any, state: dict[str, str], choices: list[str]) -> str:
    return "act-pack" if "act-pack" in choices else choices[0]


def three_playing(server: Any, phones: list[Any]) -> tuple[str, list[Any]]:
    """Asha (the host), Bimal (in Nepali) and Kiran at a four-seat table, on ``phones``, the
    first hand dealt; the table's code and their pages."""
    code, seats = open_table(server, ["Asha", "Bimal", "Kiran"], seats=4, hands=3)
    langs = ["en", "ne", "en"]
    pages = [sit(p, code, seat, lang) for p, seat, lang in zip(phones, seats, langs, strict=True)]
    pages[0].get_by_test_id("start").tap()
    settled(*pages)
    return code, pages


def test_pause_remove_latecomer_leave_and_the_host_passes(
    phone, server, play, check_layout, axe
) -> None:
    host, bimal, kiran = phone(width=390, height=844), phone(), phone(width=390, height=844)
    code, (hpage, bpage, kpage) = three_playing(server, [host, bimal, kiran])

    # Pause: every phone says so, no move can be made; resume.
    hpage.get_by_test_id("menu-open").tap()
    hpage.get_by_test_id("pause").tap()
    for page in (hpage, bpage, kpage):
        page.get_by_test_id("paused").wait_for()
    kpage.get_by_test_id("announce").get_by_text("The host has paused the game").last.wait_for()
    assert bpage.get_by_test_id("paused").text_content() == "खेल रोकिएको छ"
    for page in (hpage, bpage, kpage):
        assert page.locator("[data-testid=actions] button[data-do]:not([disabled])").count() == 0
    check_layout(hpage)
    axe(hpage, "the table menu, paused")
    hpage.get_by_test_id("resume").tap()
    for page in (hpage, bpage, kpage):
        page.get_by_test_id("paused").wait_for(state="detached")

    # Invite from the table menu during the game: the code, the QR code, the link.
    hpage.get_by_test_id("invite-open").tap()
    invite = hpage.get_by_test_id("invite")
    assert invite.get_by_test_id("table-code").get_attribute("data-code") == code
    invite.locator("[data-testid=qr][src^='blob:']").wait_for()
    hpage.wait_for_function(
        "(code) => document.querySelector('[data-testid=share-link]').value.endsWith('/t/' + code)",
        arg=code,
    )
    hpage.get_by_test_id("invite-open").tap()
    hpage.get_by_test_id("invite").wait_for(state="detached")

    # The host removes Kiran (after a confirmation) for the rest of the game: his page goes
    # back to the join form, where sitting down again is refused, by his name or another.
    hpage.get_by_test_id("remove-2").tap()
    hpage.get_by_test_id("confirm").get_by_text(
        "Remove Kiran from the table for the rest of this game?"
    ).wait_for()
    hpage.get_by_test_id("confirm-yes").tap()
    kpage.get_by_test_id("join-form").wait_for()
    kpage.get_by_test_id("form-error").get_by_text(
        "The host removed you from this table"
    ).wait_for()
    bpage.get_by_test_id("announce").get_by_text("Kiran").last.wait_for()
    for name in ("Kiran", "Kiru"):
        kpage.get_by_test_id("form-error").evaluate("(el) => { el.textContent = ''; }")
        kpage.get_by_test_id("name").fill(name)
        kpage.get_by_test_id("join-submit").tap()
        kpage.get_by_test_id("form-error").get_by_text(
            "The host removed you from this table"
        ).wait_for()
    kpage.get_by_test_id("watch").wait_for()
    assert hpage.get_by_test_id("readmit-0").text_content() == "Let Kiran back"

    # A latecomer (in Nepali) takes that seat from the lobby; the computer plays it this hand.
    late = phone()
    lpage = late.open("/")
    lpage.evaluate("() => localStorage.setItem('tp.lang', 'ne')")
    lpage = late.open(f"/t/{code}")
    lpage.get_by_test_id("join-info").get_by_text("कम्प्युटरको सिटमा").wait_for()
    lpage.get_by_test_id("name").fill("Laxmi")
    lpage.get_by_test_id("join-submit").tap()
    lpage.locator("[data-testid=table][data-you='2']").wait_for()
    hand = int(lpage.get_by_test_id("table").get_attribute("data-hand"))
    if lpage.get_by_test_id("table").get_attribute("data-hand-finished") == "0":
        lpage.get_by_test_id("late-note").wait_for()
    # the hands go on; from the next one the seat is Laxmi's to play
    state = play([host, bimal, late], _pack, lambda s: int(s["hand"]) > hand and s["actor"] == "2")
    assert state["personTurn"] == "1"
    # the others' pages are where the host's is (nothing moves before Laxmi does)
    for page in (bpage, lpage):
        page.locator(f"[data-testid=table][data-version='{state['version']}']").wait_for()
    assert lpage.get_by_test_id("late-note").count() == 0
    hpage.get_by_test_id("seat-2").get_by_text("Laxmi").wait_for()

    # Bimal gives up his seat (after a confirmation); the computer plays it on.
    bpage.get_by_test_id("menu-open").tap()
    bpage.get_by_test_id("leave").tap()
    bpage.get_by_test_id("confirm-no").tap()
    bpage.get_by_test_id("confirm").wait_for(state="detached")
    bpage.get_by_test_id("leave").tap()
    bpage.get_by_test_id("confirm-yes").tap()
    bpage.get_by_test_id("form-error").get_by_text("तपाईंले यो टेबल छोड्नुभयो।").wait_for()

    # The host leaves: Laxmi, the next person seated, is the host now and can pause.
    hpage.get_by_test_id("announce").get_by_text("Bimal left the table").last.wait_for()
    hpage.get_by_test_id("leave").tap()
    hpage.get_by_test_id("confirm-yes").tap()
    hpage.get_by_test_id("join-form").wait_for()
    lpage.get_by_test_id("announce").get_by_text("तपाईं होस्ट हुनुहुन्छ").last.wait_for()
    lpage.get_by_test_id("menu-open").tap()
    lpage.get_by_test_id("host-line").get_by_text("तपाईं होस्ट हुनुहुन्छ").wait_for()
    lpage.get_by_test_id("pause").tap()
    lpage.get_by_test_id("paused").wait_for()
    check_layout(lpage)

    # The new host lets Kiran back: one tap, and he is seated again.
    lpage.get_by_test_id("readmit-0").tap()
    lpage.get_by_test_id("removed").wait_for(state="detached")
    kpage.get_by_test_id("join-submit").tap()
    kpage.locator("[data-testid=table][data-status=playing]").wait_for()
    assert kpage.get_by_test_id("table").get_attribute("data-you") != ""


def test_a_new_game_needs_the_host_or_a_majority(phone, server, play) -> None:
    code, seats = open_table(server, ["Hari", "Mina", "Nabin"], seats=3, hands=1)
    phones = [phone(), phone(width=390, height=844), phone()]
    pages = [
        sit(p, code, s, lang) for p, s, lang in zip(phones, seats, ["en", "ne", "en"], strict=True)
    ]
    pages[0].get_by_test_id("start").tap()
    playing(pages[0])
    play(phones, _pack, lambda s: s["status"] == "finished")
    for page in pages:
        page.locator("[data-testid=table][data-status=finished]").wait_for()
    # A guest asks: one vote of three is not enough; the host is told who asked.
    assert pages[2].get_by_test_id("again").text_content() == "Ask for a new game"
    assert pages[0].get_by_test_id("again").text_content() == "Play again"
    pages[2].get_by_test_id("again").tap()
    pages[0].get_by_test_id("votes").get_by_text("Nabin").wait_for()
    pages[2].locator("[data-testid=again][disabled]").wait_for()
    assert pages[0].get_by_test_id("table").get_attribute("data-status") == "finished"
    # A second guest asks (in Nepali): two of three start the game for everyone. (The line
    # naming who asked comes first on her page, above the button.)
    pages[1].get_by_test_id("votes").get_by_text("Nabin").wait_for()
    pages[1].get_by_test_id("again").tap()
    for page in pages:
        page.locator("[data-testid=table][data-status=playing]").wait_for()


def test_the_host_starts_without_scrolling(phone, server) -> None:
    # Five seats on a 390 x 844 phone: "Start the game" is on the first screen.
    code, seats = open_table(server, ["Sita", "Ram", "Gita"], seats=5, hands=10)
    page = sit(phone(width=390, height=844), code, seats[0])
    start = page.get_by_test_id("start")
    start.wait_for()
    box = start.bounding_box()
    assert page.evaluate("() => window.scrollY") == 0
    assert box is not None and box["y"] + box["height"] <= 844, box
    page.get_by_test_id("table-code").wait_for()  # the invitation is still on the page


def test_the_chat_waits_for_the_connection(phone, server) -> None:
    """While the connection is down the chat offers nothing to send, as the moves do: a phrase
    tapped then went nowhere, and typed text was wiped unsent. Once it is back, a phrase goes."""
    code, seats = open_table(server, ["Sita", "Ram"], seats=2, hands=3)
    p = phone()
    page = sit(p, code, seats[0])
    page.get_by_test_id("start").tap()
    settled(page)
    page.get_by_test_id("chat-open").tap()
    page.get_by_test_id("chat-text").fill("back soon")
    p.context.set_offline(True)
    page.locator("[data-testid=table][data-online='0']").wait_for()
    offered = page.locator(
        "[data-testid^=phrase-], [data-testid^=emoji-], [data-testid=chat-send]"
    ).all()
    assert offered and all(button.is_disabled() for button in offered)
    page.get_by_test_id("chat-text").press("Enter")  # nothing to send it with: the text stays
    assert page.get_by_test_id("chat-text").input_value() == "back soon"
    p.context.set_offline(False)
    page.locator("[data-testid=table][data-online='1']").wait_for()
    page.get_by_test_id("phrase-thanks").tap()
    page.get_by_test_id("chat-log").get_by_text("Thanks").wait_for()
    page.get_by_test_id("chat-send").tap()
    page.get_by_test_id("chat-log").get_by_text("back soon").wait_for()


def test_the_table_menu_waits_for_the_connection(phone, server) -> None:
    """While the connection is down the table menu offers nothing that sends, as the chat and the
    moves do: Leave, Remove and the question's Yes are disabled. Before, Yes closed the question
    and the leave or the removal went nowhere, unsaid. Once it is back, each goes."""
    code, seats = open_table(server, ["Sita", "Ram"], seats=3, hands=3)
    ram = f"remove-{seats[1]['seat']}"
    p = phone()
    page = sit(p, code, seats[0])
    page.get_by_test_id("start").tap()
    settled(page)
    page.get_by_test_id("menu-open").tap()
    page.get_by_test_id(ram).tap()
    page.get_by_test_id("confirm").wait_for()
    p.context.set_offline(True)
    page.locator("[data-testid=table][data-online='0']").wait_for()
    for testid in ("leave", ram, "confirm-yes"):
        assert page.get_by_test_id(testid).is_disabled(), testid
    assert page.get_by_test_id("confirm-no").is_enabled()  # the harmless answer sends nothing
    p.context.set_offline(False)
    page.locator("[data-testid=table][data-online='1']").wait_for()
    page.get_by_test_id("confirm-yes").tap()
    page.get_by_test_id("readmit-0").get_by_text("Let Ram back").wait_for()
    page.get_by_test_id("leave").tap()
    page.get_by_test_id("confirm-yes").tap()
    page.get_by_test_id("join-form").wait_for()


# Where every part a finger aims at is, and every seat: a chat message must move none of them.
PLACES_JS = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  // on the page, not the window: sending scrolls the speaker's own page to the chat's box
  const [x, y] = [window.scrollX, window.scrollY];
  const box = (el) => { const b = el.getBoundingClientRect();
    return [b.left + x, b.top + y, b.right + x, b.bottom + y]; };
  const places = {};
  for (const el of document.querySelectorAll('[data-testid=seats] .seat'))
    places[`seat ${el.dataset.seat}`] = box(el);
  for (const el of document.querySelectorAll(
      '[data-testid=actions] button, [data-testid=my-hand] button, [data-testid=chat-open]'))
    places[`button ${el.dataset.testid}`] = box(el);
  for (const el of document.querySelectorAll('[data-testid=felt] > p, [data-testid=turn-line]'))
    places[`${el.dataset.testid || 'pot'} ${el.textContent.slice(0, 12)}`] = box(el);
  const bubbles = {};
  for (const el of document.querySelectorAll('.chat-bubble')) {
    bubbles[el.closest('.seat').dataset.seat] = {
      box: box(el), whole: el.scrollHeight <= el.clientHeight + 1, text: el.textContent};
  }
  return {places, bubbles};
}"""

# Longer than a bubble shows (BUBBLE_MAX characters): the bubble holds the most it ever does.
LONGEST = {
    "en": "Ramro khel sabai jana! Ab chai chito chito khelau hai, la la hunchha",
    "ne": "राम्रो खेल साथीहरू! अब चाहिँ छिटो छिटो खेलौं है, ल ल हुन्छ त साथी",
}


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 1 and b[0] < a[2] - 1 and a[1] < b[3] - 1 and b[1] < a[3] - 1


def _moved(before: dict[str, list[float]], now: dict[str, list[float]]) -> list[str]:
    return [
        f"{name} {before[name]} -> {now.get(name)}"
        for name in before
        if name not in now
        or any(abs(x - y) > 0.5 for x, y in zip(before[name], now[name], strict=True))
    ]


@pytest.mark.parametrize(("width", "height"), [(360, 640), (320, 568)])
def test_a_chat_bubble_moves_nothing(phone, server, width: int, height: int) -> None:
    """A bubble at its sender's seat once grew that seat, pushing the moves and the Chat button
    down for its four seconds (the Chat button's top 547 -> 577 px at 360 x 640), then back up: a
    finger on its way to Chaal landed on Pack. At six seats, with the longest names, each of two
    people says the longest thing a bubble shows (one in Nepali); on every page nothing but the
    bubble changes place or size, while it shows or after it goes, and the bubble covers no other
    seat, the pot, the turn bar or a button."""
    langs = ["en", "en", "ne"]
    people = ["Maheshwari Shrestha Rai", "Alexandrina Wolfeschl", "श्रीकृष्ण प्रसाद भट्टराई"]
    code, seats = open_table(server, people, seats=6, hands=10)
    phones = [phone(width=width, height=height) for _ in people]
    pages = [sit(p, code, s, lang) for p, s, lang in zip(phones, seats, langs, strict=True)]
    pages[0].get_by_test_id("start").tap()
    settled(*pages)
    for page in pages:  # the chat open first: its own panel opening moves what is under it
        page.get_by_test_id("chat-open").tap()
        page.get_by_test_id("chat-text").wait_for()
    buttons = 0
    for speaker, lang in ((1, "en"), (2, "ne")):
        before = [page.evaluate(PLACES_JS)["places"] for page in pages]
        buttons += sum(1 for place in before for name in place if name.startswith("button act"))
        pages[speaker].get_by_test_id("chat-text").fill(LONGEST[lang])
        pages[speaker].get_by_test_id("chat-send").tap()
        problems: list[str] = []
        for i, page in enumerate(pages):
            page.get_by_test_id(f"bubble-{speaker}").wait_for()
            now = page.evaluate(PLACES_JS)
            where = f"{width}x{height}, seat {speaker} speaks, seat {i}'s page"
            problems += [f"{where}: moved {m}" for m in _moved(before[i], now["places"])]
            bubble = now["bubbles"][str(speaker)]
            assert bubble["text"].endswith("…"), bubble  # the most a bubble shows
            if not bubble["whole"]:
                problems.append(f"{where}: the bubble's words are cut")
            problems += [
                f"{where}: the bubble {bubble['box']} covers {name} {place}"
                for name, place in now["places"].items()
                if name != f"seat {speaker}" and _overlap(bubble["box"], place)
            ]
            if bubble["box"][0] < 0 or bubble["box"][2] > width:  # (never scrolled sideways)
                problems.append(f"{where}: the bubble is off the screen {bubble['box']}")
        no_bubbles(*pages)
        for i, page in enumerate(pages):
            after = page.evaluate(PLACES_JS)["places"]
            where = f"{width}x{height}, seat {speaker} spoke, seat {i}'s page, after"
            problems += [f"{where}: moved {m}" for m in _moved(before[i], after)]
        assert not problems, "\n".join(problems)
    assert buttons, "no page offered a move to watch"
