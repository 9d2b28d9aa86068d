"""``teenpatti replay FILE``: re-play hand histories through the engine and print each outcome."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..engine.history import HistoryError, replay_text
from . import app


@app.command()
def replay(
    file: str = typer.Argument(
        ..., help="A teenpatti-hand/1 file (one hand or an array); - reads stdin."
    ),
) -> None:
    """Replay every hand in FILE, checking every action, and print one JSON outcome per hand.

    Exit status 1 if any hand holds an illegal action or cannot be read, else 0.
    """
    if file == "-":
        results = replay_text(sys.stdin.read())
    elif not Path(file).is_file():
        results = [HistoryError("history/file", f"there is no file {file}")]
    else:
        try:
            text = Path(file).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as error:
            results = [HistoryError("history/file", f"cannot read {file}: {error}")]
        else:
            results = replay_text(text)
    for result in results:
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False))
    raise typer.Exit(1 if any(isinstance(r, HistoryError) for r in results) else 0)
