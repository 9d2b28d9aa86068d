"""What a hostile or broken client may send a real ``teenpatti serve``: forged and stolen-looking
tokens, malformed and unknown messages, oversized ones, floods, HTML in names, wrong table codes
and bad lobby bodies. Each gets a clear error code, nothing crashes, and the table is exactly as
it was (its version and every seat's state, checked before and after)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import websockets
from support.server import FAST_WITH_MESSAGE_LIMIT, Api

if TYPE_CHECKING:
    from support.server import Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]


class Table:
    """A table in play for these tests: host (seat 0) and guest (seat 1) connected, a computer
    in seat 2, no turn timer, and a person to act (so nothing moves unless someone acts)."""

    def __init__(self, server: Server, api: Api, ws: MakeClient) -> None:
        self.server, self.api, self.ws = server, api, ws
        self.code = ""
        self.tokens: list[str] = []
        self.host: Client
        self.guest: Client

    async def open(self) -> Table:
        host = await self.api.create(
            name="Host", seats=3, preset="limited", hands=10, turn_seconds=None
        )
        self.code = host["code"]
        guest = await self.api.join(self.code, "Guest")
        self.tokens = [host["token"], guest["token"]]
        self.host = self.ws(self.server, self.code, 0, "host")
        self.guest = self.ws(self.server, self.code, 1, "guest")
        await self.host.hello(self.tokens[0])
        await self.guest.hello(self.tokens[1])
        await self.host.send({"type": "start"})
        await self.host.state(lambda s: s["hand"] is not None and s["hand"]["actor"] in (0, 1))
        return self

    @property
    def actor(self) -> Client:
        state = self.host.latest
        assert state is not None and state["hand"] is not None
        return self.host if state["hand"]["actor"] == 0 else self.guest

    @property
    def idle(self) -> Client:
        return self.guest if self.actor is self.host else self.host

    async def snapshot(self) -> tuple[dict[str, Any], ...]:
        """The lobby's view and each seat's whole state (what must not change)."""
        info = lasting(await self.api.info(self.code))
        host, guest = await self.host.sync(), await self.guest.sync()
        return info, self.host.public(host), self.guest.public(guest)

    async def close(self) -> None:
        await self.host.close()
        await self.guest.close()


def lasting(info: dict[str, Any]) -> dict[str, Any]:
    """A table's lobby view without ``waited`` (seconds since its last move: a reading of the
    clock, which moves whatever a client sends)."""
    return {k: v for k, v in info.items() if k != "waited"}


# ---------------------------------------------------------------------- tokens
def test_forged_and_stolen_tokens_are_refused(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Table(server, api, ws).open()
        other = await api.create(name="Other", seats=2, preset="limited", hands=1)
        token = table.tokens[0]

        def flip(ch: str) -> str:
            return "A" if ch != "A" else "B"

        forged: list[tuple[str, Any]] = [
            ("random", secrets.token_urlsafe(32)),
            ("another table's", other["token"]),
            ("last char changed", token[:-1] + flip(token[-1])),
            ("first char changed", flip(token[0]) + token[1:]),
            ("middle char changed", token[:20] + flip(token[20]) + token[21:]),
            ("case changed", token.swapcase()),
            ("one char dropped", token[:-1]),
            ("one char added", token + "A"),
            ("very long", token * 60),
            ("empty", ""),
            ("padded", f" {token} "),
            ("its hash", hashlib.sha256(token.encode()).hexdigest()),
            ("non-ASCII", token[:-1] + "é"),
            ("a lone surrogate", token[:-1] + "\ud800"),
            ("a number", 12345),
            ("true", True),
            ("a list", [token]),
            ("an object", {"token": token}),
        ]
        before = await table.snapshot()
        for label, bad in forged:
            assert bad != token, label
            client = ws(server, table.code, None, label)
            reply = await client.hello(bad)
            # a lone surrogate is no text in JSON the server reads: the hello itself is refused
            code = "message/hello" if label == "a lone surrogate" else "token/invalid"
            assert reply["type"] == "error" and reply["code"] == code, (label, reply)
            assert await client.wait_closed() == 4000, label
            assert not [m for m in client.messages if m["type"] == "state"], label
        # A hello that is not a hello: refused the same way, the socket closed.
        for label, first in (
            ("no type", {"token": token}),
            ("another type", {"type": "sync"}),
            ("HELLO", {"type": "HELLO", "token": token}),
            ("not JSON", "hello"),
            ("a list", [{"type": "hello", "token": token}]),
            ("binary", b'{"type": "hello"}'),
            ("nested too deep", "[" * 4000),
        ):
            client = ws(server, table.code, None, label)
            await client.open()
            await client.send(first)
            reply = await client.next()
            assert reply["type"] == "error" and reply["code"] == "message/hello", (label, reply)
            assert await client.wait_closed() == 4000, label
        # Sockets that leave before or right after their hello.
        for say_hello in (False, True):
            client = ws(server, table.code, 0, "leaves")
            await client.open()
            if say_hello:
                await client.send({"type": "hello", "token": token})
            await client.close()
        assert await table.snapshot() == before
        # The real token still takes its seat.
        again = ws(server, table.code, 0, "host again")
        assert (await again.hello(token))["you"] == 0
        await again.close()
        await table.close()
        server.assert_healthy()

    arun(body(), 30)


# ---------------------------------------------------------------------- bad messages
def test_malformed_and_unknown_messages_change_nothing(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Table(server, api, ws).open()
        before = await table.snapshot()
        version = before[0]["version"]
        actor, idle = table.actor, table.idle
        cases: list[tuple[Client, Any, str]] = [
            (actor, "{", "message/json"),
            (actor, "", "message/json"),
            (actor, "act", "message/json"),
            (actor, "[1, 2]", "message/json"),
            (actor, '"act"', "message/json"),
            (actor, "null", "message/json"),
            (actor, "42", "message/json"),
            (actor, "[" * 4000, "message/json"),
            # typed at the socket: a list is no action, however deep (nothing parses it further)
            (
                actor,
                '{"type": "act", "action": ' + "[" * 1500 + "]" * 1500 + "}",
                "action/malformed",
            ),
            (actor, b"\xff\xfe\xfd", "message/json"),
            (actor, {"type": "dance"}, "message/unknown"),
            (actor, {}, "message/unknown"),
            (actor, {"type": None}, "message/unknown"),
            (actor, {"type": ["act"]}, "message/unknown"),
            (actor, {"type": {"act": 1}}, "message/unknown"),
            (actor, {"type": "state", "version": 999}, "message/unknown"),
            (actor, {"type": "hello", "token": table.tokens[0]}, "message/unknown"),
            (actor, {"type": "<b>x</b>" * 20}, "message/unknown"),
            (actor, {"type": "act"}, "action/malformed"),
            (actor, {"type": "act", "action": "chaal"}, "action/malformed"),
            (actor, {"type": "act", "action": ["chaal"]}, "action/malformed"),
            (actor, {"type": "act", "action": {}}, "action/unknown"),
            (actor, {"type": "act", "action": {"do": "fly"}}, "action/unknown"),
            (actor, {"type": "act", "action": {"do": None}}, "action/unknown"),
            (actor, {"type": "act", "action": {"do": "chaal", "amount": "2"}}, "action/malformed"),
            (actor, {"type": "act", "action": {"do": "chaal", "amount": True}}, "action/malformed"),
            (actor, {"type": "act", "action": {"do": "chaal", "amount": 10**40}}, "chaal/amount"),
            (actor, {"type": "act", "action": {"do": "pack", "with": 0}}, "action/malformed"),
            (actor, {"type": "act", "action": {"do": "accept"}}, "sideshow/not_asked"),
            (actor, {"type": "act", "action": {"do": "pack"}, "version": 0}, "state/stale"),
            (actor, {"type": "act", "action": {"do": "pack"}, "version": "x"}, "message/invalid"),
            (actor, {"type": "remove"}, "seat/invalid"),
            (actor, {"type": "pause", "id": 5}, "message/id"),
            (actor, {"type": "part", "for": "x", "part": "0" * 63}, "deal/part"),
            (actor, {"type": "act", "action": {"do": "pack"}, "version": -1}, "state/stale"),
            (
                actor,
                {"type": "start"},
                "table/not_host" if actor is table.guest else "table/started",
            ),
            (actor, {"type": "again"}, "table/in_play"),
            # Acting for another seat: the seat in the action is ignored, the socket's is used.
            (idle, {"type": "act", "action": {"do": "pack", "seat": actor.seat}}, "turn/not_yours"),
            (idle, {"type": "act", "action": {"do": "chaal"}}, "turn/not_yours"),
        ]
        for client, message, code in cases:
            reply = await client.request(message)
            assert reply["type"] == "error" and reply["code"] == code, (message, reply)
            assert isinstance(reply["reason"], str) and reply["reason"]
        # Binary frames are read as text: a good message in one works.
        await actor.send(b'{"type": "ping"}')
        assert (await actor.next(lambda m: m["type"] in ("pong", "error")))["type"] == "pong"
        assert await actor.ping() == version
        assert await table.snapshot() == before
        await table.close()
        server.assert_healthy()

    arun(body(), 30)


# ---------------------------------------------------------------------- oversized
def test_oversized_messages_are_refused(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Table(server, api, ws).open()
        before = await table.snapshot()

        def padded(size: int) -> str:
            text = json.dumps({"type": "ping", "pad": ""})
            return json.dumps({"type": "ping", "pad": "x" * (size - len(text))})

        # Up to 4 KiB is fine.
        assert len(padded(4096).encode()) == 4096
        assert (await table.host.request(padded(4096)))["type"] == "pong"
        # Over it, on a socket that said hello: refused (an error, or a close saying "too big").
        big = ws(server, table.code, 1, "big")
        await big.hello(table.tokens[1])
        await big.send(padded(4097))
        try:
            reply = await big.next(lambda m: m["type"] == "error")
            assert reply["code"] == "message/too_large"
        except AssertionError:  # Closed
            assert big.close_code == 1009, big.close_code
        # ... and as the hello itself.
        for size in (4097, 64 * 1024):
            early = ws(server, table.code, None, "big hello")
            await early.open()
            await early.send(json.dumps({"type": "hello", "token": "x" * size}))
            assert await early.wait_closed() in (1009, 4000)
            assert not early.states()
        # HTTP bodies over 4 KiB.
        for path in ("/api/tables", f"/api/tables/{table.code}/join"):
            response = await api.request(
                "POST", path, content=json.dumps({"name": "Zed", "pad": "x" * 5000})
            )
            assert response.status_code == 400, response.text
            assert response.json()["error"]["code"] == "message/too_large"
        assert await table.snapshot() == before
        await big.close()
        await table.close()
        server.assert_healthy()

    arun(body(), 30)


# ---------------------------------------------------------------------- floods
def test_a_reading_flood_is_refused_then_closed_and_others_are_served(
    server_factory: Callable[..., Server], ws: MakeClient, arun: Run
) -> None:
    """Problem 8: a client that reads every refusal and floods on is closed (1008) after a
    bounded number of them; the others are served meanwhile and nothing changes. (A server of
    its own, at the default limit of 10 messages a second: the shared one sets none.)"""
    server = server_factory(FAST_WITH_MESSAGE_LIMIT)
    api = Api(server.http)

    async def body() -> None:
        table = await Table(server, api, ws).open()
        before = await table.snapshot()
        idle_seat = table.idle.seat
        assert idle_seat is not None
        flooder = ws(server, table.code, idle_seat, "flooder")
        await flooder.hello(table.tokens[idle_seat])
        mark = len(flooder.messages)
        floods = [{"type": "ping"}, {"type": "act", "action": {"do": "chaal"}}, {"type": "sync"}]
        count = 2000

        async def flood() -> int:
            sent = 0
            with contextlib.suppress(websockets.ConnectionClosed):
                for i in range(count):
                    await flooder.send(floods[i % 3])
                    sent += 1
            return sent

        async def others() -> int:
            """The other players and the lobby are served while the flood goes on: each ping
            gets its pong with the table's version, each lobby request its table."""
            served = 0
            for _ in range(5):
                assert await table.actor.ping() == before[0]["version"]
                assert (await api.info(table.code))["code"] == table.code
                served += 1
                await asyncio.sleep(0.02)
            return served

        _, others_served = await asyncio.gather(flood(), others())
        assert others_served == 5
        assert await flooder.wait_closed(timeout=5) == 1008
        replies = [m for m in flooder.messages[mark:] if m["type"] in ("pong", "error")]
        limited = [m for m in replies if m.get("code") == "rate/limited"]
        # The burst is served, then at most the refusals the server allows (60) and one more.
        assert 1 <= len(limited) <= 61 + 10, len(limited)
        assert len(flooder.messages[mark:]) < 200
        assert {m["code"] for m in replies if m["type"] == "error"} <= {
            "rate/limited",
            "turn/not_yours",
        }
        # Nothing changed; the same seat comes back and is served.
        again = ws(server, table.code, idle_seat, "back")
        await again.hello(table.tokens[idle_seat])
        assert await again.ping() == before[0]["version"]
        assert await table.snapshot() == before
        await again.close()
        await table.close()
        server.assert_healthy()

    arun(body(), 30)


