"""Fan-out: every socket of a table gets its own view of each version, rendered once per seat.

The public state is built once per version by the live table's
:class:`~teenpatti.tables.wire.render.Render` (kept in the fan-out's part of the table,
:class:`FanoutPart`), as a :class:`~teenpatti.tables.wire.messages.State`;
what this process adds (the turn's deadline, the time now, who is online) is laid over it here
(``msgspec.structs.replace``), and each seat's own part (its cards, its moves: ``Render.own``,
through the engine's view gate) is added for that seat only, when a whole state is sent.
Each distinct message is encoded once, by msgspec, straight from the structs.

A socket whose client applies patches, and that holds the previous broadcast's state, is sent a
``patch`` instead (docs/protocol.md; a :class:`~teenpatti.tables.wire.messages.Patch`): the
operations from the previous public state to this one, diffed once for every socket, then the few
that turn its seat's own state (its legal moves, the rows whose cards only it may see) into the
new one; a seat whose own part is the very one it was sent last time (most seats, at most
moves) gets the shared patch, compared and framed once for them all. A socket that holds
anything else (it said
hello or asked for a sync since), or a patch larger than the whole public state, gets the state.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import msgspec
from msgspec import UNSET

from ...metrics import Metrics
from ..wire import messages
from ..wire.messages import Append, Delete, Op, Patch, SeatRow, Set, State
from ..wire.outgoing import Shared
from ..wire.patch import diff
from ..wire.render import Own, compose
from .time_source import Clock

if TYPE_CHECKING:
    from ..wire.render import Render
    from .table import Connection, LiveTable

__all__ = ["Fanout", "FanoutPart", "Sent"]

_encode = msgspec.json.Encoder().encode
_serials = itertools.count()
PATCH_CHECK = 512
"""A shared patch of at least this many bytes is weighed against the whole public state: when
it is not smaller, every socket gets the state instead."""
PublicOps = tuple[list[Op], str]
"""The public operations of a broadcast, and the patch of them alone as sent (``""``: no patch,
the whole state is not larger)."""


@dataclass(eq=False, slots=True)
class Sent:
    """One broadcast of a table: its number, the public state it sent and each seat's own part
    of its state (the seats of the sockets it went to), their states made when asked."""

    serial: int
    public: State
    owns: dict[int | None, Own | None]
    made: dict[int | None, State]
    """The seats' states made so far (:meth:`state`)."""

    def state(self, seat: int | None) -> State:
        """``seat``'s whole state in this broadcast (one of :attr:`owns`)."""
        out = self.made.get(seat)
        if out is None:
            out = self.made[seat] = compose(self.public, seat, self.owns[seat])
        return out


@dataclass(eq=False, slots=True)
class FanoutPart:
    """The fan-out's part of a live table (``live.fanout``): only this module changes it."""

    render: Render
    """What each viewer sees of the table, as the wire's types, with the caches that let
    consecutive states share their parts."""
    sent: Sent | None = None
    """The last broadcast: what a patch to its sockets starts from."""
    rows: dict[int, tuple[SeatRow, bool, SeatRow]] = field(default_factory=dict)
    """Each seat's row as last sent, with the table's row it was made from and whether the
    seat was online (reused while both are the same)."""


