"""Rendering: what each viewer sees of a table, as the wire's types (docs/protocol.md, ``state``).

This is the only place that turns the engine's views into what a client is sent: a state is a
:class:`~teenpatti.tables.wire.messages.State` (with its
:class:`~teenpatti.tables.wire.messages.SeatRow`,
:class:`~teenpatti.tables.wire.messages.HandView`... inside), a serialisation of
:func:`~teenpatti.engine.view.view` of the hand for that seat (the only gate for cards and legal
moves), with the table around it; msgspec encodes it as the JSON the page reads.

What every viewer sees alike is rendered once per version (:meth:`Render.public_state`); a
seat's own state adds only its cards and its moves (:meth:`Render.state_for`). The parts of a
state that did not change since the last one are the same objects again (a move once played, a
row whose seat did not change, the deal's facts), so a patch skips them at once. What only the
serving process knows (the turn's ``deadline``, the time ``now``, whether a person's socket is
``connected``) is laid over the public state by the fan-out
(:mod:`~teenpatti.tables.live.fanout`); a state rendered here has ``deadline`` ``None``, ``now`` 0
and every computer player connected.
"""

from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING, Any, NamedTuple

import msgspec
from msgspec import UNSET, UnsetType

from ...engine import Action, EndedBy, EngineError, Outcome, cards_str, view
from ...engine.actions import LegalAction
from ...engine.deck import commitment
from ...engine.evaluate import Evaluator
from ...engine.hand import Hand as EngineHand
from ...engine.pots import Pot, returned
from ...engine.view import own_cards, own_key
from .messages import (
    HandView,
    Legal,
    LoggedMove,
    PotView,
    Proof,
    RebuyOffer,
    Score,
    SeatRow,
    Standing,
    State,
)

if TYPE_CHECKING:
    from ...engine import Category
    from ..play.table import Seat, Table

__all__ = ["WATCHING", "Own", "Render", "compose"]

_LEGAL: dict[LegalAction, Legal] = {}
"""Each move on offer as sent, made once (the same move reads the same in every state)."""
LEGAL_KEPT = 4096

Cards = tuple["list[str] | None", "Category | None", "list[Proof] | UnsetType"]
"""A row's ``cards``, ``category`` and ``proof``."""
_HIDDEN: Cards = (None, None, UNSET)


class Own(NamedTuple):
    """What a seat's state holds beyond the public state (:meth:`Render.own`); shared: callers
    must not change it."""

    rows: list[tuple[int, SeatRow, SeatRow]]
    """The rows whose cards only this seat may see: ``(seat, the public row, the row with the
    cards)``."""
    legal: list[Legal]
    out: bool | UnsetType
    rebuy: RebuyOffer | UnsetType


WATCHING = Own([], [], UNSET, UNSET)
"""The own part of a seat that has none: no hand, or a hand it watches (dealt before it sat)."""
Mine = tuple[object, object, bool, Own]
"""A seat's own part of its last state with what it was made from (``Render._mine``): the
hand, its ``own_key``, whether the table was paused."""


def compose(public: State, seat: int | None, own: Own | None) -> State:
    """``seat``'s state from the public state and its own part (:meth:`Render.own`)."""
    if own is None:
        return public
    rows = public.seats
    if own.rows:
        rows = list(rows)
        for s, _, mixed in own.rows:
            rows[s] = mixed
    return msgspec.structs.replace(
        public, you=seat, seats=rows, legal=own.legal, out=own.out, rebuy=own.rebuy
    )


def _row(i: int, s: Seat, **hand: Any) -> SeatRow:
    """Seat ``i``'s row: who sits there, as the table knows it (a computer's seat is always
    ``connected``; the fan-out sets the others'), and ``hand``: its fields while a hand is on."""
    return SeatRow(
        seat=i,
        name=s.name,
        bot=s.bot,
        host=s.host,
        person=s.token_hash is not None,
        connected=s.bot,
        late=True if s.late else UNSET,  # only while it is so: replies stay small
        **hand,
    )


def _legal(option: LegalAction) -> Legal:
    """A move on offer as sent (shared: callers must not change it)."""
    out = _LEGAL.get(option)
    if out is None:
        if len(_LEGAL) >= LEGAL_KEPT:
            _LEGAL.clear()
        out = _LEGAL[option] = Legal(
            do=option.kind,
            cost=option.cost,
            max=option.max_cost,
            label=option.label,
            targets=list(option.targets),
        )
    return out


