"""Time for the table service, injectable: the system's clock, or a clock tests move by hand.

Everything in :mod:`teenpatti.tables` that waits (a deal after a pause, a turn timer, a reconnect
grace, the lease keeper's and the reconciler's rounds) asks its :class:`Clock`, never
``asyncio.sleep`` or ``time.time`` directly. :class:`ManualClock` runs what is due when a test
calls :meth:`ManualClock.advance`, so tests drive timers instead of sleeping:

>>> import asyncio
>>> async def demo() -> list[str]:
...     clock, fired = ManualClock(start=100.0), []
...     clock.call_later(5.0, lambda: fired.append(f"at {clock.time():.0f}"))
...     await clock.advance(4.9)
...     early = list(fired)
...     await clock.advance(0.1)
...     return early + fired
>>> asyncio.run(demo())
['at 105']
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from ...store.sqlite import pending_writes
from .rounds import Rounds
from .thinker import pending_decisions

__all__ = ["Clock", "Handle", "ManualClock", "Rounds", "SystemClock", "Tasks"]

log = logging.getLogger("teenpatti.tables")


class Handle(Protocol):
    """A callback set for later, which can still be called off."""

    def cancel(self) -> None:
        """Do not run it (nothing happens if it has run)."""
        ...


class Clock(Protocol):
    """Wall-clock time (what clients are shown), timers and sleeps."""

    def time(self) -> float:
        """Seconds since the epoch."""
        ...

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        """Run ``callback`` (a plain function) in ``delay`` seconds."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class SystemClock:
    """The real clock: ``time.time`` and the running event loop's timers."""

    def time(self) -> float:
        """Seconds since the epoch."""
        return time.time()

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        """The event loop's ``call_later``."""
        return asyncio.get_running_loop().call_later(max(0.0, delay), callback)

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


class _ManualHandle:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (for tests)."""

    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start
        self._due: list[tuple[float, int, Callable[[], None], _ManualHandle]] = []
        self._order = itertools.count()

    def time(self) -> float:
        """The clock's current time."""
        return self.now

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        """Run ``callback`` once the clock has been advanced ``delay`` seconds."""
        handle = _ManualHandle()
        heapq.heappush(self._due, (self.now + max(0.0, delay), next(self._order), callback, handle))
        return handle

    async def sleep(self, seconds: float) -> None:
        """Wait until the clock has been advanced ``seconds``."""
        done = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not done.done():
                done.set_result(None)

        self.call_later(seconds, wake)
        await done

    async def advance(self, seconds: float) -> None:
        """Move the time on by ``seconds``, running what falls due in order, and let the tasks it
        starts run until they wait again."""
        until = self.now + seconds
        while self._due and self._due[0][0] <= until:
            when, _, callback, handle = heapq.heappop(self._due)
            self.now = max(self.now, when)
            if not handle.cancelled:
                callback()
            await _settle()
        self.now = until
        await _settle()

    def pending(self) -> int:
        """How many timers are set and not cancelled."""
        return sum(not h.cancelled for _, _, _, h in self._due)


async def _settle(rounds: int = 20) -> None:
    """Let the tasks run until they wait again, and what they wait for from other threads (the
    store's writes, answered from the SQLite writer thread; the computer players' decisions,
    from theirs) come back."""
    for _ in range(rounds):
        await asyncio.sleep(0)
    while waiting := pending_writes() + pending_decisions():
        await asyncio.wait(waiting)
        for _ in range(rounds):
            await asyncio.sleep(0)


class Tasks:
    """Background work the service starts and must not lose track of: each task is kept until
    it ends, an error it raises is logged (never "Task exception was never retrieved"), and
    :meth:`cancel` stops them all."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], what: str = "background job") -> None:
        """Run ``coro`` in the background."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def done(task: asyncio.Task[Any]) -> None:
            self._tasks.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.error("%s failed", what, exc_info=task.exception())

        task.add_done_callback(done)

    async def settle(self) -> None:
        """Wait until no task is running (tests: everything started has finished)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def cancel(self) -> None:
        """Cancel every task still running."""
        for task in list(self._tasks):
            task.cancel()
