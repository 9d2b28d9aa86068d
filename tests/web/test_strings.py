"""The page's words in both languages (docs/nepali.md): every key has a Nepali text, every
number a Nepali string shows is in Devanagari digits (card ranks and screen-reader labels too),
every error code the server can send has a sentence in both languages, and the words the style
note retires stay out of the Nepali.

The strings are read by Node from the very modules the page loads (``strings.mjs``); the turn
alerts' words, which the service worker holds itself, are read from ``sw.js``'s text."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from support.codes import server_error_codes
from support.page_strings import page_strings

from teenpatti.engine.rules import PRESETS

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "teenpatti" / "web" / "static"
JS = STATIC / "js"
LATIN_DIGIT = re.compile(r"[0-9]")
PLACEHOLDER = re.compile(r"\{\w+\}")
NAMES_WITH_DIGITS = ("AK47",)
"""Names players say as they are written: the digits are part of the name, not a number."""
RETIRED = {
    "स्वीकार": "say हुन्छ / हुँदैन",
    "गृहपृष्ठ": "say मुख्य मेनु",
    "प्रतीक्षा": "say पर्खनुहोस्",
    "घरेलु": "say आफ्नै नियम",
    "नातेदार": "a calque",
    "लुकेर": "suggests cheating",
    "नियन्त्रण": "office words",
    "रकम": "chips are not money: say चिप्स",
    "पत्ता": "a card is पत्ती, the cards in hand are तास",
    "हात": "a three-card hand is तास",
    "प्रयास": "say कोसिस",
    "विशेषज्ञ": "say उस्ताद",
    "अभिलेख": "say रेकर्ड",
    "प्रतिबद्धता": "say बाँड्नुअघि सर्भरले दिएको छाप",
    "मोल": "chips have no price: say तिर्ने, लाग्छ",
    "जथाभावी": "means careless: a deal is shuffled (फिटेर)",
    "लुकाएर": "suggests cheating",
    "कसलाई": "say कोसँग",
    "यन्त्र": "say कम्प्युटर or फोन",
    "जडान": "say इन्टरनेट",
    "पछाडि": "the Back button is फर्कनुहोस्",
    "स्टेक": "the stake is दाउ (units: २ दाउ)",
    "पाना": "the page is पेज",
    "अर्को पटक": "the next hand is अर्को बाजी",
    "अर्को पालो": "the next hand is अर्को बाजी",
    "तपाईं ले": "तपाईंले is one word",
    "नेटवर्क": "say इन्टरनेट",
    "रिलोड": "say पेज फेरि खोल्नुहोस्",
    "खेल न!": "तिमी at a family table: say खेल्नुहोस् न!",
    "टेबलको आफ्नै": "a calque: say यो टेबलमा",
    "त्यो बाहेक": "reads as besides: say ती घटाउँदा",
    "छिटो शब्द": "the quick phrases are तयारी वाक्य",
    "मूल्य": "chips have no price: say तिर्ने, जति तिरेर",
    "रोज्": "one word for choosing: छान्नु",
    "ती खेलाडी": "mixes levels: say उहाँ",
    "तास प्याक हुन्छ": "a hand does not pack: say सानो तास हुनेले प्याक गर्नुपर्छ",
    "तासले पोट बाँड्छन्": "cards do not share: say बराबर तास हुनेले पोट बाँडेर लिनुहुन्छ",
}
"""Words the style note retires from the Nepali, and why (docs/nepali.md, "Words we do not say")."""
KEPT_IN_LATIN = re.compile(
    r"\{\w+\}|https?://\S+|--host|--public-url|Wi-Fi|\bAK47\b|\bQR\b|(?<![A-Za-z])[AKQJ](?![A-Za-z])"
)
"""What a Nepali string may keep in Latin letters (docs/nepali.md, "Digits"): placeholders, a link,
what a server's operator types, a variant's name, QR and the card letters."""
OTHER_LANGUAGE = {"app.other", "lang.button", "lang.label"}
"""Strings in the other language on purpose, each shown marked with its language (``lang``)."""
CHIP_ALONE = re.compile(r"चिप(?!्स)")
"""Chips are चिप्स, one or many."""
A_MOVE = re.compile(r"\bmoves?\b", re.IGNORECASE)
A_BET = re.compile(r"chaal|\bbet|raise", re.IGNORECASE)


def strings() -> dict[str, Any]:
    return page_strings()


ALERT_LANGUAGE = re.compile(r" {2}(\w+): \{")
ALERT_ENTRY = re.compile(r' {4}(\w+): ("(?:[^"\\]|\\.)*"),')


def alert_words() -> dict[str, dict[str, str]]:
    """The turn alerts' words by language, as ``sw.js`` writes them in ``WORDS`` (a service worker
    loads no page module). Every line of the block must be read: a line in any other shape fails
    rather than being skipped."""
    text = (STATIC / "sw.js").read_text(encoding="utf-8")
    block = text.split("const WORDS = {\n", 1)[1].split("\n};\n", 1)[0]
    words: dict[str, dict[str, str]] = {}
    lang = ""
    for line in block.splitlines():
        if found := ALERT_LANGUAGE.fullmatch(line):
            lang = found[1]
            words[lang] = {}
        elif (found := ALERT_ENTRY.fullmatch(line)) and lang:
            words[lang][found[1]] = json.loads(found[2])
        else:
            assert line == "  },", f"sw.js WORDS: a line this test cannot read: {line!r}"
    return words


def nepali_texts() -> Iterator[tuple[str, str]]:
    """Every Nepali string of the page, with where it comes from."""
    data = strings()
    for key, text in data["strings"]["ne"].items():
        yield f"i18n {key}", text
    for key, text in alert_words()["ne"].items():
        yield f"sw.js {key}", text

    def walk(node: Any, where: str) -> Iterator[tuple[str, str]]:
        if isinstance(node, dict):
            for key, value in node.items():
                if key in ("ne", "neMeaning") and isinstance(value, str):
                    yield f"{where}.{key}", value
                else:
                    yield from walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}[{i}]")

    yield from walk(data["content"], "content")


def test_every_key_has_both_languages_with_the_same_placeholders() -> None:
    en, ne = strings()["strings"]["en"], strings()["strings"]["ne"]
    assert sorted(set(en) - set(ne)) == [], "keys with no Nepali text"
    assert sorted(set(ne) - set(en)) == [], "keys with no English text"
    for key in en:
        assert en[key].strip() and ne[key].strip(), f"{key} is empty"
        if key != "err.generic":  # Nepali names the code where English gives the server's reason
            assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(ne[key])), key


def test_the_turn_alerts_have_both_languages_with_the_same_placeholders() -> None:
    """The service worker's words (a turn, a start, an end, a friend joining) are held like the
    page's: the same keys in both languages, each title with its body, the same placeholders; and
    ``nepali_texts`` gives every other test their Nepali."""
    words = alert_words()
    assert set(words) == {"en", "ne"}
    en, ne = words["en"], words["ne"]
    assert {"app", "turn", "turnBody"} <= set(en)
    assert sorted(en) == sorted(ne)
    for key in en:
        assert key == "app" or key.endswith("Body") or f"{key}Body" in en, key
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(ne[key])), key
    assert [where for where, _ in nepali_texts() if where.startswith("sw.js ")] == [
        f"sw.js {key}" for key in ne
    ]


def test_every_rules_text_has_nepali() -> None:
    def walk(node: Any, where: str) -> Iterator[str]:
        if isinstance(node, dict):
            if "en" in node and not (node.get("ne") or "").strip():
                yield where
            words_row = "neMeaning" in node or "word" in node
            if words_row and not ((node.get("neMeaning") or "").strip() and node.get("ne")):
                yield where
            for key, value in node.items():
                yield from walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                yield from walk(value, f"{where}[{i}]")

    assert list(walk(strings()["content"], "content")) == []


def test_nepali_shows_numbers_in_devanagari_digits() -> None:
    wrong = []
    for where, text in nepali_texts():
        bare = PLACEHOLDER.sub("", text)
        for name in NAMES_WITH_DIGITS:
            bare = bare.replace(name, "")
        if LATIN_DIGIT.search(bare):
            wrong.append(f"{where}: {text}")
    assert wrong == [], "Latin digits in Nepali:\n" + "\n".join(wrong)


def test_card_names_and_corners_follow_the_language() -> None:
    cards = strings()["cards"]
    assert "7 of hearts" in cards["en"]["names"]
    assert "पानको ७" in cards["ne"]["names"]
    assert cards["en"]["corners"] == [
        "2",
        "3",
        "4",
        "5",
        "6",
        "7",
        "8",
        "9",
        "10",
        "J",
        "Q",
        "K",
        "A",
    ]
    for text in [*cards["ne"]["names"], *cards["ne"]["corners"]]:
        assert not LATIN_DIGIT.search(text), text


def test_every_server_error_code_has_a_sentence_in_both_languages() -> None:
    codes = server_error_codes()
    assert {"turn/not_yours", "name/taken", "rate/limited", "sideshow/pending"} <= codes
    assert {"server/busy", "http/timeout"} <= codes, "codes written as JSON text"
    en, ne = strings()["strings"]["en"], strings()["strings"]["ne"]
    missing = sorted(code for code in codes if f"err.{code}" not in en or f"err.{code}" not in ne)
    assert missing == [], "error codes with no sentence"
    # house-rule errors carry the option in the code (rules/show_tie): one sentence for them all
    assert "err.rules" in en and "err.rules" in ne
    ne_errors = strings()["cards"]["ne"]["errors"]
    assert ne_errors[0] == ne["err.rules"]
    assert "reason" not in ne_errors[1], "a Nepali page must not show the server's English"
    # a proxy's own status (no body of ours) has a sentence too, with no code shown
    assert strings()["cards"]["en"]["errors"][2] == en["err.http"]
    assert strings()["cards"]["ne"]["errors"][2] == ne["err.http"]
    assert not re.search(r"[A-Za-z0-9]", ne_errors[1]), "an unknown code in Nepali shows no Latin"


def test_retired_words_stay_out_of_the_nepali() -> None:
    found = [
        f"{where}: {word} ({why}): {text}"
        for where, text in nepali_texts()
        for word, why in RETIRED.items()
        if word in text
    ]
    assert found == [], "\n".join(found)


def test_chips_are_chips() -> None:
    found = [f"{where}: {text}" for where, text in nepali_texts() if CHIP_ALONE.search(text)]
    assert found == [], "\n".join(found)


def test_chaal_is_only_ever_the_bet() -> None:
    """A string about a move (not a chaal, a bet or a raise) says खेल्नु, never चाल."""
    en, ne = strings()["strings"]["en"], strings()["strings"]["ne"]
    found = [
        f"{key}: {en[key]} / {ne[key]}"
        for key in en
        if A_MOVE.search(en[key]) and not A_BET.search(en[key]) and "चाल" in ne.get(key, "")
    ]
    assert found == [], "\n".join(found)


def test_nepali_has_no_english() -> None:
    found = [
        f"{where}: {text}"
        for where, text in nepali_texts()
        if where.removeprefix("i18n ") not in OTHER_LANGUAGE
        and re.search(r"[A-Za-z]", KEPT_IN_LATIN.sub(" ", text))
    ]
    assert found == [], "English in Nepali:\n" + "\n".join(found)


def test_a_sentence_about_the_players_a_table_seats_holds_at_every_preset() -> None:
    """The presets seat different numbers (two to ten): the sentence for ``game/players`` names
    none, so it is true at each of them, in both languages."""
    seats = {(r.min_players, r.max_players) for r in PRESETS.values()}
    assert len(seats) > 1
    numbers = re.compile(
        r"\d|[०-९]|\b(two|three|four|five|six|seven|eight|nine|ten)\b|दुई|तीन|छ जना"
    )
    for lang in ("en", "ne"):
        text = strings()["strings"][lang]["err.game/players"]
        assert not numbers.search(text), (lang, text)


COUNT_IN_WORDS = re.compile(
    r"(?<![\u0900-\u097F])(दुई|तीन|चार|पाँच|छ|सात|आठ|नौ|दस)(मध्ये|देखि \S+)? "
    r"(जना|वा बढी|कम्प्युटर|खेलाडी|दाउ|बुट|बाजी|पटक|मिनेट|सेकेन्ड|जोकर|चिप्स)"
)
"""A count of players, stakes, boots, hands, times or minutes in words (``तीन जना``, ``चार दाउ``):
digits, as everywhere else. Cards in a hand keep their words (``तीन पत्ती``, ``तीन एक्का``), as the
game's own name does."""


