"""Benchmark of a move's CPU in the table service, without sockets: where it goes, per move.

Run ``.venv/bin/python bench/bench_moves.py [--tables 20 --moves 1500]``. It plays ``--moves``
random legal moves (the load swarm's mix: chaal 4, show 4, pack 2, raise, accept, decline 1,
see 0.5, side show 0.3) at ``--tables`` six-seat tables through the real table service (SQLite
store in a temporary folder, a hand-driven clock), every seat with one socket that applies
patches and writes to a sink that drops the bytes (as ``teenpatti serve`` writes straight to the
transport). Figures, per move, in CPU microseconds:

- ``loop``: the event loop's thread for the command (parsing aside: the command is typed from
  its JSON first, as a socket's session types it): the engine, the events, the append's part on
  the loop, the fan-out;
- ``fanout``: of it, ``Fanout.broadcast`` (the public state, each seat's state, the diffs,
  the encoding, the writes to the sinks);
- ``commit``: the store's writer thread inside its commits;
- ``process``: every thread of the process.

To weigh a change, run it from two checkouts one after the other, several times, on the same
machine (``PYTHONPATH=<checkout>`` from a folder outside both), and compare the medians: the
machine is shared, so only runs close in time are comparable.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from bench_patches import random_move

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection, LiveTable
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play import commands
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

TIMING = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, idle_after=1e9)
WEIGHTS = {
    "chaal": 4.0,
    "show": 4.0,
    "pack": 2.0,
    "raise": 1.0,
    "accept": 1.0,
    "decline": 1.0,
    "see": 0.5,
    "sideshow": 0.3,
}
"""The load swarm's choice among the legal moves (bench/load/swarm.py)."""


class NullSink:
    """A socket's way out that takes every frame and drops it."""

    def ready(self) -> bool:
        return True

    def write(self, data: bytes) -> None:
        pass

    async def drained(self) -> None:
        pass


async def run(tables: int, moves: int, seed: int) -> dict[str, float]:
    """Play ``moves`` moves; the CPU figures per move."""
    folder = Path(tempfile.mkdtemp(prefix="bench-moves-"))
    clock = ManualClock()
    store = SqliteStore(folder / "moves.sqlite3")
    service = TableService(store, TIMING, clock)
    rng = random.Random(seed)
    spent = {"fanout": 0.0, "commit": 0.0}
    broadcast = service.fanout.broadcast
    commit = store._commit

    def timed_broadcast(live: LiveTable, but: Connection | None = None) -> None:
        started = time.thread_time()
        broadcast(live, but)
        spent["fanout"] += time.thread_time() - started

    def timed_commit(batch: Any) -> None:
        started = time.thread_time()
        commit(batch)
        spent["commit"] += time.thread_time() - started

    service.fanout.broadcast = timed_broadcast  # type: ignore[method-assign]
    store._commit = timed_commit  # type: ignore[method-assign]
    lives: list[LiveTable] = []
    try:
        for t in range(tables):
            code, _, _ = await service.create(
                read_request({"name": "Host", "seats": 6, "turn_seconds": None})
            )
            for k in range(1, 6):
                await service.join(code, f"P{t}-{k}")
            live = service.get(code)
            sockets = live.presence.connections
            for seat in range(6):
                sockets.add(Connection(seat, 100_000, None, NullSink(), patches=True))
            await service.command(code, 0, convert({"type": "start"}))
            lives.append(live)
        await clock.advance(0.0)
        await service.tasks.settle()
        spent["fanout"] = spent["commit"] = 0.0
        loop_cpu = 0.0
        process_started = time.process_time()
        made = 0
        while made < moves:
            for live in lives:
                table = live.table
                chosen = await random_move(service, clock, live, rng, WEIGHTS)
                if chosen is None:
                    continue
                actor, action = chosen
                # typed from its JSON as a socket's session does, outside the figures
                message = commands.decode(
                    json.dumps({"type": "act", "action": action, "version": table.version})
                )
                started = time.thread_time()
                await service.command(table.code, actor, message)
                await service.tasks.settle()
                loop_cpu += time.thread_time() - started
                made += 1
        process = time.process_time() - process_started
        return {
            "loop": loop_cpu / made * 1e6,
            "fanout": spent["fanout"] / made * 1e6,
            "commit": spent["commit"] / made * 1e6,
            "process": process / made * 1e6,
        }
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=1500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    before = os.getloadavg()[0]
    figures = asyncio.run(run(args.tables, args.moves, args.seed))
    after = os.getloadavg()[0]
    print(
        "CPU us per move: "
        + ", ".join(f"{name} {value:.1f}" for name, value in figures.items())
        + f" ({args.moves} moves at {args.tables} tables; load {before:.2f} -> {after:.2f})"
    )


if __name__ == "__main__":
    main()
