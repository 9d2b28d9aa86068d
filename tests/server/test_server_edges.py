"""The server's edge under clients that flood, stall, guess or lie, each on a real
``teenpatti serve`` over real sockets (the numbered problems of the abuse report):

1. a ping flood from a socket that never reads is cut (1008) and the memory stays flat; a socket
   that stops reading is closed and its descriptor freed within seconds;
2. idle, slow-header and slow-body connections are closed; connections are capped per address
   and in all; under a 1,024-descriptor limit, 1,100 idle sockets leave a real player served;
3. every route that names a table spends the lobby's limits, wrong codes spend a small budget
   with back-off, and hand histories go to the table's players until the game is over;
4. forwarded addresses are believed only from named proxies; a table of ten behind one address
   is seated at once, even while one of them polls the table;
5. tables are capped per address and per process, and ``hands`` is bounded;
9. look-alike and blank names, a non-boolean ``computer``, a non-JSON or cross-site POST, and a
   client that leaves mid-body.

Loopback addresses other than 127.0.0.1 (127.0.0.2, ...) stand for other clients.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import re
import resource
import secrets
import socket
import struct
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import websockets
from support.server import NO_MESSAGE_LIMIT
from websockets.frames import Frame, Opcode

if TYPE_CHECKING:
    from support.server import Api, Client, Server


Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]
MakeServer = Callable[..., "Server"]
MakeLobby = Callable[..., "Api"]

# The limits these servers run with: small enough to reach in a test, as in production otherwise
# (the module's ``edge`` server, from conftest, runs with EDGE too).
FAST_PLAY = ("--bot-delay", "0", "--result-pause", "0", *NO_MESSAGE_LIMIT)
EDGE = (*FAST_PLAY, "--client-timeout", "2")


def _more_descriptors(wanted: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, wanted), hard))


async def _raw(
    server: Server, source: str = "127.0.0.1", sock: socket.socket | None = None
) -> tuple[Any, Any]:
    if sock is not None:
        return await asyncio.open_connection(sock=sock)
    return await asyncio.open_connection("127.0.0.1", server.port, local_addr=(source, 0))


async def _close_frame(reader: asyncio.StreamReader, timeout: float) -> bytes:
    """What the server sent up to and with its close frame."""
    data = b""
    async with asyncio.timeout(timeout):
        while _close_code(data) is None:
            chunk = await reader.read(65536)
            assert chunk, f"closed without a close frame: {data!r}"
            data += chunk
    return data


async def _closed_by_server(reader: asyncio.StreamReader, timeout: float) -> bytes:
    """Everything the server sent until it closed the connection (fails if it does not)."""
    data = b""
    async with asyncio.timeout(timeout):
        with contextlib.suppress(ConnectionError):  # reset: it closed without reading all
            while chunk := await reader.read(65536):
                data += chunk
    return data


async def _upgrade(server: Server, code: str, **kwargs: Any) -> tuple[Any, Any]:
    """A socket opened by hand (so the test decides when, or whether, it reads)."""
    reader, writer = await _raw(server, **kwargs)
    key = base64.b64encode(secrets.token_bytes(16)).decode()
    head = (
        f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
        f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    )
    writer.write(head.encode())
    reply = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert reply.startswith(b"HTTP/1.1 101"), reply
    return reader, writer


def _frame(opcode: Opcode, data: bytes) -> bytes:
    return Frame(opcode, data).serialize(mask=True)


def _close_code(data: bytes) -> int | None:
    """The code of the close frame among the server's (unmasked) frames."""
    i = 0
    while i + 2 <= len(data):
        opcode, size = data[i] & 0x0F, data[i + 1] & 0x7F
        i += 2
        if size == 126:
            size = struct.unpack("!H", data[i : i + 2])[0]
            i += 2
        elif size == 127:
            size = struct.unpack("!Q", data[i : i + 8])[0]
            i += 8
        if opcode == Opcode.CLOSE.value:
            return int(struct.unpack("!H", data[i : i + 2])[0])
        i += size
    return None