def test_counts_are_digits_in_nepali() -> None:
    found = [f"{where}: {text}" for where, text in nepali_texts() if COUNT_IN_WORDS.search(text)]
    assert found == [], "\n".join(found)


POSTPOSITION = r"(?:ले|लाई|को|का|की|मा|बाट|देखि|सम्म|सँग|भन्दा|मध्ये)(?![\u0900-\u097F])"
WORDS = ("hand", "their", "suit", "rank", "card", "what", "action", "level", "bots")
"""Placeholders that stand for a Nepali word (a kind of hand, a suit, a move): their
postposition joins them (``{hand}ले``, ``{suit}को``)."""
PHRASES = ("value", "text", "reason", "hex", "link", "time", "timer", "rules", "cards", "actions")
"""Placeholders for a phrase or a list, which take no postposition."""
WORD_PLACEHOLDERS = r"\{(?:" + "|".join(WORDS) + r")\}"
NAME_OR_NUMBER = r"\{(?!(?:" + "|".join(WORDS + PHRASES) + r")\})\w+\}"
"""Placeholders for a name, a code or a number, which may be in Latin letters or digits."""
APART = re.compile(rf"(?:[\u0900-\u0963\u0971-\u097F]|{WORD_PLACEHOLDERS}) {POSTPOSITION}")
JOINED = re.compile(rf"(?:[०-९]|{NAME_OR_NUMBER}){POSTPOSITION}")


