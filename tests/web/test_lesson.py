"""The guided first hand the page plays (``static/lesson.json``) is the engine's: the file is what
:func:`teenpatti.web.lesson.build` makes, and replaying its moves through a fresh engine hand
gives, step by step, the choices, prices, chips, cards shown and outcome the file holds. The
lesson explains every decision the issue names, each in both languages."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from teenpatti.engine import Action, ActionKind, Hand, Rules, card_str, parse_cards, view
from teenpatti.web import lesson

STATIC = Path(lesson.__file__).parent / "static"


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "lesson.json").read_text())
    return data


def test_the_file_is_what_the_engine_makes() -> None:
    fix = "python -m teenpatti.web.lesson > teenpatti/web/static/lesson.json"
    assert load() == json.loads(json.dumps(lesson.build())), f"static/lesson.json is stale: {fix}"


def test_replayed_through_the_engine_every_step_is_as_written() -> None:
    data = load()
    rules = Rules.from_options(data["rules"])
    hand = Hand(
        rules,
        [rules.starting_chips] * len(lesson.CARDS),
        dealer=data["dealer"],
        cards=[parse_cards(cards) for cards in lesson.CARDS],
    )
    assert hand.pot == data["start"]["pot"]
    assert data["order"] == hand.deal_order and data["order"][0] == hand.actor == 0
    for step in data["steps"]:
        seat = step["seat"]
        assert hand.actor == seat or hand.waiting_for == seat, step
        offered = {(o.kind.value, o.cost) for o in hand.legal_actions(seat)}
        assert {(o["do"], o["cost"]) for o in step["legal"]} == offered, step["say"]
        hand.apply(Action(seat, ActionKind(step["do"]), target=step["target"]))
        seen = view(hand, 0)
        assert seen.outcomes[-1].paid == step["paid"], step["say"]
        assert seen.outcomes[-1].loser == step["loser"], step["say"]
        after = step["after"]
        assert (seen.pot, seen.stake) == (after["pot"], after["stake"]), step["say"]
        for row, shown in zip(seen.seats, after["seats"], strict=True):
            cards = [card_str(c) for c in row.cards] if row.cards is not None else None
            assert (row.chips, row.seen, row.packed, cards) == (
                shown["chips"],
                shown["seen"],
                shown["packed"],
                shown["cards"],
            ), step["say"]
    seen = view(hand, 0)
    assert seen.finished
    assert [list(p.winners) for p in seen.pots] == [data["end"]["winners"]]
    assert seen.pots[0].amount == data["end"]["pot"]
    # the learner never sees a card the rules keep from them: Asha packed unseen by anyone
    assert data["steps"][-1]["after"]["seats"][3]["cards"] is None


def test_every_decision_is_explained() -> None:
    data = load()
    mine = [step for step in data["steps"] if step["learner"]]
    assert {step["do"] for step in mine} == {"chaal", "see", "raise", "sideshow", "show"}
    # each of the learner's moves is one the engine offered at that moment, and a pack was shown
    for step in mine:
        assert step["do"] in {o["do"] for o in step["legal"]}
        assert "pack" in {o["do"] for o in step["legal"]}
    assert any(step["do"] == "pack" for step in data["steps"])
    assert len({step["say"] for step in data["steps"]}) == len(data["steps"])
