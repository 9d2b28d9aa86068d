"""The pages around the table on a 360 x 640 phone: home, the two forms, the rules with the hand
ranking drawn in cards, the words with their Nepali, the questions and the tips; the language
switch (every page, remembered across a reload); no sideways scrolling and 44 px controls.
"""

from __future__ import annotations

import re

DEVANAGARI = re.compile(r"[\u0900-\u097F]")
LATIN_WORDS = re.compile(r"\b(the|and|your|hand|cards)\b", re.IGNORECASE)


def test_home_rules_and_language(phone, shot, check_layout, axe) -> None:
    p = phone()
    page = p.open("/")
    home = page.get_by_test_id("home")
    for testid in ("menu-friends", "menu-join", "menu-computer", "menu-rules", "menu-words"):
        assert home.get_by_test_id(testid).is_visible(), testid
    assert page.locator("html").get_attribute("lang") == "en"
    check_layout(page)
    axe(page, "home")
    shot(page, "home")

    # The rules: how to play, the ranking drawn with cards, words, questions, tips with figures.
    page.get_by_test_id("menu-rules").tap()
    rules = page.get_by_test_id("rules")
    rules.wait_for()
    ranking = rules.get_by_test_id("ranking").locator("li")
    assert ranking.count() == 6
    for i in range(6):
        cards = ranking.nth(i).locator("svg[data-card]")
        assert cards.count() == 3
        assert re.fullmatch(
            r"\w+ of (spades|hearts|diamonds|clubs)", cards.first.get_attribute("aria-label")
        )
    assert "Trail" in ranking.first.text_content() and "ट्रायल" in ranking.first.text_content()
    words = rules.get_by_test_id("words").locator("tbody tr")
    assert words.count() >= 14
    for i in range(words.count()):
        cells = words.nth(i).locator("th, td").all_text_contents()
        assert DEVANAGARI.search(cells[1]) and not DEVANAGARI.search(cells[0]), cells
    assert rules.locator("details.faq").count() >= 8
    tips = rules.get_by_test_id("tips").locator("li").all_text_contents()
    assert len(tips) >= 5 and all("%" in tip or re.search(r"\d", tip) for tip in tips)
    assert "22,100" in rules.text_content()
    check_layout(page)
    axe(page, "the rules")
    shot(page, "rules")
    page.get_by_test_id("tab-ranking").tap()
    page.locator("[data-testid=rules][data-section=ranking]").wait_for()
    shot(page, "ranking")

    # Switch to Nepali: every string changes, the words table keeps both languages.
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=ne]").wait_for()
    page.get_by_test_id("tab-words").tap()
    page.locator("[data-testid=rules][data-section=words]").wait_for()
    assert DEVANAGARI.search(page.get_by_test_id("header-title").text_content())
    meaning = (
        page.get_by_test_id("words").locator("tbody tr").first.locator("td").last.text_content()
    )
    assert DEVANAGARI.search(meaning) and not LATIN_WORDS.search(meaning), meaning
    check_layout(page)
    axe(page, "the words, in Nepali")
    shot(page, "words-ne")

    # Escape closes the rules and gives focus back to what opened them.
    page.keyboard.press("Escape")
    page.get_by_test_id("home").wait_for()
    assert page.evaluate("() => document.activeElement.dataset.testid") == "menu-rules"

    # Remembered across a reload; home in Nepali too.
    page.goto(p.base + "/")
    page.get_by_test_id("home").wait_for()
    assert page.locator("html").get_attribute("lang") == "ne"
    text = page.get_by_test_id("home").text_content()
    assert DEVANAGARI.search(text) and not LATIN_WORDS.search(text.replace("Teen Patti", "")), text
    check_layout(page)
    axe(page, "home, in Nepali")
    shot(page, "home-ne")
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=en]").wait_for()
    assert page.get_by_test_id("menu-friends").text_content().startswith("Play with friends")


def test_forms(phone, shot, check_layout, axe) -> None:
    p = phone()
    page = p.open("/#create")
    form = page.get_by_test_id("create-form")
    form.wait_for()
    # our table's choices first; the house rules behind the Advanced fold
    assert page.get_by_test_id("hands-20").is_checked()
    assert page.get_by_test_id("boot-10").is_checked()
    assert not page.get_by_test_id("opt-rule.show_tie").is_visible()
    page.get_by_test_id("advanced").locator("summary").tap()
    page.get_by_test_id("opt-rule.show_tie").wait_for()
    page.get_by_test_id("name").fill("Hira")
    page.get_by_test_id("turn_seconds-60").check()
    page.get_by_test_id("opt-rule.show_tie").select_option(label="Split the pot")
    check_layout(page)
    axe(page, "the create form, house rules open")
    shot(page, "create", full_page=True)

    # What was typed survives a language switch.
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=ne]").wait_for()
    assert page.get_by_test_id("name").input_value() == "Hira"
    assert page.get_by_test_id("turn_seconds-60").is_checked()
    page.get_by_test_id("lang").tap()
    page.locator("html[lang=en]").wait_for()

    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    house = page.get_by_test_id("house-rules").text_content()
    assert "Split the pot" in house, house
    assert "60 s" in page.get_by_test_id("lobby").text_content()
    check_layout(page)

    # Joining: a bad code is explained, a taken name is refused, both in words a player reads.
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    q = phone()
    join = q.open("/#join")
    join.get_by_test_id("join-code").fill("ZZ")
    join.get_by_test_id("name").fill("Hari")
    join.get_by_test_id("join-submit").tap()
    join.get_by_test_id("form-error").get_by_text("six-character").wait_for()
    join.get_by_test_id("join-code").fill("ZZZZZZ")
    join.get_by_test_id("join-submit").tap()
    join.get_by_test_id("form-error").get_by_text("no table with that code").wait_for()
    join.get_by_test_id("join-code").fill(code)
    join.get_by_test_id("name").fill("hira")
    join.get_by_test_id("join-submit").tap()
    join.get_by_test_id("form-error").get_by_text("has that name already").wait_for()
    check_layout(join)
    axe(join, "the join form, with an error")