class Fanout:
    """Renders tables' states and sends them to their sockets."""

    def __init__(self, clock: Clock, metrics: Metrics) -> None:
        self.clock = clock
        self.metrics = metrics

    def render(self, live: LiveTable, seat: int | None) -> str:
        """The ``state`` message for ``seat``, as JSON text."""
        return self._render(live, seat, self._public(live))

    def send(self, live: LiveTable, conn: Connection) -> None:
        """Send ``conn`` its whole state now, outside a broadcast (a hello, a sync): it then
        holds no broadcast's state, so the next broadcast sends it the whole state too."""
        conn.held = -1
        conn.push(self.render(live, conn.seat))

    def broadcast(self, live: LiveTable, but: Connection | None = None) -> None:
        """Send every socket its own state, or a patch to it (each seat's rendered once)."""
        if not live.presence.connections:
            return
        started = time.perf_counter()
        public = self._public(live)
        sent = Sent(next(_serials), public, {}, {})
        mine = live.fanout
        before = mine.sent
        owns = sent.owns
        render = mine.render
        shared: PublicOps | None = None  # the public operations, and their patch as sent
        messages: dict[tuple[int | None, bool], str] = {}  # each framed once for its sockets
        wanted = False  # whether any socket applies patches (else nothing is kept for them)
        for conn in list(live.presence.connections):
            if conn.seat is not None and not self._still_seated(live, conn):
                continue
            if conn is but:
                continue
            seat = conn.seat
            if seat in owns:
                own = owns[seat]
            else:
                own = owns[seat] = render.own(seat, public)
            patch = (
                conn.patches
                and before is not None
                and conn.held == before.serial
                and seat in before.owns
            )
            message = messages.get((seat, patch))
            if message is None and patch:
                assert before is not None
                if shared is None:
                    shared = self._shared(before, sent)
                if shared[1]:
                    text = None
                    if seat is not None and not _unchanged(before, sent, seat, own):
                        text = self._patch(before, sent, seat, shared[0])
                    if text is not None:
                        message = Shared(text)
                    else:  # nothing of its own: the one shared message, framed once
                        message = messages.get((None, True))
                        if message is None:
                            message = messages[(None, True)] = Shared(shared[1])
                else:
                    patch = False
            if message is None:
                message = Shared(_encode(sent.state(seat)).decode())
            messages[(seat, patch)] = message
            conn.held = sent.serial
            wanted = wanted or conn.patches
            conn.push(message)
        mine.sent = sent if wanted else None
        self.metrics.broadcast.observe(time.perf_counter() - started)

    @staticmethod
    def _shared(before: Sent, sent: Sent) -> PublicOps:
        """The public operations from ``before`` to ``sent``, and their patch as sent (``""``
        when the whole public state is not larger: no patch then)."""
        ops = diff(before.public, sent.public)
        text = _encode(_message(before, sent, ops))
        if len(text) >= PATCH_CHECK and len(text) >= len(_encode(sent.public)):
            return ops, ""
        return ops, text.decode()

    @staticmethod
    def _patch(before: Sent, sent: Sent, seat: int, shared: list[Op]) -> str | None:
        """The ``patch`` message for ``seat``: the shared operations, then the seat's own;
        ``None`` when it has none of its own (the shared patch is then its patch)."""
        ops = _own_ops(before.state(seat), sent.state(seat), before, sent, shared)
        if not ops:
            return None
        return _encode(_message(before, sent, [*shared, *ops])).decode()

    @staticmethod
    def _still_seated(live: LiveTable, conn: Connection) -> bool:
        """Follow a socket's person to their seat (seats before the start move up when someone
        leaves); a person who left or was removed is told so, and their socket is closed."""
        table = live.table
        seat = conn.seat
        assert seat is not None
        if conn.token_hash is None:  # made without its token (in tests): the seat is trusted
            return True
        if seat < len(table.seats) and table.seats[seat].token_hash == conn.token_hash:
            return True
        found = next(
            (i for i, s in enumerate(table.seats) if s.token_hash == conn.token_hash), None
        )
        if found is not None:
            conn.seat = found
            conn.held = -1  # it holds its old seat's state: the whole new one next
            return True
        live.presence.drop(conn)
        conn.seat = None  # its closing starts no reconnect grace
        removed = conn.token_hash is not None and table.removed.get(conn.token_hash)
        code, reason = (
            ("seat/removed", "the host has removed you from this table")
            if removed
            else ("seat/left", "you have left this table")
        )
        conn.push(messages.encode(messages.Error(code=code, reason=reason)).decode())
        conn.close()
        return False

    def _public(self, live: LiveTable) -> messages.State:
        """The public state with what this process adds: the clock and who is online."""
        public = live.fanout.render.public_state()
        online = live.connected()
        kept = live.fanout.rows
        rows = []
        for row in public.seats:
            seat = row.seat
            on = row.bot or online[seat]
            if on == row.connected:  # (a computer's seat: as rendered)
                rows.append(row)
                continue
            was = kept.get(seat)
            if was is not None and was[0] is row and was[1] == on:
                rows.append(was[2])  # the same row as last time: shared, so a patch skips it
                continue
            mine = msgspec.structs.replace(row, connected=on)
            kept[seat] = (row, on, mine)
            rows.append(mine)
        return msgspec.structs.replace(
            public, seats=rows, deadline=live.clocks.deadline, now=self.clock.time()
        )

    def _render(self, live: LiveTable, seat: int | None, public: messages.State) -> str:
        return _encode(live.fanout.render.state_for(seat, public)).decode()


