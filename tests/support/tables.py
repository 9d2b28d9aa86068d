"""Waiting on a table service in the test's own event loop: for what its tables do, never for
a length of time."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from teenpatti.tables.live.service import TableService


async def until(
    service: TableService, done: Callable[[], bool], what: str, timeout: float = 20.0
) -> None:
    """Wait until ``done()`` is true, looking again after each new version of any of the
    service's tables (:attr:`TableService.changes`); fail with ``what`` after ``timeout``
    seconds (a bound against a hang, not a wait)."""
    try:
        async with asyncio.timeout(timeout):
            while not done():
                await service.changes.wait(1)
    except TimeoutError:
        raise AssertionError(f"{what} (not after {timeout} s)") from None


async def first_of(*waits: Awaitable[object]) -> None:
    """Wait until one of ``waits`` is done; cancel the others."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
