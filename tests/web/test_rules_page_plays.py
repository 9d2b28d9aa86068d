"""The rules page and the FAQ are held to the engine: every sentence that says how a hand ends
(who takes the pot, who loses or packs, when hands share) names the scenarios of
tests/scenarios that play it (``plays``), and tests/engine/test_scenarios.py replays each of
them to its expected outcome, so a change of the rules (a new rules edition) that changes the
outcome fails a scenario the page names, and the page is changed with it."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from support.page_strings import page_strings

from teenpatti.engine.hand import HandResult
from teenpatti.engine.history import replay_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
OUTCOME = re.compile(r"takes the pot|\bloses\b|\bpacks\b|share (it|the pot)", re.IGNORECASE)
"""The words of a sentence that says how a hand ends."""


def texts() -> Iterator[tuple[str, dict[str, Any]]]:
    """Each rules paragraph and each FAQ answer, with where it is."""
    content = page_strings()["content"]
    for rule in content["RULES"]:
        for i, paragraph in enumerate(rule["body"]):
            yield f"rules {rule['id']} [{i}]", paragraph
    for i, entry in enumerate(content["FAQ"]):
        yield f"faq [{i}] {entry['q']['en']}", entry["a"]


def test_every_outcome_the_page_states_names_the_scenarios_that_play_it() -> None:
    named = 0
    for where, text in texts():
        if OUTCOME.search(text["en"]):
            assert text.get("plays"), f"{where} states an outcome but names no scenario"
        for name in text.get("plays", []):
            assert (SCENARIOS / f"{name}.json").is_file(), f"{where}: no scenario {name}"
            named += 1
    assert named >= 10


def test_the_show_tie_sentence_holds_under_todays_rules() -> None:
    """The two outcomes of equal hands at a show the page states, as the engine plays them."""
    said = next(text for where, text in texts() if where.startswith("faq") and "equal" in where)
    assert "share" in said["en"]
    for name, shared in (
        ("show-tie-asker-loses", False),
        ("potlimit-show-reaches-limit-ties-share-nepal", True),
    ):
        (outcome,) = replay_text((SCENARIOS / f"{name}.json").read_text(encoding="utf-8"))
        assert isinstance(outcome, HandResult), outcome
        winners = outcome.pots[-1].winners
        assert (len(winners) > 1) == shared, name
