"""The table's voice call: who is on it, and the WebRTC signalling passed between them.

The call is the seated players' own: their phones talk to each other directly (a mesh, each
pair one WebRTC connection), and the server only passes each one's signalling (offers,
answers, ICE candidates) to the seat it names, on the table's socket. What a call is here:

- A seated socket joins with ``{"type": "call", "join": true}`` (a spectator may not:
  ``call/not_seated``; nor anyone when the host has turned voice off: ``call/off``), and may
  say its microphone is ``muted``; it leaves with ``"join": false`` or by closing its socket.
  The seat whose person the host removes, or who gives up their seat, is dropped with the
  socket the table closes.
- Whenever who is on the call changes, every seated socket of the table gets the roster
  (``{"type": "call", "seats": [...]}``); a socket on the call also gets its STUN and TURN
  servers with its own short-lived credentials (:mod:`~teenpatti.web.ice`).
- A ``signal`` goes to the seat ``to`` only if both it and the sender are on the call of the
  same table (``call/not_joined``, ``call/no_peer`` otherwise), within a size cap (the socket's
  messages, with a longer one for a session description: ``call/sdp``) and a rate per seat
  (``call/rate``); the forwarded message names the sender's seat as the server knows it.

Nothing here touches the table's state or its log: a call is only in this process's memory
(the players of a table served by several processes talk with those whose sockets are in the
same one; docs/deploy.md says how a proxy keeps a table's sockets together).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ..tables.live.table import Connection, LiveTable
from ..tables.play.commands import MAX_SDP, Call, Signal
from ..tables.play.errors import TableError
from ..tables.wire import messages
from .edge import Budget
from .ice import Ice

__all__ = ["MAX_SIGNAL", "Calls"]

MAX_SIGNAL = MAX_SDP + 2048
"""The longest ``signal`` message a socket may send (its session description and the JSON
around it); any other message keeps the socket's 4 KiB."""

SIGNAL_RATE = (5.0, 30.0)
"""Signals a seat may send: a second, burst (joining a full ``club`` table's call takes nine
offers and their candidates, which the page sends in batches)."""

_SDP_LINE = re.compile(r"^[a-z]=[\x20-\x7e]*$")


@dataclass(eq=False, slots=True)
class _Member:
    conn: Connection
    n: int
    muted: bool


@dataclass(eq=False)
class _TableCall:
    members: dict[Connection, _Member] = field(default_factory=dict)
    budgets: dict[int, Budget] = field(default_factory=dict)
    sent: tuple[tuple[int, int, bool], ...] = ()
    """The roster as last sent (seat, n, muted)."""


