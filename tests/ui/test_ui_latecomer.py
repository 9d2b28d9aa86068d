"""A latecomer on the phone: a friend who sits down mid-hand watches the hand the computer plays
in their seat, as the page tells them, with one behaviour on the page, the server and the screen
reader: when the seat's turn comes the turn line says the computer plays it (no gold "Your turn"),
no move is offered, none of the hand's cards is theirs to see, and the seat's screen-reader line
does not say "your turn". The computers here take about 2.5 s a move, so the turn can be seen.
At the smallest phone, in English and Nepali."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.page_server import Server
from test_ui_social import lobby, open_table, sit

LATE_TURN = """() => {
  const t = document.querySelector('[data-testid=table]');
  return Boolean(t) && t.dataset.handFinished === '0' && t.dataset.actor === t.dataset.you;
}"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A table server whose computers take their time (the latecomer's seat's turn lasts)."""
    srv = Server(tmp_path_factory.mktemp("ui-late"), extra=("--bot-delay", "2.5"))
    srv.start()
    try:
        yield srv
    finally:
        srv.close()


@pytest.mark.parametrize("lang", ["en", "ne"])
def test_a_latecomer_watches_the_computer_play_their_seat(
    phone: Any, server: Server, lang: str
) -> None:
    code, seats = open_table(server, ["Asha"], seats=3, hands=3)
    host = phone()
    hpage = sit(host, code, seats[0])
    hpage.get_by_test_id("start").tap()
    hpage.locator("[data-testid=table][data-hand='1'][data-hand-finished='0']").wait_for()
    late = lobby(server, f"/api/tables/{code}/join", {"name": "Maya"})
    assert late["seat"] == 1
    lphone = phone(width=320, height=568)
    lpage = sit(lphone, code, late, lang)
    # the host packs at their turn; the hand goes on between the computers, one in her seat
    hpage.wait_for_function(
        "() => document.querySelector('[data-testid=table]').dataset.myturn === '1'"
    )
    hpage.get_by_test_id("act-pack").tap()
    lpage.wait_for_function(LATE_TURN)
    table = lpage.get_by_test_id("table")
    assert table.get_attribute("data-myturn") == "0"
    line = lpage.get_by_test_id("turn-line").text_content() or ""
    mine = lpage.get_by_test_id("my-hand").text_content() or ""
    if lang == "en":
        assert "The computer plays this hand for you" in line and "Your turn" not in line
        assert "Your cards come with the next deal." in mine
    else:
        assert "कम्प्युटरले खेल्दैछ" in line and "तपाईंको पालो" not in line
        assert "अर्को बाजी बाँडिँदा तपाईंले तास पाउनुहुन्छ" in mine
    assert "mine" not in (lpage.get_by_test_id("turn-line").get_attribute("class") or "")
    assert lpage.locator("[data-testid=actions] button[data-do]").count() == 0
    seat = lpage.get_by_test_id("seat-1")
    assert seat.locator(".card.face").count() == 0  # none of the hand's cards is shown to her
    said = lpage.get_by_test_id("announce").text_content() or ""
    assert ("Your turn" if lang == "en" else "तपाईंको पालो") not in said
    reader = seat.locator(".sr-only").all_text_contents()
    assert ("your turn" if lang == "en" else "तपाईंको पालो") not in " ".join(reader)
