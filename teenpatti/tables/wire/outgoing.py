"""Messages on their way out: a text message's WebSocket frame, built once however many sockets
it goes to, and what a connection needs of its socket to write frames straight to it.

A server frame is the payload behind a two- to ten-byte header (no mask, no compression: the
server runs with per-message deflate off). :class:`Shared` is a ``str`` that keeps its frame
once built, so a message rendered once for many sockets is encoded and framed once.

>>> frame("hi")
b'\\x81\\x02hi'
>>> len(frame("x" * 200)), frame("x" * 200)[:4]
(204, b'\\x81~\\x00\\xc8')
>>> message = Shared('{"type":"state"}')
>>> frame(message) is frame(message), message == '{"type":"state"}'
(True, True)
"""

from __future__ import annotations

import struct
from typing import Protocol

__all__ = ["Shared", "Sink", "frame"]


class Shared(str):
    """A text message that may go to many sockets: it keeps its frame once built."""

    framed: bytes | None = None


class Sink(Protocol):
    """A socket's direct way out (the server's edge gives one to each socket)."""

    def ready(self) -> bool:
        """Whether a frame written now goes out at once: the socket is open, not closing, and
        its transport's buffer is under the high-water mark."""

    def write(self, data: bytes) -> None:
        """Write one whole frame to the transport."""

    async def drained(self) -> None:
        """Wait until the transport's buffer is back under the high-water mark (or the socket
        is gone)."""


def frame(message: str) -> bytes:
    """The unmasked final text frame of ``message`` (cached on a :class:`Shared`)."""
    if isinstance(message, Shared):
        if message.framed is None:
            message.framed = _frame(message.encode())
        return message.framed
    return _frame(message.encode())


def _frame(payload: bytes) -> bytes:
    size = len(payload)
    if size < 126:
        return bytes((0x81, size)) + payload
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size) + payload
    return struct.pack("!BBQ", 0x81, 127, size) + payload
