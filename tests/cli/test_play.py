"""``teenpatti play``: a whole game in the terminal at every preset's biggest table, with the house
rules the sources add (a fixed wild rank, muflis with wild cards, bigger bets)."""

from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from teenpatti.cli import app
from teenpatti.cli.play import play

cli_app = typer.Typer()
cli_app.callback()(lambda: None)
cli_app.command("play")(play)
runner = CliRunner()
SEED = "ab" * 32


def test_registered_on_the_teenpatti_app() -> None:
    assert any(info.callback is play for info in app.registered_commands)


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["--rules", "club", "--players", "10"], "club · boot 50"),
        (["--rules", "classic", "--players", "8", "-o", "range_max_stakes=4"], "classic"),
        (["--rules", "limited2", "--players", "6"], "limited2 · boot 4"),
        (["--rules", "duo", "--players", "2", "-o", "show_seen_vs_blind=quadruple"], "duo"),
        (["--rules", "club", "-o", "variant=fixed_rank", "-o", "fixed_rank=K"], "Wild: every K"),
        (["--rules", "limited", "-o", "variant=jokers", "-o", "muflis=true"], "Muflis: the lowest"),
    ],
)
def test_a_whole_game_packing_every_hand(args: list[str], shown: str) -> None:
    # The person packs whenever asked; the computer players play the hands out.
    result = runner.invoke(
        cli_app,
        ["play", "--hands", "2", "--seed", SEED, "--bot", "easy", *args],
        input="pack\n" * 200,
    )
    assert result.exit_code == 0, result.stdout
    assert shown in result.stdout
    assert "Standings" in result.stdout
    assert result.stdout.count("Your move:") >= 1


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--rules", "club", "--players", "11"], "seats 2 to 10"),
        (["-o", "all_in=two_left"], "pot limit"),
        (["-o", "fixed_rank=K"], "fixed_rank"),
    ],
)
def test_refused_tables(args: list[str], said: str) -> None:
    result = runner.invoke(cli_app, ["play", *args], input="")
    assert result.exit_code == 2
    assert said in result.stdout + result.stderr
