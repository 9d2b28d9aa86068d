"""The Redis bus: pub/sub for announcements, ``SET NX PX`` leases for tables' clocks (redis-py).

Each process listens on a channel of its own (:data:`CHANNEL` and its name). An announcement goes
only to the processes that hold the table: those with a presence record of it (they have sockets
there, or had a seat's last one close within the grace) and the holder of its lease (it runs the
table's clocks). One script call finds them and publishes to each, so a process that does not
serve a table never hears of it, however many processes there are. A process serving the table
only for the lobby hears nothing: it reads the store before it answers."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from .base import MISSED, Announcement, Listener

__all__ = ["CHANNEL", "RedisBus"]

CHANNEL = "teenpatti:to:"
"""The prefix of each process's own pub/sub channel (followed by the process's name)."""
_LEASE = "teenpatti:lease:"
_ONLINE = "teenpatti:online:"
"""A hash per table: process -> its record (see :class:`_Record`)."""

# Renew only a lease we hold; take it when free. Returns 1 when the lease is ours afterwards.
_TAKE_OR_RENEW = """
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if holder == false then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""
# The same for many keys in one call (the lease keeper's round): 1 or 0 per key, in order.
_TAKE_OR_RENEW_MANY = """
local out = {}
for i, key in ipairs(KEYS) do
  local holder = redis.call('GET', key)
  if holder == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    out[i] = 1
  elseif holder == false then
    redis.call('SET', key, ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out
"""
# Publish ARGV[1] to every process holding the table but the sender (ARGV[2]): those with a
# presence record (KEYS[1]) and the lease holder (KEYS[2]). Returns how many listeners heard it.
_ANNOUNCE = """
local told, heard = {}, 0
local function tell(owner)
  if owner and owner ~= ARGV[2] and not told[owner] then
    told[owner] = true
    heard = heard + redis.call('PUBLISH', ARGV[3] .. owner, ARGV[1])
  end
end
for _, owner in ipairs(redis.call('HKEYS', KEYS[1])) do tell(owner) end
tell(redis.call('GET', KEYS[2]))
return heard
"""
_BATCH = 1000
"""Leases renewed per call."""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""

log = logging.getLogger("teenpatti.bus")
_told = msgspec.json.Encoder().encode
_heard = msgspec.json.Decoder(Announcement).decode

CONNECT_TIMEOUT = 2.0
"""Seconds to connect to Redis."""
COMMAND_TIMEOUT = 2.0
"""Seconds a command may wait for its answer (a paused or silently dead Redis)."""
HEALTH_CHECK = 10.0
"""A connection idle this long is checked (PING) before it is used again."""


class _Record:
    """One process's presence record of a table: ``"<expiry ms>:<seats>:<written ms>:<left>"``,
    seats as ``0,2`` and left as ``1@<ms>,3@<ms>`` (when each seat's last socket closed)."""

    __slots__ = ("expiry", "left", "seats", "written")

    def __init__(self, expiry: int, seats: set[int], written: int, left: dict[int, int]) -> None:
        self.expiry = expiry
        self.seats = seats
        self.written = written
        self.left = left

    @classmethod
    def parse(cls, value: str) -> _Record:
        """A record as stored (a malformed part counts as empty)."""
        parts = [*value.split(":"), "", "", ""][:4]
        expiry = int(parts[0]) if parts[0].isdigit() else 0
        seats = {int(s) for s in parts[1].split(",") if s.isdigit()}
        written = int(parts[2]) if parts[2].isdigit() else 0
        left: dict[int, int] = {}
        for item in parts[3].split(","):
            seat, _, ms = item.partition("@")
            if seat.isdigit() and ms.isdigit():
                left[int(seat)] = int(ms)
        return cls(expiry, seats, written, left)


