"""The bus interface, and picking a bus by URL.

What crosses the bus is only ``(table code, version)``: "this table has new events up to this
version". Each process then reads the events from the store and renders every seat's view itself,
so hidden cards never cross the bus. Delivery may be lossy (Redis pub/sub is fire-and-forget):
versions make it whole, since a process that missed a message catches up at the next one, and a
client that asks for a sync gets the current state.

Presence is shared the same way: each process records which seats have a socket open in it, for
a few seconds at a time, renewed while the socket stays; every process reads the others'
records, so a person connected anywhere is online everywhere. Each record also says when it was
written and when each seat's last socket in that process closed, kept for the reconnect grace:
the process that decides to hand a seat to the computer counts the grace from the last time any
process saw the person (:meth:`Bus.last_seen`), so a record that lapsed for a moment, or the
process that died with the person's socket, never shortens the grace nor starts it again.

Leases decide which process runs a table's clocks (deals, computer players, turn timers): a lease
is held for ``ttl`` seconds and renewed while the process lives, so when it dies another process
takes the table's clocks over. Two processes firing the same clock cannot both write: the store's
compare-and-set on the table's log lets exactly one event in.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

import msgspec

__all__ = ["MISSED", "PRESENCE", "Announcement", "Bus", "Listener", "open_bus"]

Listener = Callable[[str, int], Awaitable[None]]
"""Called with ``(code, version)`` when another process has appended to a table's log, and with
``(MISSED, 0)`` when announcements may have been lost (the bus's connection broke and is back)."""

MISSED = "*"
"""The code a listener is given when announcements may have been lost: catch every table up."""

PRESENCE = 0
"""The version announced when only who is connected changed (read :meth:`Bus.online` again)."""


class Announcement(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What a process publishes: table ``code`` has events up to ``version`` (:data:`PRESENCE`:
    only who is connected changed); ``from`` names the process that wrote them (a process skips
    its own).

    >>> heard = msgspec.json.encode(Announcement("K7WQ3M", 12, "host:41:9f"))
    >>> heard
    b'{"code":"K7WQ3M","version":12,"from":"host:41:9f"}'
    >>> msgspec.json.decode(heard, type=Announcement).version
    12
    """

    code: str
    version: int
    sender: str = msgspec.field(default="", name="from")
    """(Absent: a process of none of ours, never this one.)"""


class Bus(Protocol):
    """How server processes tell each other about new events, and share out tables' clocks."""

    owner: str
    """This process's name in leases."""

    async def start(self, listener: Listener) -> None:
        """Start delivering other processes' announcements to ``listener``."""
        ...

    async def publish(self, code: str, version: int) -> None:
        """Announce that table ``code`` has events up to ``version``."""
        ...

    async def lease(self, code: str, ttl: float) -> bool:
        """Take or renew the lease on ``code``'s clocks for ``ttl`` seconds; ``True`` if held."""
        ...

    async def leases(self, codes: list[str], ttl: float) -> set[str]:
        """:meth:`lease` for many tables at once (one round trip); the codes held afterwards."""
        ...

    async def release(self, code: str) -> None:
        """Give up the lease on ``code`` if this process holds it."""
        ...

    async def present(
        self,
        seats: dict[str, list[int] | None],
        ttl: float,
        left: dict[str, dict[int, float]] | None = None,
        keep: float = 0.0,
    ) -> None:
        """Record, for ``ttl`` seconds, which seats of each table have a socket open in this
        process (``None``: no socket of the table any more; the process then stops hearing
        the table's announcements unless ``left`` keeps its record), and when (epoch seconds)
        the seats in ``left`` had their last socket here closed; a table's records are kept
        ``keep`` seconds at least (the reconnect grace). One round trip."""
        ...

    async def online(self, codes: list[str]) -> dict[str, set[int]]:
        """The seats of each table with a socket open in some other process (one round trip);
        a process that stops renewing its record drops out after its ``ttl``."""
        ...

    async def last_seen(self, codes: list[str]) -> dict[str, dict[int, float]]:
        """For each table, the last time (epoch seconds) some other process saw each seat with
        a socket open: the writing time of a record that holds it (lapsed or not), or when its
        last socket there closed (one round trip)."""
        ...

    async def ping(self) -> None:
        """Raise if the bus cannot be reached now (``/readyz``)."""
        ...

    async def close(self) -> None:
        """Stop listening and release every lease."""
        ...


async def open_bus(url: str | None) -> Bus:
    """The bus for ``url``: ``None`` or ``memory://`` (one process), or ``redis://host:port/db``."""
    if url is None or url.startswith("memory:"):
        from .memory import MemoryBus

        return MemoryBus()
    if url.startswith(("redis://", "rediss://", "unix://")):
        from .redis import RedisBus

        return await RedisBus.open(url)
    raise ValueError(f"unknown bus {url!r}: use memory:// or redis://host:port/0")
