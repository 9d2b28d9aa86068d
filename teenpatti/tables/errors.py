"""A table's refusals: the errors a command, a setting or a lobby request may get.

Each has a stable ``code`` (``area/what``) and a ``reason`` a player understands, as the engine's
refusals of illegal moves have; the socket and the lobby send both to the client.
"""

from __future__ import annotations

from ..engine import EngineError

__all__ = ["TableError", "Unavailable"]


class TableError(EngineError):
    """A command the table refuses (a full table, a bad name, not the host...)."""

    retryable = False
    """Whether the same command may succeed if sent again, unchanged (with the same id)."""


class Unavailable(TableError):
    """The event store cannot be reached now (``store/unavailable``): the command may or may not
    have been stored; sent again with the same id, it applies at most once."""

    retryable = True

    def __init__(self) -> None:
        super().__init__("store/unavailable", "the table cannot be reached now: trying again")
