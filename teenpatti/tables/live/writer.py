"""The command writer: the one way events get into a table's log and its state.

A change is made under the table's lock in three steps: the command is turned into events against
the latest state (the table checks it with the engine), the store appends them with the expected
version (compare-and-set), and only then are they applied. If another writer appended first, the
table catches up from the store and the command is checked again: it applies if it is still legal,
and is refused with the engine's reason if not.

Any other error during an append leaves its outcome unknown (the events may be stored, with the
acknowledgement lost): the table is marked stale and reloaded from the store before anything else
is done with it, and the command is refused with :class:`~teenpatti.tables.play.table.Unavailable`
(``store/unavailable``, retryable). A client retrying with the same command id finds it applied
(the id is in the log), so a command applies at most once.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...metrics import Metrics
from ...store.base import EventStore, VersionConflict
from ..play.events import Event, decode, encode
from ..play.table import Table, TableError, Unavailable
from ..play.turns import looks_only
from .time_source import Clock

if TYPE_CHECKING:
    from .table import LiveTable

__all__ = ["Applied", "Make", "Writer", "WriterPart"]

log = logging.getLogger("teenpatti.tables")

Make = Callable[[Table], list[Event]]
"""Turns a command into events against the table's current state (or raises the refusal)."""

ATTEMPTS = 5
"""How many times a command is checked again after losing the compare-and-set."""


@dataclass(eq=False, slots=True)
class WriterPart:
    """The writer's part of a live table (``live.writer``): only this module changes it."""

    since: float = 0.0
    """When the table's last event other than a part of the next deal was stored (the turn's
    deadline and the pause before a deal count from it)."""
    stale: bool = False
    """An append's outcome is unknown (the store failed mid-way), or catching up failed:
    reload before going on."""


@dataclass(frozen=True, slots=True)
class Applied:
    """What the writer tells its listener after each version it applies to a table."""

    version: int
    mine: bool
    """This process appended it (a command served here), rather than read it from the log
    another writer appended to."""
    last: bool
    """No other version applied with it follows (the last of a catch-up's batch, or a command's
    own events, applied together)."""


class Writer:
    """Appends commands' events to the log and applies them to the table in memory."""

    def __init__(
        self,
        store: EventStore,
        clock: Clock,
        metrics: Metrics,
        applied: Callable[[LiveTable, Applied], None],
    ) -> None:
        self.store = store
        self.clock = clock
        self.metrics = metrics
        self._applied = applied
        """Told of each version applied, under the table's lock (the clocks, the sockets, the
        other processes and the turn alerts follow the state)."""

    async def commit(self, live: LiveTable, make: Make) -> int:
        """Turn a command into events and append them (compare-and-set, checked again on a
        conflict); returns how many events were stored (0: nothing to do, or a repeat).

        Raises the table's refusal, :class:`TableError` ``state/conflict`` if the table stays
        too busy, or :class:`Unavailable` if the store cannot be reached."""
        table = live.table
        for _ in range(ATTEMPTS):
            async with live.lock:
                if live.writer.stale:
                    await self.reload(live)
                events = make(table)
                if not events:
                    return 0
                started = time.perf_counter()
                try:
                    version = await self.store.append(
                        table.table_id, table.version, [encode(e) for e in events]
                    )
                except VersionConflict:
                    await self.reload(live)
                    continue
                except Exception as error:
                    # Stored or not, we cannot tell: reload before serving this table again.
                    self.metrics.error("store/append")
                    live.writer.stale = True
                    log.warning("table %s: append failed (%s): reloading", table.code, error)
                    await self.reload(live)
                    raise Unavailable() from error
                self.metrics.append.observe(time.perf_counter() - started)
                self.metrics.actions.inc()
                before = table.game_version
                for event in events:
                    table.apply(event)
                # the turn's clock counts from the game event that began the turn (not a See)
                if table.game_version != before and not looks_only(events):
                    live.writer.since = self.clock.time()
                self._applied(live, Applied(version, mine=True, last=True))
            return len(events)
        raise TableError("state/conflict", "the table is busy: try again")

    async def reload(self, live: LiveTable) -> bool:
        """:meth:`catch_up`, with a store error turned into :class:`Unavailable` (the table
        stays marked stale, and is reloaded by the next command or the reconciler)."""
        try:
            return await self.catch_up(live)
        except Exception as error:
            raise Unavailable() from error

    async def catch_up(self, live: LiveTable) -> bool:
        """Apply the events other writers appended (the table's lock is held); ``True`` if any.

        Each version is passed on as its writer passes it on: one state per version, so a client
        never misses a version because another process wrote it. On any error the table is
        marked stale (reloaded before it is served again, or by the reconciler) and the error
        raised.
        """
        table = live.table
        try:
            events = await self.store.load(table.table_id, after=table.version)
            live.writer.stale = False
            for i, stored in enumerate(events, 1):
                before = table.game_version
                event = decode(stored.data)
                table.apply(event)
                if table.game_version != before and not looks_only([event]):
                    live.writer.since = stored.at
                self._applied(live, Applied(stored.version, mine=False, last=i == len(events)))
        except Exception:
            live.writer.stale = True
            raise
        return bool(events)
