"""Past hands on the phone: during the game the view shows each finished hand with its moves, the
cards the rules showed this player and only those (a computer that won unseen keeps its cards),
the pots and who won them, and "Check this deal" proves the player's own cards against the
commitment in the browser (WebCrypto); after the game it checks the whole deal from the revealed
secrets, and its verdicts agree with ``teenpatti verify`` on the same histories. In English and
Nepali."""

from __future__ import annotations

import json
import subprocess
import urllib.request
from pathlib import Path
from typing import Any

from support.server import serve_command

RESULT_PAUSE = 2.0
"""Seconds between hands: the phone's part of each deal comes in this pause."""

SEAT = """([code, token]) => {
  localStorage.setItem("tp.seats", JSON.stringify({[code]: {token, seat: 0, at: Date.now()}}));
}"""


def _open_table(base: str) -> dict[str, Any]:
    body = json.dumps(
        {"name": "Asha", "seats": 2, "preset": "limited", "hands": 3, "turn_seconds": None}
    ).encode()
    request = urllib.request.Request(
        base + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        return dict(json.loads(reply.read()))


def _histories(base: str, code: str, token: str | None = None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    request = urllib.request.Request(f"{base}/api/tables/{code}/hands", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as reply:
        return list(json.loads(reply.read()))


def _pack_or_show(_phone: Any, _state: dict[str, str], choices: list[str]) -> str:
    return "act-show" if "act-show" in choices else "act-pack"


def test_past_hands_check_the_deal_during_and_after_the_game(
    phone, server, play, state, axe, shot, tmp_path: Path
) -> None:
    table = _open_table(server.url)
    code = table["code"]
    p = phone()
    page = p.open("/")
    page.evaluate(SEAT, [code, table["token"]])
    page = p.open(f"/t/{code}")
    page.locator("[data-testid=table][data-status=waiting]").wait_for()
    page.get_by_test_id("start").tap()
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
    body = json.dumps(
        {"name": "Asha", "seats": 2, "preset": "limited", "hands": 1, "turn_seconds": None}
    ).encode()
    request = urllib.request.Request(
        server.url + "/api/tables", body, {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        table = dict(json.loads(reply.read()))
    code = table["code"]
    p = phone(width=320, height=568)
    page = p.open("/")
    page.evaluate(SEAT, [code, table["token"]])
    page = p.open(f"/t/{code}")
    page.locator("[data-testid=table][data-status=waiting]").wait_for()
    page.get_by_test_id("start").tap()
    play([p], _pack_or_show, lambda s: s["status"] == "finished")
    first = _histories(server.url, code)
    # the table keeps score: at the game's end, each seat (the computer's too)
    score = page.get_by_test_id("standings").get_by_test_id("score-row")
    assert score.count() == 2
    assert "Games won" in (page.get_by_test_id("score").text_content() or "")
    page.get_by_test_id("again").tap()
    page.locator("[data-testid=table][data-status=playing]").wait_for()
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
