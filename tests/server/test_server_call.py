"""The voice call's signalling through a real ``teenpatti serve``: passed between the seats on one
table's call and nowhere else, refused with codes when forged, foreign, malformed, huge or
flooded (and then passed to nobody), and never a change to the game.

Each table here has three people seated (host 0, guests 1 and 2) and a spectator; the game is
started with no turn timer, so nothing moves unless someone acts, and the version the lobby
reports before and after shows the call changed nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from support.server import Api, Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]

SDP = "\r\n".join(
    [
        "v=0",
        "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
        "s=-",
        "t=0 0",
        "a=group:BUNDLE 0",
        "m=audio 9 UDP/TLS/RTP/SAVPF 111",
        "c=IN IP4 0.0.0.0",
        "a=mid:0",
        "a=sendrecv",
        "a=rtpmap:111 opus/48000/2",
        "",
    ]
)
"""A browser's audio offer, cut short (the server reads only its shape)."""
CANDIDATE = {
    "candidate": "candidate:1 1 udp 2122260223 127.0.0.1 50000 typ host",
    "sdpMid": "0",
    "sdpMLineIndex": 0,
}


class Seated:
    """Three people at a started table, each with a socket, and a spectator watching."""

    def __init__(self, server: Server, api: Api, ws: MakeClient) -> None:
        self.server, self.api, self.ws = server, api, ws
        self.code = ""
        self.tokens: list[str] = []
        self.seats: list[Client] = []
        self.spectator: Client

    async def open(self, start: bool = True) -> Seated:
        host = await self.api.create(name="Host", seats=3, hands=10, turn_seconds=None)
        self.code = host["code"]
        self.tokens = [host["token"]]
        for name in ("Asha", "Bina"):
            self.tokens.append((await self.api.join(self.code, name))["token"])
        for seat, token in enumerate(self.tokens):
            client = self.ws(self.server, self.code, seat, f"{self.code}/{seat}")
            await client.hello(token)
            self.seats.append(client)
        self.spectator = self.ws(self.server, self.code, None, f"{self.code}/watch")
        await self.spectator.hello(None)
        if start:
            await self.seats[0].send({"type": "start"})
            await self.seats[0].state(lambda s: s["hand"] is not None)
        return self

    async def version(self) -> int:
        return int((await self.api.info(self.code))["version"])

    async def join(self, *seats: int) -> None:
        """These seats join the call, one after the other, each waiting for its roster."""
        for seat in seats:
            await self.seats[seat].send({"type": "call", "join": True})
            await self.seats[seat].next(lambda m, s=seat: is_roster(m) and s in on_call(m))

    async def close(self) -> None:
        for client in [*self.seats, self.spectator]:
            await client.close()


def is_roster(message: dict[str, Any]) -> bool:
    return bool(message["type"] == "call")


def on_call(message: dict[str, Any]) -> list[int]:
    return [s["seat"] for s in message["seats"]]


def signals(client: Client) -> list[dict[str, Any]]:
    return [m for m in client.messages if m["type"] == "signal"]


async def settle(*clients: Client) -> None:
    """Every message the server sent these clients before now has arrived (each answers a
    ping, and a socket's messages come in order)."""
    await asyncio.gather(*(c.ping() for c in clients))


