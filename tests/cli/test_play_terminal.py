"""``teenpatti play`` as a person reads it: "You win" (never "You wins"), cards with their suit
symbols in colour, a line for every move of the others, a side show's outcome without its cards,
and ``q`` to leave, asked to confirm first."""

from __future__ import annotations

import re

from rich.console import Console
from typer.testing import CliRunner

from teenpatti.cli import commands
from teenpatti.cli.play import card_markup
from teenpatti.engine import parse_card

ARGS = ["play", "--players", "3", "--hands", "10", "--bot", "random", "--seed", "01" * 32]


def test_cards_have_suit_symbols_and_red_for_hearts_and_diamonds() -> None:
    console = Console(
        force_terminal=True, color_system="truecolor", record=True, width=40, highlight=False
    )
    for card in ("Ah", "Kd", "Qs", "Tc"):
        console.print(card_markup(parse_card(card)), end=" ")
    text = console.export_text(styles=False, clear=False)
    assert text.split() == ["A♥", "K♦", "Q♠", "10♣"]
    styled = console.export_text(styles=True)
    red = re.findall(r"\x1b\[[0-9;]*31m([^\x1b]+)", styled)
    assert red == ["A♥", "K♦"], styled


def test_a_game_reads_right_line_by_line() -> None:
    # See, then chaal every time and accept every side show: with this seed the person wins
    # pots, loses a side show and wins one.
    args = ["play", "--players", "4", "--hands", "10", "--bot", "medium", "--seed", "22" * 32]
    done = CliRunner().invoke(commands(), args, input="see\nchaal\naccept\n" * 600)
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert "You wins" not in out and "You gets" not in out
    assert re.search(r"^You win \d+", out, re.M), "the person never won a pot"
    assert re.search(r"^(Asha|Bikash|Chandra) wins \d+ with ", out, re.M)
    assert not re.search(r"\b[2-9TJQKA][shdc]\b", out), "cards written as letters"
    assert re.search(r"(?:[2-9JQKA]|10)[♠♥♦♣]", out)
    # every move of the others gets its own line
    verbs = {verb for verb in re.findall(r"^  (?:Asha|Bikash|Chandra) (\w+)", out, re.M)}
    assert verbs >= {"looks", "chaal", "asks"}, verbs
    # a side show's outcome is said without the cards, from the person's side too
    outcomes = re.findall(r"^  Side show: (.*hand was better.*)$", out, re.M)
    assert "Chandra's hand was better: you pack" in outcomes, outcomes
    assert "Your hand was better: Chandra packs" in outcomes, outcomes
    assert not any(re.search(r"[♠♥♦♣]", line) for line in outcomes)
    assert "Standings" in out and "(computer)" in out


def test_q_asks_before_leaving() -> None:
    # "q", then "n": the game goes on; "q" and "y": the person leaves.
    done = CliRunner().invoke(commands(), ARGS, input="q\nn\npack\nq\ny\n")
    assert done.exit_code == 0, done.output
    out = done.stdout
    assert out.count("Leave the game?") == 2
    assert "You pack" in out
    assert out.rstrip().endswith("You left the game.")
    assert "Standings" not in out


def test_menu_numbers_keep_their_meaning_blind_and_seen() -> None:
    # look (1), then chaal by its number (2) at every turn: 2 must stay Chaal once seen
    done = CliRunner().invoke(commands(), ARGS, input="1\n2\n" * 300)
    assert done.exit_code == 0, done.output
    meaning: dict[str, set[str]] = {}
    for menu in re.findall(r"^Your move: (.*)$", done.stdout, re.M):
        if "Accept" in menu:  # a side show asked: its two answers, offered alone, are 1 and 2
            continue
        for number, name in re.findall(r"(\d) ((?:See cards|Side show|All in|[A-Z][a-z]+))", menu):
            meaning.setdefault(number, set()).add(name)
    assert meaning["2"] == {"Chaal"}, meaning
    assert all(len(names) == 1 for names in meaning.values()), meaning
    assert re.search(r"^  You look at your cards\n(?:.*\n)*?  You chaal \d+$", done.stdout, re.M)


def test_a_raise_is_said_as_its_button_says_it() -> None:
    done = CliRunner().invoke(commands(), ARGS, input="raise\npack\n" * 300)
    assert done.exit_code == 0, done.output
    out = done.stdout
    said = []
    menu = ""
    for line in out.splitlines():
        if line.startswith("Your move:"):
            menu = line
        elif raised := re.fullmatch(r"(?:> )?  You raise (\d+)", line):
            button = re.search(r"Raise (\d+)", menu)
            said.append((button.group(1) if button else None, raised.group(1)))
    assert said, "the person never raised"
    assert all(button == line for button, line in said), said
    assert "the stake to" not in out


def test_a_short_game_is_explained_and_plays_at_another_table() -> None:
    refused = CliRunner().invoke(commands(), ["play", "--hands", "2"])
    assert refused.exit_code == 2
    said = " ".join(refused.stdout.split())
    assert "10, 20 or 30" in said and "--rules classic --hands 2" in said
    args = ["play", "--rules", "classic", "--hands", "2", "--bot", "random", "--seed", "03" * 32]
    done = CliRunner().invoke(commands(), args, input="pack\n" * 50)
    assert done.exit_code == 0, done.output
    assert "2 hands" in done.stdout and "Standings" in done.stdout


def test_chips_have_thousands_separators() -> None:
    args = ["play", "--rules", "club", "--hands", "2", "--bot", "random", "--seed", "04" * 32]
    done = CliRunner().invoke(commands(), args, input="pack\n" * 50)
    assert done.exit_code == 0, done.output
    assert re.search(r"\b1[12],\d{3}\b", done.stdout)  # the club's 12,800 chips, less and more
    assert not re.search(r"\b\d{4,}\b", done.stdout.replace("Teen Patti", "")), "a number unsplit"


def test_a_range_chaal_stops_below_the_raise() -> None:
    # classic plays range bets: "Chaal 20-40" beside "Raise 40" offered the same move twice
    args = ["play", "--rules", "classic", "--players", "3", "--hands", "3", "--bot", "random"]
    done = CliRunner().invoke(commands(), [*args, "--seed", "05" * 32], input="chaal\n\n" * 200)
    assert done.exit_code == 0, done.output
    menus = re.findall(r"^Your move: (.*)$", done.stdout, re.M)
    ranged = [m for m in menus if re.search(r"Chaal [\d,]+-", m)]
    assert ranged, "no range chaal was offered"
    for menu in ranged:
        top = re.search(r"Chaal [\d,]+-([\d,]+)", menu)
        raised = re.search(r"Raise ([\d,]+)", menu)
        assert top is not None
        if raised is not None:
            assert top.group(1) != raised.group(1), menu