def test_postpositions_join_their_word() -> None:
    """``जुटले``, ``सूचनाका लागि``, ``{hand}ले``; after a number, a name or a code a space
    (``२ देखि ६ जना``, ``{name} ले``), as docs/nepali.md says."""
    apart = [f"{where}: {text}" for where, text in nepali_texts() if APART.search(text)]
    assert apart == [], "a postposition apart from its word:\n" + "\n".join(apart)
    joined = [f"{where}: {text}" for where, text in nepali_texts() if JOINED.search(text)]
    assert joined == [], "a postposition with no space after a number or name:\n" + "\n".join(
        joined
    )


def test_button_names_are_quoted_one_way() -> None:
    """A button or option named in a sentence is quoted “so” (docs/nepali.md), never with
    straight or single quotes, and every quote is closed."""
    found = [
        f"{where}: {text}"
        for where, text in nepali_texts()
        if re.search("[\"'‘’]", text) or text.count("“") != text.count("”")
    ]
    assert found == [], "\n".join(found)


CHAT_KEYS = re.compile(r"(chat\.|err\.chat/)")


def test_only_the_chat_says_message() -> None:
    """सन्देश is a chat message; what the page or the call sends the server is अनुरोध."""
    found = [
        f"{where}: {text}"
        for where, text in nepali_texts()
        if "सन्देश" in text and not CHAT_KEYS.match(where.removeprefix("i18n "))
    ]
    assert found == [], "\n".join(found)


