"""``teenpatti rank``: hands best first, shared places, JSON, options, and clean errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from teenpatti.cli import app
from teenpatti.cli.rank import rank

# The command on an app of its own, kept a group by a callback, so that ``rank`` is invoked by
# name whichever other commands happen to be registered on the real app.
cli_app = typer.Typer()
cli_app.callback()(lambda: None)
cli_app.command("rank")(rank)
runner = CliRunner()


def test_registered_on_the_teenpatti_app() -> None:
    assert any(info.callback is rank for info in app.registered_commands)


def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(cli_app, ["rank", *args], input=stdin)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def ranked(*args: str, stdin: str | None = None) -> list[dict[str, object]]:
    code, out, err = run("--json", *args, stdin=stdin)
    assert code == 0, err
    rows = json.loads(out)
    assert isinstance(rows, list)
    return rows


def test_best_first_with_shared_places() -> None:
    rows = ranked("Kd Kh 9s", "2c 3d 5h", "As Ks Qs", "Kc Ks 9h", "7s 7h 7d")
    assert rows == [
        {"cards": "7s 7h 7d", "category": "trail", "place": 1},
        {"cards": "As Ks Qs", "category": "pure_sequence", "place": 2},
        {"cards": "Kd Kh 9s", "category": "pair", "place": 3},
        {"cards": "Kc Ks 9h", "category": "pair", "place": 3},
        {"cards": "2c 3d 5h", "category": "high_card", "place": 5},
    ]


def test_equal_best_hands_share_first_place() -> None:
    places = [row["place"] for row in ranked("Ac Kd 2h", "As Kh 2c", "Qs Jh 3c")]
    assert places == [1, 1, 3]


def test_plain_output_lists_place_cards_and_kind() -> None:
    code, out, _ = run("4c 3d 2h", "10s Js Qs")
    assert code == 0
    lines = out.splitlines()
    assert len(lines) == 2
    assert lines[0] == "1  Ts Js Qs  Pure sequence, Q-J-10"
    assert lines[1].startswith("2  4c 3d 2h") and "Sequence" in lines[1]


def test_hands_from_standard_input() -> None:
    rows = ranked(stdin="2c 3d 5h\n\nAs Ks Qs\n  Ah 2h 3h  \n")
    assert [row["cards"] for row in rows] == ["As Ks Qs", "Ah 2h 3h", "2c 3d 5h"]


def test_options_change_the_order() -> None:
    hands = ("As Ks Qs", "Ah 2h 3h", "4s 3s 2s")
    assert [r["cards"] for r in ranked(*hands)] == ["As Ks Qs", "Ah 2h 3h", "4s 3s 2s"]
    highest = ranked("--option", "a23=highest", *hands)
    assert [r["cards"] for r in highest] == ["Ah 2h 3h", "As Ks Qs", "4s 3s 2s"]
    lowest = ranked("--option", "a23=lowest", *hands)
    assert [r["cards"] for r in lowest] == ["As Ks Qs", "4s 3s 2s", "Ah 2h 3h"]


def test_suits_break_ties_option_parses_as_json() -> None:
    rows = ranked("--option", "suits_break_ties=true", "Kd Kh 9s", "Kc Ks 9h")
    assert [(r["cards"], r["place"]) for r in rows] == [("Kc Ks 9h", 1), ("Kd Kh 9s", 2)]


def test_two_three_five_and_muflis() -> None:
    rows = ranked("--option", "two_three_five=true", "2c 3c 5c", "Ad Kh Qs")
    assert rows[0] == {"cards": "2c 3c 5c", "category": "pure_sequence", "place": 1}
    rows = ranked("--option", "variant=muflis", "As Ks Qs", "2c 3d 5h")
    assert [r["cards"] for r in rows] == ["2c 3d 5h", "As Ks Qs"]


def test_presets() -> None:
    assert ranked("--rules", "classic", "As Ks Qs")[0]["place"] == 1


def test_jokers_and_wild_cards() -> None:
    rows = ranked("--option", "variant=jokers", "Jk Jk 2c", "As Ks Qs", "Jk As Ks")
    assert [(r["cards"], r["category"], r["place"]) for r in rows] == [
        ("Jk Jk 2c", "trail", 1),
        ("As Ks Qs", "pure_sequence", 2),
        ("Jk As Ks", "pure_sequence", 2),
    ]
    rows = ranked("--option", "variant=wild_rank", "--wild", "9c", "As Ks Qs", "9s 9h 2d")
    assert [(r["cards"], r["category"]) for r in rows] == [
        ("9s 9h 2d", "trail"),
        ("As Ks Qs", "pure_sequence"),
    ]
    rows = ranked("--option", "variant=wild_rank", "As Ks Qs", "9s 9h 2d")
    assert rows[1]["category"] == "pair"


@pytest.mark.parametrize(
    ("args", "stdin", "words"),
    [
        (["As Ks"], None, "three cards"),
        (["As Ks Qs Js"], None, "three cards"),
        (["As Ks Xx"], None, "not a card"),
        (["As As Ks"], None, "twice"),
        (["Jk As Ks"], None, "joker"),
        (["--rules", "casino", "As Ks Qs"], None, "preset"),
        (["--option", "colour=red", "As Ks Qs"], None, "colour"),
        (["--option", "a23=top", "As Ks Qs"], None, "a23"),
        (["--option", "a23", "As Ks Qs"], None, "NAME=VALUE"),
        (["--wild", "9c", "As Ks Qs"], None, "wild_rank"),
        (["--option", "variant=wild_rank", "--wild", "9x", "As Ks Qs"], None, "not a card"),
        (["--option", "variant=wild_rank", "--wild", "Jk", "As Ks Qs"], None, "joker"),
        ([], "As Ks Qs\nAs Kd\n", "line 2"),
        ([], "\n\n", "no hands"),
    ],
)
def test_bad_input_is_one_line_on_stderr_and_status_2(
    args: list[str], stdin: str | None, words: str
) -> None:
    code, out, err = run(*args, stdin=stdin)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert words in err
    assert "Traceback" not in err


def test_console_script() -> None:
    script = Path(sys.executable).parent / "teenpatti"
    if not script.exists():
        pytest.skip("the console script is not installed")
    done = subprocess.run(
        [str(script), "rank", "--json", "2c 3d 5h", "As Ks Qs"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert [row["cards"] for row in json.loads(done.stdout)] == ["As Ks Qs", "2c 3d 5h"]
    bad = subprocess.run(
        [str(script), "rank", "As Ks"], capture_output=True, text=True, check=False
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: ") and "Traceback" not in bad.stderr
