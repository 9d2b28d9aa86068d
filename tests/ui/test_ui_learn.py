"""Learn by playing: from the home page, the guided hand plays through in English and in Nepali,
stopping at each decision with its words and the engine's prices (``static/lesson.json``), the
hand-ranking chart one tap away and the hand where it was on return; it never opens a table,
never touches the socket and leaves nothing in My tables."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from teenpatti.web import lesson

LESSON = json.loads((Path(lesson.__file__).parent / "static" / "lesson.json").read_text())
LATIN_DIGIT = re.compile(r"[0-9]")
NE_DIGITS = str.maketrans("0123456789", "०१२३४५६७८९")


def words(page: Any) -> str:
    return str(page.get_by_test_id("learn-words").text_content())


@pytest.mark.parametrize("locale", ["en-GB", "ne-NP"])
def test_the_guided_hand_plays_through(phone, check_layout, axe, shot, locale) -> None:
    nepali = locale == "ne-NP"
    p = phone(locale=locale)
    asked: list[str] = []
    p.page.on("request", lambda request: asked.append(request.url))
    page = p.open("/")
    page.get_by_test_id("menu-learn").tap()
    page.get_by_test_id("learn-start").wait_for()
    boot = str(LESSON["boot"]).translate(NE_DIGITS) if nepali else str(LESSON["boot"])
    assert boot in words(page)
    page.get_by_test_id("learn-start").tap()

    said: list[str] = []
    for i, step in enumerate(LESSON["steps"]):
        page.locator(f"[data-testid=learn][data-step='{i}']").wait_for()
        text = words(page)
        assert text and text not in said, (i, text)  # each step has its own words
        said.append(text)
        if nepali:
            shown = page.get_by_test_id("learn").inner_text()
            assert not LATIN_DIGIT.search(shown), (i, shown)
        pot = page.get_by_test_id("learn-pot").text_content()
        if step["learner"]:
            # every move the engine offered, at its price; only the scripted one can be tapped
            for option in step["legal"]:
                button = page.get_by_test_id(f"learn-do-{option['do']}")
                assert int(button.get_attribute("data-cost")) == option["cost"]
                assert button.is_enabled() == (option["do"] == step["do"]), option
            before = LESSON["steps"][i - 1]["after"] if i else LESSON["start"]
            want = str(before["pot"]).translate(NE_DIGITS) if nepali else str(before["pot"])
            assert want in pot, (pot, want)
            if step["do"] == "raise":
                # looked: the learner's own cards face up, named, and the chart one tap away
                assert (
                    page.get_by_test_id("learn-seat-0").locator("svg.card:not(.back)").count() == 3
                )
                check_layout(page)
                axe(page, f"learn by playing, a decision ({locale})")
                shot(page, f"learn-{locale}")
                page.get_by_test_id("learn-ranking").tap()
                page.locator("#sec-ranking").wait_for()
                page.go_back()
                page.locator(f"[data-testid=learn][data-step='{i}']").wait_for()
            page.get_by_test_id(f"learn-do-{step['do']}").tap()
        else:
            page.get_by_test_id("learn-next").tap()

    page.locator("[data-testid=learn][data-step=end]").wait_for()
    end = words(page)
    pot = str(LESSON["end"]["pot"]).translate(NE_DIGITS) if nepali else str(LESSON["end"]["pot"])
    assert pot in end
    assert ("तपाईंले" in end) if nepali else end.startswith("You win the pot")
    check_layout(page)
    # never a game: no table opened, no socket, nothing in My tables
    assert not [url for url in asked if "/api/tables" in url or "/ws/" in url], asked
    page.get_by_test_id("learn-home").tap()
    page.get_by_test_id("home").wait_for()
    assert page.get_by_test_id("menu-mine").count() == 0
    assert p.errors == []


def test_play_it_again_and_switch_language_mid_hand(phone) -> None:
    p = phone()
    page = p.open("/#learn")
    page.get_by_test_id("learn-start").tap()
    page.get_by_test_id("learn-do-chaal").tap()
    page.locator("[data-testid=learn][data-step='1']").wait_for()
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=ne]").wait_for()
    # the same step, in the other language
    page.locator("[data-testid=learn][data-step='1']").wait_for()
    assert "ले तास हेर्नुभयो" in words(page)
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=en]").wait_for()
    for i in range(1, len(LESSON["steps"])):  # step 0 is played
        page.locator(f"[data-testid=learn][data-step='{i}']").wait_for()
        page.locator("[data-testid=learn-coach] .btn.primary").tap()
    page.locator("[data-testid=learn][data-step=end]").wait_for()
    page.get_by_test_id("learn-again").tap()
    page.get_by_test_id("learn-start").wait_for()
