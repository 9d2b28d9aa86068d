"""Fault injection on real PostgreSQL and Redis, two ``teenpatti serve`` processes, people and
spectators on both. Tables play on while, in turn: PostgreSQL restarts mid-hand, its backends are
terminated, an append's acknowledgement is lost, Redis is paused (SIGSTOP) for 5 s, and the
process holding most tables' leases is killed (SIGKILL). After each fault every table moves again
within a bound; at the end every table's log is checked (no gap, no repeat, every move legal, chips
conserved, every finished hand replays and verifies, no connected person's seat handed to the
computer) and no client ever saw a version go back or a socket dropped by a store error.

A second test moves a person from one process to the other: they are shown online everywhere and
their seat is never handed to the computer by the process they left."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.cluster import FAST, Client, Server, table_events
from support.faults import PgProxy, play_through_faults
from support.services import PgCluster, RedisServer

Run = Callable[..., Any]
MakeClient = Callable[..., Client]


def start_servers(tmp_path: Path, url: str, redis_url: str, *extra: str) -> list[Server]:
    servers = []
    for name in ("a", "b"):
        srv = Server(tmp_path / name, args=[*FAST, *extra, "--database", url, "--bus", redis_url])
        srv.start(60.0)
        servers.append(srv)
    return servers


def test_tables_play_on_through_store_bus_and_process_faults(
    pg_cluster: PgCluster,
    redis_server: RedisServer,
    redis_url: str,
    proxied: tuple[PgProxy, str, str],
    tmp_path: Path,
    ws: MakeClient,
    arun: Run,
) -> None:
    proxy, dbname, _ = proxied
    servers = start_servers(tmp_path, proxy.url(dbname), redis_url)
    took: dict[str, float] = {}

    async def body() -> None:
        took.update(
            await play_through_faults(
                pg_cluster, redis_server, redis_url, proxy, dbname, servers, ws
            )
        )

    arun(body(), 240)
    for srv in servers:
        srv.close()
        assert "Traceback" not in srv.log(), srv.log()[-4000:]
    print("time until every table moves again:", took)


def test_a_person_who_moves_to_another_process_is_online_and_keeps_the_seat(
    cluster: Callable[..., list[Server]], pg_url: str, ws: MakeClient, arun: Run
) -> None:
    """Presence is shared: a person connected to A is shown online to a spectator on B; when
    they move from A to B, A finds them online on B (when its reconnect grace runs out, or
    sooner through the shared presence) and the seat stays theirs (before, A handed it to the
    computer and B gave it back)."""
    a, b = cluster(2, args=[*FAST, "--grace", "1"])

    async def body() -> None:
        made = await a.api.create(name="Host", seats=3, preset="limited", turn_seconds=60)
        code = made["code"]
        guest = await a.api.join(code, "Guest")
        host = ws(a, code, 0, "host on A")
        await host.hello(made["token"])
        watcher = ws(b, code, None, "watcher on B")
        await watcher.hello(None)
        await host.send({"type": "start"})
        # The guest is on A; B's spectator sees them online.
        on_a = ws(a, code, 1, "guest on A")
        await on_a.hello(guest["token"])
        await watcher.state(lambda s: s["seats"][1]["connected"], timeout=5)
        # The guest moves to B; A's grace (1 s) runs out while they are online on B.
        await on_a.close()
        on_b = ws(b, code, 1, "guest on B")
        await on_b.hello(guest["token"])

        # A learns the guest is online on B one of two ways, whichever comes first: its grace
        # runs out and finds them online elsewhere (its log says the seat is kept), or its
        # presence round reads them online on B first and calls the grace off (the host on A
        # then sees the seat go offline and back online). Either way nothing may hand it over.
        async def back_on_a() -> None:
            await host.state(lambda s: not s["seats"][1]["connected"], timeout=20)
            await host.state(lambda s: s["seats"][1]["connected"], timeout=20)

        waits = [
            asyncio.ensure_future(a.wait_log(f"table {code}: seat 1 kept", timeout=20)),
            asyncio.ensure_future(back_on_a()),
        ]
        done, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        for task in done:
            task.result()  # a wait that failed (rather than finished) fails the test
        state = await on_b.sync()
        assert not state["seats"][1]["bot"] and state["seats"][1]["connected"]
        log = await table_events(pg_url, code)
        assert not [e for _, e in log if e["type"] == "control"], log
        for client in (host, watcher, on_b):
            await client.close()

    arun(body(), 60)


@pytest.fixture(autouse=True)
def _no_stopped_redis(redis_server: RedisServer) -> Iterator[None]:
    """Whatever happens in a test, Redis is never left stopped."""
    yield
    with contextlib.suppress(ProcessLookupError, AttributeError):
        os.kill(redis_server.proc.pid, signal.SIGCONT)