def _message(before: Sent, sent: Sent, ops: list[Op]) -> Patch:
    """The patch from ``before``'s states to ``sent``'s."""
    return Patch(version=sent.public.version, from_=before.public.version, ops=ops)


OWN = ("legal", "out", "rebuy")
"""The fields :meth:`Render.state_for <teenpatti.tables.wire.render.Render.state_for>` sets beyond
the public state's (and ``you``, the same in all of a seat's states)."""


def _unchanged(before: Sent, sent: Sent, seat: int, own: Own | None) -> bool:
    """Whether ``seat``'s own part is the one it was sent in ``before`` (the same objects,
    rows made from the same public rows) in as many rows: the shared operations went row by
    row and touched none of its own rows, so it has no operation of its own."""
    return own is before.owns[seat] and len(before.public.seats) == len(sent.public.seats)


def _own_ops(old: State, new: State, before: Sent, sent: Sent, shared: list[Op]) -> list[Op]:
    """What turns a seat's previous state ``old`` (sent in ``before``), once the shared
    operations are applied, into its state now (``new``). A seat's state differs from the
    public one only in its own fields (:data:`OWN`) and, in the rows whose cards only it may
    see (a row that is not the public row object), in the row's cards (:data:`OWN_ROW`): only
    those are compared.

    A row's other fields are the public row's, so the shared operations bring them to the new
    public row's; an own field ends as the shared operations leave it (the new public row's
    where they set it or the whole row, as it was held where they did not touch it, unknown
    where they changed something inside it: then it is set again)."""
    out: list[Op] = []
    for key in OWN:
        was, now = getattr(old, key), getattr(new, key)
        if now is UNSET:
            if was is not UNSET:
                out.append(Delete([key]))
        elif was is UNSET or (was is not now and was != now):
            out.append(Set([key], now))
    old_rows, new_rows = old.seats, new.seats
    was_rows, now_rows = before.public.seats, sent.public.seats
    if new_rows is now_rows and old_rows is was_rows:
        return out  # the seat saw no cards of its own, then or now: its rows are the public ones
    held = len(old_rows)
    # With as many rows as before, the shared operations went row by row: a row whose public
    # row is the same object as before was not touched by them.
    lined = held == len(new_rows)
    for i, row in enumerate(new_rows):
        public = now_rows[i]
        if i < held and row is old_rows[i] and lined and public is was_rows[i]:
            continue  # the same row as last time (public or its own), under the same public row
        if row is public and (i >= held or old_rows[i] is was_rows[i]):
            continue  # a public row, then and now
        after = _after(shared, i, held, old_rows[i] if i < held else None, public)
        for key in OWN_ROW:
            was, now = after.get(key, UNSET), getattr(row, key)
            if was is _CHANGED or (was is not now and was != now):
                where: list[str | int] = ["seats", i, key]
                out.append(Delete(where) if now is UNSET else Set(where, now))
    return out


OWN_ROW = ("cards", "category", "proof")
"""The fields of a row a seat may see beyond the public row (their names in JSON too)."""
_CHANGED = object()
"""An own field the shared operations changed inside: what it holds then is not known."""


def _after(
    shared: list[Op], i: int, held: int, old: messages.SeatRow | None, public: messages.SeatRow
) -> dict[str, object]:
    """Row ``i``'s own fields (:data:`OWN_ROW`) as the shared operations leave them, in a
    state that held ``held`` rows, row ``i`` being ``old``; ``public``: the new public row."""
    out: dict[str, object] = {}
    if old is not None:
        out = {key: getattr(old, key) for key in OWN_ROW}
    for op in shared:
        path = op.path
        if path[0] != "seats":
            continue
        depth = len(path)
        if depth == 1:  # the list set whole, or rows appended
            if type(op) is not Append or i >= held:
                out = {key: getattr(public, key) for key in OWN_ROW}
        elif path[1] != i:
            continue
        elif depth == 2:  # the row set whole
            out = {key: getattr(public, key) for key in OWN_ROW}
        elif path[2] in OWN_ROW:
            key = path[2]
            out[key] = getattr(public, key) if depth == 3 and type(op) is not Append else _CHANGED
    return out
