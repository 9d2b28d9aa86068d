"""Views: the one gate for what a seat (or a spectator) may see of a hand.

A blind player sees none of its own cards, not even its own; a seen player sees its own; the two
players of an accepted side show see each other's hands; at a show or a showdown the hands still
in are turned over for everyone; a hand won by the last player standing shows nothing; packed
hands are never shown. Once the hand is over a player may look at its own cards. Nothing else in
the project turns a hand into something a client, a computer player or a log line sees.

What every viewer sees alike (the seats as a spectator sees them, the log) is built once per move
of a hand and shared by the views of every seat (a server renders one view per seat per move); a
seat's view then differs only in the rows whose cards that seat may see.
"""

from __future__ import annotations

from dataclasses import dataclass
from weakref import WeakKeyDictionary

from .actions import Action, ActionKind, LegalAction, Outcome
from .hand import Hand
from .pots import Pot
from .rules import Direction, Rules

__all__ = ["HandView", "SeatView", "can_see_cards", "own_cards", "own_key", "view"]

_set = object.__setattr__
"""Sets a field of a frozen view: the hand-written ``__init__`` methods below do what the
generated ones do, with one lookup fewer a field (views are made for every seat at every move)."""


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it. ``cards`` is ``None`` where the viewer may not see them."""

    seat: int
    chips: int
    put_in: int
    dealt: bool
    packed: bool
    seen: bool
    all_in: bool
    blind_turns: int
    cards: tuple[int, ...] | None

    def __init__(
        self,
        seat: int,
        chips: int,
        put_in: int,
        dealt: bool,
        packed: bool,
        seen: bool,
        all_in: bool,
        blind_turns: int,
        cards: tuple[int, ...] | None,
    ) -> None:
        _set(self, "seat", seat)
        _set(self, "chips", chips)
        _set(self, "put_in", put_in)
        _set(self, "dealt", dealt)
        _set(self, "packed", packed)
        _set(self, "seen", seen)
        _set(self, "all_in", all_in)
        _set(self, "blind_turns", blind_turns)
        _set(self, "cards", cards)


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand as ``viewer`` may see it (``viewer`` ``None``: a spectator). ``legal_actions`` are
    the viewer's own, with their costs."""

    viewer: int | None
    rules: Rules
    seats: tuple[SeatView, ...]
    dealer: int
    boot: int
    stake: int
    pot: int
    to_act: int | None
    side_show: tuple[int, int] | None
    wild: int | None
    finished: bool
    ended_by: str | None
    pots: tuple[Pot, ...]
    actions: tuple[Action, ...]
    outcomes: tuple[Outcome, ...]
    """What each of ``actions`` did: chips paid, the stake after it, a side show's loser."""
    legal_actions: tuple[LegalAction, ...]

    def __init__(
        self,
        viewer: int | None,
        rules: Rules,
        seats: tuple[SeatView, ...],
        dealer: int,
        boot: int,
        stake: int,
        pot: int,
        to_act: int | None,
        side_show: tuple[int, int] | None,
        wild: int | None,
        finished: bool,
        ended_by: str | None,
        pots: tuple[Pot, ...],
        actions: tuple[Action, ...],
        outcomes: tuple[Outcome, ...],
        legal_actions: tuple[LegalAction, ...],
    ) -> None:
        _set(self, "viewer", viewer)
        _set(self, "rules", rules)
        _set(self, "seats", seats)
        _set(self, "dealer", dealer)
        _set(self, "boot", boot)
        _set(self, "stake", stake)
        _set(self, "pot", pot)
        _set(self, "to_act", to_act)
        _set(self, "side_show", side_show)
        _set(self, "wild", wild)
        _set(self, "finished", finished)
        _set(self, "ended_by", ended_by)
        _set(self, "pots", pots)
        _set(self, "actions", actions)
        _set(self, "outcomes", outcomes)
        _set(self, "legal_actions", legal_actions)

    @property
    def actor(self) -> int | None:
        """The seat the hand waits for: the seat asked for a side show, else the seat to act."""
        return self.to_act if self.side_show is None else self.side_show[1]

    @property
    def you(self) -> SeatView | None:
        """The viewer's own seat, or ``None`` for a spectator."""
        return None if self.viewer is None else self.seats[self.viewer]

    @property
    def order(self) -> tuple[int, ...]:
        """Every seat in the direction of play, from the first after the dealer to the dealer.

        >>> from teenpatti.engine import Hand, Rules
        >>> view(Hand(Rules(), [1000] * 4, dealer=1, seed=bytes(32))).order
        (0, 3, 2, 1)
        """
        n = len(self.seats)
        step = -1 if self.rules.direction is Direction.ANTICLOCKWISE else 1
        return tuple((self.dealer + step * k) % n for k in range(1, n + 1))


def can_see_cards(hand: Hand, viewer: int | None, seat: int) -> bool:
    """Whether ``viewer`` (``None``: a spectator) may see the cards of ``seat`` now."""
    if hand.cards[seat] is None:
        return False
    if hand.shown[seat]:
        return True
    if viewer is None:
        return False
    if viewer == seat:
        return hand.seen[seat] or hand.finished
    return (viewer, seat) in hand.side_shows or (seat, viewer) in hand.side_shows