# ---------------------------------------------------------------------- names
NAMES = [
    "<b>x</b>",
    "<img src=x onerror=f()>",
    "</script><script>",
    "a & b \"c\" 'd' \\",
    "&lt;b&gt; \\u003c",
    "अ ☃ 𝄞 क्‍ष",
]


def test_html_in_names_is_plain_text(server: Server, api: Api, ws: MakeClient, arun: Run) -> None:
    async def body() -> None:
        host = await api.create(name=NAMES[0], seats=6, preset="limited", hands=1)
        code = host["code"]
        # The same name again, in other case or spacing, is taken; the error quotes it as text.
        for again in ("<B>X</B>", "  <b>x</b> ", "<b>x</b>"):
            refused = await api.request(
                "POST", f"/api/tables/{code}/join", json_body={"name": again}
            )
            assert refused.status_code == 400
            assert refused.json()["error"]["code"] == "name/taken"
            assert again.strip() in refused.json()["error"]["reason"]
        for name in NAMES[1:]:
            await api.join(code, name)
        reply = await api.request("GET", f"/api/tables/{code}")
        assert reply.headers["content-type"].startswith("application/json")
        assert [s["name"] for s in reply.json()["seats"]] == NAMES
        for name in NAMES:  # the bytes of each name, as JSON text: nothing escaped for HTML
            assert json.dumps(name, ensure_ascii=False).encode() in reply.content
        spectator = ws(server, code, None, "spectator")
        state = await spectator.hello(None)
        assert [s["name"] for s in state["seats"]] == NAMES
        for name in NAMES:
            assert json.dumps(name, ensure_ascii=False) in spectator.raw[0]
        # Names are trimmed and inner spaces folded, nothing else.
        other = await api.create(name="  a   <i>b</i>  ", seats=2, preset="limited", hands=1)
        assert [s["name"] for s in (await api.info(other["code"]))["seats"]] == ["a <i>b</i>"]
        await spectator.close()
        server.assert_healthy()

    arun(body(), 20)


