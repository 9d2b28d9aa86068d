"""Start-up time against history length: how long ``teenpatti serve`` takes to answer ``/readyz``
over a SQLite data folder of ``--tables`` tables with N events each, for each N of ``--events``,
and how long the first look at one table then takes (its log replayed on first use).

    .venv/bin/python bench/startup.py --tables 1000 --events 0,100,300

The data folders are written here, directly through the store (one table's log, played by the
engine with random legal moves, copied to every table under its own id and code). The empty
folder (0 events) is the baseline of the same run: the figures to read are the differences and
ratios to it (the machine may be loaded; the baseline is loaded alike). Everything stays on
127.0.0.1; every wait is bounded; the folders are removed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from proc import cpu_seconds

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.codes import ALPHABET, new_seed
from teenpatti.tables.play.commands import Move, read
from teenpatti.tables.play.events import encode
from teenpatti.tables.play.table import Settings, Table, token_hash

HERE = Path(__file__).resolve().parent


def one_log(events: int, rng: random.Random) -> list[dict[str, Any]]:
    """A table's log of about ``events`` events: two people and two computers playing random
    legal moves, game after game."""
    table = Table("x", "XXXXXX")
    log = []

    def add(event: Any) -> None:
        table.apply(event)
        log.append(encode(event))

    from teenpatti.tables.play.events import Created, Host

    settings = Settings.from_json({"seats": 4, "preset": "nepal"})
    add(Created(settings=settings, host=Host(name="Host", token_hash=token_hash("t0"))))
    add(table.join_event("Guest", "t1"))
    add(table.start_event(0, new_seed()))
    while len(log) < events:
        if table.status == "finished":
            for event in table.again_event(0, new_seed()):  # the host starts the next game
                add(event)
        elif not table.hand_in_play:
            add(table.hand_event(new_seed()))
        else:
            assert table.game is not None and table.game.hand is not None
            seat = table.game.hand.actor
            legal = table.game.hand.legal_actions(seat)
            move = rng.choice(legal)
            raw: dict[str, Any] = {"do": move.kind.value}
            if move.kind.value == "sideshow" and move.targets:
                raw["with"] = rng.choice(list(move.targets))
            add(table.act_event(seat, read(Move, raw, "action")))
    return log[:events] if events else log[:1]


def write_folder(folder: Path, tables: int, log: list[dict[str, Any]]) -> list[str]:
    """``tables`` copies of ``log`` in a new SQLite store; their codes."""
    store = SqliteStore(folder / "teenpatti.sqlite3")
    rng = random.Random(7)
    codes = []
    now = time.time()
    with store.db:
        store.db.execute("BEGIN")
        for i in range(tables):
            code = "".join(rng.choice(ALPHABET) for _ in range(6))
            table_id = f"bench{i:06d}"
            store.db.execute(
                "INSERT OR IGNORE INTO tables (table_id, code, created) VALUES (?, ?, ?)",
                (table_id, code, now),
            )
            store.db.executemany(
                "INSERT INTO events (table_id, version, data, at) VALUES (?, ?, ?, ?)",
                [(table_id, v, json.dumps(e), now) for v, e in enumerate(log, 1)],
            )
            codes.append(code)
    asyncio.run(store.close())
    return codes


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def measure(folder: Path, code: str) -> dict[str, float]:
    """Seconds from starting ``teenpatti serve`` to ``/readyz`` 200 (and the CPU seconds the
    process used until then), then to one table's info."""
    port = free_port()
    command = [str(Path(sys.executable).parent / "teenpatti"), "serve", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data", str(folder)]
    started = time.monotonic()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        ready = None
        while time.monotonic() - started < 120:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1).status_code == 200:
                    ready = time.monotonic() - started
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.02)
        assert ready is not None, "the server was not ready in 120 s"
        cpu = round(cpu_seconds(proc.pid), 3)  # what start-up costs, whatever the load
        before = time.monotonic()
        reply = httpx.get(f"http://127.0.0.1:{port}/api/tables/{code}", timeout=30)
        assert reply.status_code == 200, reply.text
        first = time.monotonic() - before
        return {"ready_s": round(ready, 3), "ready_cpu_s": cpu, "first_open_s": round(first, 3)}
    finally:
        proc.terminate()
        proc.wait(20)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--events", default="0,100,300", help="events per table, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = random.Random(1)
    root = Path(tempfile.mkdtemp(prefix="teenpatti-startup-"))
    results = []
    try:
        for events in [int(e) for e in args.events.split(",")]:
            folder = root / f"e{events}"
            folder.mkdir()
            codes = write_folder(folder, args.tables, one_log(events, rng))
            runs = [measure(folder, codes[i]) for i in range(args.repeat)]
            row = {
                "tables": args.tables,
                "events_per_table": max(events, 1),
                "ready_s": statistics.median(r["ready_s"] for r in runs),
                "ready_cpu_s": statistics.median(r["ready_cpu_s"] for r in runs),
                "first_open_s": statistics.median(r["first_open_s"] for r in runs),
            }
            results.append(row)
            print(json.dumps(row), flush=True)
        base = results[0]["ready_s"]
        for row in results:
            row["ready_vs_empty"] = round(row["ready_s"] / base, 2)
        print(json.dumps({"startup": results}))
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
