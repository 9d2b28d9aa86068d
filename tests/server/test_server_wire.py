"""How the server writes to its sockets, on a real ``teenpatti serve`` over real sockets.

A message goes straight to the socket's transport while nothing waits before it, and waits in
the socket's bounded queue while the client does not read (the transport's buffer is over its
high-water mark). These tests check the switch between the two:

- a client that stops reading and then reads again gets every reply, whole and in order, some of
  them through the queue (``teenpatti_messages_queued_total`` counts them);
- a client that never reads again is cut (its replies wait in a bounded queue meanwhile), and
  its socket freed;
- a socket reset while its table plays on is cleaned up: the sockets gauge and the descriptors
  come back, and the table's other player is still served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx
from support.server import NO_MESSAGE_LIMIT
from websockets.frames import Frame, Opcode

if TYPE_CHECKING:
    from support.server import Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]
MakeServer = Callable[..., "Server"]

PLAY = (
    *("--bot-delay", "0", "--result-pause", "0", "--lobby-rate", "1000,1000"),
    *("--send-buffer", "4096", "--write-buffer", "8192"),
    *NO_MESSAGE_LIMIT,
)
"""Small buffers (a few states fill them, in the kernel and in the process), and the default
client timeout (10 s): a stalled socket is not cut while the test reads it."""


def _frame(message: dict[str, Any]) -> bytes:
    return Frame(Opcode.TEXT, json.dumps(message).encode()).serialize(mask=True)


def _frames(data: bytes) -> tuple[list[tuple[int, bytes]], bytes]:
    """The server's whole (unmasked) frames at the start of ``data``, and the rest."""
    out, i = [], 0
    while i + 2 <= len(data):
        start = i
        opcode, size = data[i] & 0x0F, data[i + 1] & 0x7F
        assert data[i] & 0x80 and not data[i + 1] & 0x80, "not a final unmasked frame"
        i += 2
        if size == 126:
            if i + 2 > len(data):
                return out, data[start:]
            size = struct.unpack("!H", data[i : i + 2])[0]
            i += 2
        elif size == 127:
            if i + 8 > len(data):
                return out, data[start:]
            size = struct.unpack("!Q", data[i : i + 8])[0]
            i += 8
        if i + size > len(data):
            return out, data[start:]
        out.append((opcode, data[i : i + size]))
        i += size
    return out, data[i:]


async def _metric(server: Server, name: str) -> float:
    async with httpx.AsyncClient(timeout=5) as http:
        text = (await http.get(f"{server.http}/metrics")).text
    found = re.search(rf"^{name} ([0-9.e+]+)$", text, re.MULTILINE)
    assert found, f"{name} not in /metrics"
    return float(found.group(1))


async def _socket(server: Server, code: str, receive_buffer: int) -> tuple[Any, Any]:
    """A socket opened by hand with a small receive buffer, upgraded, not yet said hello."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind(("127.0.0.1", 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    reader, writer = await asyncio.open_connection(sock=sock)
    writer.write(
        f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    reply = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert reply.startswith(b"HTTP/1.1 101"), reply
    return reader, writer


async def _ask(writer: Any, message: dict[str, Any], loop: asyncio.AbstractEventLoop) -> None:
    """Send one message, under the server's budget of 10 a second."""
    writer.write(_frame(message))
    await writer.drain()
    await asyncio.sleep(0.125)  # pacing, not waiting for an outcome