async def _player_is_served(server: Server, ws: MakeClient) -> None:
    """A real player opens a table, says hello and pings (each step bounded by the client)."""
    api = server.api
    table = await api.create(name="Real", seats=2, preset="limited", turn_seconds=None)
    client = ws(server, table["code"], 0, "real player")
    state = await client.hello(table["token"])
    assert state["type"] == "state"
    assert await client.ping() == state["version"]
    await client.close()


# ---------------------------------------------------------------------- 1. control frames
def test_a_ping_flood_that_never_reads_is_cut_and_memory_stays_flat(
    edge: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        server = edge
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        await _player_is_served(server, ws)
        before = server.rss()
        reader, writer = await _upgrade(server, table["code"])
        writer.write(_frame(Opcode.TEXT, b'{"type": "hello", "token": null}'))
        ping = _frame(Opcode.PING, b"x" * 125)
        loop = asyncio.get_running_loop()
        started = loop.time()
        # Flood (never reading) for up to 10 s; the server must stop it long before: it stops
        # reading (the writes back up) and then drops the connection (they fail).
        with contextlib.suppress(ConnectionError, TimeoutError):
            while loop.time() - started < 20:
                writer.write(ping * 200)
                await asyncio.wait_for(writer.drain(), 5)
        assert loop.time() - started < 15, "the flood was never stopped"
        await _closed_by_server(reader, 15)
        assert server.rss() - before < 20 * 2**20
        await _player_is_served(server, ws)
        server.assert_healthy()

    arun(body(), 40)


def test_a_ping_flood_is_closed_with_a_clear_code(edge: Server, ws: MakeClient, arun: Run) -> None:
    async def body() -> None:
        server = edge
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        flooder = ws(server, table["code"], None, "flooder")
        await flooder.hello(None)
        assert flooder.conn is not None
        with contextlib.suppress(websockets.ConnectionClosed):
            for _ in range(1000):
                await flooder.conn.ping()
        assert await flooder.wait_closed() == 1008
        assert flooder.conn.close_reason == "too many messages"
        await _player_is_served(server, ws)
        server.assert_healthy()

    arun(body(), 30)


def test_a_socket_that_stops_reading_is_closed_and_freed(
    server_factory: MakeServer, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        # Pings every second, a pong late by 4 s drops the socket (20 s and 20 s by default: the
        # same path, 40 s sooner); a client that reads answers in time even on a busy machine.
        server = server_factory((*EDGE, "--ws-ping", "1,4"))
        table = await server.api.create(name="Host", seats=2, preset="limited", turn_seconds=None)
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)  # a phone gone quiet
        sock.bind(("127.0.0.1", 0))
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
        reader, writer = await _upgrade(server, table["code"], sock=sock)
        writer.write(_frame(Opcode.TEXT, b'{"type": "hello", "token": null}'))
        reader._transport.pause_reading()  # type: ignore[attr-defined]  # it reads nothing more
        loop = asyncio.get_running_loop()
        # Ask for the whole state 8 times a second (under the budget) and read none of it,
        # until the server drops the connection (a write fails) or 60 s pass.
        started = loop.time()
        with contextlib.suppress(ConnectionError):
            while loop.time() - started < 60:
                writer.write(_frame(Opcode.TEXT, b'{"type": "sync"}'))
                await writer.drain()  # fails once the server has dropped the connection
                await asyncio.sleep(0.125)
        assert loop.time() - started < 60, "the stalled socket was never closed"
        writer.close()
        await _player_is_served(server, ws)
        server.assert_healthy()

    arun(body(), 90)


# ---------------------------------------------------------------------- 2. idle connections
def test_idle_slow_and_half_sent_connections_are_closed_while_a_player_is_served(
    edge: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        _more_descriptors(6000)
        server = edge
        idle = [await _raw(server, f"127.0.0.{2 + i % 10}") for i in range(300)]
        # Each slow connection starts its request as soon as it is open: written after all of
        # them were opened, the first ones could reach their 2 s deadline on a busy machine
        # before a byte arrived, and be closed as idle (without the 408).
        slow_headers = []
        for _ in range(30):
            slow_headers.append(await _raw(server, "127.0.0.20"))
            slow_headers[-1][1].write(b"GET / HTTP/1.1\r\nHost: x\r\n")
        slow_bodies = []
        for _ in range(10):
            slow_bodies.append(await _raw(server, "127.0.0.21"))
            slow_bodies[-1][1].write(
                b"POST /api/tables HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                b"content-length: 1000\r\n\r\n{"
            )
        kept_alive = await _raw(server, "127.0.0.22")
        kept_alive[1].write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        table = await server.api.create(name="Host", seats=2, preset="limited")
        silent_socket = await _upgrade(server, table["code"], source="127.0.0.23")
        await _player_is_served(server, ws)
        for _, writer in slow_headers:  # still dripping headers
            writer.write(b"X-a: b\r\n")
        # A socket that never says hello is told so and closed.
        assert b"message/hello" in await _close_frame(silent_socket[0], 15)
        # A keep-alive connection answered, then idle, is closed.
        reply = await _closed_by_server(kept_alive[0], 15)
        assert reply.startswith(b"HTTP/1.1 200"), reply
        # Every one is closed by the server: the idle ones, the slow ones with a 408.
        for reader, _ in idle:
            assert await _closed_by_server(reader, 8) == b""
        for reader, _ in slow_headers + slow_bodies:
            reply = await _closed_by_server(reader, 8)
            assert reply.startswith(b"HTTP/1.1 408"), reply
        for _, writer in [*idle, *slow_headers, *slow_bodies, kept_alive, silent_socket]:
            writer.close()
        server.assert_healthy()

    arun(body(), 60)


def test_connections_are_capped_per_address_and_under_the_descriptor_limit(
    server_factory: MakeServer, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        _more_descriptors(6000)
        server = server_factory(
            (*FAST_PLAY, "--client-timeout", "300", "--connections-per-address", "100"),
            prefix=("prlimit", "--nofile=512:4096"),
        )
        # It raised its descriptor limit as far as it may (and fits its connections under it).
        assert server.proc is not None
        limits = Path(f"/proc/{server.proc.pid}/limits").read_text()
        line = next(x for x in limits.splitlines() if x.startswith("Max open files"))
        assert line.split()[3:5] == ["4096", "4096"], line
        # 2,000 idle connections from 20 addresses are held, and a real player is served.
        crowd = [await _raw(server, f"127.0.1.{1 + i % 20}") for i in range(2000)]
        await _wait_for(lambda: server.descriptors() > 2000)
        await _player_is_served(server, ws)
        # One address past its 100: its oldest idle connections are closed to make room.
        more = [await _raw(server, "127.0.1.1") for _ in range(10)]
        for reader, _ in crowd[:200:20]:
            assert await _closed_by_server(reader, 10) == b""
        for _, writer in crowd + more:
            writer.close()
        server.assert_healthy()

        # Under a 1,024-descriptor limit, 1,100 idle sockets: the oldest idle ones are closed
        # to make room, the server keeps under its descriptors, and a real player is served.
        small = server_factory(
            (*FAST_PLAY, "--client-timeout", "300"),
            name="small",
            prefix=("prlimit", "--nofile=1024"),
        )
        crowd = [await _raw(small, f"127.0.2.{1 + i % 11}") for i in range(1100)]
        await _wait_for(lambda: small.descriptors() > 800)
        assert small.descriptors() < 1024
        await _player_is_served(small, ws)
        for _, writer in crowd:
            writer.close()
        small.assert_healthy()

    arun(body(), 120)


async def _wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


# ---------------------------------------------------------------------- 3. guessing codes
def test_every_route_spends_the_lookup_budget_with_back_off(
    edge: Server, ws: MakeClient, arun: Run, lobby_from: MakeLobby
) -> None:
    async def body() -> None:
        server = edge
        real = await server.api.create(name="Host", seats=2, preset="limited")
        guesser = lobby_from(server, "127.0.0.2")
        routes = ["/api/tables/{}", "/api/tables/{}/hands", "/api/tables/{}/qr.svg"]
        statuses = []
        for i in range(12):
            path = routes[i % 3].format(f"ZZZZ{i:02d}")
            statuses.append((await guesser.request("GET", path)).status_code)
        assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
        # Backed off: every route, even with the right code, a join or a socket.
        for path in [r.format(real["code"]) for r in routes]:
            reply = await guesser.request("GET", path)
            assert reply.status_code == 429, path
            assert reply.json()["error"]["code"] == "rate/lookups"
            assert int(reply.headers["retry-after"]) >= 1
        join = await guesser.request(
            "POST", f"/api/tables/{real['code']}/join", json_body={"name": "Guess"}
        )
        assert join.json()["error"]["code"] == "rate/lookups"
        # The sockets' route spends the same budget (another address, fresh).
        other = "127.0.0.3"
        for i in range(10):
            reader, writer = await _upgrade(server, f"YYYY{i:02d}", source=other)
            writer.write(_frame(Opcode.TEXT, b'{"type": "hello"}'))
            assert b"table/unknown" in await _close_frame(reader, 10)
        reader, writer = await _upgrade(server, real["code"], source=other)
        assert b"rate/lookups" in await _close_frame(reader, 10)
        # Other addresses are not affected.
        assert (await server.api.info(real["code"]))["code"] == real["code"]
        server.assert_healthy()

    arun(body(), 40)


def test_hand_histories_go_to_the_players_until_the_game_is_over(
    edge: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        server = edge
        api = server.api
        table = await api.create(name="Host", seats=2, preset="limited", hands=2, computer=True)
        code = table["code"]
        host = ws(server, code, 0, "host")
        await host.hello(table["token"])
        path = f"/api/tables/{code}/hands"
        refused = await api.request("GET", path)
        assert refused.status_code == 403
        assert refused.json()["error"]["code"] == "hands/private"
        forged = await api.request("GET", path, headers={"authorization": "Bearer " + "A" * 43})
        assert forged.json()["error"]["code"] == "token/invalid"
        assert await api.hands(code, table["token"]) == []
        rng = __import__("random").Random(11)
        await host.play(rng, lambda s: s["status"] == "finished", timeout=30)
        mine = await api.hands(code, table["token"])
        assert len(mine) == 2
        assert await api.hands(code, None) == mine  # over: anyone with the code
        await host.close()
        server.assert_healthy()

    arun(body(), 45)


# ---------------------------------------------------------------------- 4. addresses
def test_forwarded_addresses_are_believed_only_from_named_proxies(
    server_factory: MakeServer, arun: Run
) -> None:
    # The servers start before the timed body: a start on a busy machine is no part of what
    # is bounded here (the requests are).
    cases = []
    for proxies, expected in (((), [201, 201, 429, 429]), (("127.0.0.1",), [201] * 4)):
        args = (*EDGE, "--tables-per-address", "2")
        if proxies:
            args = (*args, "--forwarded-allow-ips", ",".join(proxies))
        cases.append((proxies, expected, server_factory(args, name=f"data{len(proxies)}")))

    async def body() -> None:
        for proxies, expected, server in cases:
            got = []
            for i in range(4):
                reply = await server.api.request(
                    "POST",
                    "/api/tables",
                    json_body={"name": "Host"},
                    headers={"x-forwarded-for": f"198.51.100.{i // 2 + 1}"},
                )
                got.append(reply.status_code)
                if reply.status_code == 429:
                    assert reply.json()["error"]["code"] == "table/limit"
            assert got == expected, (proxies, got)
            server.assert_healthy()

    arun(body(), 40)


def test_links_come_from_the_public_address_and_pages_carry_security_headers(
    server_factory: MakeServer, arun: Run
) -> None:
    """Problem 9: the QR code and the share link never come from the ``Host`` a client sent
    when a public address is configured; a page of another site cannot create a table."""

    async def body() -> None:
        public = "https://cards.example.org"
        server = server_factory((*EDGE, "--public-url", public))
        table = await server.api.create(name="Host", seats=2)
        code = table["code"]
        assert table["share"]["url"] == f"{public}/t/{code}"
        svgs = set()
        for host in (f"127.0.0.1:{server.port}", "evil.example", "evil.example:666"):
            headers = {"host": host}
            info = await server.api.request("GET", f"/api/tables/{code}", headers=headers)
            assert info.json()["share"]["url"] == f"{public}/t/{code}"
            qr = await server.api.request("GET", f"/api/tables/{code}/qr.svg", headers=headers)
            svgs.add(qr.content)
        assert len(svgs) == 1
        page = await server.api.request("GET", "/")
        assert "default-src" in page.headers["content-security-policy"]
        assert page.headers["x-frame-options"] == "DENY"
        same = await server.api.request(
            "POST", "/api/tables", json_body={"name": "A"}, headers={"origin": public}
        )
        assert same.status_code == 201
        cross = await server.api.request(
            "POST",
            "/api/tables",
            json_body={"name": "A"},
            headers={"origin": "https://evil.example", "sec-fetch-site": "cross-site"},
        )
        assert cross.json()["error"]["code"] == "origin/forbidden"
        server.assert_healthy()

    arun(body(), 40)


def test_a_table_of_ten_behind_one_address_is_seated_while_one_polls(
    edge: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        server = edge  # the lobby's own limits
        api = server.api
        table = await api.create(name="Host", seats=6, preset="club", turn_seconds=None)
        code = table["code"]
        polling = True
        polled = asyncio.Event()

        async def poll() -> int:
            """One of them asks for the table 20 times a second."""
            refused = 0
            while polling:
                refused += (await api.request("GET", f"/api/tables/{code}")).status_code == 429
                polled.set()
                await asyncio.sleep(0.05)
            return refused

        async def seat(name: str) -> None:
            await api.info(code)
            joined = await api.join(code, name)
            client = ws(server, code, joined["seat"], name)
            assert (await client.hello(joined["token"]))["type"] == "state"
            await client.close()

        poller = asyncio.create_task(poll())
        await polled.wait()
        names = ["Bikash", "Chandra", "Deepa", "Ekraj", "Firoza"]
        await asyncio.gather(*(seat(n) for n in names))  # none refused
        # And four more who only watch, as a table of ten would.
        for i in range(4):
            watcher = ws(server, code, None, f"watcher {i}")
            assert (await watcher.hello(None))["type"] == "state"
            await watcher.close()
        polling = False
        assert await poller == 0  # the poller is served too (it asks for the same answer)
        server.assert_healthy()

    arun(body(), 40)


# ---------------------------------------------------------------------- 5. table limits
def test_tables_are_capped_per_address_and_per_process_and_hands_bounded(
    server_factory: MakeServer, arun: Run, lobby_from: MakeLobby
) -> None:
    async def body() -> None:
        server = server_factory(
            (*EDGE, "--lobby-rate", "1000,1000", "--tables-per-address", "3", "--max-tables", "5")
        )
        one, two = server.api, lobby_from(server, "127.0.0.2")
        replies = [
            await one.request("POST", "/api/tables", json_body={"name": "A"}) for _ in "1234"
        ]
        assert [r.status_code for r in replies] == [201, 201, 201, 429]
        assert replies[3].json()["error"]["code"] == "table/limit"
        replies = [await two.request("POST", "/api/tables", json_body={"name": "B"}) for _ in "123"]
        assert [r.status_code for r in replies] == [201, 201, 503]
        assert replies[2].json()["error"]["code"] == "server/full"
        assert server.table_count() == 5
        server.assert_healthy()

        other = server_factory(EDGE, name="hands")  # no table caps
        for hands, expected in ((10**12, 400), (101, 400), (0, 400), (100, 201)):
            reply = await other.api.request(
                "POST", "/api/tables", json_body={"name": "A", "preset": "club", "hands": hands}
            )
            assert reply.status_code == expected, (hands, reply.text)
            if expected == 400:
                assert reply.json()["error"]["code"] == "rules/hands"
        assert other.table_count() == 1

    arun(body(), 40)


# ---------------------------------------------------------------------- 9. small ones
def test_blank_and_look_alike_names_and_loose_types_are_refused(edge: Server, arun: Run) -> None:
    async def body() -> None:
        server = edge
        api = server.api
        for blank in ("\u3164", "\u115f", "\u2800", "A\u034f", "\u3164\u3164", "Asha\ufe0f"):
            reply = await api.request("POST", "/api/tables", json_body={"name": blank})
            assert reply.json()["error"]["code"] == "name/invalid", repr(blank)
        table = await api.create(name="Asha", seats=4, preset="limited")
        for look_alike in (
            "\u0410sha",
            "ASHA",
            "\uff21\uff53\uff48\uff41",
        ):  # Cyrillic А; full width
            reply = await api.request(
                "POST", f"/api/tables/{table['code']}/join", json_body={"name": look_alike}
            )
            assert reply.json()["error"]["code"] == "name/taken", repr(look_alike)
        joined = await api.join(table["code"], "\uff22ikash")  # full-width B: stored as plain
        info = await api.info(table["code"])
        assert info["seats"][joined["seat"]]["name"] == "Bikash"
        reply = await api.request("POST", "/api/tables", json_body={"name": "A", "computer": "no"})
        assert reply.json()["error"]["code"] == "settings/computer"
        count = server.table_count()
        async with httpx.AsyncClient(base_url=server.http) as client:
            plain = await client.post(
                "/api/tables", content='{"name": "A"}', headers={"content-type": "text/plain"}
            )
            assert plain.status_code == 415
            assert plain.json()["error"]["code"] == "message/content_type"
            for origin in ("http://evil.example", "null"):
                cross = await client.post(
                    "/api/tables", json={"name": "A"}, headers={"origin": origin}
                )
                assert cross.status_code == 403
                assert cross.json()["error"]["code"] == "origin/forbidden"
            same = await client.post(
                "/api/tables", json={"name": "A"}, headers={"origin": server.http}
            )
            assert same.status_code == 201
        assert server.table_count() == count + 1
        server.assert_healthy()

    arun(body(), 30)


def test_a_client_that_leaves_mid_body_leaves_no_trace(edge: Server, arun: Run) -> None:
    async def body() -> None:
        server = edge
        table = await server.api.create(name="Host", seats=3)

        async def incomplete() -> int:
            metrics = (await server.api.request("GET", "/metrics")).text
            found = re.search(r'teenpatti_errors_total\{kind="message/incomplete"\} (\S+)', metrics)
            return int(float(found.group(1))) if found else 0

        before = await incomplete()
        for path in ("/api/tables", f"/api/tables/{table['code']}/join"):
            _, writer = await _raw(server)
            writer.write(
                f"POST {path} HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
                'content-length: 500\r\n\r\n{"name": '.encode()
            )
            await writer.drain()
            writer.transport.abort()
        async with asyncio.timeout(10):  # the server saw both requests end half-sent
            while await incomplete() < before + 2:
                pass
        server.assert_healthy()

    arun(body(), 20)


def test_lobby_replies_keep_to_the_sizes_the_protocol_promises(
    server: Server, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        api = server.api
        table = await api.create(name="Host", seats=6, preset="club", hands=30, computer=True)
        host = ws(server, table["code"], 0, "host")
        await host.hello(table["token"])
        rng = __import__("random").Random(5)
        await host.play(rng, lambda s: s["status"] == "finished", timeout=60)
        info = await api.request("GET", f"/api/tables/{table['code']}")
        assert len(info.content) <= 4096
        hands = await api.request("GET", f"/api/tables/{table['code']}/hands")
        histories = hands.json()
        assert 1 <= len(histories) <= 30  # a game ends early when one player has every chip
        # Each history is at most 16 KiB; the reply, one game's histories.
        assert max(len(__import__("json").dumps(h)) for h in histories) <= 16384
        assert len(hands.content) <= len(histories) * 16384
        await host.close()
        server.assert_healthy()

    arun(body(), 90)
