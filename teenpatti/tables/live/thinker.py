"""Where the computer players think: a thread of their own, beside the event loop.

A decision can take tens of milliseconds: ``expert`` plays about a hundred hands out before it
moves (docs/bots.md, "Speed and the server's budget"). Made on the event loop, it would hold up
every other table the process serves for that long: their moves, pings and sockets. The table's
clock therefore asks :class:`Thinker` for the move, which calls the player's ``decide`` on one
thread kept for the computers, and the loop serves everyone else meanwhile. The thread holds the
interpreter lock only between the loop's turns (Python hands it over every few milliseconds), so
one long decision costs the event loop (every table's moves, pings and sockets) a few
milliseconds of waiting at most, not its length; the other tables' computers wait their turn on
the thread.

Decisions are made one at a time, in the order asked (one thread): a computer player is never
asked two things at once, and no more threads compete for the one lock. A decision is for the
state it was asked in; the clock that asked commits it only if the table has not moved on since
(:mod:`teenpatti.tables.live.timers`), so a late answer can never be played in a later state. A
decision called off before its turn on the thread is dropped, not made. A player that raises
answers :class:`Failed`; one that takes longer than the table's limit is given up on by the
clock (it packs), though its thread finishes the decision and the answer goes unread.

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
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...engine.actions import Action
from ...engine.hand import Hand
from ...engine.view import HandView, view
from .rounds import Rounds

if TYPE_CHECKING:  # the computer players are imported when one first moves (a quick start-up)
    from ...bots import DecidesActions
    from ...metrics import Metrics

__all__ = ["ComputersPart", "Failed", "Thinker", "pending_decisions"]

log = logging.getLogger("teenpatti.tables")

_PENDING: set[asyncio.Future[Any]] = set()
"""Decisions handed to a thinker's thread and not yet answered, in every service of this
process."""


def pending_decisions() -> list[asyncio.Future[Any]]:
    """The decisions of this event loop still being made (a test's hand-driven clock waits for
    them before it moves on: the answer comes from another thread)."""
    loop = asyncio.get_running_loop()
    return [f for f in _PENDING if f.get_loop() is loop and not f.done()]


def _log_error(work: Future[object]) -> None:
    if not work.cancelled() and (error := work.exception()) is not None:
        log.error("a computer player failed to learn from a hand", exc_info=error)


class Failed(Exception):
    """The computer player raised an error instead of answering (``__cause__`` is the error)."""


def _decide(bot: DecidesActions, seen: HandView) -> Action | Failed:
    """``bot.decide(seen)`` on the thinker's thread, its error returned as :class:`Failed` (so
    that an error of the thread pool itself is not taken for the player's)."""
    try:
        return bot.decide(seen)
    except Exception as error:
        failed = Failed(f"{type(error).__name__}: {error}")
        failed.__cause__ = error
        return failed


class Thinker:
    """Makes the computer players' decisions on a thread of their own, one at a time."""

    def __init__(self, metrics: Metrics | None = None) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._metrics = metrics
        self._lock = threading.Lock()
        self.waiting = 0
        """Decisions asked for and not done on the thread yet (queued or being made; one given
        up on by its clock counts until its thread is done with it)."""
        self.counted = Rounds()
        """Every change of :attr:`waiting`, counted on the event loop (tests wait on it)."""
        if metrics is not None:
            metrics.watch_thinking(lambda: self.waiting)

    def ask(self, bot: DecidesActions, seen: HandView) -> asyncio.Future[Action | Failed]:
        """Start ``bot.decide(seen)`` on the thinker's thread: the future's result is the move,
        or :class:`Failed`. Cancelling the future before the thread takes it up drops it."""
        started = time.perf_counter()
        work, future = self._submit(_decide, bot, seen)
        with self._lock:
            self.waiting += 1
        self.counted.done()
        loop = asyncio.get_running_loop()

        def done(_: object) -> None:  # on the thread, or here if already done or cancelled
            with self._lock:
                self.waiting -= 1
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self.counted.done)
            if self._metrics is not None:
                self._metrics.thinking.observe(time.perf_counter() - started)

        work.add_done_callback(done)
        return future

    def tell(self, observe: Callable[[HandView], object], seen: HandView) -> None:
        """Call ``observe(seen)`` on the thinker's thread, after the decisions asked before it
        (a player shown a finished hand); an error it raises is logged."""
        work, _ = self._submit(observe, seen)
        work.add_done_callback(_log_error)

    def _submit(
        self, call: Callable[..., Any], *args: Any
    ) -> tuple[Future[Any], asyncio.Future[Any]]:
        """Queue ``call(*args)`` on the thread (started at the first call, and again after a
        close): the thread's future, and the loop's (which a hand-driven clock waits for)."""
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="teenpatti-computer")
        work = self._pool.submit(call, *args)
        future = asyncio.wrap_future(work)
        _PENDING.add(future)
        future.add_done_callback(_PENDING.discard)
        return work, future

    async def idle(self) -> None:
        """Wait until everything asked of the thinker before this call is done."""
        if self._pool is not None:
            await asyncio.wrap_future(self._pool.submit(lambda: None))

    async def decide(self, bot: DecidesActions, seen: HandView) -> Action:
        """``bot.decide(seen)``, made on the thinker's thread; raises :class:`Failed` if the
        player raised."""
        answer = await self.ask(bot, seen)
        if isinstance(answer, Failed):
            raise answer
        return answer

    def close(self) -> None:
        """Stop taking decisions; one under way finishes on its thread, its answer unread."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


@dataclass(eq=False, slots=True)
class ComputersPart:
    """The computer players of one live table (``live.computers``), each made when it first
    moves and kept while the table is in memory: only this module changes it."""

    bots: dict[int, DecidesActions] = field(default_factory=dict)
    """The computer player of each seat the computer has played."""
    observed: Hand | None = None
    """The last finished hand the computer players were shown (each is shown a hand once)."""

    def player(self, seat: int, kind: str) -> DecidesActions:
        """The computer player at ``seat`` (made now, of ``kind``, if it has not moved yet)."""
        bot = self.bots.get(seat)
        if bot is None:
            # Imported here, not at the top: the players' tables and numpy cost a third of the
            # server's start-up, and a process may serve for a while before a computer moves.
            from ...bots import load_bot

            bot = self.bots[seat] = load_bot(kind, seed=secrets.randbits(32))
        return bot

    def show(self, hand: Hand | None, thinker: Thinker) -> None:
        """Show a finished hand, once, to each computer player that learns across hands (an
        ``observe(view)`` method), as its own seat sees it: public facts and its own cards
        only. They are shown it on the computers' thread, in turn with their decisions, so that
        a player never learns while it decides."""
        if hand is None or not hand.finished or self.observed is hand:
            return
        self.observed = hand
        for seat, bot in self.bots.items():
            observe = getattr(bot, "observe", None)
            if observe is not None and hand.dealt[seat]:
                thinker.tell(observe, view(hand, seat))