def _seat(hand: Hand, s: int, cards: tuple[int, ...] | None) -> SeatView:
    dealt = hand.dealt[s]
    return SeatView(
        s,
        hand.chips[s],
        hand.contributed[s],
        dealt,
        dealt and not hand.live[s],
        hand.seen[s],
        hand.all_in[s],
        hand.blind_turns[s],
        cards,
    )


_Public = tuple[int, tuple[SeatView, ...], tuple[Action, ...], tuple[Outcome, ...]]
_PUBLIC: WeakKeyDictionary[Hand, _Public] = WeakKeyDictionary()
"""Per hand: the number of moves played, and what every viewer sees alike after them (a hand
changes only by a move, and every move is logged)."""


def _public(hand: Hand) -> _Public:
    moves = len(hand.log)
    cached = _PUBLIC.get(hand)
    if cached is None or cached[0] != moves:
        log = hand.log
        if (
            cached is not None
            and cached[0] == moves - 1
            and not hand.finished
            and log[-1].kind is not ActionKind.ACCEPT
        ):
            # One move of a hand still on changes only the row of the seat that made it (an
            # accepted side show also packs its loser; the end of a hand changes every row).
            seat = log[-1].seat
            rows = list(cached[1])
            rows[seat] = _seat(hand, seat, None)
            seats = tuple(rows)
        else:
            seats = tuple(
                _seat(hand, s, hand.cards[s] if can_see_cards(hand, None, s) else None)
                for s in range(hand.seats)
            )
        cached = _PUBLIC[hand] = (moves, seats, tuple(log), tuple(hand.outcomes))
    return cached


def own_cards(hand: Hand, viewer: int) -> list[int]:
    """The seats whose cards ``viewer`` may see beyond the public rows (which hold the hands
    turned over for everyone): :func:`view` of ``viewer`` shows ``hand.cards`` of these seats
    and is the spectator's view elsewhere, bar its legal moves. A server that renders the
    spectator's view once a move asks only this of each seat (:func:`can_see_cards` decides).

    >>> from teenpatti.engine import Hand, Rules
    >>> hand = Hand(Rules(), [100, 100, 100], 0, seed=bytes(32))
    >>> own_cards(hand, 1)  # blind: not even its own
    []
    """
    _, seats, _, _ = _public(hand)
    return [
        s for s, row in enumerate(seats) if row.cards is None and can_see_cards(hand, viewer, s)
    ]


def own_key(hand: Hand, viewer: int) -> tuple[object, ...] | None:
    """What ``viewer``'s view of ``hand`` holds beyond the spectator's (:func:`own_cards` and
    ``hand.legal_actions(viewer)``) depends on, for a seat whose turn it is not: two equal keys
    of one hand give equal own cards and equal moves, so a server that kept them for the first
    need not ask again. ``None`` for the seat to act (its moves depend on every bet).

    A seat waiting for its turn may only look at its cards (when the rules let it) or answer a
    side show asked of it; what it sees beyond the public rows changes when it looks, when a
    side show is settled and when the hand ends.

    >>> from teenpatti.engine import Hand, Rules
    >>> hand = Hand(Rules(), [100, 100, 100], 0, seed=bytes(32))
    >>> own_key(hand, hand.to_act) is None, own_key(hand, 0) == own_key(hand, 0)
    (True, True)
    """
    pending = hand.side_show
    if pending is None and hand.to_act == viewer and not hand.finished:
        return None
    return (
        hand.finished,
        pending,
        len(hand.side_shows),
        tuple(hand.shown),
        hand.live[viewer],
        hand.seen[viewer],
    )


def view(hand: Hand, viewer: int | None = None) -> HandView:
    """What ``viewer`` may see of ``hand``: every public fact, and only the cards it may see."""
    if viewer is not None and not 0 <= viewer < hand.seats:
        raise ValueError(f"there is no seat {viewer}")
    _, seats, actions, outcomes = _public(hand)
    legal: tuple[LegalAction, ...] = ()
    if viewer is not None:
        # The cards the viewer sees beyond the public rows (which hold the hands turned over
        # for everyone): can_see_cards decides, seat by seat, where the public row has none.
        own = own_cards(hand, viewer)
        if own:
            rows = list(seats)
            for s in own:
                rows[s] = _seat(hand, s, hand.cards[s])
            seats = tuple(rows)
        legal = tuple(hand.legal_actions(viewer))
    return HandView(
        viewer=viewer,
        rules=hand.rules,
        seats=seats,
        dealer=hand.dealer,
        boot=hand.rules.boot,
        stake=hand.stake,
        pot=hand.pot,
        to_act=hand.to_act,
        side_show=hand.side_show,
        wild=hand.wild,
        finished=hand.finished,
        ended_by=None if hand.ended_by is None else hand.ended_by.value,
        pots=tuple(hand.pots),
        actions=actions,
        outcomes=outcomes,
        legal_actions=legal,
    )
