"""A clock for tests of a whole server in the test's own event loop: what is due now runs at
once, and what is due later waits until the test moves the clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from teenpatti.tables.live.time_source import Handle, ManualClock


class SteppedClock(ManualClock):
    """A :class:`~teenpatti.tables.live.time_source.ManualClock` on which a zero delay (a computer
    that answers at once, a deal with no pause) runs at the event loop's next step, as on the real
    clock, while a turn timer, a reconnect grace or the reconciler's next round waits until the
    test calls :meth:`advance`."""

    def call_later(self, delay: float, callback: Callable[[], None]) -> Handle:
        if delay <= 0:
            return asyncio.get_running_loop().call_soon(callback)
        return super().call_later(delay, callback)
