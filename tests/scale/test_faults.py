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
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from fault_helpers import PgProxy, Player, check_table, never_back
from scale_helpers import FAST, Client, Server, lease_holder, table_events
from scale_services import PgCluster, RedisServer

Run = Callable[..., Any]
MakeClient = Callable[..., Client]

TABLES = 4
MOVE_AGAIN = 10.0
"""Seconds within which every table moves again after a fault ends: no timer is due here (the
people move at once, the computer at once), so this is the 5 s of the promise plus the 3 s a
killed lease holder's lease lives on, and room for a loaded machine."""


@pytest.fixture
def proxied(pg_cluster: PgCluster) -> Iterator[tuple[PgProxy, str, str]]:
    """A fresh database behind a :class:`PgProxy`: ``(proxy, name, direct url)``."""
    name = f"faults_{os.getpid()}_{int(time.time() * 1000) % 100000}"
    direct = pg_cluster.create_database(name)
    proxy = PgProxy(pg_cluster.port).start()
    try:
        yield proxy, name, direct
    finally:
        proxy.stop()


def start_servers(tmp_path: Path, url: str, redis_url: str, *extra: str) -> list[Server]:
    servers = []
    for name in ("a", "b"):
        srv = Server(tmp_path / name, args=[*FAST, *extra, "--database", url, "--bus", redis_url])
        srv.start(60.0)
        servers.append(srv)
    return servers


async def versions(pg_url: str, codes: list[str]) -> dict[str, int]:
    return {code: len(await table_events(pg_url, code)) for code in codes}


async def all_move(pg_url: str, codes: list[str], since: dict[str, int], limit: float) -> float:
    """Seconds until every table's log has grown past ``since``; fails after ``limit``."""
    started = time.monotonic()
    waiting = set(codes)
    while waiting:
        now = await versions(pg_url, sorted(waiting))
        waiting = {code for code in waiting if now[code] <= since[code]}
        if waiting:
            assert time.monotonic() - started < limit, f"tables stuck after the fault: {waiting}"
            await asyncio.sleep(0.2)
    return time.monotonic() - started


def test_tables_play_on_through_store_bus_and_process_faults(
    pg_cluster: PgCluster,
    redis_server: RedisServer,
    redis_url: str,
    proxied: tuple[PgProxy, str, str],
    tmp_path: Path,
    ws: MakeClient,
    arun: Run,
) -> None:
    proxy, dbname, direct = proxied
    servers = start_servers(tmp_path, proxy.url(dbname), redis_url)
    a, b = servers
    took: dict[str, float] = {}

    async def body() -> None:
        players: list[Player] = []
        watchers: list[Client] = []
        codes: list[str] = []
        for i in range(TABLES):
            home, away = (a, b) if i % 2 == 0 else (b, a)
            made = await home.api.create(
                name="Host", seats=3, preset="limited", hands=20, turn_seconds=30
            )
            code = made["code"]
            codes.append(code)
            guest = await away.api.join(code, "Guest")
            for seat, token, where in ((0, made["token"], home), (1, guest["token"], away)):
                player = Player(ws, servers, code, seat, token)
                await player.connect(where)
                players.append(player)
            for where in servers:
                watcher = ws(where, code, None, f"{code} watcher on {where.data.name}")
                await watcher.hello(None)
                watchers.append(watcher)
            await players[-2].client.send({"type": "start"})
        for player in players:
            player.start()
        await all_move(direct, codes, await versions(direct, codes), MOVE_AGAIN)

        async def fault(name: str, inject: Callable[[], Any]) -> None:
            await asyncio.to_thread(inject)
            took[name] = await all_move(direct, codes, await versions(direct, codes), MOVE_AGAIN)

        await fault("postgres restart", lambda: pg_cluster.restart(down=1.5))
        await fault("backends terminated", lambda: pg_cluster.terminate_backends(dbname))

        def lose_ack() -> None:
            proxy.lose_next_commit_ack()
            assert proxy.lost.wait(10), "no commit went through the proxy"

        await fault("acknowledgement lost", lose_ack)
        # With the acknowledgement lost, the process that appended reloaded at once: every
        # process's sockets are sent the store's latest version within seconds.
        for watcher in watchers:
            stored = len(await table_events(direct, watcher.url.rsplit("/", 1)[1]))
            await watcher.state(lambda s, v=stored: s["version"] >= v, timeout=MOVE_AGAIN)

        seen: list[dict[str, int]] = []

        def pause_redis() -> None:
            os.kill(redis_server.proc.pid, signal.SIGSTOP)
            try:
                seen.append(asyncio.run(versions(direct, codes)))
                time.sleep(5.0)
                seen.append(asyncio.run(versions(direct, codes)))
            finally:
                os.kill(redis_server.proc.pid, signal.SIGCONT)

        await fault("redis paused 5 s", pause_redis)
        # Tables moved while Redis was paused (storing a move and running clocks need no bus).
        assert all(seen[1][c] > seen[0][c] for c in codes), seen

        holders = [lease_holder(redis_url, code) for code in codes]
        victim = max(servers, key=lambda s: holders.count(s.proc.pid if s.proc else None))
        await fault("lease holder killed", victim.kill)

        for player in players:
            await player.stop()
        for watcher in watchers:
            await watcher.close()
        for player in players:
            for client in player.clients:
                assert never_back(client), client.label
        for watcher in watchers:
            if watcher.url.startswith(victim.ws):
                continue
            assert never_back(watcher), watcher.label
        for code in codes:
            await check_table(direct, code, people={0, 1})

    arun(body(), 240)
    for srv in servers:
        if srv.alive():
            srv.stop()
        assert "Traceback" not in srv.log(), srv.log()[-4000:]
    print("time until every table moves again:", took)


def test_a_person_who_moves_to_another_process_is_online_and_keeps_the_seat(
    cluster: Callable[..., list[Server]], pg_url: str, ws: MakeClient, arun: Run
) -> None:
    """Presence is shared: a person connected to A is shown online to a spectator on B; when
    they move from A to B, A's reconnect grace runs out with the person online on B, and the
    seat stays theirs (before, A handed it to the computer and B gave it back)."""
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
        await asyncio.sleep(4.0)  # the grace, the lease rounds, and a margin: nothing may happen
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
