"""The README's examples run: its ``pycon`` sessions as doctests, and each ``teenpatti replay``
example prints exactly the line the README shows (run in-process through typer's runner)."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from teenpatti.cli import commands
from teenpatti.tables.play.settings import BOT_LEVELS

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")

SESSIONS = re.findall(r"```pycon\n(.*?)```", README, flags=re.DOTALL)
REPLAYS = re.findall(
    r"`teenpatti replay\s+(\S+)` prints:\s*```json\n(.*?)\n```", README, flags=re.DOTALL
)


def test_the_readme_has_examples() -> None:
    assert SESSIONS and len(REPLAYS) >= 2


@pytest.mark.parametrize("number", range(len(SESSIONS)))
def test_python_session(number: int) -> None:
    test = doctest.DocTestParser().get_doctest(
        SESSIONS[number], {}, f"README.md session {number + 1}", "README.md", 0
    )
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures: list[str] = []
    runner.run(test, out=failures.append)
    assert runner.tries > 0
    assert not failures, "".join(failures)


@pytest.mark.parametrize(("file", "printed"), REPLAYS, ids=[f for f, _ in REPLAYS])
def test_replay_example(file: str, printed: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    result = CliRunner().invoke(commands(), ["replay", file])
    assert result.stdout.strip() == printed.strip()
    assert result.exit_code == (1 if '"error"' in printed else 0)


def test_the_docs_name_every_level_of_the_computer() -> None:
    protocol = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    row = next(line for line in protocol.splitlines() if line.startswith("| `bots` |"))
    said = re.search(
        r"computer players\*\* \(`teenpatti.bots`\) at (\w+) strengths \(([^)]*)\)", README
    )
    assert said is not None, "the README names the computer's strengths"
    words = {"four": 4, "five": 5, "six": 6}
    assert words.get(said.group(1)) == len(BOT_LEVELS)
    for level in BOT_LEVELS:
        assert f"`{level}`" in said.group(2), level
        assert f"`{level}`" in row, level
