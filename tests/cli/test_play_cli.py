"""``teenpatti play``, in-process through typer's runner: a whole game in the terminal, where the
person sees the table through its seat's view (never a computer player's cards before a show)."""

from __future__ import annotations

import re

from typer.testing import CliRunner

from teenpatti.cli import commands


def test_a_whole_game_shows_only_what_seat_0_may_see() -> None:
    # The person packs whenever it is their turn (without side shows nobody asks them anything).
    args = ["play", "--players", "3", "--hands", "10", "--bot", "random", "--seed", "01" * 32]
    done = CliRunner().invoke(commands(), [*args, "-o", "sideshow=off"], input="pack\n" * 40)
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "Standings" in out and out.count("Hand 10 of 10") >= 2
    # Every table drawn before the person's move: the other seats' cards are face down.
    turns = re.findall(r"((?:│[^\n]*\n)+)└[^\n]*\n[^\n]*\nYour move:", out)
    assert len(turns) >= 5
    for rows in turns:
        for row in rows.splitlines():
            if "│ You " not in row:
                assert "? ? ?" in row, rows
    # A hand ended by a show turns both hands still in over for everyone.
    shows = re.findall(r"((?:│[^\n]*\n)+)└[^\n]*\n[^\n]*\n[^\n]*\(show\)", out)
    for rows in shows:
        assert sum("? ? ?" not in row for row in rows.splitlines()) >= 2, rows
