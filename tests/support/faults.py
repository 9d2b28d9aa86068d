"""What the fault-injection tests and the fault benchmark share: a TCP proxy in front of
PostgreSQL that can lose a commit's acknowledgement, a player that retries like the phone UI, and
the checks made on every table after the faults.

- :class:`PgProxy`: forwards ``127.0.0.1:port`` to PostgreSQL in a thread of its own. Armed with
  :meth:`PgProxy.lose_next_commit_ack`, it lets the next ``COMMIT`` through to the server and cuts
  both connections when the server's acknowledgement comes back: the events are stored, and the
  process that appended them hears only an error. :meth:`PgProxy.cut` makes PostgreSQL
  unreachable (every connection cut and refused) until :meth:`PgProxy.restore`.
- :class:`Player`: one person's socket. On each newest state with moves for it, it sends a move
  with a command id of its own; a retryable error sends the same message again (the same id), as
  the phone UI does; when its process goes away it says hello to another one.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import signal
import struct
import threading
import time
from collections.abc import Callable
from typing import Any

import websockets

from support.cluster import (
    Client,
    check_log,
    every_version_in_order,
    lease_holder,
    server_helpers,
    table_events,
)
from teenpatti.engine.history import HistoryError, replay, verify_deal

__all__ = ["PgProxy", "Player", "check_table", "never_back", "play_through_faults"]

CLOSED = server_helpers.CLOSED
CLOSED_ERROR = server_helpers.Closed


class PgProxy:
    """A TCP proxy to PostgreSQL on loopback (see the module's docstring)."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self._armed = False
        self.lost = threading.Event()
        self.down = False
        """While set, every connection is refused (PostgreSQL cannot be reached)."""
        self._open: set[asyncio.StreamWriter] = set()
        self._server: asyncio.Server | None = None
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)

    def url(self, database: str) -> str:
        """The URL of ``database`` through the proxy (no TLS: the proxy reads the messages)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}?sslmode=disable"

    def start(self) -> PgProxy:
        self._thread.start()
        future = asyncio.run_coroutine_threadsafe(self._listen(), self.loop)
        self.port = future.result(10)
        return self

    def stop(self) -> None:
        async def close() -> None:
            if self._server is not None:
                self._server.close()
            tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)

        asyncio.run_coroutine_threadsafe(close(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(10)

    def cut(self) -> None:
        """PostgreSQL cannot be reached: every connection through the proxy is cut, and new ones
        are refused until :meth:`restore`."""

        def close_all() -> None:
            self.down = True
            for writer in list(self._open):
                writer.close()

        self.loop.call_soon_threadsafe(close_all)

    def restore(self) -> None:
        """PostgreSQL can be reached again."""
        self.loop.call_soon_threadsafe(setattr, self, "down", False)

    def lose_next_commit_ack(self) -> None:
        """Cut the connection of the next ``COMMIT`` the server acknowledges, before the
        acknowledgement reaches the client (:attr:`lost` is set when it happened)."""
        self.lost.clear()
        self._armed = True

    async def _listen(self) -> int:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return int(self._server.sockets[0].getsockname()[1])

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        self._open.update((writer, up_writer))
        pipes = [
            asyncio.ensure_future(self._pipe(reader, up_writer)),
            asyncio.ensure_future(self._from_server(up_reader, writer)),
        ]
        await asyncio.wait(pipes, return_when=asyncio.FIRST_COMPLETED)
        for task in pipes:
            task.cancel()
        for each in (writer, up_writer):
            each.close()
            self._open.discard(each)

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()

    async def _from_server(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        """Forward the server's messages one by one (type byte, length, body)."""
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                head = await reader.readexactly(5)
                kind, size = head[:1], struct.unpack("!I", head[1:])[0]
                body = await reader.readexactly(size - 4)
                if self._armed and kind == b"C" and body.startswith(b"COMMIT"):
                    self._armed = False
                    self.lost.set()
                    return  # the commit is done; its acknowledgement never arrives
                writer.write(head + body)
                await writer.drain()


_IDS = itertools.count(1)


