"""Benchmark: how long the event loop waits while computer players think, on their thread or on
the loop.

Run ``.venv/bin/python bench/bench_thinking.py [--tables 3 --seats 4 --bots expert --seconds 20]``.
It plays ``--tables`` tables of one person and ``--seats - 1`` computers of level ``--bots``
through the real table service (SQLite in a temporary folder, the system clock, no pauses: the
computers move as fast as they decide; the person packs at once), twice: first with the service
as it is (decisions on the computers' thread, :mod:`teenpatti.tables.live.thinker`), then with every
decision made on the event loop, as before that thread existed. Meanwhile a ticker asks the loop
for a 5 ms timer, again and again, and records how late each one fires: the wait every other
table's moves, pings and sockets would see. Printed for each mode: the ticks' lateness (median,
p99, max, in ms), the commands stored a second (the computers' moves and the deals), and the
ratio of the two modes' p99.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from teenpatti.bots import DecidesActions
from teenpatti.engine import Action, HandView
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.thinker import Failed, Thinker
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.settings import read_request

TIMING = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, idle_after=1e9)
TICK = 0.005


class OnTheLoop(Thinker):
    """Every decision made on the event loop (the service before the computers' thread)."""

    def ask(self, bot: DecidesActions, seen: HandView) -> asyncio.Future[Action | Failed]:
        answer: asyncio.Future[Action | Failed] = asyncio.get_running_loop().create_future()
        answer.set_result(bot.decide(seen))
        return answer


async def play(args: argparse.Namespace, inline: bool, folder: Path) -> tuple[list[float], int]:
    """Run the tables for ``args.seconds``; the ticks' lateness (s) and the decisions made."""
    service = TableService(
        SqliteStore(folder / f"{'loop' if inline else 'thread'}.sqlite3"), TIMING
    )
    if inline:
        service.clocks.thinker = OnTheLoop()
    await service.start()
    codes = []
    for _ in range(args.tables):
        code, _, _ = await service.create(
            read_request(
                {
                    "name": "Asha",
                    "seats": args.seats,
                    "computer": True,
                    "turn_seconds": None,
                    "bots": args.bots,
                }
            )
        )
        codes.append(code)
    late: list[float] = []
    stop = time.monotonic() + args.seconds
    stored = service.metrics.registry.get_sample_value
    start_actions = stored("teenpatti_actions_total") or 0.0
    while (now := time.monotonic()) < stop:
        await asyncio.sleep(TICK)
        late.append(time.monotonic() - now - TICK)
        for code in codes:  # the person packs when the turn is theirs
            table = service.get(code).table
            hand = table.game.hand if table.game is not None else None
            if hand is not None and not hand.finished and hand.actor == 0:
                await service.command(code, 0, convert({"type": "act", "action": {"do": "pack"}}))
    actions = int((stored("teenpatti_actions_total") or 0.0) - start_actions)
    await service.stop()
    await service.store.close()
    return late, actions


def main() -> None:
    """Measure both modes and print a line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=3)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--bots", default="expert")
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    import teenpatti.bots  # noqa: F401 - the computer players load before the clock starts

    p99s = {}
    with tempfile.TemporaryDirectory() as folder:
        for inline in (False, True):
            late, actions = asyncio.run(play(args, inline, Path(folder)))
            ms = sorted(x * 1000 for x in late)
            p99 = ms[int(0.99 * (len(ms) - 1))]
            p99s[inline] = p99
            mode = "on the loop  " if inline else "on a thread  "
            print(
                f"{mode} ticks {len(ms):,}: late median {statistics.median(ms):.2f} ms,"
                f" p99 {p99:.2f} ms, max {ms[-1]:.2f} ms; {actions / args.seconds:.1f} commands"
                " stored a second"
            )
    print(f"p99 lateness, loop / thread: {p99s[True] / p99s[False]:.2f}x")


if __name__ == "__main__":
    main()
