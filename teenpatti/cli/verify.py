"""``teenpatti verify FILE``: check that a server's deal was fair, from the revealed seed."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer

from ..engine.history import verify_deal
from . import app


@app.command()
def verify(
    file: str = typer.Argument(..., help="Hand histories downloaded from a table; - reads stdin."),
) -> None:
    """Re-derive each hand's deal from its revealed seed and check it against the commitment
    published before the deal and the cards the history shows. Exit status 1 if any fails."""
    try:
        text = sys.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8")
        data = json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        typer.echo(json.dumps({"verified": False, "reason": f"cannot read {file}: {error}"}))
        raise typer.Exit(1) from None
    hands = data if isinstance(data, list) else [data]
    results = [verify_deal(hand) for hand in hands]
    for result in results:
        typer.echo(json.dumps(result))
    raise typer.Exit(0 if results and all(r["verified"] for r in results) else 1)
