"""Benchmark of what a move sends: whole states against patches, bytes and fan-out CPU per move.

Run ``.venv/bin/python bench/bench_patches.py [--tables 20 --moves 3000 --rounds 3]``. Each round
plays ``--moves`` moves at ``--tables`` six-seat tables through the real table service (SQLite
store in a temporary folder, a hand-driven clock, no sockets), every table with six seat
connections and one spectator's, all of whose clients take whole states (``whole``: the old way)
or all of which apply patches (``patches``); the rounds of the two alternate in one run, so the
load of the machine falls on both alike. The moves are random legal ones (chaal most often, so
hands grow long), the same seed for both. Figures, per move:

- bytes sent per socket (mean, and by how many moves the hand had already: a whole state grows
  with the hand, a patch should not);
- CPU of the fan-out (``Fanout.broadcast``: building, diffing and encoding what each socket is
  sent; the event loop's thread), and CPU of the whole move (the command, its store append and
  the fan-out; the process's, the store's writer thread included);

with the ratio of ``patches`` to ``whole``, and the machine's load before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection, LiveTable
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

TIMING = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, idle_after=1e9)
WEIGHTS = {"chaal": 8, "see": 3, "raise": 1, "pack": 1, "show": 1, "sideshow": 1}


async def random_move(
    service: TableService,
    clock: ManualClock,
    live: LiveTable,
    rng: random.Random,
    weights: Mapping[str, float],
) -> tuple[int, dict[str, Any]] | None:
    """The seat to act at ``live`` and a move for it drawn by ``weights``; or ``None`` after
    starting the next game or letting the clock deal the next hand (nobody to act yet)."""
    table = live.table
    if table.status == "finished":
        await service.command(table.code, 0, convert({"type": "again"}))
        await clock.advance(0.0)
        await service.tasks.settle()
        return None
    hand = None if table.game is None else table.game.hand
    if hand is None or hand.finished:
        await clock.advance(0.0)
        await service.tasks.settle()
        return None
    actor = hand.actor
    if actor is None:
        return None
    legal = json.loads(service.render(live, actor))["legal"]
    if not legal:
        return None
    move = rng.choices(legal, [weights.get(m["do"], 1) for m in legal])[0]
    action: dict[str, Any] = {"do": move["do"]}
    if move["do"] == "sideshow":
        action["with"] = rng.choice(move["targets"])
    return actor, action


BUCKETS = ((0, 5), (5, 10), (10, 20), (20, 10_000))
"""Moves the hand had already, for the bytes by hand length."""


def bucket(done: int) -> str:
    return next(f"{lo}-{hi - 1}" if hi < 10_000 else f"{lo}+" for lo, hi in BUCKETS if done < hi)


async def one_round(mode: str, tables: int, moves: int, seed: int, folder: Path) -> dict[str, Any]:
    """Play ``moves`` moves over ``tables`` tables; the figures of this round."""
    clock = ManualClock()
    store = SqliteStore(folder / f"{mode}-{seed}.sqlite3")
    service = TableService(store, TIMING, clock)
    rng = random.Random(seed)
    fanout_cpu = 0.0
    broadcast = service.fanout.broadcast

    def timed(live: LiveTable, but: Connection | None = None) -> None:
        nonlocal fanout_cpu
        started = time.thread_time()  # the loop's thread: not the store's writer thread
        broadcast(live, but)
        fanout_cpu += time.thread_time() - started

    service.fanout.broadcast = timed  # type: ignore[method-assign]
    lives: list[LiveTable] = []
    try:
        for t in range(tables):
            code, _, _ = await service.create(
                read_request({"name": "Host", "seats": 6, "hands": 30, "turn_seconds": None})
            )
            for k in range(1, 6):
                await service.join(code, f"P{t}-{k}")
            live = service.get(code)
            sockets = live.presence.connections
            for seat in (0, 1, 2, 3, 4, 5, None):
                sockets.add(Connection(seat, limit=100_000, patches=mode == "patches"))
            await service.command(code, 0, convert({"type": "start"}))
            lives.append(live)
        await clock.advance(0.0)
        await service.tasks.settle()
        sent = 0
        by_length: dict[str, list[float]] = {}
        move_cpu = 0.0
        fanout_cpu = 0.0
        made = 0
        while made < moves:
            for live in lives:
                for conn in live.presence.connections:  # what the setup sent
                    while not conn.queue.empty():
                        conn.queue.get_nowait()
                table = live.table
                chosen = await random_move(service, clock, live, rng, WEIGHTS)
                if chosen is None:
                    continue
                actor, action = chosen
                hand = live.fanout.render.public_state().hand
                done = 0 if hand is None else len(hand.actions)
                started = time.process_time()
                await service.command(table.code, actor, convert({"type": "act", "action": action}))
                await service.tasks.settle()
                move_cpu += time.process_time() - started
                made += 1
                size = 0
                for conn in live.presence.connections:
                    while not conn.queue.empty():
                        message = conn.queue.get_nowait()
                        size += len(message.encode()) if message else 0
                per_socket = size / len(live.presence.connections)
                sent += size
                by_length.setdefault(bucket(done), []).append(per_socket)
                if made >= moves:
                    break
        sockets = 7
        return {
            "bytes_per_socket": sent / made / sockets,
            "bytes_by_hand_length": {k: statistics.fmean(v) for k, v in by_length.items()},
            "fanout_cpu_us": fanout_cpu / made * 1e6,
            "move_cpu_us": move_cpu / made * 1e6,
        }
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=20)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()
    load_before = os.getloadavg()
    runs: dict[str, list[dict[str, Any]]] = {"whole": [], "patches": []}
    with tempfile.TemporaryDirectory(prefix="teenpatti-patches-") as folder:
        for mode in runs:  # warm up: the evaluator's tables, the first imports
            asyncio.run(one_round(mode, 1, 50, args.seed, Path(folder)))
        for r in range(args.rounds):
            for mode in ("whole", "patches") if r % 2 == 0 else ("patches", "whole"):
                got = asyncio.run(
                    one_round(mode, args.tables, args.moves, args.seed + r, Path(folder))
                )
                runs[mode].append(got)
                print(
                    f"round {r + 1} {mode:>7}: {got['bytes_per_socket']:7.0f} B/socket/move, "
                    f"fan-out {got['fanout_cpu_us']:6.0f} us, move {got['move_cpu_us']:6.0f} us"
                )
    load_after = os.getloadavg()

    def median(mode: str, key: str) -> float:
        return float(statistics.median(r[key] for r in runs[mode]))

    print(f"\n{args.tables} tables x 7 sockets (6 seats, 1 spectator), {args.moves} moves a round")
    print(f"{'per move':<34}{'whole':>10}{'patches':>10}{'ratio':>8}")
    for label, key in (
        ("bytes per socket", "bytes_per_socket"),
        ("fan-out CPU us", "fanout_cpu_us"),
        ("whole move CPU us", "move_cpu_us"),
    ):
        old, new = median("whole", key), median("patches", key)
        print(f"{label:<34}{old:>10.0f}{new:>10.0f}{new / old:>8.2f}")
    print("bytes per socket by moves already in the hand:")
    for name in (bucket(lo) for lo, _ in BUCKETS):
        olds = [r["bytes_by_hand_length"].get(name) for r in runs["whole"]]
        news = [r["bytes_by_hand_length"].get(name) for r in runs["patches"]]
        olds_seen = [v for v in olds if v is not None]
        news_seen = [v for v in news if v is not None]
        if not olds_seen or not news_seen:  # a short run may make no move this deep in a hand
            print(f"  {name:<32}{'-':>10}{'-':>10}{'-':>8}")
            continue
        old, new = statistics.fmean(olds_seen), statistics.fmean(news_seen)
        print(f"  {name:<32}{old:>10.0f}{new:>10.0f}{new / old:>8.2f}")
    cores = os.cpu_count()
    print(f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} on {cores} cores")


if __name__ == "__main__":
    main()
