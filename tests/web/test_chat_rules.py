"""The chat's quick phrases, reactions and longest text are defined once (tables/play/chat.py:
the commands' types and the chat's checks take them from there) and served by GET /api/rules;
the page takes them from there too (social.js reads the catalogue's ``chat``) and keeps no copy,
only each phrase's words in both languages."""

from __future__ import annotations

import re
from pathlib import Path
from typing import get_args

from teenpatti.tables.play import chat, commands
from teenpatti.web.lobby import rules_served

JS = Path(__file__).resolve().parents[2] / "teenpatti" / "web" / "static" / "js"


def copies(source: str) -> list[str]:
    """The served phrases and reactions that ``source`` writes out itself, and a text box it
    gives the chat's longest text itself."""
    served = rules_served().chat
    quoted = [f'"{word}"' for word in [*served.phrases, *served.emoji]]
    found = [word for word in quoted if word in source]
    return found + re.findall(rf"maxlength: {served.text_max}\b", source)


def test_the_page_keeps_no_copy_of_the_chat_it_offers() -> None:
    for page in JS.glob("*.js"):
        if not page.name.startswith("strings-"):
            assert copies(page.read_text()) == [], page.name
    assert "cat.chat" in (JS / "social.js").read_text()


def test_the_check_finds_a_copy() -> None:
    assert copies('export const PHRASES = ["shabash", "bye"];') == ['"shabash"', '"bye"']
    assert copies("maxlength: 120,") == ["maxlength: 120"]


def test_every_phrase_served_has_its_words_in_both_languages() -> None:
    for lang in ("en", "ne"):
        words = (JS / f"strings-{lang}.js").read_text()
        for key in rules_served().chat.phrases:
            assert f'"phrase.{key}":' in words, f"{lang} phrase.{key}"


def test_one_definition_behind_the_types_and_the_checks() -> None:
    fields = commands.Chat.__annotations__
    assert "Phrase" in fields["phrase"] and "Emoji" in fields["emoji"]
    assert get_args(chat.Phrase) == chat.PHRASES and get_args(chat.Emoji) == chat.EMOJI
    assert commands.Phrase is chat.Phrase and commands.Emoji is chat.Emoji
    assert str(chat.TEXT_MAX) in commands.FIELD_CODES["text"][1]
