"""Faults, timed: for each kind of fault, the seconds until every table moves again.

    .venv/bin/python bench/faults.py --rounds 1

The scenario of ``tests/scale/test_faults.py``, run here outside pytest: a private PostgreSQL
(behind a proxy that can lose a commit's acknowledgement) and a private Redis started from the
Debian packages' binaries, two ``teenpatti serve`` processes on them, four tables played by people
connected to both; then, in turn, PostgreSQL restarts (down 1.5 s), its backends are terminated, an
append's acknowledgement is lost, Redis is paused for 5 s (SIGSTOP) and the process holding most
leases is killed (SIGKILL). For each fault: the seconds from the end of the fault until every
table's log has grown again (measured on PostgreSQL). With ``--rounds`` above 1, the median.
The same checks as the test run after each round. Everything stays on 127.0.0.1; every wait is
bounded; the servers, PostgreSQL and Redis are stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support.cluster import FAST, Client, Server  # noqa: E402
from support.faults import PgProxy, play_through_faults  # noqa: E402
from support.services import PgCluster, RedisServer  # noqa: E402


def one_round(pg: PgCluster, redis_server: RedisServer, number: int) -> dict[str, float]:
    dbname = f"bench_faults_{number}"
    pg.create_database(dbname)
    redis_server.command("FLUSHALL")
    proxy = PgProxy(pg.port).start()
    folder = Path(tempfile.mkdtemp(prefix="teenpatti-faults-"))
    servers = []
    clients: list[Client] = []

    def ws(where: Any, code: str, seat: int | None, label: str = "") -> Client:
        client = Client(where.ws, code, seat, label)
        clients.append(client)
        return client

    try:
        for name in ("a", "b"):
            args = [*FAST, "--database", proxy.url(dbname), "--bus", redis_server.url(0)]
            srv = Server(folder / name, args=args)
            srv.start(120.0)
            servers.append(srv)
        faults = (pg, redis_server, redis_server.url(0), proxy, dbname)
        return asyncio.run(asyncio.wait_for(play_through_faults(*faults, servers, ws), 300))
    finally:
        for srv in servers:
            srv.stop()
        proxy.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    pg, redis_server = PgCluster(), RedisServer()
    try:
        pg.start()
        redis_server.start()
        rounds = []
        for number in range(args.rounds):
            took = one_round(pg, redis_server, number)
            print(json.dumps({"round": number, **{k: round(v, 2) for k, v in took.items()}}))
            rounds.append(took)
        summary = {k: round(statistics.median(r[k] for r in rounds), 2) for k in rounds[0]}
        print(json.dumps({"seconds_until_every_table_moves_again": summary}))
    finally:
        redis_server.stop()
        pg.stop()


if __name__ == "__main__":
    main()