class RedisBus:
    """Announcements over one Redis pub/sub channel; leases as keys that expire."""

    def __init__(self, client: aioredis.Redis, clock: Callable[[], float] = time.time) -> None:
        self.client = client
        self.clock = clock
        """The time now (epoch seconds): when presence records are written and lapse."""
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self._take = client.register_script(_TAKE_OR_RENEW)
        self._take_many = client.register_script(_TAKE_OR_RENEW_MANY)
        self._release = client.register_script(_RELEASE)
        self._announce = client.register_script(_ANNOUNCE)
        self.channel = CHANNEL + self.owner
        """This process's own channel: announcements of the tables it holds."""
        self._task: asyncio.Task[None] | None = None
        self._held: set[str] = set()
        self._present: dict[str, tuple[list[int] | None, dict[int, float], float]] = {}
        """This process's last record of each table: ``(seats, left, keep)``."""

    @classmethod
    async def open(cls, url: str, clock: Callable[[], float] = time.time) -> RedisBus:
        """Connect to ``url`` and check the server answers (``clock``: the time now, which
        decides when presence records lapse; tests move it).

        Every command has a deadline (:data:`COMMAND_TIMEOUT`, :data:`CONNECT_TIMEOUT`): a
        paused Redis gives errors, which the table service rides out, never a call that hangs.
        The channel's listener waits without a deadline (a quiet channel is not an error)."""
        # A restarted Redis leaves every pooled connection stale: retry a command once on a new
        # connection rather than lose an announcement or a lease renewal to it.
        retry = Retry(ExponentialBackoff(cap=0.2, base=0.05), 1)
        client = aioredis.from_url(
            url,
            decode_responses=True,
            retry=retry,
            socket_timeout=COMMAND_TIMEOUT,
            socket_connect_timeout=CONNECT_TIMEOUT,
            health_check_interval=HEALTH_CHECK,
        )
        await client.ping()
        return cls(client, clock)

    async def start(self, listener: Listener) -> None:
        """Listen on the channel; other processes' announcements go to ``listener``."""
        pubsub = self.client.pubsub()
        await pubsub.subscribe(self.channel)
        self._task = asyncio.create_task(self._listen(pubsub, listener))

    async def _listen(self, pubsub: Any, listener: Listener) -> None:
        delay = 0.1
        subscribed = False
        try:
            while True:
                try:
                    if pubsub is None:  # the connection broke: subscribe again
                        pubsub = self.client.pubsub()
                        await pubsub.subscribe(self.channel)
                    async for message in pubsub.listen():
                        delay = 0.1
                        kind = message.get("type")
                        if kind == "subscribe":
                            if subscribed:  # again, on a new connection: announcements made
                                log.warning("bus: listening again")  # meanwhile are lost,
                                await self._missed(listener)  # so catch every table up
                            subscribed = True
                            continue
                        if kind != "message":
                            continue
                        try:
                            heard = _heard(message["data"])
                            if heard.sender == self.owner:
                                continue
                            await listener(heard.code, heard.version)
                        except Exception:  # one bad message must not stop the listener
                            log.exception("bus message %r not handled", message.get("data"))
                    return  # unsubscribed
                except (aioredis.RedisError, OSError) as error:
                    # Redis restarted, or the network went away: listen again once it is back.
                    log.warning("bus: lost the channel (%s); again in %.1f s", error, delay)
                    with contextlib.suppress(Exception):
                        await pubsub.aclose()
                    pubsub = None
                await asyncio.sleep(delay)
                delay = min(2.0, delay * 2)
        finally:
            if pubsub is not None:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _missed(self, listener: Listener) -> None:
        try:
            await listener(MISSED, 0)
        except Exception:
            log.exception("catching up after the bus came back")

    async def publish(self, code: str, version: int) -> None:
        """Announce a table's new version to the other processes that hold it."""
        payload = _told(Announcement(code, version, self.owner))
        await self._announce(
            keys=[_ONLINE + code, _LEASE + code], args=[payload, self.owner, CHANNEL]
        )

    async def lease(self, code: str, ttl: float) -> bool:
        """Take or renew the lease on a table's clocks."""
        held = bool(await self._take(keys=[_LEASE + code], args=[self.owner, int(ttl * 1000)]))
        if held:
            self._held.add(code)
        else:
            self._held.discard(code)
        return held

    async def leases(self, codes: list[str], ttl: float) -> set[str]:
        """Take or renew many leases, a thousand per round trip; the codes held afterwards."""
        held: set[str] = set()
        for i in range(0, len(codes), _BATCH):
            chunk = codes[i : i + _BATCH]
            flags = await self._take_many(
                keys=[_LEASE + code for code in chunk], args=[self.owner, int(ttl * 1000)]
            )
            held.update(code for code, flag in zip(chunk, flags, strict=True) if flag)
        self._held.difference_update(codes)
        self._held.update(held)
        return held

    async def release(self, code: str) -> None:
        """Give the lease up (another process may take the clocks at once)."""
        self._held.discard(code)
        await self._release(keys=[_LEASE + code], args=[self.owner])

    async def present(
        self,
        seats: dict[str, list[int] | None],
        ttl: float,
        left: dict[str, dict[int, float]] | None = None,
        keep: float = 0.0,
    ) -> None:
        """Record this process's seats per table, and when seats left it (one pipeline)."""
        if not seats:
            return
        now = self.clock()
        expiry, written = int((now + ttl) * 1000), int(now * 1000)
        lasts = int(max(ttl * 4, keep + ttl, 1.0) * 1000)
        async with self.client.pipeline(transaction=False) as pipe:
            for code, held in seats.items():
                key = _ONLINE + code
                gone = (left or {}).get(code, {})
                if held is not None or gone:
                    on = ",".join(map(str, sorted(held or [])))
                    off = ",".join(f"{s}@{int(t * 1000)}" for s, t in sorted(gone.items()))
                    pipe.hset(key, self.owner, f"{expiry}:{on}:{written}:{off}")
                    pipe.pexpire(key, lasts)
                else:
                    pipe.hdel(key, self.owner)
            await pipe.execute()
        for code, held in seats.items():
            gone = (left or {}).get(code, {})
            if held is not None or gone:
                self._present[code] = (held, gone, keep)
            else:
                self._present.pop(code, None)

    async def _records(self, codes: list[str]) -> list[list[_Record]]:
        """Every other process's record of each table (one pipeline)."""
        async with self.client.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.hgetall(_ONLINE + code)
            replies = await pipe.execute()
        return [
            [_Record.parse(str(v)) for owner, v in (reply or {}).items() if owner != self.owner]
            for reply in replies
        ]

    async def online(self, codes: list[str]) -> dict[str, set[int]]:
        """The seats other processes have recorded and renewed in time (one pipeline)."""
        if not codes:
            return {}
        now = int(self.clock() * 1000)
        out: dict[str, set[int]] = {}
        for code, records in zip(codes, await self._records(codes), strict=True):
            out[code] = {s for r in records if r.expiry > now for s in r.seats}
        return out

    async def last_seen(self, codes: list[str]) -> dict[str, dict[int, float]]:
        """When other processes last saw each seat of each table (one pipeline)."""
        if not codes:
            return {}
        out: dict[str, dict[int, float]] = {}
        for code, records in zip(codes, await self._records(codes), strict=True):
            seen: dict[int, float] = {}
            for record in records:
                sightings = [(s, record.written) for s in record.seats]
                for seat, ms in [*sightings, *record.left.items()]:
                    seen[seat] = max(seen.get(seat, 0.0), ms / 1000)
            out[code] = seen
        return out

    async def ping(self) -> None:
        """Ask Redis for a PONG."""
        await self.client.ping()

    async def close(self) -> None:
        """Stop listening, release the leases held, close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        for code in list(self._held):
            with contextlib.suppress(Exception):
                await self.release(code)
        with contextlib.suppress(Exception):
            # The records lapse at once (nobody is online here any more) but say who was here
            # until now, so the process taking the tables over counts their graces from now.
            last = dict(self._present)
            keep = max((k for _, _, k in last.values()), default=0.0)
            await self.present(
                {c: h for c, (h, _, _) in last.items()},
                0.0,
                {c: g for c, (_, g, _) in last.items()},
                keep,
            )
        await self.client.aclose()
