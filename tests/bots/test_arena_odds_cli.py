"""``teenpatti arena`` and ``teenpatti odds`` on the command line."""

from __future__ import annotations

import json

import typer
from typer.testing import CliRunner

from teenpatti.cli import app
from teenpatti.cli.arena import arena
from teenpatti.cli.odds import odds

# Each command on an app of its own (kept a group by a callback), whatever else is registered.
cli_app = typer.Typer()
cli_app.callback()(lambda: None)
cli_app.command("arena")(arena)
cli_app.command("odds")(odds)
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(cli_app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_registered_on_the_teenpatti_app() -> None:
    callbacks = {info.callback for info in app.registered_commands}
    assert arena in callbacks and odds in callbacks


def test_arena_json() -> None:
    args = ("arena", "--seats", "4", "--deals", "60", "--seed", "3", "--json", "hard", "medium")
    code, out, err = run(*args)
    assert code == 0, err
    data = json.loads(out)
    assert data["deals"] == 60 and data["seats"] == 4
    assert [b["bot"] for b in data["bots"]] == ["hard", "medium"]
    for b in data["bots"]:
        assert set(b) == {"bot", "boots_per_hand", "ci95"}
        assert isinstance(b["boots_per_hand"], float) and b["ci95"] > 0
    assert data["bots"][0]["boots_per_hand"] == -data["bots"][1]["boots_per_hand"]
    again = run(*args)[1]
    assert again == out


def test_arena_text_rules_and_options() -> None:
    code, out, err = run(
        "arena",
        "--seats",
        "3",
        "--deals",
        "20",
        "--rules",
        "classic",
        "--option",
        "variant=muflis",
        "easy",
        "random",
        "teenpatti.bots.hard:HardBot",
    )
    assert code == 0, err
    assert "20 duplicate deals at 3 seats (classic)" in out
    assert "teenpatti.bots.hard:HardBot" in out


def test_arena_progress_on_long_runs() -> None:
    code, _out, err = run("arena", "--deals", "1000", "--json", "random", "random")
    assert code == 0
    assert "deals 1,000/1,000" in err
    code, _out, err = run("arena", "--deals", "1000", "--json", "--quiet", "random", "random")
    assert code == 0 and err == ""


def test_arena_errors() -> None:
    code, _out, err = run("arena", "--deals", "10", "nobody")
    assert code == 2 and "unknown bot" in err
    code, _out, err = run("arena", "--seats", "3", "--rules", "duo", "easy")
    assert code == 2 and "seats 2 to 2" in err
    code, _out, err = run("arena", "--option", "boot=7", "easy")
    assert code == 2 and "boot" in err
    code, _out, err = run("arena", "--deals", "1", "easy")
    assert code == 2


def test_odds_text() -> None:
    code, out, err = run("odds", "As Kd 9c", "--opponents", "3")
    assert code == 0, err
    assert "High card, A-K-9" in out
    assert "against 3 random hands" in out and "seeded deals" in out
    assert "percentile 73.71" in out


def test_odds_json_exact_heads_up() -> None:
    code, out, err = run("odds", "Ah Ad 7c", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["exact"] is True and data["opponents"] == 1
    assert data["category"] == "pair"
    assert abs(data["win"] + data["tie"] + data["lose"] - 1) < 1e-5
    assert data["win"] == round(0.9113656100738168, 6)


def test_odds_rules_wild_and_dead() -> None:
    code, out, err = run(
        "odds", "5s 9c 2c", "--option", "variant=wild_rank", "--wild", "5d", "--json"
    )
    assert code == 0, err
    assert json.loads(out)["category"] == "colour"  # the wild five stands for a club
    code, out, err = run("odds", "As Kd 9c", "--dead", "Ah Ad", "--json")
    assert code == 0, err
    plain = json.loads(run("odds", "As Kd 9c", "--json")[1])
    assert json.loads(out)["win"] != plain["win"]


def test_odds_errors() -> None:
    for args, words in [
        (("As Kd",), "three cards"),
        (("As Kd Zz",), "not a card"),
        (("As Kd 9c", "--opponents", "0"), "at least 1"),
        (("As Kd 9c", "--opponents", "17"), "not enough cards"),
        (("As Kd 9c", "--wild", "5d"), "wild_rank"),
        (("As Kd Jk",), "jokers"),
        (("As Kd 9c", "--dead", "As"), "dead card"),
        (("As Kd 9c", "--rules", "nowhere"), "preset"),
    ]:
        code, _out, err = run("odds", *args)
        assert code == 2, args
        assert words in err, (args, err)
