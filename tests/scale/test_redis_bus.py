"""The Redis bus on a real Redis: announcements go from one process's bus to the others (never
back to the sender), a bad message does not stop the listener, and a table's lease has one holder
at a time, is renewed by its holder only, expires when not renewed, and can be given up; and the
listener outlives a Redis restart."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from typing import Any

import redis.asyncio as aioredis
from support.services import RedisServer

from teenpatti.bus import open_bus
from teenpatti.bus.base import MISSED
from teenpatti.bus.memory import MemoryBus
from teenpatti.bus.redis import RedisBus


def run(coro: Any, timeout: float = 30.0) -> Any:
    return asyncio.run(asyncio.wait_for(coro, timeout))


def new_code() -> str:
    return "T" + secrets.token_hex(3).upper()


async def subscribers(url: str, *buses: RedisBus) -> int:
    """How many of these processes' channels have a listener."""
    client = aioredis.from_url(url)
    try:
        counts = await client.pubsub_numsub(*(bus.channel for bus in buses))
    finally:
        await client.aclose()
    return sum(int(n) for _, n in counts)


async def wait_for(check: Any, timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await check():
        assert loop.time() < deadline, "not in time"
        await asyncio.sleep(0.02)


async def expiry(raw: aioredis.Redis, key: str, timeout: float = 10.0) -> None:
    """Wait until Redis expires ``key`` (its keyspace notification), bounded by ``timeout``."""
    await raw.config_set("notify-keyspace-events", "Ex")
    events = raw.pubsub()
    try:
        await events.psubscribe("__keyevent@*__:expired")
        if await raw.exists(key) == 0:
            return  # gone before we listened
        async with asyncio.timeout(timeout):
            while True:
                message = await events.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is not None and message["data"] in (key, key.encode()):
                    return
    finally:
        await events.aclose()


class Inbox:
    """A listener that keeps what it is told."""

    def __init__(self) -> None:
        self.got: asyncio.Queue[tuple[str, int]] = asyncio.Queue()

    async def __call__(self, code: str, version: int) -> None:
        self.got.put_nowait((code, version))

    async def next(self, timeout: float = 5.0) -> tuple[str, int]:
        return await asyncio.wait_for(self.got.get(), timeout)


def test_open_bus_by_url(redis_url: str) -> None:
    async def body() -> None:
        assert isinstance(await open_bus(None), MemoryBus)
        assert isinstance(await open_bus("memory://"), MemoryBus)
        bus = await open_bus(redis_url)
        assert isinstance(bus, RedisBus)
        await bus.close()

    run(body())


def test_announcements_reach_the_processes_holding_the_table_not_the_sender(
    redis_url: str,
) -> None:
    """An announcement goes to the processes with a presence record of the table (sockets there)
    and to its lease holder, in order, never back to the sender; a process that does not hold
    the table hears nothing of it."""

    async def body() -> None:
        one, two, three, four = [await RedisBus.open(redis_url) for _ in range(4)]
        buses = (one, two, three, four)
        assert len({bus.owner for bus in buses}) == 4
        inboxes = [Inbox() for _ in buses]
        for bus, inbox in zip(buses, inboxes, strict=True):
            await bus.start(inbox)

        async def subscribed() -> bool:
            return await subscribers(redis_url, *buses) == 4

        await wait_for(subscribed)
        code = new_code()
        await one.present({code: [0]}, 10.0)  # the sender holds it too
        await two.present({code: []}, 10.0)  # a spectator's socket
        assert await three.lease(code, 10.0)  # runs its clocks; four does not hold it
        for version in range(1, 6):
            await one.publish(code, version)
        for inbox in inboxes[1:3]:  # in order, every one
            assert [await inbox.next() for _ in range(5)] == [(code, v) for v in range(1, 6)]
        await two.publish(code, 6)
        assert await inboxes[0].next() == (code, 6)
        assert await inboxes[2].next() == (code, 6)
        await two.present({code: None}, 10.0)  # two's last socket closed
        await one.publish(code, 7)
        assert await inboxes[2].next() == (code, 7)
        # Not two, four, nor the sender: a marker published on each one's channel after 7 (Redis
        # delivers a connection's messages in the order it ran the publishes) comes first.
        raw = aioredis.from_url(redis_url)
        try:
            for bus, inbox in zip(buses, inboxes, strict=True):
                await raw.publish(bus.channel, json.dumps({"code": "MARK", "version": 0}))
                assert await inbox.next() == ("MARK", 0)
            assert all(inbox.got.empty() for inbox in inboxes)

            # A malformed message (or one a listener chokes on) does not stop the listener.
            await raw.publish(three.channel, "not json")
            await raw.publish(three.channel, '{"code": "X"}')
        finally:
            await raw.aclose()
        await one.publish(code, 8)
        assert await inboxes[2].next() == (code, 8)
        for bus in buses:
            await bus.close()

        async def unsubscribed() -> bool:
            return await subscribers(redis_url, *buses) == 0

        await wait_for(unsubscribed)

    run(body())


def test_a_lease_has_one_holder_is_renewed_expires_and_is_released(redis_url: str) -> None:
    async def body() -> None:
        one, two = await RedisBus.open(redis_url), await RedisBus.open(redis_url)
        raw = aioredis.from_url(redis_url, decode_responses=True)
        key = "teenpatti:lease:"
        code = new_code()
        try:
            assert await one.lease(code, 1.0) is True
            assert await raw.get(key + code) == one.owner
            assert await two.lease(code, 1.0) is False  # one holder at a time
            # The holder renews: each renewal gives the lease its whole TTL again, however
            # little of it was left (Redis is told the lease is nearly out, not waited for).
            for _ in range(4):
                await raw.pexpire(key + code, 200)
                assert await one.lease(code, 1.0) is True
                assert await two.lease(code, 1.0) is False
                assert 900 < await raw.pttl(key + code) <= 1000
            # The other cannot give it up for the holder.
            await two.release(code)
            assert await raw.get(key + code) == one.owner
            # Not renewed, it expires after its TTL (Redis says when); then the other takes it.
            await expiry(raw, key + code)
            assert await raw.get(key + code) is None
            assert await two.lease(code, 1.0) is True
            assert await one.lease(code, 1.0) is False
            # Given up, it is free at once.
            await two.release(code)
            assert await raw.get(key + code) is None
            assert await one.lease(code, 1.0) is True
            # Of many racing for a free lease, exactly one gets it.
            racers = [await RedisBus.open(redis_url) for _ in range(6)]
            other = new_code()
            results = await asyncio.gather(*(bus.lease(other, 3.0) for bus in racers))
            assert sum(results) == 1
            winner = racers[results.index(True)]
            assert await raw.get(key + other) == winner.owner
            # Closing a bus gives up the leases it holds (another process may take them now).
            await winner.close()
            assert await raw.get(key + other) is None
            for bus in racers:
                if bus is not winner:
                    await bus.close()
            await one.close()
            assert await raw.get(key + code) is None
            assert await two.lease(code, 1.0) is True
        finally:
            await two.close()
            await raw.aclose()

    run(body())


def test_leases_are_renewed_in_batches_and_presence_is_shared(redis_url: str) -> None:
    """10,000 leases are taken and renewed in one call per thousand (one round trip each, not one
    per table); a lease held by another process stays theirs. Presence: each process sees the
    seats the others recorded, not its own, until the record lapses or is withdrawn."""

    async def body() -> None:
        later = 0.0  # how far two's clock runs ahead of the real time

        def clock() -> float:
            return time.time() + later

        one, two = await RedisBus.open(redis_url), await RedisBus.open(redis_url, clock)
        try:
            codes = [f"B{i:05d}" for i in range(10_000)]
            assert await two.lease(codes[7], 60.0) is True
            calls = 0
            take_many = one._take_many

            async def counted(*args: Any, **kwargs: Any) -> Any:
                nonlocal calls
                calls += 1
                return await take_many(*args, **kwargs)

            one._take_many = counted  # type: ignore[method-assign]
            held = await one.leases(codes, 60.0)
            assert held == set(codes) - {codes[7]} and calls == 10
            assert await one.leases(codes, 60.0) == held  # renewed
            assert await two.leases([codes[7], codes[8]], 60.0) == {codes[7]}
            # Presence.
            await one.present({"P1": [0, 2], "P2": [1]}, 2.0)
            assert await two.online(["P1", "P2", "P3"]) == {"P1": {0, 2}, "P2": {1}, "P3": set()}
            assert await one.online(["P1"]) == {"P1": set()}  # its own is not "elsewhere"
            written = time.time()
            await one.present({"P2": None}, 2.0, {"P2": {1: written}}, 30.0)  # its last socket
            assert (await two.online(["P2"]))["P2"] == set()
            seen = await two.last_seen(["P1", "P2", "P3"])
            assert seen["P1"].keys() == {0, 2} and seen["P3"] == {}
            assert abs(seen["P1"][0] - written) < 1 and abs(seen["P2"][1] - written) < 0.01
            assert await one.last_seen(["P1"]) == {"P1": {}}  # its own is not "elsewhere"
            later = (
                2.2  # not renewed for longer than its 2 s: the record lapses, the sighting stays
            )
            assert (await two.online(["P1"]))["P1"] == set()
            assert (await two.last_seen(["P1"]))["P1"].keys() == {0, 2}
        finally:
            await one.close()
            await two.close()

    run(body(), 60)


def test_the_listener_survives_a_redis_restart(services_available: None) -> None:
    """Redis restarted (or the network gone for a moment): the listener connects again by itself,
    tells its process that announcements may have been lost (``MISSED``: catch every table up
    from the store), and announcements flow again; leases can be taken again."""
    server = RedisServer().start()  # a Redis of this test's own, to restart it
    try:
        run(_restart(server), 60)
    finally:
        server.stop()


async def _restart(server: RedisServer) -> None:
    url = server.url()
    one, two = await RedisBus.open(url), await RedisBus.open(url)
    inbox = Inbox()
    await one.start(Inbox())
    await two.start(inbox)

    async def subscribed() -> bool:
        return await subscribers(url, one, two) == 2

    await wait_for(subscribed)
    code = new_code()
    await two.present({code: [1]}, 30.0)  # two has a socket at the table
    await one.publish(code, 1)
    assert await inbox.next() == (code, 1)
    assert await one.lease(code, 3.0) is True

    await asyncio.to_thread(server.restart, 1.0)
    # The listener is back within a few seconds, and says what it may have missed.
    assert await inbox.next(timeout=15) == (MISSED, 0)
    await wait_for(subscribed, timeout=10)
    await two.present({code: [1]}, 30.0)  # the restarted Redis holds no record until renewed
    await one.publish(code, 2)
    assert await inbox.next() == (code, 2)
    # The restarted Redis holds no lease: the first to ask takes it.
    assert await two.lease(code, 3.0) is True
    assert await one.lease(code, 3.0) is False
    await one.close()
    await two.close()
