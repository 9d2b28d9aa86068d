"""``teenpatti doctor``: check a data folder (or a PostgreSQL database) table by table.

Every table's log is replayed as the server would load it; each table whose log cannot be read
or replayed is listed with the reason (the server refuses such a table with ``table/damaged`` and
serves every other). For SQLite the file's own integrity check runs first. Exit status 1 if
anything is damaged.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path

import typer

from ..store import open_store
from ..store.base import DamagedLog
from ..tables.live.registry import replay
from . import app


@app.command()
def doctor(
    data: Path = typer.Option(Path("data"), "--data", help="Folder of the SQLite event store."),
    database: str = typer.Option(
        None, "--database", help="postgresql://... (default: SQLite in --data)."
    ),
) -> None:
    """Say which tables of a data folder (or database) are damaged; one JSON line each, then
    a summary. Exit status 1 if any is."""
    problems = asyncio.run(_check(data, database))
    raise typer.Exit(1 if problems else 0)


async def _check(data: Path, database: str | None) -> int:
    problems = 0
    if database is None:
        path = data / "teenpatti.sqlite3"
        if not path.is_file():
            typer.echo(json.dumps({"store": str(path), "ok": False, "reason": "no such file"}))
            return 1
        problems += _integrity(path)
    try:
        store = await open_store(database, data)
        records = await store.tables()
    except Exception as error:
        typer.echo(json.dumps({"store": "open", "ok": False, "reason": str(error)}))
        return problems + 1
    try:
        for record in records:
            try:
                await replay(store, record.table_id, record.code)
            except DamagedLog as error:
                problems += 1
                typer.echo(
                    json.dumps(
                        {"table": record.code, "ok": False, "version": error.version}
                        | {"reason": str(error)}
                    )
                )
            except Exception as error:
                problems += 1
                typer.echo(json.dumps({"table": record.code, "ok": False, "reason": str(error)}))
    finally:
        await store.close()
    typer.echo(json.dumps({"tables": len(records), "damaged": problems}))
    return problems


def _integrity(path: Path) -> int:
    """SQLite's own check of the file's pages; the number of problems it reports."""
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
            rows = [r[0] for r in db.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as error:
        rows = [str(error)]
    if rows == ["ok"]:
        return 0
    for row in rows[:20]:
        typer.echo(json.dumps({"store": str(path), "ok": False, "reason": row}))
    return len(rows)
