"""``teenpatti verify FILE``: check that a server's deals were fair, from the histories alone."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..engine.history import verify_game
from . import app


@app.command()
def verify(
    file: str = typer.Argument(..., help="Hand histories downloaded from a table; - reads stdin."),
) -> None:
    """Check a game's whole chain: each hand's server secret against the commitment published
    before it, the players' contributions, every card dealt against the cards commitment, every
    shown hand and result, and the hands in order. One line of JSON per hand; exit status 1 if
    any fails. A history given out during a game is checked as far as it goes (the cards it
    shows, against the cards commitment: "complete": false)."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        typer.echo(json.dumps({"verified": False, "reason": f"cannot read {file}: {error}"}))
        raise typer.Exit(1) from None
    hands = data if isinstance(data, list) else [data]
    results = verify_game(hands)
    for result in results:
        typer.echo(json.dumps(result.to_json()))
    raise typer.Exit(0 if results and all(r.verified for r in results) else 1)