class Player:
    """A person playing one seat, moving at once, retrying like the phone UI (see above)."""

    def __init__(self, make: Any, servers: list[Any], code: str, seat: int, token: str) -> None:
        self.make = make
        self.servers = servers
        self.code = code
        self.seat = seat
        self.token = token
        self.rng = random.Random(seat * 7919 + hash(code) % 1000)
        self.clients: list[Client] = []
        self.task: asyncio.Task[None] | None = None
        self.stopping = False

    async def connect(self, server: Any) -> None:
        client = self.make(server, self.code, self.seat, f"{self.code} seat {self.seat}")
        await client.hello(self.token)
        self.clients.append(client)

    @property
    def client(self) -> Client:
        return self.clients[-1]

    def start(self) -> None:
        self.task = asyncio.create_task(self._play())

    async def stop(self) -> None:
        """Stop playing and close the sockets. Bounded: the loop also ends on its own flag, since
        Python 3.11's ``wait_for`` may swallow a cancel that meets a message arriving; and the
        wait never swallows a cancel of the caller's own (the test's deadline)."""
        self.stopping = True
        if self.task is not None:
            self.task.cancel()
            done, _ = await asyncio.wait({self.task}, timeout=10)
            assert done, f"{self.code} seat {self.seat}: the player did not stop"
        for client in self.clients:
            await client.close()

    async def _play(self) -> None:
        pending: dict[str, Any] | None = None
        while not self.stopping:
            client = self.client
            try:
                message = await client.next(timeout=3.0)
            except TimeoutError:  # no answer: the same command again, or ask for the state
                await self._send(pending or {"type": "sync"})
                continue
            except CLOSED_ERROR:
                message = {"type": CLOSED}
            if message["type"] == CLOSED:
                await self._reconnect(client)
                if pending is not None:
                    await self._send(pending)
                continue
            if message["type"] == "error":
                if not message.get("retryable"):
                    pending = None  # refused (the table moved on): look again
                await asyncio.sleep(0.3)
                await self._send(pending or {"type": "sync"})
                continue
            if message["type"] != "state":
                continue
            pending = None
            if not client.inbox.empty():
                continue  # a newer state waits: decide on that one
            move = self._choose(message)
            if move is not None:
                pending = move
                await self._send(move)

    def _choose(self, state: dict[str, Any]) -> dict[str, Any] | None:
        if state["status"] == "finished" and state["seats"][self.seat]["host"]:
            return {"type": "again", "id": f"g{next(_IDS)}"}
        if not state["legal"]:
            return None
        move = self.client.choose(state, self.rng)
        move["id"] = f"m{next(_IDS)}"
        return move

    async def _send(self, message: dict[str, Any]) -> None:
        with contextlib.suppress(websockets.ConnectionClosed, AssertionError):
            await self.client.send(message)

    async def _reconnect(self, old: Client) -> None:
        """The socket closed (its process went away): say hello to the first that answers."""
        for _ in range(50):
            for server in self.servers:
                if not server.alive:
                    continue
                with contextlib.suppress(Exception):
                    await self.connect(server)
                    return
            await asyncio.sleep(0.2)
        raise AssertionError(f"{old.label}: no process took the person back")


async def check_table(pg_url: str, code: str, people: set[int]) -> dict[str, int]:
    """The checks made on every table after the faults: the log has no gap and no repeat and
    every move in it was legal when made (:func:`check_log`); chips are conserved in every hand;
    every finished hand replays and its deal verifies; no person's seat was ever handed to the
    computer (their sockets were open throughout, or moved to another process at once)."""
    log = await table_events(pg_url, code)
    table = check_log(log)
    handed = [v for v, e in log if e["type"] == "control" and e["bot"] and e["seat"] in people]
    assert not handed, f"{code}: a connected person's seat went to the computer at {handed}"
    game = table.game
    assert game is not None
    total = game.rules.starting_chips * game.seats
    for history in game.histories:
        result = replay(history)
        assert not isinstance(result, HistoryError), (code, result)
        assert verify_deal(history).verified, (code, history.get("seed"))
    if table.hand_in_play:
        assert game.hand is not None
        assert sum(game.hand.chips) + game.hand.pot == total, (code, game.hand.chips)
    else:
        assert sum(game.chips) == total, (code, game.chips)
    return {"versions": len(log), "hands": len(game.histories)}


def never_back(client: Client) -> bool:
    """Whether a client's states never went back and skipped no version."""
    versions = [m["version"] for m in client.states()]
    return every_version_in_order(versions) if versions else True


TABLES = 4
MOVE_AGAIN = 10.0
"""Seconds within which every table moves again after a fault ends: no timer is due here (the
people move at once, the computer at once), so this is the 5 s of the promise plus the 3 s a
killed lease holder's lease lives on, and room for a loaded machine."""


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


async def play_through_faults(
    pg_cluster: Any,
    redis_server: Any,
    redis_url: str,
    proxy: PgProxy,
    dbname: str,
    servers: list[Any],
    ws: Any,
) -> dict[str, float]:
    """The fault scenario on two running servers (see ``tests/scale/test_faults.py``): tables
    played by people on both, the faults in turn, the checks after each and at the end.
    Returns, for each fault, the seconds until every table had moved again."""
    a, b = servers
    direct = pg_cluster.url(dbname)
    took: dict[str, float] = {}
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
        """Redis stays paused until every table has stored a move since (storing a move and
        running clocks need no bus), for at least a lease's life, and at most a minute."""
        os.kill(redis_server.proc.pid, signal.SIGSTOP)
        try:
            seen.append(asyncio.run(versions(direct, codes)))
            paused, now = time.monotonic(), seen[0]
            while time.monotonic() - paused < 60:
                now = asyncio.run(versions(direct, codes))
                if all(now[c] > seen[0][c] for c in codes) and time.monotonic() - paused > 3:
                    break
                time.sleep(0.2)  # the next look at the store
            seen.append(now)
        finally:
            os.kill(redis_server.proc.pid, signal.SIGCONT)

    await fault("redis paused", pause_redis)
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

    return took