# ---------------------------------------------------------------------- codes
def test_wrong_table_codes(server: Server, api: Api, ws: MakeClient, arun: Run) -> None:
    async def body() -> None:
        real = await api.create(name="Host", seats=2, preset="limited", hands=1)
        count = server.table_count()
        # A code is read in any case.
        assert (await api.info(real["code"].lower()))["code"] == real["code"]
        wrong = ["ZZZZZZ", "zzzzzz", "0O1I00", "ABC", "A" * 300, "%3Cb%3Ex%3C", "%00", "null"]
        wrong.append(real["code"][:-1] + ("2" if real["code"][-1] != "2" else "3"))
        for code in wrong:
            for method, path in (
                ("GET", f"/api/tables/{code}"),
                ("POST", f"/api/tables/{code}/join"),
                ("GET", f"/api/tables/{code}/hands"),
            ):
                body = {"name": "Zed"} if method == "POST" else None
                reply = await api.request(method, path, json_body=body)
                assert reply.status_code == 404, (path, reply.text)
                assert reply.json()["error"]["code"] == "table/unknown", path
            client = ws(server, code, None, f"code {code[:10]}")
            refused = await client.hello(None)
            assert refused["type"] == "error" and refused["code"] == "table/unknown"
            assert await client.wait_closed() == 4000
        assert server.table_count() == count
        server.assert_healthy()

    arun(body(), 20)