def test_a_reader_that_pauses_gets_every_reply_whole_and_in_order(
    server_factory: MakeServer, arun: Run
) -> None:
    server = server_factory(PLAY)

    async def body() -> None:
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        reader, writer = await _socket(server, table["code"], 2048)
        writer.write(_frame({"type": "hello", "token": table["token"]}))
        reader._transport.pause_reading()  # type: ignore[attr-defined]  # it stops reading
        loop = asyncio.get_running_loop()
        queued_before = await _metric(server, "teenpatti_messages_queued_total")
        expected = ["state"]
        # Ask for the whole state until replies wait in the server's queue (its transport's
        # buffer is full), at most 15 s; then three different replies, which must follow them.
        started = loop.time()
        while await _metric(server, "teenpatti_messages_queued_total") == queued_before:
            assert loop.time() - started < 15, "no reply ever waited in the queue"
            for _ in range(4):
                await _ask(writer, {"type": "sync"}, loop)
                expected.append("state")
        for message, reply in (({"type": "ping"}, "pong"), ({"type": "nonsense"}, "error")):
            await _ask(writer, message, loop)
            expected.append(reply)
        await _ask(writer, {"type": "sync"}, loop)
        expected.append("state")
        reader._transport.resume_reading()  # type: ignore[attr-defined]  # it reads again
        got: list[str] = []
        rest = b""
        async with asyncio.timeout(10):
            while len(got) < len(expected):
                chunk = await reader.read(65536)
                assert chunk, "the server closed the socket"
                frames, rest = _frames(rest + chunk)
                for opcode, payload in frames:
                    assert opcode == Opcode.TEXT.value, (opcode, payload[:80])
                    got.append(json.loads(payload)["type"])
        assert got == expected
        assert await _metric(server, "teenpatti_messages_queued_total") > queued_before
        writer.close()
        server.assert_healthy()

    arun(body(), 60)


def test_a_reader_that_never_reads_again_is_cut_and_freed(
    server_factory: MakeServer, ws: MakeClient, arun: Run
) -> None:
    server = server_factory((*PLAY, "--client-timeout", "3"))

    async def body() -> None:
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        host = ws(server, table["code"], 0, "host")
        await host.hello(table["token"])
        descriptors = server.descriptors()
        reader, writer = await _socket(server, table["code"], 2048)
        writer.write(_frame({"type": "hello", "token": None}))
        reader._transport.pause_reading()  # type: ignore[attr-defined]  # it reads nothing more
        loop = asyncio.get_running_loop()
        # Sync 8 times a second, never reading: the buffers fill, replies wait in the queue
        # (64 at most), and 3 s after the process's buffer went over its mark the server cuts
        # the socket (a write here fails then).
        started = loop.time()
        with contextlib.suppress(ConnectionError):
            while loop.time() - started < 25:
                await _ask(writer, {"type": "sync"}, loop)
        assert loop.time() - started < 25, "the stalled socket was never cut"
        assert await _metric(server, "teenpatti_messages_queued_total") >= 1
        writer.close()
        async with asyncio.timeout(10):  # the lobby's connections close a moment later too
            while await _metric(server, "teenpatti_sockets") != 1:
                await asyncio.sleep(0.05)
            while server.descriptors() > descriptors:
                await asyncio.sleep(0.05)
        assert (await host.sync())["type"] == "state"
        await host.close()
        server.assert_healthy()

    arun(body(), 60)


def test_a_socket_reset_while_its_table_plays_is_cleaned_up(
    server: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        host = ws(server, table["code"], 0, "host")
        await host.hello(table["token"])
        sockets = await _metric(server, "teenpatti_sockets")
        reader, writer = await _socket(server, table["code"], 65536)
        writer.write(_frame({"type": "hello", "token": None}))
        frames: list[tuple[int, bytes]] = []
        rest = b""
        async with asyncio.timeout(5):
            while not frames:
                frames, rest = _frames(rest + await reader.read(65536))
        assert json.loads(frames[0][1])["type"] == "state"
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()  # a reset, with no close frame
        for _ in range(3):  # the table changes: every socket is sent its view again
            await host.send({"type": "chat", "phrase": "shabash"})
            await host.next(lambda m: m["type"] in ("state", "chat", "error"))
        async with asyncio.timeout(10):
            while await _metric(server, "teenpatti_sockets") != sockets:
                await asyncio.sleep(0.05)
        assert (await host.sync())["type"] == "state"
        await host.close()
        server.assert_healthy()

    arun(body(), 30)