def test_the_call_passes_signals_between_its_seats_and_tells_only_the_seated(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Seated(server, api, ws).open()
        host, asha, bina = table.seats
        before = await table.version()
        await table.join(0, 1)
        roster = await bina.next(lambda m: is_roster(m) and on_call(m) == [0, 1])
        assert "ice" not in roster  # not on the call: no servers, no credentials
        mine = [m for m in asha.messages if is_roster(m)][-1]
        assert on_call(mine) == [0, 1] and mine["ice"] == [] and mine["policy"] == "all"
        assert [s["muted"] for s in mine["seats"]] == [False, False]

        await host.send({"type": "signal", "to": 1, "kind": "offer", "sdp": SDP})
        offer = await asha.next(lambda m: m["type"] == "signal")
        assert offer == {"type": "signal", "from": 0, "kind": "offer", "sdp": SDP}
        await asha.send({"type": "signal", "to": 0, "kind": "answer", "sdp": SDP})
        answer = await host.next(lambda m: m["type"] == "signal")
        assert answer["from"] == 1 and answer["kind"] == "answer"
        await asha.send(
            {"type": "signal", "to": 0, "kind": "candidates", "candidates": [CANDIDATE]}
        )
        found = await host.next(lambda m: m["type"] == "signal" and m["kind"] == "candidates")
        assert found["candidates"] == [CANDIDATE]

        await asha.send({"type": "call", "join": True, "muted": True})
        muted = await host.next(lambda m: is_roster(m) and m["seats"][1]["muted"])
        assert on_call(muted) == [0, 1]

        # A spectator may not join, and hears of no call at all.
        assert (await table.spectator.request({"type": "call", "join": True}))["code"] == (
            "call/not_seated"
        )
        refused = await table.spectator.request(
            {"type": "signal", "to": 0, "kind": "offer", "sdp": SDP}
        )
        assert refused["code"] == "call/not_joined"
        # A late socket of a seated person learns who is on the call at its hello.
        again = ws(server, table.code, 2, "bina again")
        await again.hello(table.tokens[2])
        assert on_call(await again.next(is_roster)) == [0, 1]
        await settle(host, asha, bina, table.spectator, again)
        assert not [m for m in table.spectator.messages if m["type"] in ("call", "signal")]
        assert not signals(bina) and not signals(again)
        assert await table.version() == before  # the call is no event
        await again.close()
        await table.close()

    arun(body())


def test_hostile_signalling_is_refused_with_codes_and_forwarded_to_nobody(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Seated(server, api, ws).open()
        other = await Seated(server, api, ws).open(start=False)
        host, asha, bina = table.seats
        await table.join(0, 1)
        await other.join(0, 1, 2)
        before = await table.version()
        states = [await c.sync() for c in table.seats]

        def signal(to: Any = 1, kind: Any = "offer", **more: Any) -> dict[str, Any]:
            return {"type": "signal", "to": to, "kind": kind, **more}

        huge = SDP + "a=x-pad:" + "p" * 10_100 + "\r\n"
        cases: list[tuple[Client, Any, str]] = [
            # Seats: not on the call, not at this table, itself, none; a sender off the call.
            (host, signal(2, sdp=SDP), "call/no_peer"),
            (host, signal(0, sdp=SDP), "call/no_peer"),
            (host, signal(7, sdp=SDP), "call/no_peer"),
            (host, signal(-1, sdp=SDP), "call/no_peer"),
            (host, signal("1", sdp=SDP), "call/no_peer"),
            (host, signal(None, sdp=SDP), "call/no_peer"),
            (bina, signal(0, sdp=SDP), "call/not_joined"),
            # Session descriptions: huge, not one, video, control characters, missing, mixed.
            (host, signal(sdp=huge), "call/sdp"),
            (host, signal(sdp="hello"), "call/sdp"),
            (host, signal(sdp=""), "call/sdp"),
            (host, signal(sdp=SDP.replace("m=audio", "m=video")), "call/sdp"),
            (host, signal(sdp=SDP + "m=video 9 UDP/TLS/RTP/SAVPF 96\r\n"), "call/sdp"),
            (host, signal(sdp=SDP.replace("s=-", "s=\x00\x1b[2J")), "call/sdp"),
            (host, signal(sdp=SDP + "<script>x</script>"), "call/sdp"),
            (host, signal(), "call/sdp"),
            (host, signal(sdp=5), "call/sdp"),
            (host, signal(sdp=SDP, candidates=[CANDIDATE]), "call/sdp"),
            (host, signal(kind="bye", sdp=SDP), "call/invalid"),
            (host, signal(kind=None), "call/invalid"),
            # Candidates: not candidates, too many, too long, of the wrong type, none.
            (host, signal(kind="candidates", candidates=[{"candidate": "rm"}]), "call/candidate"),
            (host, signal(kind="candidates", candidates=[CANDIDATE] * 17), "call/candidate"),
            (
                host,
                signal(kind="candidates", candidates=[{"candidate": "candidate:" + "1" * 600}]),
                "call/candidate",
            ),
            (host, signal(kind="candidates", candidates=[{"candidate": 5}]), "call/candidate"),
            (host, signal(kind="candidates", candidates={"candidate": "x"}), "call/candidate"),
            (host, signal(kind="candidates", candidates=[]), "call/candidate"),
            (host, signal(kind="candidates", sdp=SDP), "call/candidate"),
            # Sizes: a signal over its 12 KiB, any other message over 4 KiB.
            (host, signal(sdp=SDP, pad="x" * 13_000), "message/too_large"),
            (host, {"type": "call", "join": True, "pad": "x" * 5000}, "message/too_large"),
            (host, {"type": "call", "join": "yes"}, "call/invalid"),
            (host, {"type": "call"}, "call/invalid"),
            (host, {"type": "call", "join": True, "muted": 1}, "call/invalid"),
        ]
        for client, message, code in cases:
            got = await client.request(message)
            assert got["code"] == code, (message if len(str(message)) < 300 else "huge", got)
        # A forged sender: the server names the sender's own seat, whatever it says.
        await host.send(signal(sdp=SDP, **{"from": 2}))
        forged = await asha.next(lambda m: m["type"] == "signal")
        assert forged["from"] == 0 and set(forged) == {"type", "from", "kind", "sdp"}

        # A flood: a seat's signals past its burst are refused, and only the others arrive.
        batch = signal(kind="candidates", candidates=[CANDIDATE])
        for _ in range(60):
            await host.send(batch)
        await settle(host, asha)
        flooded = [m for m in host.messages if m["type"] == "error"][-60:]
        refused = sum(m.get("code") == "call/rate" for m in flooded)
        passed = len(signals(asha)) - 1  # the forged one
        assert refused >= 20 and passed + refused == 60, (passed, refused)

        await settle(*table.seats, table.spectator, *other.seats)
        assert not signals(bina) and not signals(host)
        assert not [m for m in table.spectator.messages if m["type"] in ("call", "signal")]
        assert not any(signals(c) for c in other.seats)  # another table's seats 1 and 2
        assert await table.version() == before
        after = [await c.sync() for c in table.seats]
        assert [host.public(s) for s in after] == [host.public(s) for s in states]
        await table.close()
        await other.close()

    arun(body(), 90)


def test_a_removed_player_a_closed_socket_and_voice_off_leave_the_call(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        table = await Seated(server, api, ws).open()
        host, asha, bina = table.seats
        await table.join(0, 1, 2)
        first = [m for m in asha.messages if is_roster(m)][-1]["seats"][1]["n"]

        await host.send({"type": "remove", "seat": 2})
        assert on_call(await asha.next(lambda m: is_roster(m) and 2 not in on_call(m))) == [0, 1]
        told = await bina.next(lambda m: m["type"] == "error", timeout=15)
        assert told["code"] == "seat/removed", (told, bina.messages[-5:])
        await bina.wait_closed()
        # A reload: the new page joins again (a new n); the old socket's close changes nothing.
        again = ws(server, table.code, 1, "asha again")
        await again.hello(table.tokens[1])
        await again.send({"type": "call", "join": True})
        rejoined = await host.next(lambda m: is_roster(m) and m["seats"][1]["n"] != first)
        assert on_call(rejoined) == [0, 1]
        await asha.close()
        await host.send({"type": "signal", "to": 1, "kind": "offer", "sdp": SDP})
        assert (await again.next(lambda m: m["type"] == "signal"))["from"] == 0

        before = await table.version()
        await host.send({"type": "configure", "voice": False})
        assert on_call(await again.next(is_roster)) == []
        state = await host.state(lambda s: not s["settings"]["voice"])
        assert state["version"] == before + 1  # the house rule is the table's: an event
        assert (await again.request({"type": "call", "join": True}))["code"] == "call/off"
        await host.send({"type": "configure", "voice": True})
        await host.state(lambda s: s["settings"]["voice"])
        await table.join(0)
        assert not signals(bina)
        await again.close()
        await table.close()

    arun(body())