# ---------------------------------------------------------------------- lobby bodies
BAD_CREATES: list[tuple[Any, str]] = [
    (b"not json", "message/json"),
    (b"{", "message/json"),
    (b"\xff\xfe\x00\x01", "message/json"),
    (b"[" * 3000, "message/json"),
    (b'{"name": "A", "rules": ' + b"{" * 2000 + b"}" * 2000 + b"}", "message/json"),
    (b"[]", "settings/invalid"),
    (b'"name"', "settings/invalid"),
    (b"null", "settings/invalid"),
    (b"42", "settings/invalid"),
    (b"{}", "name/invalid"),
    ({"name": ""}, "name/empty"),
    ({"name": " \t\n "}, "name/empty"),
    ({"name": "x" * 25}, "name/too_long"),
    ({"name": 5}, "name/invalid"),
    ({"name": ["Asha"]}, "name/invalid"),
    ({"name": None}, "name/invalid"),
    ({"name": "a\x00b"}, "name/invalid"),
    ({"name": "a\x1bb"}, "name/invalid"),
    ({"name": "a\x7fb"}, "name/invalid"),
    ({"name": "a\u009fb"}, "name/invalid"),
    (b'{"name": "a\\ud800b"}', "name/invalid"),
    (b'{"name": "\\udfff"}', "name/invalid"),
    ({"name": "A", "seats": 7}, "settings/seats"),
    ({"name": "A", "seats": 1}, "settings/seats"),
    ({"name": "A", "seats": 0}, "settings/seats"),
    ({"name": "A", "seats": -3}, "settings/seats"),
    ({"name": "A", "seats": "4"}, "settings/seats"),
    ({"name": "A", "seats": True}, "settings/seats"),
    ({"name": "A", "seats": 4.0}, "settings/seats"),
    ({"name": "A", "seats": 10**300}, "settings/seats"),
    ({"name": "A", "seats": 3, "rules": {"preset": "duo"}}, "settings/seats"),
    ({"name": "A", "bots": "god"}, "settings/bots"),
    ({"name": "A", "bots": None}, "settings/bots"),
    ({"name": "A", "bots": ["easy"]}, "settings/bots"),
    ({"name": "A", "turn_seconds": 4}, "settings/timer"),
    ({"name": "A", "turn_seconds": 601}, "settings/timer"),
    ({"name": "A", "turn_seconds": 0}, "settings/timer"),
    ({"name": "A", "turn_seconds": True}, "settings/timer"),
    ({"name": "A", "turn_seconds": "30"}, "settings/timer"),
    ({"name": "A", "turn_seconds": 30.5}, "settings/timer"),
    ({"name": "A", "rules": "nepal"}, "settings/rules"),
    ({"name": "A", "rules": ["nepal"]}, "settings/rules"),
    ({"name": "A", "rules": {"preset": "nope"}}, "rules/preset"),
    ({"name": "A", "preset": "nope"}, "rules/preset"),
    ({"name": "A", "preset": None}, "rules/preset"),
    ({"name": "A", "rules": {"wild": 1}}, "rules/wild"),
    ({"name": "A", "rules": {"show_tie": "coin"}}, "rules/show_tie"),
    ({"name": "A", "rules": {"see_anytime": "yes"}}, "rules/see_anytime"),
    ({"name": "A", "hands": 7}, "rules/hands"),
    ({"name": "A", "boot": 7}, "rules/boot"),
    ({"name": "A", "boot": "10"}, "rules/boot"),
    ({"name": "A", "preset": "limited", "hands": 0}, "rules/hands"),
    ({"name": "A", "preset": "limited", "rules": {"starting_chips": 1}}, "rules/starting_chips"),
    (b'{"name": "A", "rules": {"\\ud800": 1}}', "rules/\ud800"),
    (b"x" * 5000, "message/too_large"),
]


