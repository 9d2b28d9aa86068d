"""Scenario tests: hand histories replayed through the engine, compared with hand-computed results.

Every ``tests/scenarios/NAME.json`` (a ``teenpatti-hand/1`` hand, or a list of hands, with a
``notes`` field that writes out the arithmetic) sits beside ``NAME.expected.json``: exactly what
``teenpatti replay NAME.json`` must print (one object per hand; a list when the file holds several
hands). The examples of the hand-history format in ``tests/examples`` (those of
``docs/hand-history.md``) are replayed the same way.

The expected outcomes were computed by hand from the rules (``docs/rules.md``), not taken from the
engine: when a scenario fails, check the engine against its notes before
touching the expected file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from teenpatti.engine.history import replay_text

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def _hand_files(folder: Path) -> list[Path]:
    """The hand-history files of ``folder``: every ``*.json`` that is not ``*.expected.json``."""
    return sorted(p for p in folder.glob("*.json") if not p.name.endswith(".expected.json"))


def _expected_path(path: Path) -> Path:
    return path.with_name(path.name[: -len(".json")] + ".expected.json")


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _load_hands(path: Path) -> list[dict[str, Any]] | None:
    """The hands in a scenario file, or ``None`` when the file is (deliberately) not JSON."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError:
        return None
    return _as_list(data)


def _normal_pots(pots: Any) -> Any:
    """Pots with each pot's winners in seat order (hand-history.md does not fix their order)."""
    if not isinstance(pots, list):
        return pots
    out = []
    for pot in pots:
        if isinstance(pot, dict) and isinstance(pot.get("winners"), list):
            pot = {**pot, "winners": sorted(pot["winners"])}
        out.append(pot)
    return out


def _check_result(got: dict[str, Any], expected: dict[str, Any], where: str) -> None:
    if "error" in expected:
        assert "error" in got, f"{where}: expected an error, replay gave {got}"
        want = expected["error"]
        have = got["error"]
        assert have.get("action") == want["action"], (
            f"{where}: error at action {have.get('action')} ({have.get('code')}: "
            f"{have.get('reason')}), expected action {want['action']} ({want.get('code')})"
        )
        if "code" in want:
            assert have.get("code") == want["code"], (
                f"{where}: error code {have.get('code')} ({have.get('reason')}), "
                f"expected {want['code']}"
            )
        return
    assert "error" not in got, f"{where}: replay refused the hand: {got['error']}"
    for key, value in expected.items():
        assert key in got, f"{where}: replay gave no {key!r} (got {got})"
        if key == "pots":
            assert _normal_pots(got[key]) == _normal_pots(value), (
                f"{where}: pots {got[key]}, expected {value}"
            )
        else:
            assert got[key] == value, f"{where}: {key} is {got[key]!r}, expected {value!r}"


def _cases() -> list[Any]:
    cases = [pytest.param(p, id=f"scenarios/{p.stem}") for p in _hand_files(SCENARIOS)]
    cases += [pytest.param(p, id=f"examples/{p.stem}") for p in _hand_files(EXAMPLES)]
    return cases


@pytest.mark.parametrize("path", _cases())
def test_replay_matches_expected(path: Path) -> None:
    expected_file = _expected_path(path)
    assert expected_file.is_file(), f"{path.name} has no {expected_file.name}"
    expected = _as_list(json.loads(expected_file.read_text(encoding="utf-8")))
    results = [r.to_json() for r in replay_text(path.read_text(encoding="utf-8"))]
    if len(expected) == 1 and "error" in expected[0] and expected[0]["error"]["action"] is None:
        # A file-level rejection is one error for the whole file.
        assert results, f"{path.name}: replay gave no result"
        _check_result(results[0], expected[0], path.name)
        return
    assert len(results) == len(expected), (
        f"{path.name}: replay gave {len(results)} results, expected {len(expected)}"
    )
    for i, (got, want) in enumerate(zip(results, expected, strict=True)):
        _check_result(got, want, f"{path.name} hand {i}")


def test_there_are_scenarios_and_examples() -> None:
    assert len(_hand_files(SCENARIOS)) >= 70
    assert len(_hand_files(EXAMPLES)) >= 3


@pytest.mark.parametrize("path", [pytest.param(p, id=p.stem) for p in _hand_files(SCENARIOS)])
def test_scenario_is_documented_and_conserves_chips(path: Path) -> None:
    expected_file = _expected_path(path)
    assert expected_file.is_file(), f"{path.name} has no {expected_file.name}"
    expected = _as_list(json.loads(expected_file.read_text(encoding="utf-8")))
    hands = _load_hands(path)
    if hands is None:
        assert expected == [{"error": {"action": None, "code": "history/json"}}], (
            f"{path.name} is not valid JSON but does not expect history/json"
        )
        return
    for i, hand in enumerate(hands):
        notes = hand.get("notes")
        assert isinstance(notes, list) and notes, f"{path.name} hand {i}: no notes"
        assert all(isinstance(n, str) and n.strip() for n in notes), (
            f"{path.name} hand {i}: every note must be a non-empty string"
        )
    if len(expected) == 1 and "error" in expected[0]:
        return
    assert len(hands) == len(expected), f"{path.name}: {len(hands)} hands, {len(expected)} results"
    for i, (hand, want) in enumerate(zip(hands, expected, strict=True)):
        if "error" in want:
            continue
        start = sum(seat["chips"] for seat in hand["seats"])
        assert len(want["chips"]) == len(hand["seats"]), f"{path.name} hand {i}: chips per seat"
        assert sum(want["chips"]) + want["pot"] == start, (
            f"{path.name} hand {i}: chips {want['chips']} + pot {want['pot']} != {start}"
        )
        if want["finished"]:
            assert want["pot"] == 0, f"{path.name} hand {i}: a finished hand leaves no pot"
            assert want["pots"], f"{path.name} hand {i}: a finished hand lists its pots"
            assert all(p["amount"] > 0 and p["winners"] for p in want["pots"])
            assert want["ended_by"] in {"last_player", "show", "pot_limit", "all_in"}
        else:
            assert {"to_act", "stake"} <= want.keys(), f"{path.name} hand {i}: to_act and stake"
