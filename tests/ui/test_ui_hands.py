"""Past hands on the phone: during the game the view shows each finished hand with its moves, the
cards the rules showed this player and only those (a computer that won unseen keeps its cards),
the pots and who won them, and "Check this deal" proves the player's own cards against the
commitment in the browser (WebCrypto); after the game it checks the whole deal from the revealed
secrets, and its verdicts agree with ``teenpatti verify`` on the same histories. "Download hands"
saves the server's file as it is, in play and at the game's end. In English and Nepali."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from support.server import serve_command
from support.table_page import settled

from teenpatti.engine.history import verify_game

RESULT_PAUSE = 2.0
"""Seconds between hands: the phone's part of each deal comes in this pause."""

SEAT = """([code, token]) => {
  localStorage.setItem("tp.seats", JSON.stringify({[code]: {token, seat: 0, at: Date.now()}}));
}"""


def _open_table(base: str, hands: int = 3) -> dict[str, Any]:
    body = json.dumps(
        {"name": "Asha", "seats": 2, "preset": "limited", "hands": hands, "turn_seconds": None}
    ).encode()
    request = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.loads(reply.read()))


def _served(base: str, code: str, token: str | None = None) -> bytes:
    """The table's hands file as the server sends it (with the seat token: as that seat may know
    them)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(f"{base}/api/tables/{code}/hands", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as reply:
        return bytes(reply.read())


def _histories(base: str, code: str, token: str | None = None) -> list[dict[str, Any]]:
    return list(json.loads(_served(base, code, token)))


def _started(phone: Any, code: str, token: str) -> Any:
    """The table's page on ``phone``, holding the host's seat, once Start is tapped."""
    page = phone.open("/")
    page.evaluate(SEAT, [code, token])
    page = phone.open(f"/t/{code}")
    page.locator("[data-testid=table][data-status=waiting]").wait_for()
    page.get_by_test_id("start").tap()
    return page


def _pack_or_show(_phone: Any, _state: dict[str, str], choices: list[str]) -> str:
    return "act-show" if "act-show" in choices else "act-pack"


def _pack(_phone: Any, _state: dict[str, str], choices: list[str]) -> str:
    return "act-pack" if "act-pack" in choices else choices[0]


def _download(page: Any, press: Callable[[], None]) -> tuple[str, bytes]:
    """The file a tap (or a key) on "Download hands" saves: its name and its bytes."""
    with page.expect_download() as saved:
        press()
    download = saved.value
    return str(download.suggested_filename), Path(download.path()).read_bytes()


def _verdict(result: dict[str, Any]) -> tuple[bool, bool | None]:
    """``teenpatti verify``'s line for a hand, as (verified, complete)."""
    return bool(result["verified"]), result.get("complete")


def _to(page: Any, lang: str) -> None:
    page.get_by_test_id("lang").tap()
    page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang)