class Calls:
    """The voice calls of this process's tables."""

    def __init__(
        self,
        ice: Ice | None = None,
        time: Callable[[], float] | None = None,
        rate: tuple[float, float] = SIGNAL_RATE,
    ) -> None:
        import time as _time

        self.ice = ice or Ice()
        self.time = time or _time.time
        self.rate = rate
        self.calls: dict[str, _TableCall] = {}
        self._joins = itertools.count(1)

    # ------------------------------------------------------------------ from a socket
    def handle(self, live: LiveTable, conn: Connection, message: Call | Signal) -> None:
        """A socket's ``call`` or ``signal``: done, or refused with :class:`TableError` (and
        nothing sent to anyone)."""
        if isinstance(message, Call):
            self._call(live, conn, message)
        else:
            self._signal(live, conn, message)

    def _call(self, live: LiveTable, conn: Connection, message: Call) -> None:
        call = self.calls.get(live.table.code)
        if not message.join:
            if call is not None and call.members.pop(conn, None) is not None:
                self.refresh(live)
            return
        if conn.seat is None:
            raise TableError("call/not_seated", "only the players at the table can join its call")
        if not live.table.settings.voice:
            raise TableError("call/off", "the host has turned voice off at this table")
        call = self.calls.setdefault(live.table.code, _TableCall())
        member = call.members.get(conn)
        if member is not None:
            member.muted = message.muted
        else:
            for other in [m for m in call.members.values() if m.conn.seat == conn.seat]:
                del call.members[other.conn]  # the seat's older page: this one takes its place
            call.members[conn] = _Member(conn, next(self._joins), message.muted)
            call.sent = ()  # the joiner gets the roster (and its servers) even if it is the same
        self.refresh(live)

    def _signal(self, live: LiveTable, conn: Connection, message: Signal) -> None:
        call = self.calls.get(live.table.code)
        if call is None or conn not in call.members or conn.seat is None:
            raise TableError("call/not_joined", "join the call first")
        if not live.table.settings.voice:
            raise TableError("call/off", "the host has turned voice off at this table")
        self._check(message)
        budget = call.budgets.get(conn.seat)
        if budget is None:
            budget = call.budgets[conn.seat] = Budget(*self.rate)
        if not budget.take():
            raise TableError("call/rate", "too many call messages: slow down")
        target = next(
            (m for m in call.members.values() if m.conn.seat == message.to and m.conn is not conn),
            None,
        )
        if target is None or not self._holds(live, target.conn):
            raise TableError("call/no_peer", "that seat is not on the call")
        out = messages.SignalFrom(from_=conn.seat, kind=message.kind)
        if message.sdp is not None:
            out.sdp = message.sdp
        if message.candidates is not None:
            out.candidates = message.candidates
        target.conn.push(messages.encode(out).decode())

    @staticmethod
    def _check(message: Signal) -> None:
        """Refuse what no browser sends: an offer or answer without a session description that
        reads as one, candidates that are not, or the two mixed."""
        if message.kind == "candidates":
            if message.sdp is not None or not message.candidates:
                raise TableError("call/candidate", "that is not a list of connection candidates")
            for found in message.candidates:
                text = found.candidate
                if text and (not text.startswith("candidate:") or not text.isprintable()):
                    raise TableError(
                        "call/candidate", "that is not a list of connection candidates"
                    )
            return
        sdp = message.sdp
        if sdp is None or message.candidates is not None or len(sdp) > MAX_SDP:
            raise TableError("call/sdp", "that is not a session description this call takes")
        lines = sdp.replace("\r\n", "\n").rstrip("\n").split("\n")
        if lines[0] != "v=0" or "m=audio" not in sdp or not all(map(_SDP_LINE.match, lines)):
            raise TableError("call/sdp", "that is not a session description this call takes")
        if any(line.startswith("m=") and not line.startswith("m=audio") for line in lines):
            raise TableError("call/sdp", "the call carries voice only")

    # ------------------------------------------------------------------ the table's changes
    def connected(self, live: LiveTable, conn: Connection) -> None:
        """A socket said hello: a seated one learns who is on the call, if anyone is."""
        call = self.calls.get(live.table.code)
        if call is not None and call.members and conn.seat is not None:
            conn.push(self._roster(live, call, None))

    def gone(self, live: LiveTable, conn: Connection) -> None:
        """A socket closed: it is off the call."""
        call = self.calls.get(live.table.code)
        if call is not None and call.members.pop(conn, None) is not None:
            self.refresh(live)

    def refresh(self, live: LiveTable) -> None:
        """Drop from the call whoever no longer holds their seat (removed, gone, the socket
        closed) or everyone when voice is off; then, if the roster changed, send it to every
        seated socket of the table."""
        code = live.table.code
        call = self.calls.get(code)
        if call is None:
            return
        voice = live.table.settings.voice
        for member in list(call.members.values()):
            if not voice or not self._holds(live, member.conn):
                del call.members[member.conn]
        roster = tuple(sorted((m.conn.seat or 0, m.n, m.muted) for m in call.members.values()))
        if roster != call.sent:
            call.sent = roster
            for conn in list(live.presence.connections):
                if conn.seat is not None:
                    conn.push(self._roster(live, call, conn if conn in call.members else None))
        if not call.members:  # also when a socket that no longer counts asked to join
            del self.calls[code]

    def _roster(self, live: LiveTable, call: _TableCall, member: Connection | None) -> str:
        """The roster, with ``member``'s servers if it is on the call."""
        seats = [messages.CallSeat(seat, n, muted) for seat, n, muted in call.sent] or [
            messages.CallSeat(m.conn.seat or 0, m.n, m.muted) for m in call.members.values()
        ]
        out = messages.CallRoster(seats=sorted(seats, key=lambda s: s.seat))
        if member is not None and member.seat is not None:
            who = f"{live.table.code}-{member.seat}"
            out.ice = self.ice.servers(who, self.time())
            out.policy = self.ice.policy
        return messages.encode(out).decode()

    @staticmethod
    def _holds(live: LiveTable, conn: Connection) -> bool:
        """Whether the socket is still its table's and holds a seat."""
        return conn.seat is not None and conn in live.presence.connections and not conn.dropped
