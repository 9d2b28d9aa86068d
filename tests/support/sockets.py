"""A guard on the connections this test process opens: every ``connect`` of a socket is
recorded, and one to an address the test did not allow is refused before it leaves (so a
mistake in the code under test is a failure, never a packet past loopback)."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["ConnectGuard", "guarded"]


class ConnectGuard:
    """What was connected to, and what was refused."""

    def __init__(self, allowed: set[tuple[str, int]]) -> None:
        self.allowed = allowed
        self.connected: list[tuple[str, int]] = []
        self.refused: list[Any] = []
        self._lock = threading.Lock()

    def check(self, address: Any) -> None:
        where = (str(address[0]), int(address[1])) if isinstance(address, tuple) else None
        with self._lock:
            if where is None or where not in self.allowed:
                self.refused.append(address)
                raise ConnectionRefusedError(f"the test allows no connection to {address!r}")
            self.connected.append(where)


@contextlib.contextmanager
def guarded(allowed: set[tuple[str, int]]) -> Iterator[ConnectGuard]:
    """Within the block, ``socket.socket.connect`` and ``connect_ex`` go through a
    :class:`ConnectGuard` allowing ``allowed`` (``(address, port)`` pairs) only."""
    guard = ConnectGuard(allowed)
    connect, connect_ex = socket.socket.connect, socket.socket.connect_ex

    def checked_connect(self: socket.socket, address: Any) -> None:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            guard.check(address)
        connect(self, address)

    def checked_connect_ex(self: socket.socket, address: Any) -> int:
        if self.family in (socket.AF_INET, socket.AF_INET6):
            guard.check(address)
        return connect_ex(self, address)

    socket.socket.connect = checked_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = checked_connect_ex  # type: ignore[method-assign]
    try:
        yield guard
    finally:
        socket.socket.connect = connect  # type: ignore[method-assign]
        socket.socket.connect_ex = connect_ex  # type: ignore[method-assign]
