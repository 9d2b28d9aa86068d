"""Where the computer players think: a thread of their own, beside the event loop.

A decision can take tens of milliseconds: ``expert`` plays about a hundred hands out before it
moves (docs/bots.md, "Speed and the server's budget"). Made on the event loop, it would hold up
every other table the process serves for that long: their moves, pings and sockets. The table's
clock therefore asks :class:`Thinker` for the move, which calls the player's ``decide`` on one
thread kept for the computers, and the loop serves everyone else meanwhile. The thread holds the
interpreter lock only between the loop's turns (Python hands it over every few milliseconds), so
one long decision costs the other tables a few milliseconds of waiting at most, not its length.

Decisions are made one at a time, in the order asked (one thread): a computer player is never
asked two things at once, and no more threads compete for the one lock. A decision is for the
state it was asked in; the clock that asked commits it only if the table has not moved on since
(:mod:`teenpatti.tables.clocks`), so a late answer can never be played in a later state.

>>> import asyncio
>>> from teenpatti.bots import load_bot
>>> from teenpatti.engine import Hand, Rules, view
>>> hand = Hand(Rules(), chips=[1000, 1000], dealer=0, seed=bytes(32))
>>> async def ask() -> str:
...     thinker = Thinker()
...     try:
...         action = await thinker.decide(load_bot("random", 1), view(hand, hand.actor))
...     finally:
...         thinker.close()
...     return action.kind.value
>>> asyncio.run(ask()) in {"chaal", "raise", "pack", "see", "show", "sideshow", "allin"}
True
"""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

from ..engine.actions import Action
from ..engine.view import HandView

if TYPE_CHECKING:  # the computer players are imported when one first moves (a quick start-up)
    from ..bots import DecidesActions
    from ..metrics import Metrics

__all__ = ["Thinker", "pending_decisions"]

_PENDING: set[asyncio.Future[Any]] = set()
"""Decisions handed to a thinker's thread and not yet answered, in every service of this
process."""


def pending_decisions() -> list[asyncio.Future[Any]]:
    """The decisions of this event loop still being made (a test's hand-driven clock waits for
    them before it moves on: the answer comes from another thread)."""
    loop = asyncio.get_running_loop()
    return [f for f in _PENDING if f.get_loop() is loop and not f.done()]


class Thinker:
    """Makes the computer players' decisions on a thread of their own, one at a time."""

    def __init__(self, metrics: Metrics | None = None) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._metrics = metrics

    async def decide(self, bot: DecidesActions, seen: HandView) -> Action:
        """``bot.decide(seen)``, made on the thinker's thread; raises what the bot raises."""
        started = time.perf_counter()
        if self._pool is None:  # started at the first decision (and again after a close)
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="teenpatti-computer")
        future = asyncio.get_running_loop().run_in_executor(self._pool, bot.decide, seen)
        _PENDING.add(future)
        future.add_done_callback(_PENDING.discard)
        try:
            return await future
        finally:
            if self._metrics is not None:
                self._metrics.thinking.observe(time.perf_counter() - started)

    def close(self) -> None:
        """Stop taking decisions; one under way finishes on its thread, its answer unread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
