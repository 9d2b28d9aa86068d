"""A table's clocks: the deal after a short pause, computer players' moves after a human-looking
delay, and the turn timer (on expiry the player packs, or declines a side show).

A computer player's move is thought out on the computers' own thread (:mod:`.thinker`), not on
the event loop, and committed only if the table is still in the state it was asked in. A player
that fails to decide (an error in its code) packs, or declines a side show, as on a timeout, so a
broken player never stops its table.

A table needs at most one clock at a time, and which one follows from its state alone
(:meth:`Clocks.schedule`), so it is set again after every version that changed the game (a chat
message or a vote leaves the clock as it was). A paused table runs no clock. Every process shows
the turn's deadline; only the process running the table's clocks (``live.cluster.owned``) sets
them. A
clock that fires after the table moved on does nothing. A clock whose move cannot be stored (the
store is down) logs it once and tries again with back-off; the reconciler sets any clock that is
missing.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...engine import IllegalAction, view
from ...engine.actions import Action
from ...metrics import BOT_FAILED, BOT_SLOW, CLOCK_REFUSED, Metrics
from ..play.commands import Move
from ..play.errors import Refusal, Unavailable
from ..play.events import Act, Event
from .codes import new_seed
from .thinker import Failed, Thinker
from .time_source import Clock, Handle, Rounds, Tasks
from .writer import Make

if TYPE_CHECKING:
    from .table import LiveTable, Timing

__all__ = ["RETRY_FIRST", "RETRY_MAX", "Clocks", "ClocksPart", "wants_clocks"]

log = logging.getLogger("teenpatti.tables")

RETRY_FIRST = 0.25
"""Seconds before a clock whose move could not be stored tries again (doubling each time)."""
RETRY_MAX = 2.0
"""The longest wait between two tries: a table moves within this of its store coming back."""


@dataclass(eq=False, slots=True)
class ClocksPart:
    """The clocks' part of a live table (``live.clocks``): only this module changes it."""

    timer: Handle | None = None
    """The table's one clock, if set (a computer's decision under way counts as one)."""
    deadline: float | None = None
    """When the turn's player packs (the clients are shown it), if a turn timer runs."""
    armed: tuple[int, bool] = (-1, False)
    """The game version the clock was set for, and whether this process ran the clocks then."""
    failures: int = 0
    """Store errors in a row for this table's clock (logged once, retried with back-off)."""


def wants_clocks(live: LiveTable) -> bool:
    """Whether a table's clocks should run: someone watches it here, or a person sits at it
    (their turn timer and reconnect grace matter). A table the computer plays alone, with
    nobody watching, stops until someone opens it again."""
    return bool(live.presence.connections) or any(
        s.token_hash is not None and not s.bot for s in live.table.seats
    )


class _Thinking:
    """The clock of a table whose computer is deciding: calling it off drops the decision (not
    made, if the computers' thread has not taken it up yet) and its answer."""

    def __init__(self) -> None:
        self.cancelled = False
        self.future: asyncio.Future[Action | Failed] | None = None

    def cancel(self) -> None:
        self.cancelled = True
        if self.future is not None:
            self.future.cancel()