def test_bad_lobby_bodies_are_refused_and_store_nothing(
    server: Server, api: Api, arun: Run
) -> None:
    async def body() -> None:
        existing = await api.create(name="Asha", seats=3, preset="limited", hands=1)
        code = existing["code"]
        info = lasting(await api.info(code))
        count = server.table_count()
        for sent, error in BAD_CREATES:
            if isinstance(sent, bytes):
                reply = await api.request("POST", "/api/tables", content=sent)
            else:
                reply = await api.request("POST", "/api/tables", json_body=sent)
            assert reply.status_code == 400, (sent, reply.status_code, reply.text)
            assert reply.headers["content-type"].startswith("application/json")
            assert reply.json()["error"]["code"] == error, (sent, reply.text)
        assert server.table_count() == count
        # Joins: every refusal, then the one that works, then a full table.
        bad_joins: list[tuple[Any, str]] = [
            (b"{", "message/json"),
            (b"[]", "name/invalid"),
            (b"null", "name/invalid"),
            ({"name": ""}, "name/empty"),
            ({"name": "x" * 25}, "name/too_long"),
            ({"name": "a\x00"}, "name/invalid"),
            (b'{"name": "\\ud800"}', "name/invalid"),
            ({"name": "asha"}, "name/taken"),
            ({"name": " ASHA "}, "name/taken"),
            (b"y" * 5000, "message/too_large"),
        ]
        path = f"/api/tables/{code}/join"
        for sent, error in bad_joins:
            if isinstance(sent, bytes):
                reply = await api.request("POST", path, content=sent)
            else:
                reply = await api.request("POST", path, json_body=sent)
            assert reply.status_code == 400, (sent, reply.text)
            assert reply.json()["error"]["code"] == error, (sent, reply.text)
        assert lasting(await api.info(code)) == info
        assert (await api.join(code, "Bikash"))["seat"] == 1
        assert (await api.join(code, "Chandra"))["seat"] == 2
        full = lasting(await api.info(code))
        assert full["version"] == info["version"] + 2
        reply = await api.request("POST", path, json_body={"name": "Deepa"})
        assert reply.status_code == 400 and reply.json()["error"]["code"] == "table/full"
        assert lasting(await api.info(code)) == full
        server.assert_healthy()

    arun(body(), 30)
