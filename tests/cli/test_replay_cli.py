"""``teenpatti replay FILE``, run in-process through typer's runner: the format's examples,
errors, arrays, stdin."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from teenpatti.cli import commands

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run(*args: str, stdin: str | None = None) -> tuple[int, list[Any], str]:
    """Run ``teenpatti replay ARGS``; return the exit status, each stdout line as JSON, stderr."""
    done = CliRunner().invoke(commands(), ["replay", *args], input=stdin)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return done.exit_code, lines, done.stderr


def contains(actual: Any, expected: Any) -> bool:
    """Whether ``actual`` holds everything ``expected`` states (objects may hold more keys)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            key in actual and contains(actual[key], value) for key, value in expected.items()
        )
    return bool(actual == expected)


HAND: dict[str, Any] = {
    "format": "teenpatti-hand/1",
    "rules": {"preset": "nepal", "boot": 10},
    "dealer": 0,
    "seats": [
        {"name": "Asha", "chips": 1000, "cards": "Kh Kd 5s"},
        {"name": "Bikash", "chips": 1000, "cards": "9c 8d 7h"},
        {"name": "Chandra", "chips": 1000, "cards": "Ah Jh 4h"},
    ],
    "actions": [
        {"seat": 2, "do": "chaal"},
        {"seat": 1, "do": "see"},
        {"seat": 1, "do": "raise"},
    ],
}


def with_changes(**changes: Any) -> dict[str, Any]:
    hand: dict[str, Any] = json.loads(json.dumps(HAND))
    hand.update(changes)
    return hand


def write(tmp_path: Path, data: Any, name: str = "hand.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def example_names() -> list[str]:
    return sorted(p.name[: -len(".expected.json")] for p in EXAMPLES.glob("*.expected.json"))


def test_the_examples_are_all_here() -> None:
    assert set(example_names()) >= {"blind-show", "last-player", "seen-vs-blind-show"}


@pytest.mark.parametrize("name", example_names())
def test_example(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text(encoding="utf-8"))
    status, lines, stderr = run(str(EXAMPLES / f"{name}.json"))
    assert len(lines) == 1, stderr
    assert contains(lines[0], expected), (lines[0], expected)
    assert status == (1 if "error" in expected else 0)


def test_an_unfinished_hand(tmp_path: Path) -> None:
    status, lines, _ = run(write(tmp_path, HAND))
    assert status == 0
    assert lines == [
        {"finished": False, "chips": [990, 950, 980], "pot": 80, "to_act": 0, "stake": 20}
    ]


def test_a_side_show_waiting_for_its_answer(tmp_path: Path) -> None:
    hand = with_changes(
        actions=[
            {"seat": 2, "do": "see"},
            {"seat": 2, "do": "chaal"},
            {"seat": 1, "do": "see"},
            {"seat": 1, "do": "sideshow"},
        ]
    )
    status, lines, _ = run(write(tmp_path, hand))
    assert status == 0
    assert lines == [
        {
            "finished": False,
            "chips": [990, 970, 970],
            "pot": 70,
            "to_act": 1,
            "stake": 10,
            "waiting_for": 2,
        }
    ]


def test_an_illegal_action_stops_the_replay(tmp_path: Path) -> None:
    hand = with_changes(
        actions=[
            {"seat": 2, "do": "chaal"},
            {"seat": 0, "do": "chaal"},  # seat 1's turn
            {"seat": 1, "do": "pack"},
        ]
    )
    status, lines, _ = run(write(tmp_path, hand))
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["error"]["action"] == 1
    assert lines[0]["error"]["code"] == "turn/not_yours"
    assert lines[0]["error"]["reason"]


def test_invalid_json(tmp_path: Path) -> None:
    status, lines, _ = run(write(tmp_path, '{"format": "teenpatti-hand/1", "seats": ['))
    assert status == 1
    assert len(lines) == 1
    error = lines[0]["error"]
    assert error["action"] is None
    assert error["code"] == "history/json"
    assert error["reason"]


def test_a_missing_file(tmp_path: Path) -> None:
    status, lines, _ = run(str(tmp_path / "nowhere.json"))
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["error"]["action"] is None
    assert lines[0]["error"]["reason"]


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"rules": {"preset": "texas"}}, "rules/preset"),
        ({"rules": {"preset": "nepal", "boot": 7}}, "rules/boot"),
        ({"rules": {"preset": "nepal", "jokers": True}}, "rules/jokers"),
        (
            {
                "seats": [
                    {"name": "A", "chips": 1000, "cards": "Kh Kd 5s"},
                    {"name": "B", "chips": 1000, "cards": "Kh 8d 7h"},
                ]
            },
            "hand/cards",
        ),
        (
            {
                "seats": [
                    {"name": "A", "chips": 1000, "cards": "Kh Kd 5s"},
                    {"name": "B", "chips": 1000, "cards": "9c 8d"},
                ]
            },
            "hand/cards",
        ),
        ({"dealer": 5}, "hand/dealer"),
    ],
)
def test_file_level_errors(tmp_path: Path, change: dict[str, Any], code: str) -> None:
    status, lines, _ = run(write(tmp_path, with_changes(**change)))
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["error"]["action"] is None
    assert lines[0]["error"]["code"] == code


def test_an_array_prints_one_line_per_hand(tmp_path: Path) -> None:
    finished = with_changes(actions=[{"seat": 2, "do": "pack"}, {"seat": 1, "do": "pack"}])
    illegal = with_changes(actions=[{"seat": 1, "do": "pack"}])
    status, lines, _ = run(write(tmp_path, [HAND, finished]))
    assert status == 0
    assert [line["finished"] for line in lines] == [False, True]
    assert lines[1]["ended_by"] == "last_player"
    assert lines[1]["chips"] == [1020, 990, 990]
    status, lines, _ = run(write(tmp_path, [finished, illegal, HAND]))
    assert status == 1
    assert len(lines) == 3
    assert lines[0]["finished"] is True
    assert lines[1]["error"]["action"] == 0
    assert lines[2]["finished"] is False


def test_dash_reads_standard_input() -> None:
    status, lines, _ = run("-", stdin=json.dumps(HAND))
    assert status == 0
    assert lines == [
        {"finished": False, "chips": [990, 950, 980], "pot": 80, "to_act": 0, "stake": 20}
    ]
    status, lines, _ = run("-", stdin="not json")
    assert status == 1
    assert lines[0]["error"]["action"] is None


def test_deeply_nested_json_is_refused_cleanly(tmp_path: Path) -> None:
    status, lines, _ = run(write(tmp_path, "[" * 100_000))
    assert status == 1
    assert len(lines) == 1
    assert lines[0]["error"]["action"] is None