def test_past_hands_check_the_deal_during_and_after_the_game(
    phone, server, play, state, axe, shot, tmp_path: Path
) -> None:
    table = _open_table(server.url)
    code = table["code"]
    p = phone()
    page = _started(p, code, table["token"])
    play([p], _pack_or_show, lambda s: s["hand"] == "2" or s["status"] == "finished")
    page.get_by_test_id("hands-toggle").tap()
    first = page.locator("[data-testid=past-hand][data-hand='1']")
    first.wait_for()
    # The page shows the cards this player's history holds, and only those: its own, and the
    # computer's only if they were shown (never when it took the pot unseen).
    (mine,) = _histories(server.url, code, table["token"])[:1]
    assert mine["seats"][0]["cards"]
    if mine["result"]["ended_by"] == "last_player":
        assert not mine["seats"][1]["cards"]
    for seat in (0, 1):
        shown = first.locator(f"[data-testid=hands-cards][data-seat='{seat}']").count()
        assert shown == (1 if mine["seats"][seat]["cards"] else 0), seat
    first.get_by_test_id("hands-check").tap()
    verdict = first.get_by_test_id("hands-verdict")
    page.locator(
        "[data-testid=past-hand][data-hand='1'] [data-testid=hands-verdict][data-verified='1']"
    ).wait_for()
    assert verdict.get_attribute("data-complete") == "0"
    axe(page, "past hands during the game")
    first.scroll_into_view_if_needed()
    shot(page, "past-hands")
    # The rest of the game; then every deal is checked whole, in the browser.
    final = play([p], _pack_or_show, lambda s: s["status"] == "finished")
    assert final["status"] == "finished"
    histories = _histories(server.url, code)
    hands = page.locator("[data-testid=past-hand]")
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-testid=past-hand]').length === n",
        arg=len(histories),
    )
    for i in range(len(histories)):
        hands.nth(i).get_by_test_id("hands-check").tap()
        hands.nth(i).locator("[data-testid=hands-verdict][data-verified='1']").wait_for()
        assert hands.nth(i).get_by_test_id("hands-verdict").get_attribute("data-complete") == "1"
    # The phone sent its part of the deals: each part that made it in is named as its own.
    ours = [i for i, h in enumerate(histories) if h["contributions"][0] is not None]
    assert ours, "no part of this phone's went into a deal"
    for i in ours:
        assert hands.nth(i).get_by_test_id("hands-part").text_content() == (
            "Your part went into this deal."
        )
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(histories), encoding="utf-8")
    verified = subprocess.run(
        [*serve_command(), "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert all(json.loads(line)["complete"] for line in verified.stdout.splitlines())
    # A history changed by hand fails in the page as in teenpatti verify.
    bad = dict(histories[0], cards_root="0" * 64)
    page_says = page.evaluate(
        """async ([history, rules]) => {
          const fair = await import('/static/js/fair.js');
          return fair.checkHand(history, rules);
        }""",
        [bad, page.evaluate("() => window.__tp.table.st.settings.rules")],
    )
    path.write_text(json.dumps([bad]), encoding="utf-8")
    refused = subprocess.run(
        [*serve_command(), "verify", str(path)], capture_output=True, text=True, timeout=60
    )
    assert refused.returncode == 1 and page_says["verified"] is False
    assert page_says["reason"] == json.loads(refused.stdout)["reason"]
    # In Nepali.
    page.get_by_test_id("lang").tap()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=hands-toggle]').textContent.includes('बाजी')"
    )
    assert "बाजी" in page.get_by_test_id("past-hands").locator("h2").text_content()
    axe(page, "past hands in Nepali")


def test_past_hands_offer_the_earlier_games_after_play_again(
    phone, server, play, axe, shot
) -> None:
    """Play again starts a new game at once: the game just played stays in Past hands, under
    its number, with every card out and its deal checked whole; at the smallest phone, in
    English and Nepali."""
    table = _open_table(server.url, hands=1)
    code = table["code"]
    p = phone(width=320, height=568)
    page = _started(p, code, table["token"])
    play([p], _pack_or_show, lambda s: s["status"] == "finished")
    first = _histories(server.url, code)
    # the table keeps score: at the game's end, each seat (the computer's too)
    score = page.get_by_test_id("standings").get_by_test_id("score-row")
    assert score.count() == 2
    assert "Games won" in (page.get_by_test_id("score").text_content() or "")
    page.get_by_test_id("again").tap()
    # the new game's first deal, and the computer's move after it, move Past hands' button
    settled(page)
    page.get_by_test_id("hands-toggle").tap()
    games = page.get_by_test_id("hands-game")
    games.first.wait_for()
    assert page.get_by_test_id("past-hands").get_by_test_id("score-row").count() == 2
    assert games.count() == 2  # this game, then game 1
    assert games.nth(1).text_content() == "Game 1"
    games.nth(1).tap()
    hand = page.locator("[data-testid=past-hand][data-hand='1']")
    hand.wait_for()
    assert page.locator("[data-testid=past-hand]").count() == len(first)
    for seat, row in enumerate(first[0]["seats"]):
        shown = hand.locator(f"[data-testid=hands-cards][data-seat='{seat}']").count()
        assert shown == (1 if row["cards"] else 0), seat
    # an earlier game downloads under the server's own name for it, whole, with no line about
    # a game in play
    past = page.get_by_test_id("past-hands")
    name, data = _download(page, past.get_by_test_id("hands-download").tap)
    assert (name, json.loads(data)) == ("hands-game-1.json", first)
    assert past.get_by_test_id("hands-download-note").count() == 0
    hand.get_by_test_id("hands-check").tap()
    hand.locator("[data-testid=hands-verdict][data-verified='1']").wait_for()
    assert hand.get_by_test_id("hands-verdict").get_attribute("data-complete") == "1"
    axe(page, "an earlier game's hands")
    shot(page, "past-games")
    page.get_by_test_id("lang").tap()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=hands-game]')[1].textContent === 'खेल १'"
    )
    axe(page, "an earlier game's hands in Nepali")
    assert "यो टेबलको हिसाब" in (page.get_by_test_id("score").text_content() or "")


