"""The chat's quick phrases, reactions and longest text are defined once (tables/play/chat.py:
the commands' types and the chat's checks take them from there) and served by GET /api/rules;
the page's social.js, which needs them for its first render before the catalogue arrives, offers
exactly what is served."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, get_args

import msgspec

from teenpatti.tables.play import chat, commands
from teenpatti.web.lobby import rules_served

SOCIAL = Path(__file__).resolve().parents[2] / "teenpatti" / "web" / "static" / "js" / "social.js"


def page_constant(name: str, source: str) -> Any:
    """The JSON value of ``export const NAME = ...;`` in the page's source."""
    found = re.search(rf"^export const {name} = (.+);$", source, re.M)
    assert found, f"social.js has no {name}"
    return json.loads(found.group(1))


def test_the_page_offers_what_the_server_serves() -> None:
    served = msgspec.to_builtins(rules_served().chat)
    source = SOCIAL.read_text()
    assert page_constant("PHRASES", source) == served["phrases"]
    assert page_constant("EMOJI", source) == served["emoji"]
    assert page_constant("TEXT_MAX", source) == served["text_max"]


def test_one_definition_behind_the_types_and_the_checks() -> None:
    fields = commands.Chat.__annotations__
    assert "Phrase" in fields["phrase"] and "Emoji" in fields["emoji"]
    assert get_args(chat.Phrase) == chat.PHRASES and get_args(chat.Emoji) == chat.EMOJI
    assert commands.Phrase is chat.Phrase and commands.Emoji is chat.Emoji
    assert str(chat.TEXT_MAX) in commands.FIELD_CODES["text"][1]


def test_the_check_reads_the_page(tmp_path: Path) -> None:
    changed = SOCIAL.read_text().replace('"bye"]', '"bye", "namaste"]')
    assert page_constant("PHRASES", changed) != rules_served().chat.phrases