UNREADABLE = ("err.action/malformed", "err.deal/part", "err.settings/invalid", "err.settings/rules")
"""Requests the page wrote and the server could not read, besides the ``message/`` codes."""
NEXT_STEP_EN = re.compile(r": (reload|try again|play|choose|download|check)[^:]*\.$")
"""The English sentence ends with what to do next, after a colon."""


def test_what_could_not_be_read_says_what_to_do_next() -> None:
    """A malformed request is the page's, not a chat message (सन्देश), and a hand history
    ``teenpatti replay`` cannot read is the file's: each says what to do next (reload, play or
    choose again; download the table's hands again, or check the file)."""
    data = strings()["strings"]
    keys = [key for key in data["en"] if key.startswith(("err.message/", "err.history/"))]
    assert {"err.message/invalid", "err.history/json", "err.history/file"} <= set(keys)
    for key in [*keys, *UNREADABLE]:
        assert "सन्देश" not in data["ne"][key], key
        assert re.search(r": [^:]+नुहोस्।$", data["ne"][key]), key
        assert NEXT_STEP_EN.search(data["en"][key]), key


def test_the_lesson_quotes_the_button_it_asks_for() -> None:
    """Each step of Learn by playing that waits for the learner's tap names the highlighted
    button as the lesson shows it (the move and its price, ``learn.js``), in “ ”: “साइड सो ४०”
    थिच्नुहोस्, never the move described in other words."""
    lesson = json.loads((STATIC / "lesson.json").read_text(encoding="utf-8"))
    ne = strings()["strings"]["ne"]
    asked = [step for step in lesson["steps"] if step.get("learner")]
    assert {step["do"] for step in asked} >= {"chaal", "see", "raise", "sideshow", "show"}
    for step in asked:
        chosen = next(option for option in step["legal"] if option["do"] == step["do"])
        label = ne[f"act.{step['do']}"] + (" {cost}" if chosen.get("cost") else "")
        assert f"“{label}” थिच्नुहोस्" in ne[step["say"]], (step["say"], label)
