"""Soak: real players at ``teenpatti serve`` while thousands of idle and slow connections and a
few ping floods press on it, all on loopback.

    .venv/bin/python bench/soak.py --idle 3000 --slow 300 --bodies 100 --floods 4 --seconds 30

One ``teenpatti serve`` (its own limits, no option loosened) on a temporary data folder, then:

1. **calm** (``--calm`` seconds): ``--players`` people at tables against the computer each play
   their moves and send the table protocol's ``ping`` every 200 ms; its round trip is timed;
2. **siege** (``--seconds``): the same players go on while, from other loopback addresses
   (127.0.x.y), ``--idle`` connections open and send nothing (reopened when closed),
   ``--slow`` send request headers a few bytes a second, ``--bodies`` send a body a few bytes a
   second, and ``--floods`` sockets say hello and then send WebSocket pings as fast as they can,
   reading nothing (reconnecting when cut).

Sampled every 0.5 s from ``/proc``: the server's resident memory and open descriptors. Printed
and written as JSON (``--out``): players' round trip p50/p99/max in each phase, pings that got no
pong, memory and descriptors before, at most and after, and how many attack connections the
server closed. Every loop is bounded in count and time; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import json
import os
import random
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.frames import Frame, Opcode

ROOT = Path(__file__).resolve().parent.parent
SERVE = [sys.executable, "-c", "from teenpatti.cli import main; main()", "serve"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def proc_figures(pid: int) -> tuple[int, int]:
    """(resident KiB, open descriptors) of ``pid``."""
    rss = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            rss = int(line.split()[1])
    return rss, len(os.listdir(f"/proc/{pid}/fd"))


class Stats:
    def __init__(self) -> None:
        self.phase = "calm"
        self.rtt: dict[str, list[float]] = {"calm": [], "siege": []}
        self.lost: dict[str, int] = {"calm": 0, "siege": 0}
        self.closed: dict[str, int] = {"idle": 0, "slow": 0, "bodies": 0, "floods": 0}
        self.samples: list[tuple[float, int, int]] = []


async def player(port: int, source: str, stats: Stats, until: float, rng: random.Random) -> None:
    """One person (at loopback address ``source``) at a table against the computer: plays,
    and pings every 200 ms."""
    transport = httpx.AsyncHTTPTransport(local_address=source)
    async with httpx.AsyncClient(
        base_url=f"http://127.0.0.1:{port}", timeout=10, transport=transport
    ) as http:
        reply = await http.post(
            "/api/tables",
            json={"name": "Player", "seats": 3, "preset": "limited", "computer": True},
        )
        reply.raise_for_status()
        table = reply.json()
    async with websockets.connect(
        f"ws://127.0.0.1:{port}/ws/{table['code']}",
        open_timeout=10,
        max_size=None,
        local_addr=(source, 0),
    ) as conn:
        # this client reads whole states, so it asks for them instead of patches
        hello = {"type": "hello", "token": table["token"], "patches": False}
        await conn.send(json.dumps(hello))
        pending: dict[int, float] = {}
        sequence = 0

        async def reader() -> None:
            async for raw in conn:
                message = json.loads(raw)
                if message["type"] == "pong" and pending:
                    sent = pending.pop(min(pending))
                    stats.rtt[stats.phase].append(time.monotonic() - sent)
                elif message["type"] == "state":
                    if message["status"] == "finished":
                        await conn.send(json.dumps({"type": "again"}))
                    elif message["legal"]:
                        move = rng.choice([m for m in message["legal"] if m["do"] != "raise"])
                        action = {"do": move["do"]}
                        if move["do"] == "sideshow" and move["targets"]:
                            action["with"] = move["targets"][0]
                        await conn.send(
                            json.dumps(
                                {"type": "act", "action": action, "version": message["version"]}
                            )
                        )

        task = asyncio.create_task(reader())
        try:
            while time.monotonic() < until:
                for seq, sent in list(pending.items()):
                    if time.monotonic() - sent > 5:
                        del pending[seq]
                        stats.lost[stats.phase] += 1
                sequence += 1
                pending[sequence] = time.monotonic()
                await conn.send(json.dumps({"type": "ping"}))
                await asyncio.sleep(0.2)
        finally:
            task.cancel()


async def _open(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.wait_for(
        asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 10
    )


async def _gone(reader: asyncio.StreamReader, until: float) -> bool:
    """Wait (reading and dropping) until the server closes, or ``until``."""
    with contextlib.suppress(ConnectionError, TimeoutError):
        while True:
            left = until - time.monotonic()
            if left <= 0:
                return False
            if not await asyncio.wait_for(reader.read(65536), left):
                return True
    return True


async def idle(port: int, source: str, stats: Stats, until: float) -> None:
    """A connection that sends nothing; reopened when the server closes it."""
    while time.monotonic() < until:
        try:
            reader, writer = await _open(port, source)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.5)
            continue
        if await _gone(reader, until):
            stats.closed["idle"] += 1
        writer.close()


async def slow(port: int, source: str, stats: Stats, until: float, body: bool) -> None:
    """Headers (or a body) a few bytes a second; reopened when the server closes it."""
    kind = "bodies" if body else "slow"
    while time.monotonic() < until:
        try:
            reader, writer = await _open(port, source)
        except (OSError, TimeoutError):
            await asyncio.sleep(0.5)
            continue
        if body:
            writer.write(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                b"content-length: 100000\r\n\r\n"
            )
        else:
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        closed = asyncio.create_task(_gone(reader, until))
        with contextlib.suppress(ConnectionError):
            while not closed.done() and time.monotonic() < until:
                writer.write(b"x" if body else b"X-a: b\r\n")
                await asyncio.sleep(1)
        if await closed:
            stats.closed[kind] += 1
        writer.close()


async def flood(port: int, code: str, source: str, stats: Stats, until: float) -> None:
    """A socket that says hello, then sends pings as fast as it can and reads nothing."""
    ping = Frame(Opcode.PING, b"x" * 125).serialize(mask=True) * 100
    hello = Frame(Opcode.TEXT, b'{"type": "hello", "token": null}').serialize(mask=True)
    while time.monotonic() < until:
        try:
            reader, writer = await _open(port, source)
            key = base64.b64encode(secrets.token_bytes(16)).decode()
            writer.write(
                f"GET /ws/{code} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                "Sec-WebSocket-Version: 13\r\n\r\n".encode()
            )
            await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            writer.write(hello)
            reader._transport.pause_reading()  # type: ignore[attr-defined]  # never reads
            while time.monotonic() < until:
                writer.write(ping)
                await asyncio.wait_for(writer.drain(), 5)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            stats.closed["floods"] += 1
            await asyncio.sleep(0.2)


async def sampler(pid: int, stats: Stats, until: float) -> None:
    while time.monotonic() < until:
        with contextlib.suppress(OSError):
            rss, fds = proc_figures(pid)
            stats.samples.append((time.monotonic(), rss, fds))
        await asyncio.sleep(0.5)


async def siege(args: argparse.Namespace, port: int, pid: int) -> dict[str, Any]:
    stats = Stats()
    rng = random.Random(args.seed)
    start = time.monotonic()
    end = start + args.calm + args.seconds
    base_rss, base_fds = proc_figures(pid)
    tasks = [asyncio.create_task(sampler(pid, stats, end + 5))]
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
        target = (await http.post("/api/tables", json={"name": "Target", "seats": 2})).json()
    tasks += [
        asyncio.create_task(
            player(port, f"127.0.3.{1 + i % 250}", stats, end, random.Random(rng.random()))
        )
        for i in range(args.players)
    ]
    await asyncio.sleep(args.calm)
    stats.phase = "siege"

    def source(i: int) -> str:
        return f"127.0.{1 + i // 200 % 250}.{1 + i % 200}"

    attack = [idle(port, source(i), stats, end) for i in range(args.idle)]
    attack += [slow(port, source(50_000 + i), stats, end, False) for i in range(args.slow)]
    attack += [slow(port, source(60_000 + i), stats, end, True) for i in range(args.bodies)]
    attack += [flood(port, target["code"], "127.0.255.1", stats, end) for _ in range(args.floods)]
    started = [asyncio.create_task(a) for a in attack]
    await asyncio.sleep(max(0.0, end - time.monotonic()))
    await asyncio.wait(started + tasks, timeout=15)
    for task in started + tasks:
        task.cancel()
    await asyncio.sleep(3)  # the server's sweep closes what is left
    after_rss, after_fds = proc_figures(pid)
    siege_samples = [s for s in stats.samples if s[0] >= start + args.calm]
    return {
        "players": args.players,
        "attack": {k: getattr(args, k) for k in ("idle", "slow", "bodies", "floods", "seconds")},
        "rtt_ms": {
            phase: {
                "n": len(values),
                "p50": round(1000 * (percentile(values, 0.5) or 0), 1),
                "p99": round(1000 * (percentile(values, 0.99) or 0), 1),
                "max": round(1000 * max(values, default=0), 1),
            }
            for phase, values in stats.rtt.items()
        },
        "pings_lost": stats.lost,
        "closed_by_server": stats.closed,
        "rss_mib": {
            "before": round(base_rss / 1024, 1),
            "max": round(max((s[1] for s in siege_samples), default=0) / 1024, 1),
            "after": round(after_rss / 1024, 1),
        },
        "descriptors": {
            "before": base_fds,
            "max": max((s[2] for s in siege_samples), default=0),
            "after": after_fds,
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--idle", type=int, default=3000)
    parser.add_argument("--slow", type=int, default=300)
    parser.add_argument("--bodies", type=int, default=100)
    parser.add_argument("--floods", type=int, default=4)
    parser.add_argument("--calm", type=float, default=10.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        server = subprocess.Popen(
            [*SERVE, "--port", str(port), "--data", data, "--bot-delay", "0.3"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                with contextlib.suppress(httpx.HTTPError):
                    if httpx.get(f"http://127.0.0.1:{port}/", timeout=1).status_code == 200:
                        break
                time.sleep(0.2)
            result = asyncio.run(
                asyncio.wait_for(siege(args, port, server.pid), args.calm + args.seconds + 90)
            )
        finally:
            server.terminate()
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
