"""A table's clocks: the deal after a short pause, computer players' moves after a human-looking
delay, and the turn timer (on expiry the player packs, or declines a side show).

A table needs at most one clock at a time, and which one follows from its state alone
(:meth:`Clocks.schedule`), so it is set again after every version. Every process shows the turn's
deadline; only the process running the table's clocks (``live.owned``) sets them. A clock that
fires after the table moved on does nothing.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

from ..bots import load_bot
from ..engine import EngineError, IllegalAction, view
from ..store.base import VersionConflict
from .clock import Clock, Tasks
from .events import Act, Event
from .live import LiveTable, Timing
from .writer import Make

__all__ = ["Clocks"]

log = logging.getLogger("teenpatti.tables")


class Clocks:
    """Sets, fires and cancels each table's one clock."""

    def __init__(
        self,
        clock: Clock,
        timing: Timing,
        tasks: Tasks,
        commit: Callable[[LiveTable, Make], Coroutine[Any, Any, None]],
    ) -> None:
        self.clock = clock
        self.timing = timing
        self.tasks = tasks
        self._commit = commit

    def schedule(self, live: LiveTable) -> None:
        """Set the one clock a table needs next, from its state."""
        self.cancel(live)
        table = live.table
        game = table.game
        timing = self.timing
        if game is None or game.finished:
            return
        hand = game.hand
        if hand is None or hand.finished:
            pause = timing.first_deal if hand is None else timing.result_pause
            if live.owned:
                self._later(live, pause, lambda: [table.hand_event()])
            return
        seat = hand.actor
        assert seat is not None
        if table.seats[seat].bot:
            low, high = timing.bot_delay
            delay = low + (high - low) * secrets.randbelow(1000) / 1000
            if live.owned:
                self._later(live, delay, lambda: [self._bot_event(live, seat)])
        elif table.settings.turn_seconds is not None:
            seconds = table.settings.turn_seconds
            live.deadline = self.clock.time() + seconds
            if live.owned:
                self._later(live, seconds, lambda: [self._timeout_event(live, seat)])

    def cancel(self, live: LiveTable) -> None:
        """Call off the table's clock."""
        if live.timer is not None:
            live.timer.cancel()
        live.timer = None
        live.deadline = None

    def _later(self, live: LiveTable, delay: float, job: Callable[[], list[Event]]) -> None:
        version = live.table.version
        code = live.table.code
        live.timer = self.clock.call_later(
            delay, lambda: self.tasks.spawn(self._run(live, version, job), f"table {code} clock")
        )

    async def _run(self, live: LiveTable, version: int, job: Callable[[], list[Event]]) -> None:
        if live.table.version != version:
            return  # the table moved on; this clock is stale
        try:
            await self._commit(live, lambda t: job() if t.version == version else [])
        except (EngineError, VersionConflict) as error:  # pragma: no cover - logged, not fatal
            log.warning("table %s: automatic move refused: %s", live.table.code, error)

    def _bot_event(self, live: LiveTable, seat: int) -> Act:
        table = live.table
        bot = live.bots.get(seat)
        if bot is None:
            bot = live.bots[seat] = load_bot(table.settings.bots, seed=secrets.randbits(32))
        assert table.game is not None and table.game.hand is not None
        action = bot.decide(view(table.game.hand, seat))
        try:
            return table.act_event(seat, action.to_json(), by="bot")
        except IllegalAction:  # a bot should never do this; pack rather than stall the table
            log.exception("bot at table %s seat %d chose an illegal action", table.code, seat)
            return self._timeout_event(live, seat)

    def _timeout_event(self, live: LiveTable, seat: int) -> Act:
        hand = live.table.game.hand if live.table.game else None
        assert hand is not None
        do = "decline" if hand.waiting_for == seat else "pack"
        return live.table.act_event(seat, {"do": do}, by="timer")
