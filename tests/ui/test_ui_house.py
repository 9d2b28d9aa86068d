"""Every house rule from the phone: the create form offers every option of the server's catalogue,
grouped, with each preset's own value shown; it refuses what the server would refuse, in words,
before anything is sent; what the host sets is what the table plays (read back from the server);
and the waiting room and the join page say each rule that differs from the preset in words, with
Devanagari digits on a Nepali screen."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

LATIN_DIGIT = re.compile(r"[0-9]")


def table_rules(server: Any, code: str) -> dict[str, Any]:
    """The rules the server plays at a table, as it gives them to anyone who asks."""
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}", timeout=10) as reply:
        rules: dict[str, Any] = json.loads(reply.read())["settings"]["rules"]
    return rules


def catalogue(server: Any) -> dict[str, Any]:
    with urllib.request.urlopen(f"{server.url}/api/rules", timeout=10) as reply:
        cat: dict[str, Any] = json.loads(reply.read())
    return cat


def rule(page: Any, key: str) -> Any:
    return page.get_by_test_id(f"opt-rule.{key}")


def test_every_option_set_on_the_form_is_what_the_table_plays(
    phone, server, check_layout, axe, shot
) -> None:
    p = phone()
    page = p.open("/#create")
    page.get_by_test_id("name").fill("Sita")
    page.get_by_test_id("opt-preset").select_option('"club"')
    page.locator("[data-testid=create-form][data-preset=club]").wait_for()
    page.get_by_test_id("advanced").locator("summary").tap()

    # every option of the catalogue is on the form, each with a line on what it changes
    cat = catalogue(server)
    for key in cat["options"]:
        if key in ("hands", "boot"):
            assert page.get_by_test_id(f"opt-{key}").count() == 1, key
            continue
        field = page.locator(f"[data-rule={key}]")
        assert field.count() == 1, key
        assert field.locator(".help").text_content().strip(), key
    # a rule that matters only with another comes with it
    assert not rule(page, "range_max_stakes").is_visible()
    rule(page, "bets").select_option('"range"')
    rule(page, "range_max_stakes").wait_for()
    # the club's own values are the ones shown
    assert page.get_by_test_id("opt-boot").input_value() == "50"
    assert rule(page, "starting_chips").input_value() == "12800"
    assert rule(page, "direction").input_value() == '"clockwise"'
    check_layout(page)
    axe(page, "the create form, every house rule")
    shot(page, "create-every-rule", full_page=True)

    # what the server would refuse is said at the rule, in words, and nothing is sent
    rule(page, "starting_chips").fill("lots")
    rule(page, "starting_chips").dispatch_event("change")
    assert page.get_by_test_id("err-rule.starting_chips").text_content() == "Write a whole number."
    rule(page, "starting_chips").fill("20")
    rule(page, "starting_chips").dispatch_event("change")
    page.get_by_test_id("err-rule.starting_chips").get_by_text("At least the boot").wait_for()
    rule(page, "all_in").select_option('"two_left"')
    page.get_by_test_id("err-rule.pot_limit_boots").get_by_text("no pot limit").wait_for()
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("form-error").get_by_text("cannot be played").wait_for()
    assert page.get_by_test_id("lobby").count() == 0
    assert rule(page, "starting_chips").evaluate("el => el === document.activeElement")

    # set right: the form's errors go, and the table plays every rule as set
    rule(page, "starting_chips").fill("5000")
    rule(page, "pot_limit_boots").fill("")  # no pot limit, as two_left needs
    rule(page, "pot_limit_boots").dispatch_event("change")
    assert page.get_by_test_id("err-rule.pot_limit_boots").text_content() == ""
    page.get_by_test_id("opt-boot").fill("100")
    page.get_by_test_id("opt-hands").fill("15")
    rule(page, "range_max_stakes").fill("3")
    rule(page, "stake_cap_boots").fill("")
    rule(page, "direction").select_option('"anticlockwise"')
    rule(page, "show_tie").select_option('"split"')
    rule(page, "variant").select_option('"fixed_rank"')
    rule(page, "fixed_rank").select_option('"7"')
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    played = table_rules(server, code)
    expected = {
        **cat["presets"]["club"]["options"],
        "boot": 100,
        "hands": 15,
        "starting_chips": 5000,
        "bets": "range",
        "range_max_stakes": 3,
        "stake_cap_boots": None,
        "pot_limit_boots": None,
        "direction": "anticlockwise",
        "show_tie": "split",
        "variant": "fixed_rank",
        "fixed_rank": "7",
        "all_in": "two_left",
    }
    assert played == {"preset": "club", **expected}

    # the waiting room says each rule that differs from the club's in words, never a bare value
    house = page.get_by_test_id("house-rules").text_content()
    for words in (
        "5,000 chips each",
        "Anticlockwise, as in Nepal",
        "Blind up to 3 stakes, seen up to 6",
        "No stake cap",
        "No pot limit",
        "Split the pot",
        "The wild rank: 7",
        "No showdown among three or more",
    ):
        assert words in house, (words, house)
    assert "Bigger bets: 3" not in house
    assert "15 hands · boot 100" in page.get_by_test_id("lobby").text_content()


def test_house_rules_in_nepali_with_devanagari_digits(phone, server, check_layout, axe) -> None:
    p = phone(locale="ne-NP")
    page = p.open("/#create")
    page.locator("html[lang=ne]").wait_for()
    page.get_by_test_id("name").fill("Hira")
    page.get_by_test_id("advanced").locator("summary").tap()
    rule(page, "variant").select_option('"fixed_rank"')
    rule(page, "fixed_rank").wait_for()
    # the wild-rank list and every number on the form in Devanagari digits
    ranks = rule(page, "fixed_rank").locator("option").all_text_contents()
    assert ranks[:3] == ["२", "३", "४"] and ranks[-4:] == ["J", "Q", "K", "A"], ranks
    form = page.get_by_test_id("create-form")
    assert not LATIN_DIGIT.search(form.inner_text().replace("AK47", "")), form.inner_text()
    # a number typed in either language's digits is read, and shown in Devanagari
    rule(page, "starting_chips").fill("2000")
    rule(page, "starting_chips").dispatch_event("change")
    assert rule(page, "starting_chips").input_value() == "२०००"
    rule(page, "stake_cap_boots").fill("१६")
    rule(page, "fixed_rank").select_option('"7"')
    rule(page, "blind_turns_max").fill("०")
    rule(page, "blind_turns_max").dispatch_event("change")
    assert page.get_by_test_id("err-rule.blind_turns_max").text_content() == "कम्तीमा १।"
    rule(page, "blind_turns_max").fill("३")
    rule(page, "blind_turns_max").dispatch_event("change")
    check_layout(page)
    axe(page, "the create form in Nepali")
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    played = table_rules(server, code)
    assert played["starting_chips"] == 2000
    assert played["stake_cap_boots"] == 16
    assert played["blind_turns_max"] == 3
    assert (played["variant"], played["fixed_rank"]) == ("fixed_rank", "7")

    house = page.get_by_test_id("house-rules").text_content()
    assert "सबैलाई २,००० चिप्स" in house, house
    assert "दाउ १६ बुटमा रोकिन्छ" in house, house
    assert "जोकर अङ्क: ७" in house, house
    assert not LATIN_DIGIT.search(house), house

    # the join page says the same rules, in the same words
    q = phone(locale="ne-NP")
    join = q.open(f"/t/{code}")
    info = join.get_by_test_id("join-info")
    info.get_by_test_id("house-rules").wait_for()
    assert info.get_by_test_id("house-rules").text_content() == house
    check_layout(join)


def test_the_table_menus_switches_are_set_on_the_create_form_too(phone, server) -> None:
    """Latecomers, typed chat and the voice call, which the host may change from the table menu,
    are chosen before the link is shared as well: the table opens as set, and the next table
    the host opens starts from the same choices."""
    p = phone()
    page = p.open("/#create")
    page.get_by_test_id("name").fill("Sita")
    page.get_by_test_id("advanced").locator("summary").tap()
    for key in ("late", "chat", "voice"):  # each on unless turned off
        assert page.get_by_test_id(f"{key}-true").is_checked(), key
    page.get_by_test_id("late-false").tap()
    page.get_by_test_id("voice-false").tap()
    page.get_by_test_id("create-submit").tap()
    page.get_by_test_id("lobby").wait_for()
    code = page.get_by_test_id("table-code").get_attribute("data-code")
    with urllib.request.urlopen(f"{server.url}/api/tables/{code}", timeout=10) as reply:
        settings = json.loads(reply.read())["settings"]
    assert (settings["late"], settings["chat"], settings["voice"]) == (False, True, False)

    again = p.open("/#create")  # the same phone: the choices are remembered
    again.get_by_test_id("advanced").locator("summary").tap()
    assert again.get_by_test_id("late-false").is_checked()
    assert again.get_by_test_id("chat-true").is_checked()
    assert again.get_by_test_id("voice-false").is_checked()

    q = phone(locale="ne-NP")  # in Nepali: the table menu's own words, and हुन्छ / हुँदैन
    form = q.open("/#create")
    form.locator("html[lang=ne]").wait_for()
    form.get_by_test_id("advanced").locator("summary").tap()
    voice = form.get_by_test_id("choice-voice").inner_text()
    assert "टेबलमा कल गर्न दिनुहोस्" in voice and "हुन्छ" in voice and "हुँदैन" in voice, voice