class Clocks:
    """Sets, fires and cancels each table's one clock."""

    def __init__(
        self,
        clock: Clock,
        timing: Timing,
        tasks: Tasks,
        commit: Callable[[LiveTable, Make], Coroutine[Any, Any, int]],
        metrics: Metrics,
        thinker: Thinker,
    ) -> None:
        self.clock = clock
        self.timing = timing
        self.tasks = tasks
        self._commit = commit
        self.metrics = metrics
        self.thinker = thinker
        self.fired = Rounds()
        """The clocks that have fired and finished their job, whatever it did (tests wait on
        them)."""

    def schedule(self, live: LiveTable) -> None:
        """Set the one clock a table needs next, from its state (after every version)."""
        clocks = live.clocks
        now = (live.table.game_version, live.cluster.owned)
        if clocks.timer is not None and clocks.armed == now:
            return  # nothing in the game (or in who runs its clocks) changed: the clock stands
        self.cancel(live)
        self._arm(live)

    def ensure(self, live: LiveTable) -> None:
        """Set the table's clock if it needs one and none is set (the reconciler's check: a
        clock lost to an error, or a table whose clocks this process has just taken over)."""
        if live.clocks.timer is None:
            self._arm(live)

    def cancel(self, live: LiveTable) -> None:
        """Call off the table's clock."""
        clocks = live.clocks
        if clocks.timer is not None:
            clocks.timer.cancel()
        clocks.timer = None
        clocks.deadline = None

    def _arm(self, live: LiveTable) -> None:
        table = live.table
        game = table.game
        timing = self.timing
        owned = live.cluster.owned
        live.clocks.armed = (table.game_version, owned)
        # the finished hand, once, to each computer player that learns across hands
        live.computers.show(game.hand if game is not None else None, self.thinker)
        if game is None or game.finished or table.paused or not wants_clocks(live):
            return
        hand = game.hand
        if hand is None or hand.finished:
            # The pause counts from the hand's end (or the start), as stored: the players'
            # parts that come in meanwhile do not put the deal off.
            pause = timing.first_deal if hand is None else timing.result_pause
            now = self.clock.time()
            since = live.writer.since if 0 < live.writer.since <= now else now
            if owned:
                deal = self._job(live, lambda: [table.hand_event(new_seed())])
                self._later(live, since + pause - now, deal)
            return
        seat = hand.actor
        assert seat is not None
        if table.seats[seat].bot:
            low, high = timing.bot_delay
            delay = low + (high - low) * secrets.randbelow(1000) / 1000
            if owned:
                self._later(live, delay, lambda version: self._think(live, version, seat))
        elif table.settings.turn_seconds is not None:
            # The deadline counts from the event that began the turn, as stored: a process that
            # takes the clocks over keeps the deadline the clients were shown.
            now = self.clock.time()
            since = live.writer.since if 0 < live.writer.since <= now else now
            deadline = live.clocks.deadline = since + table.settings.turn_seconds
            if owned:
                timeout = self._job(live, lambda: [self._timeout_event(live, seat)])
                self._later(live, deadline - now, timeout)

    def _later(
        self, live: LiveTable, delay: float, start: Callable[[int], Coroutine[Any, Any, None]]
    ) -> None:
        """In ``delay`` seconds start ``start(version)``, ``version`` the table's game version
        now (the job does nothing if the table has moved on by then)."""
        version = live.table.game_version
        code = live.table.code
        clocks = live.clocks
        due = self.clock.time() + max(0.0, delay)
        handle: Handle | None = None

        def fire() -> None:
            nonlocal handle
            self.metrics.lateness.observe(max(0.0, self.clock.time() - due))
            if clocks.timer is handle:
                clocks.timer = None
            handle = None  # the handle holds this function: no cycle is left once it has run
            self.tasks.spawn(self._count(start, version), f"table {code} clock")

        handle = clocks.timer = self.clock.call_later(delay, fire)

    async def _count(self, start: Callable[[int], Coroutine[Any, Any, None]], version: int) -> None:
        try:
            await start(version)
        finally:
            self.fired.done()

    def _job(
        self, live: LiveTable, job: Callable[[], list[Event]]
    ) -> Callable[[int], Coroutine[Any, Any, None]]:
        return lambda version: self._run(live, version, job)

    async def _think(self, live: LiveTable, version: int, seat: int) -> None:
        """Ask the computer at ``seat`` for its move in the table's state at ``version``, on
        the computers' thread, then commit the move if the table is still there."""
        table = live.table
        game = table.game
        if table.game_version != version or game is None or game.hand is None:
            return  # the table moved on; this clock is stale
        clocks = live.clocks
        if clocks.timer is not None:
            return  # a clock was set again meanwhile (the reconciler's round): it will ask
        bot = live.computers.player(seat, table.settings.bots)
        # While it thinks, the decision is the table's clock: a chat message or the reconciler's
        # round does not ask again, and a change to the game calls it off.
        thinking = clocks.timer = _Thinking()
        answer: Action | Failed | None = None  # None: no answer within the limit
        try:
            thinking.future = self.thinker.ask(bot, view(game.hand, seat))
            answer = await asyncio.wait_for(thinking.future, self.timing.think_limit)
        except asyncio.CancelledError:
            if not thinking.cancelled:
                raise
            return  # called off: the table moved on
        except TimeoutError:
            pass
        finally:
            if clocks.timer is thinking:
                clocks.timer = None
        if thinking.cancelled or table.game_version != version:
            return  # asked in a state that is gone: nothing to play
        if answer is None:
            self.metrics.error(BOT_SLOW)
            log.warning(
                "the computer at table %s seat %d took over %g s to decide: it packs",
                table.code,
                seat,
                self.timing.think_limit,
            )
        elif isinstance(answer, Failed):
            self.metrics.error(BOT_FAILED)
            log.error(
                "the computer at table %s seat %d failed to decide: it packs",
                table.code,
                seat,
                exc_info=answer.__cause__,
            )
        action = answer if isinstance(answer, Action) else None
        await self._run(live, version, lambda: [self._bot_event(live, seat, action)])

    async def _run(self, live: LiveTable, version: int, job: Callable[[], list[Event]]) -> None:
        """Run a clock's job; on any error, log it (once until it succeeds) and try again with
        back-off while the table has not moved on."""
        table = live.table
        if table.game_version != version:
            return  # the table moved on; this clock is stale
        try:
            await self._commit(live, lambda t: job() if t.game_version == version else [])
        except Refusal as error:
            if not isinstance(error, Unavailable):  # pragma: no cover - a bug, not a fault
                self.metrics.error(CLOCK_REFUSED)
                log.error("table %s: automatic move refused: %s", table.code, error)
                return
            self._retry(live, version, job, error)
        except Exception as error:
            self._retry(live, version, job, error)
        else:
            if live.clocks.failures:
                log.warning("table %s: clock running again", table.code)
                live.clocks.failures = 0

    def _retry(
        self, live: LiveTable, version: int, job: Callable[[], list[Event]], error: Exception
    ) -> None:
        clocks = live.clocks
        clocks.failures += 1
        self.metrics.error("clock/retry")
        if clocks.failures == 1:
            log.warning("table %s: clock failed (%s): retrying", live.table.code, error)
        if live.table.game_version != version or clocks.timer is not None:
            return  # the table moved on meanwhile, and its next clock is set
        delay = min(RETRY_MAX, RETRY_FIRST * 2 ** (clocks.failures - 1))
        self._later(live, delay, self._job(live, job))

    def _bot_event(self, live: LiveTable, seat: int, action: Action | None) -> Act:
        """The event of the computer's ``action`` (``None``: it failed to decide, and packs or
        declines as on a timeout)."""
        table = live.table
        if action is None:
            return self._timeout_event(live, seat)
        try:
            move = Move(do=action.kind.value, amount=action.amount, target=action.target)
            return table.act_event(seat, move, by="bot")
        except IllegalAction:  # a bot should never do this; pack rather than stall the table
            log.exception("bot at table %s seat %d chose an illegal action", table.code, seat)
            return self._timeout_event(live, seat)

    def _timeout_event(self, live: LiveTable, seat: int) -> Act:
        hand = live.table.game.hand if live.table.game else None
        assert hand is not None
        return live.table.act_event(
            seat, Move(do="decline" if hand.waiting_for == seat else "pack"), by="timer"
        )
