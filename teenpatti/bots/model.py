"""What a computer player learns about the others at its table, across hands, from public facts.

A :class:`TableModel` is shown every finished hand from its player's seat (the same
:class:`~teenpatti.engine.view.HandView` a person in that seat gets) and keeps, per seat, counts
of what everyone at the table could see: how often the seat looked at its cards, how often it
raised while blind, how often it packed when a raise came to it, the shows and side shows it
asked for, and how strong the hands it had bet on were when they were turned over at a show (or
at the pot limit, or all in). Nothing else is read: not the cards of a side show (only its two
players see them), not a packed hand, not the viewer's own seat. Memory is a few counters per
seat, whatever the number of hands.

What the levels take from it (:func:`loose_seats`, :func:`never_packs`):

- a seat whose seen bets, when shown down, came on weak hands (the mean ``u`` of at least
  :data:`MIN_SHOWN` shown hands under :data:`LOOSE_LINE`) is read as a gambler: its later
  chaals and raises narrow its range only a little (a station's or a maniac's bets say nothing);
- a seat that has not packed once in :data:`MIN_FACED` raises put to it is not bluffed;
- a seat that has looked in at most :data:`LOOK_LINE` of at least :data:`MIN_HANDS` hands plays
  blind whatever it holds (:func:`never_looks`): ``expert`` leaves its solved table for
  ``hard``'s values against it while it is blind (they win far more from such a player).

>>> model = TableModel()
>>> model.loose_seats()
frozenset()
>>> model.hands_seen
0
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.actions import ActionKind
from ..engine.view import HandView
from ..odds import heads_up_equity

__all__ = [
    "LOOK_LINE",
    "LOOSE_LINE",
    "MIN_FACED",
    "MIN_HANDS",
    "MIN_SHOWN",
    "TableModel",
    "Tendencies",
]

MIN_SHOWN = 3
"""Hands shown down after seen bets before a seat can be read as a gambler."""
LOOSE_LINE = 0.65
"""A mean shown ``u`` under this after seen bets: the seat bets on anything (a random hand's
mean is 0.5, a bit more for the hands that get to a show; a player who bets on its cards shows
hands above 0.7)."""
MIN_FACED = 5
"""Raises put to a seat before "it never packs to a raise" is believed."""
MIN_HANDS = 8
"""Hands a seat is dealt into before "it never looks" is believed."""
LOOK_LINE = 0.2
"""A look rate at most this over :data:`MIN_HANDS` hands or more: the seat plays blind whatever
it holds (a player who bets on its cards looks in most hands that last a few rounds)."""

_SHOWDOWNS = frozenset({"show", "pot_limit", "all_in"})


@dataclass(slots=True)
class Tendencies:
    """One seat's public record at this table (see the module docstring)."""

    hands: int = 0
    """Finished hands it was dealt into."""
    looked: int = 0
    """Of those, hands in which it saw its cards."""
    blind_bets: int = 0
    """Chaals and raises it made while blind."""
    blind_raises: int = 0
    """Of those, raises (or chaals above the least)."""
    faced_raise: int = 0
    """Times it moved with a raise by another player to answer."""
    packed_to_raise: int = 0
    """Of those, times it packed."""
    shows: int = 0
    """Shows it asked for."""
    side_shows: int = 0
    """Side shows it asked for."""
    shown: int = 0
    """Hands it had bet on after seeing, turned over at the end for everyone."""
    shown_u: float = 0.0
    """The sum of those hands' ``u`` (heads-up equity against a random hand)."""

    @property
    def look_rate(self) -> float | None:
        """The share of its hands in which it looked (``None`` before its first hand)."""
        return self.looked / self.hands if self.hands else None

    @property
    def mean_shown(self) -> float | None:
        """The mean ``u`` of its shown hands after seen bets (``None`` before the first)."""
        return self.shown_u / self.shown if self.shown else None

    @property
    def pack_to_raise(self) -> float | None:
        """The share of raises put to it that it packed to (``None`` before the first)."""
        return self.packed_to_raise / self.faced_raise if self.faced_raise else None


class TableModel:
    """Per-seat :class:`Tendencies` from the finished hands shown to one seat."""

    def __init__(self) -> None:
        self.seats: dict[int, Tendencies] = {}
        self.hands_seen = 0

    def of(self, seat: int) -> Tendencies:
        """The record of ``seat`` (empty if nothing is known)."""
        return self.seats.get(seat) or Tendencies()

    def observe(self, view: HandView) -> None:
        """Add one finished hand, as ``view.viewer`` saw it (the viewer's own seat is skipped).

        A hand not finished adds nothing: its last moves are not known yet.
        """
        if not view.finished:
            return
        self.hands_seen += 1
        me = view.viewer
        boot = view.boot
        stake = boot
        seen: set[int] = set()
        bet_seen: set[int] = set()
        out: set[int] = set()
        owes: set[int] = set()
        record = {  # the viewer's own play is not modelled: its record is thrown away
            s.seat: Tendencies() if s.seat == me else self.seats.setdefault(s.seat, Tendencies())
            for s in view.seats
        }
        for s in view.seats:
            if s.dealt and s.seat != me:
                record[s.seat].hands += 1
        for action, outcome in zip(view.actions, view.outcomes, strict=True):
            kind, seat = action.kind, action.seat
            before, stake = stake, outcome.stake
            mine = record[seat]
            if seat in owes:
                owes.discard(seat)
                mine.faced_raise += 1
                mine.packed_to_raise += kind is ActionKind.PACK
            if kind is ActionKind.SEE:
                seen.add(seat)
                mine.looked += 1
            elif kind in (ActionKind.CHAAL, ActionKind.RAISE):
                is_seen = seat in seen
                raised = kind is ActionKind.RAISE or outcome.paid > before * (2 if is_seen else 1)
                if is_seen:
                    bet_seen.add(seat)
                else:
                    mine.blind_bets += 1
                    mine.blind_raises += raised
                if raised:
                    owes = {s.seat for s in view.seats if s.dealt and s.seat not in out} - {seat}
            elif kind is ActionKind.PACK:
                out.add(seat)
            elif kind is ActionKind.SHOW:
                mine.shows += 1
            elif kind is ActionKind.SIDESHOW:
                mine.side_shows += 1
            elif kind is ActionKind.ACCEPT and outcome.loser is not None:
                out.add(outcome.loser)
        if view.ended_by not in _SHOWDOWNS:
            return
        for s in view.seats:
            if s.seat == me or s.seat not in bet_seen or s.seat in out or s.cards is None:
                continue
            u = heads_up_equity(s.cards, view.rules.ranking, view.wild)
            record[s.seat].shown += 1
            record[s.seat].shown_u += u

    def loose_seats(self) -> frozenset[int]:
        """Seats whose seen bets have been shown down on weak hands: gamblers."""
        return frozenset(
            seat
            for seat, t in self.seats.items()
            if t.shown >= MIN_SHOWN and t.shown_u / t.shown < LOOSE_LINE
        )

    def never_packs(self, seat: int) -> bool:
        """Whether ``seat`` has answered at least :data:`MIN_FACED` raises and packed to none."""
        t = self.of(seat)
        return t.faced_raise >= MIN_FACED and t.packed_to_raise == 0

    def never_looks(self, seat: int) -> bool:
        """Whether ``seat`` has been dealt at least :data:`MIN_HANDS` hands and looked in at
        most :data:`LOOK_LINE` of them."""
        t = self.of(seat)
        return t.hands >= MIN_HANDS and t.looked <= LOOK_LINE * t.hands
