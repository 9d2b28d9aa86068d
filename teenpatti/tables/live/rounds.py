"""Counted rounds of a repeating job, which a test can wait for instead of sleeping."""

from __future__ import annotations

import asyncio

__all__ = ["Rounds"]


class Rounds:
    """How many rounds a repeating job (the reconciler, the lease keeper, the tables' clocks) has
    finished, and a way to wait for the next ones: a test that must show that nothing happens
    waits for the rounds that could have made it happen, then looks.

    >>> async def demo() -> list[int]:
    ...     rounds = Rounds()
    ...     waiting = rounds.wait(2)  # two more than now: 0
    ...     rounds.done()
    ...     await asyncio.sleep(0)
    ...     early = waiting.done()
    ...     rounds.done()
    ...     return [rounds.count, await asyncio.wait_for(waiting, 5), early]
    >>> asyncio.run(demo())
    [2, 2, False]

    A round under way when :meth:`wait` is called counts, so to be sure a whole round ran after
    something happened, wait for two.
    """

    def __init__(self) -> None:
        self.count = 0
        """Rounds finished so far."""
        self._waiting: list[tuple[int, asyncio.Future[int]]] = []

    def done(self) -> None:
        """A round has finished: wake whoever waits for it."""
        self.count += 1
        still = []
        for target, future in self._waiting:
            if future.done():
                continue
            if target <= self.count:
                future.set_result(self.count)
            else:
                still.append((target, future))
        self._waiting = still

    def wait(self, rounds: int = 1) -> asyncio.Future[int]:
        """A future done once ``rounds`` more rounds have finished (counted from this call, not
        from when it is awaited); its result is the count then."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        target = self.count + rounds
        if target <= self.count:
            future.set_result(self.count)
        else:
            self._waiting.append((target, future))
        return future
