"""A socket's bounded queue of messages that could not be written at once, made small for the
socket that never needs it.

Most messages go straight to the transport (``Connection.push``), so most sockets never queue
one; yet each has a writer task waiting for its queue. An :class:`asyncio.Queue` holds three
deques and an event from the start (about 3 KiB; six sockets a table); an :class:`Outbox` holds
its deque only while something waits in it, and one future while its writer waits. It keeps
the part of the queue's interface the sockets use, with the same exceptions:

>>> import asyncio
>>> async def demo() -> list[str | None]:
...     box = Outbox(2)
...     box.put_nowait("a")
...     box.put_nowait("b")
...     try:
...         box.put_nowait("c")
...     except asyncio.QueueFull:
...         pass
...     return [await box.get(), box.get_nowait(), box.empty()]
>>> asyncio.run(demo())
['a', 'b', True]
"""

from __future__ import annotations

import asyncio
from collections import deque

__all__ = ["Outbox"]


class Outbox:
    """A bounded first-in first-out queue for one reader (the socket's writer task)."""

    __slots__ = ("_items", "_waiter", "maxsize")

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._items: deque[str | None] | None = None
        self._waiter: asyncio.Future[None] | None = None

    def empty(self) -> bool:
        """Whether nothing waits in the queue."""
        return not self._items

    def qsize(self) -> int:
        """How many messages wait."""
        return len(self._items) if self._items else 0

    def put_nowait(self, item: str | None) -> None:
        """Add ``item`` at the end; :class:`asyncio.QueueFull` when ``maxsize`` wait already."""
        items = self._items
        if items is None:
            items = self._items = deque()
        elif len(items) >= self.maxsize:
            raise asyncio.QueueFull
        items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self) -> str | None:
        """The first item; :class:`asyncio.QueueEmpty` when there is none."""
        items = self._items
        if not items:
            raise asyncio.QueueEmpty
        item = items.popleft()
        if not items:
            self._items = None  # an empty deque is most of the size of a queue
        return item

    async def get(self) -> str | None:
        """The first item, once there is one."""
        while not self._items:
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self.get_nowait()
