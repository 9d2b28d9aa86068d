"""A table's refusals: the errors a command, a setting or a lobby request may get.

Each has a stable ``code`` (``area/what``) and a ``reason`` a player understands, as the engine's
refusals of illegal moves have; the socket and the lobby send both to the client. A table's
refusals are not rules: :class:`TableError` is not an
:class:`~teenpatti.engine.errors.EngineError`; :data:`Refusal` names both, for the places that
answer either (the socket, the lobby).

>>> error = TableError("table/full", "every seat at this table is taken")
>>> error.code, str(error), error.retryable
('table/full', 'every seat at this table is taken', False)
"""

from __future__ import annotations

from ...engine import EngineError
from ...engine.errors import CodedError

__all__ = ["Refusal", "TableError", "Unavailable"]


class TableError(CodedError):
    """A command or request the table refuses (a full table, a bad name, not the host...):
    ``code`` is stable (``table/full``), ``reason`` a sentence for a person."""

    retryable = False
    """Whether the same command may succeed if sent again, unchanged (with the same id)."""


Refusal = (EngineError, TableError)
"""What a command may be refused with: a rule of the game (the engine's) or the table's own."""


class Unavailable(TableError):
    """The event store cannot be reached now (``store/unavailable``): the command may or may not
    have been stored; sent again with the same id, it applies at most once."""

    retryable = True

    def __init__(self) -> None:
        super().__init__("store/unavailable", "the table cannot be reached now: trying again")