def test_download_hands_in_play_and_at_the_end(phone, server, play, check_layout) -> None:
    """In play, "Download hands" in Past hands saves this player's own view, byte for byte as the
    server gives it, with a line saying the whole game comes once it is over; at the game's end the
    standings offer it too, reached by the keyboard, and the file passes ``teenpatti verify``
    (``verify_game``, in this process). At 320x568 and 360x640, in English and Nepali."""
    table = _open_table(server.url, hands=2)
    code, token = table["code"], table["token"]
    p = phone(width=320, height=568)
    page = _started(p, code, token)
    play([p], _pack, lambda s: s["hand"] == "2")  # hand 2 waits for this player's move
    page.get_by_test_id("hands-toggle").tap()
    past = page.get_by_test_id("past-hands")
    past.get_by_test_id("hands-download-note").wait_for()
    name, data = _download(page, past.get_by_test_id("hands-download").tap)
    assert name == "hands.json"
    assert data == _served(server.url, code, token)
    in_play = json.loads(data)
    assert [hand["format"] for hand in in_play] == ["teenpatti-hand/1"]
    # Asha packed: nobody's cards were turned over, so the file holds hers alone, and no secret.
    assert in_play[0]["result"]["ended_by"] == "last_player"
    assert in_play[0]["seats"][0]["cards"] and in_play[0]["seats"][1]["cards"] == ""
    assert "secret" not in in_play[0]
    assert [_verdict(v.to_json()) for v in verify_game(in_play)] == [(True, False)]
    check_layout(page)
    _to(page, "ne")
    assert "डाउनलोड" in (past.get_by_test_id("hands-download").text_content() or "")
    assert "खेल सकिएपछि" in (past.get_by_test_id("hands-download-note").text_content() or "")
    check_layout(page)
    # The game's end: the standings offer the whole game, every card.
    play([p], _pack, lambda s: s["status"] == "finished")
    button = page.get_by_test_id("standings").get_by_test_id("hands-download")
    button.focus()
    name, data = _download(page, lambda: page.keyboard.press("Enter"))
    assert name == "hands.json"
    assert data == _served(server.url, code)
    final = json.loads(data)
    assert [hand["format"] for hand in final] == ["teenpatti-hand/1"] * 2
    assert all(seat["cards"] for hand in final for seat in hand["seats"])
    verdicts = [_verdict(v.to_json()) for v in verify_game(final)]
    assert verdicts == [(True, True)] * 2, verdicts
    for width, height in ((320, 568), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        for lang in ("ne", "en"):
            if page.evaluate("() => document.documentElement.lang") != lang:
                _to(page, lang)
            check_layout(page)
            button.scroll_into_view_if_needed()
            box = button.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (lang, width, box)


def test_past_hands_say_why_the_server_refused_the_list(phone, server) -> None:
    """The server refuses the list (the page asks with a seat token it does not know): Past hands
    says the sentence for the refusal's code, in English and Nepali, and still offers "Download
    hands", whose tap says the same."""
    table = _open_table(server.url)
    code = table["code"]
    p = phone()
    page = _started(p, code, table["token"])
    # the first deal, and the computer's move after it, move Past hands' button
    settled(page)
    # the socket keeps its seat; only the lobby's requests carry the token the server does not know
    page.evaluate("() => { window.__tp.table.token = 'not-a-seat-token'; }")
    page.get_by_test_id("hands-toggle").tap()
    past = page.get_by_test_id("past-hands")
    for lang in ("en", "ne"):
        if lang == "ne":
            _to(page, "ne")
        sentence = page.evaluate(
            "async () => (await import('/static/js/i18n.js')).errorText('token/invalid')"
        )
        assert sentence != page.evaluate(
            "async () => (await import('/static/js/i18n.js')).errorText('nonsense/code')"
        )
        past.locator(".error", has_text=sentence).wait_for()
        past.get_by_test_id("hands-download").tap()
        page.locator("[data-testid=toast]", has_text=sentence).wait_for()