class Render:
    """The states of one table, with the caches that let consecutive states share their parts."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._public: tuple[int, State] | None = None
        self._shown: tuple[object, dict[int, Cards]] = (None, {})
        """The hand in play and the cards of its seats as sent (:meth:`_cards`)."""
        self._moves: tuple[object, list[LoggedMove]] = (None, [])
        """The hand in play and its log's entries so far: a move, once played, reads the same
        in every later state, so each is rendered once (and shared by the states)."""
        self._rows: dict[int, tuple[object, object, object, SeatRow]] = {}
        """Each seat's public row of the last state rendered during a hand, with the hand, the
        engine's view of the seat and the seat it was made from: a row whose three are the same
        objects again is reused, so consecutive states share it (and a patch skips it)."""
        self._facts: tuple[object, bool, dict[str, Any]] = (None, False, {})
        """The hand in play, whether the game was over, and its deal facts (``HandView``'s
        fields)."""
        self._committed: tuple[str | None, str] = (None, "")
        """The next hand's seed and its commitment."""
        self._offered: dict[int, tuple[tuple[LegalAction, ...], list[Legal]]] = {}
        """Each seat's moves on offer in its last state, from the engine and as sent: the same
        moves again are the same list, so a patch skips it at once."""
        self._mine: dict[int, Mine] = {}
        """Each seat's own part of its last state: the hand, its ``own_key``, whether the
        table was paused, its own rows (with the public rows they were made from) and its
        moves; kept while the key, the pause and those public rows are the same."""

    def state(self, seat: int | None) -> State:
        """Everything ``seat`` (``None``: a spectator) may know of the table: a serialisation of
        the engine's :func:`~teenpatti.engine.view.view` of the hand for that seat (the only
        gate for cards and legal moves), with the table around it."""
        return self.state_for(seat, self.public_state())

    def public_state(self) -> State:
        """What everyone may know: the spectator's state (``view(hand, None)`` serialised),
        built once per version; :meth:`state_for` adds what a seat's own view holds beyond it.

        The result is shared: callers must not change it (``msgspec.structs.replace`` makes a
        changed copy).
        """
        cached = self._public
        table = self.table
        if cached is not None and cached[0] == table.version:
            return cached[1]
        game = table.game
        hand = game.hand if game is not None else None
        seats = table.seats
        hand_view: HandView | None = None
        standings: list[Standing] | UnsetType = UNSET
        if game is not None and hand is not None:
            seen = view(hand, None)
            rows = []
            for i, (s, sv) in enumerate(zip(seats, seen.seats, strict=True)):
                kept = self._rows.get(i)
                if kept is not None and kept[0] is hand and kept[1] is sv and kept[2] is s:
                    rows.append(kept[3])
                    continue
                cards, category, proof = self._cards(sv.cards, seen.wild, hand, sv.seat)
                row = _row(
                    i,
                    s,
                    chips=sv.chips,
                    put_in=sv.put_in,
                    dealt=sv.dealt,
                    packed=sv.packed,
                    seen=sv.seen,
                    all_in=sv.all_in,
                    cards=cards,
                    category=category,
                    proof=proof,
                )
                self._rows[i] = (hand, sv, s, row)
                rows.append(row)
            hand_view = HandView(
                number=game.hand_number,
                of=table.rules.hands,
                dealer=seen.dealer,
                to_act=seen.to_act,
                actor=seen.actor,
                stake=seen.stake,
                boot=seen.boot,
                pot=seen.pot,
                side_show=list(seen.side_show) if seen.side_show else None,
                wild=None if seen.wild is None else cards_str([seen.wild]),
                finished=seen.finished,
                ended_by=None if seen.ended_by is None else EndedBy(seen.ended_by),
                pots=self._pots(seen.pots, [sv.put_in for sv in seen.seats]),
                actions=self._logged(hand, seen.actions, seen.outcomes),
                **self._facts_of(hand),
            )
            if game.finished:
                standings = [
                    Standing(
                        place=s.place,
                        seat=s.seat,
                        name=s.name,
                        chips=s.chips,
                        rebuys=s.rebuys if s.rebuys else UNSET,
                        net=s.net if s.rebuys and s.net is not None else UNSET,
                    )
                    for s in game.standings()
                ]
        else:
            rows = [_row(i, s) for i, s in enumerate(seats)]
        announced = table.next_seed is not None and table.status == "playing"
        out = State(
            version=table.version,
            code=table.code,
            status=table.status,
            settings=table.settings,
            you=None,
            seats=rows,
            hand=hand_view,
            legal=[],
            paused=table.paused,
            votes=sorted(table.votes),
            chat=list(table.chat),
            # only while someone is: replies stay small
            removed=[name for name, _ in table.barred.values()] if table.barred else UNSET,
            # only once someone has bought back in
            rebuys=list(game.rebuys) if game is not None and any(game.rebuys) else UNSET,
            next_commitment=(
                self._next_commitment(table.next_seed)
                if announced and table.next_seed is not None
                else UNSET
            ),
            next_parts=sorted(table.parts) if announced else UNSET,
            standings=standings,
            game=table.games_played if table.games_played > 1 else UNSET,
            score=self._score() or UNSET,
            deadline=None,
            now=0.0,
        )
        self._public = (table.version, out)
        return out

    def _score(self) -> list[Score]:
        """The table's running score, each seat under its name now (empty before a game ends)."""
        seats = self.table.seats
        return [
            Score(seat=i, name=seats[i].name, won=won, chips=chips)
            for i, (won, chips) in enumerate(self.table.score())
            if i < len(seats)
        ]

    def state_for(self, seat: int | None, public: State) -> State:
        """``seat``'s state: ``public`` (this version's :meth:`public_state`) with what
        ``view(hand, seat)`` holds beyond the spectator's view: the cards it may see, its moves.

        Everything else in a view is the same for every viewer, so it is rendered once.
        """
        return compose(public, seat, self.own(seat, public))

    def own(self, seat: int | None, public: State) -> Own | None:
        """What ``seat``'s state holds beyond ``public`` (``None`` for a spectator: nothing):
        the rows whose cards it may see, its moves, and whether it is out of chips. While none
        of it changed it is the same :class:`Own` object as in the seat's last state, so a
        patch need not look at it."""
        if seat is None:
            return None
        game = self.table.game
        if game is None or game.hand is None:
            return WATCHING
        hand = game.hand
        if self.table.seats[seat].late or not self.table.held_at_deal(seat):
            # A latecomer watches the hand the computer plays for them as a spectator of their
            # seat: no move of it, no card of it (the seat is theirs from the next deal). So
            # does one who sat down after the hand was dealt, even once it is over: its cards
            # (and a side show's) were another holder's.
            return WATCHING
        # ``view(hand, seat)`` is the spectator's view (``public``) but for the cards of the
        # seats ``own_cards`` names and the seat's legal moves: only those are rendered here,
        # and only when something they depend on moved (``own_key``: most moves change them
        # for the mover and the next seat alone); else they are last version's objects again.
        rows = public.seats
        paused = self.table.paused
        key = own_key(hand, seat)
        mine = self._mine.get(seat)
        if (
            key is None
            or mine is None
            or mine[0] is not hand
            or mine[1] != key
            or mine[2] is not paused
            or not all([rows[s] is row for s, row, _ in mine[3].rows])
        ):
            own = Own(
                self._own_rows(hand, seat, rows, mine),
                self._moves_of(hand, seat, paused),
                UNSET,
                UNSET,
            )
            mine = self._mine[seat] = (hand, key, paused, own)
        # a seat with chips is offered no rebuy (:meth:`_rebuy_offer` says so at once)
        held = game.chips[seat] if hand.finished else hand.chips[seat]
        if held > 0:
            return mine[3]
        return Own(mine[3].rows, mine[3].legal, *self._rebuy_offer(seat))

    def _own_rows(
        self, hand: EngineHand, seat: int, rows: list[SeatRow], mine: Mine | None
    ) -> list[tuple[int, SeatRow, SeatRow]]:
        """The rows whose cards only ``seat`` may see, each as ``(s, the public row, the row
        with the cards)``; one made from the same public row in ``mine`` (the seat's own part
        last time, of the same hand: the same cards) is reused, so a patch skips it."""
        kept = (
            {s: (row, mixed) for s, row, mixed in mine[3].rows} if mine and mine[0] is hand else {}
        )
        out = []
        for s in own_cards(hand, seat):
            row = rows[s]
            was = kept.get(s)
            if was is not None and was[0] is row:
                out.append((s, row, was[1]))
                continue
            cards = self._cards(hand.cards[s], hand.wild, hand, s)
            mixed = msgspec.structs.replace(row, cards=cards[0], category=cards[1], proof=cards[2])
            out.append((s, row, mixed))
        return out

    def _moves_of(self, hand: EngineHand, seat: int, paused: bool) -> list[Legal]:
        """``seat``'s moves on offer as sent: the same moves as last time are the same list."""
        legal = () if paused else hand.legal_actions(seat)
        offered = self._offered.get(seat)
        if offered is None or len(offered[0]) != len(legal) or not all(map(is_, offered[0], legal)):
            offered = self._offered[seat] = (tuple(legal), [_legal(a) for a in legal])
        return offered[1]

    def _rebuy_offer(self, seat: int) -> tuple[bool | UnsetType, RebuyOffer | UnsetType]:
        """Tell a player out of chips what happens next: ``out`` (true) once they have none,
        and ``rebuy`` (the chips, the rebuys left, the last hand they may play from) while the
        rebuy house rule lets them buy back in now."""
        game = self.table.game
        if game is None or game.finished:
            return UNSET, UNSET
        hand = game.hand
        in_play = hand is not None and not hand.finished
        held = hand.chips[seat] if in_play and hand is not None else game.chips[seat]
        if held > 0 or game.bought_in(seat):  # bought back in: the chips come with the next hand
            return UNSET, UNSET
        try:
            chips = game.check_rebuy(seat)
        except EngineError:
            return True, UNSET
        rules = self.table.rules
        return True, RebuyOffer(
            chips=chips,
            left=rules.rebuys_max - game.rebuys[seat],
            until=rules.rebuy_until_hand or rules.hands,
        )

    def _next_commitment(self, seed: str) -> str:
        """The commitment to the next hand's seed, worked out once for each seed."""
        known, out = self._committed
        if known != seed:
            out = commitment(bytes.fromhex(seed))
            self._committed = (seed, out)
        return out

    def _facts_of(self, hand: EngineHand) -> dict[str, Any]:
        """:meth:`_deal_facts`, made once a hand (and again when the game is over)."""
        played, revealed, out = self._facts
        if played is not hand or revealed != self.table.revealed:
            out = self._deal_facts(hand)
            self._facts = (hand, self.table.revealed, out)
        return out

    def _logged(
        self, hand: EngineHand, actions: tuple[Action, ...], outcomes: tuple[Outcome, ...]
    ) -> list[LoggedMove]:
        """``hand``'s public log (a new list; the entries rendered for an earlier state of the
        same hand are reused)."""
        played, rows = self._moves
        if played is not hand or len(rows) > len(actions):
            rows = []
            self._moves = (hand, rows)
        timeouts = self.table.timeouts
        for i in range(len(rows), len(actions)):
            action, outcome = actions[i], outcomes[i]
            rows.append(
                LoggedMove(
                    seat=action.seat,
                    do=action.kind,
                    amount=UNSET if action.amount is None else action.amount,
                    target=UNSET if action.target is None else action.target,
                    paid=outcome.paid,
                    stake=outcome.stake,
                    loser=UNSET if outcome.loser is None else outcome.loser,
                    timeout=True if i in timeouts else UNSET,  # the turn timer made it
                )
            )
        return list(rows)

    @staticmethod
    def _pots(pots: tuple[Pot, ...], put_in: list[int]) -> list[PotView]:
        """The settled pots; the top of a bet nobody called is marked ``returned``: its chips
        go back to the one who bet them, which is no win."""
        back = returned(put_in, pots)
        return [
            PotView(amount=p.amount, winners=list(p.winners), returned=i == back)
            for i, p in enumerate(pots)
        ]

    def _deal_facts(self, hand: EngineHand) -> dict[str, Any]:
        """What everyone may know of how ``hand`` was dealt: the server's commitment, the
        contributions, the cards commitment, and the secret once the game is over."""
        shuffle = hand.shuffle
        assert shuffle is not None
        out: dict[str, Any] = {
            "deck": shuffle.version,
            "commitment": shuffle.commitment,
            "secret": shuffle.secret.hex() if self.table.revealed else None,
        }
        tree = hand.tree
        if tree is not None:
            out["contributions"] = [None if p is None else p.hex() for p in shuffle.parts]
            out["cards_root"] = tree.root
            wild = hand.wild_proof()
            out["wild_proof"] = (
                None if wild is None else msgspec.convert(wild, Proof, from_attributes=True)
            )
        return out

    def _cards(
        self, cards: tuple[int, ...] | None, wild: int | None, hand: EngineHand, seat: int
    ) -> Cards:
        """A row's ``cards``, ``category`` and ``proof`` (the same for every viewer allowed to
        see them, and for the whole hand: rendered once a hand, the values shared by the states
        that show them)."""
        if cards is None:
            return _HIDDEN
        played, shown = self._shown
        if played is not hand:
            shown = {}
            self._shown = (hand, shown)
        out = shown.get(seat)
        if out is not None:
            return out
        evaluator = Evaluator.get(self.table.rules.ranking)
        proofs = hand.proofs(seat)
        out = shown[seat] = (
            cards_str(cards).split(),
            evaluator.category(cards, wild),
            UNSET if proofs is None else msgspec.convert(proofs, list[Proof], from_attributes=True),
        )
        return out
