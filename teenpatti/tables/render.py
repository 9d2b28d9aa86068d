"""Rendering: what each viewer sees of a table, as the wire's JSON (docs/protocol.md, ``state``).

This is the only place that turns the engine's views into what a client is sent: a state is a
serialisation of :func:`~teenpatti.engine.view.view` of the hand for that seat (the only gate for
cards and legal moves), with the table around it, shaped as
:class:`~teenpatti.tables.messages.State` (the tests decode every state a server sends with it).

What every viewer sees alike is rendered once per version (:meth:`Render.public_state`); a
seat's own state adds only its cards and its moves (:meth:`Render.state_for`). The parts of a
state that did not change since the last one are the same objects again (a move once played, a
row whose seat did not change, the deal's facts), so a patch skips them at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine import Action, EngineError, Outcome, cards_str, view
from ..engine.actions import LegalAction
from ..engine.deck import commitment
from ..engine.evaluate import Evaluator
from ..engine.hand import Hand as EngineHand
from ..engine.pots import Pot, returned
from ..engine.view import own_cards

if TYPE_CHECKING:
    from .table import Table

__all__ = ["Render"]

_LEGAL: dict[LegalAction, dict[str, Any]] = {}
"""Each move on offer as JSON, made once (the same move reads the same in every state)."""
LEGAL_KEPT = 4096


def _legal_json(option: LegalAction) -> dict[str, Any]:
    """A move on offer as JSON (shared: callers must not change it)."""
    out = _LEGAL.get(option)
    if out is None:
        if len(_LEGAL) >= LEGAL_KEPT:
            _LEGAL.clear()
        out = _LEGAL[option] = {
            "do": option.kind.value,
            "cost": option.cost,
            "max": option.max_cost,
            "label": option.label,
            "targets": list(option.targets),
        }
    return out


class Render:
    """The states of one table, with the caches that let consecutive states share their parts."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self._public: tuple[int, dict[str, Any]] | None = None
        self._shown: tuple[object, dict[int, dict[str, Any]]] = (None, {})
        """The hand in play and the cards of its seats as JSON (:meth:`_cards`)."""
        self._moves: tuple[object, list[dict[str, Any]]] = (None, [])
        """The hand in play and its log's entries as JSON so far: a move, once played, reads the
        same in every later state, so each is rendered once (and shared by the states)."""
        self._rows: dict[int, tuple[object, object, object, dict[str, Any]]] = {}
        """Each seat's public row of the last state rendered during a hand, with the hand, the
        engine's view of the seat and the seat it was made from: a row whose three are the same
        objects again is reused, so consecutive states share it (and a patch skips it)."""
        self._own: dict[tuple[int, int], tuple[object, object, dict[str, Any]]] = {}
        """For a viewer and a seat whose cards only it may see: the public row and the cards
        the row last shown to it was made of, and that row (reused while both are the same)."""
        self._facts: tuple[object, bool, dict[str, Any]] = (None, False, {})
        """The hand in play, whether the game was over, and its deal facts as JSON."""
        self._settings: tuple[object, dict[str, Any]] = (None, {})
        """The settings and their JSON (remade when the settings change)."""
        self._committed: tuple[str | None, str] = (None, "")
        """The next hand's seed and its commitment."""

    def state(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may know of the table, as JSON: a
        serialisation of the engine's :func:`~teenpatti.engine.view.view` of the hand for that
        seat (the only gate for cards and legal moves), with the table around it."""
        return self.state_for(seat, self.public_state())

    def public_state(self) -> dict[str, Any]:
        """What everyone may know: the spectator's state (``view(hand, None)`` serialised),
        built once per version; :meth:`state_for` adds what a seat's own view holds beyond it.

        The result is shared: callers must not change it (copy what they change).
        """
        cached = self._public
        if cached is not None and cached[0] == self.table.version:
            return cached[1]
        out: dict[str, Any] = {
            "type": "state",
            "version": self.table.version,
            "code": self.table.code,
            "status": self.table.status,
            "settings": self._settings_json(),
            "you": None,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "host": s.host,
                    "person": s.token_hash is not None,
                    **({"late": True} if s.late else {}),  # only while it is so: replies stay small
                }
                for i, s in enumerate(self.table.seats)
            ],
            "hand": None,
            "legal": [],
            "paused": self.table.paused,
            "votes": sorted(self.table.votes),
            "chat": list(self.table.chat),
        }
        if self.table.barred:  # only while someone is: replies stay small
            out["removed"] = [name for name, _ in self.table.barred.values()]
        if self.table.next_seed is not None and self.table.status == "playing":
            out["next_commitment"] = self._next_commitment(self.table.next_seed)
            out["next_parts"] = sorted(self.table.parts)
        game = self.table.game
        if game is not None and game.hand is not None:
            hand = game.hand
            seen = view(hand, None)
            rows = out["seats"]
            for i, (row, sv) in enumerate(zip(rows, seen.seats, strict=True)):
                kept = self._rows.get(i)
                if (
                    kept is not None
                    and kept[0] is hand
                    and kept[1] is sv
                    and kept[2] is self.table.seats[i]
                ):
                    rows[i] = kept[3]
                    continue
                row.update(
                    chips=sv.chips,
                    put_in=sv.put_in,
                    dealt=sv.dealt,
                    packed=sv.packed,
                    seen=sv.seen,
                    all_in=sv.all_in,
                )
                row.update(self._cards(sv.cards, seen.wild, hand, sv.seat))
                self._rows[i] = (hand, sv, self.table.seats[i], row)
            number = game.hand_number
            out["hand"] = {
                "number": number,
                "of": self.table.rules.hands,
                "dealer": seen.dealer,
                "to_act": seen.to_act,
                "actor": seen.actor,
                "stake": seen.stake,
                "boot": seen.boot,
                "pot": seen.pot,
                "side_show": list(seen.side_show) if seen.side_show else None,
                "wild": None if seen.wild is None else cards_str([seen.wild]),
                "finished": seen.finished,
                "ended_by": seen.ended_by,
                "pots": self._pots(seen.pots, [sv.put_in for sv in seen.seats]),
                "actions": self._logged(hand, seen.actions, seen.outcomes),
                **self._facts_of(hand),
            }
            if game.finished:
                out["standings"] = [
                    {
                        "place": s.place,
                        "seat": s.seat,
                        "name": s.name,
                        "chips": s.chips,
                        **({"rebuys": s.rebuys, "net": s.net} if s.rebuys else {}),
                    }
                    for s in game.standings()
                ]
        if game is not None and any(game.rebuys):  # only once someone has: replies stay small
            out["rebuys"] = list(game.rebuys)
        self._public = (self.table.version, out)
        return out

    def state_for(self, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
        """``seat``'s state: ``public`` (this version's :meth:`public_state`) with what
        ``view(hand, seat)`` holds beyond the spectator's view: the cards it may see, its moves.

        Everything else in a view is the same for every viewer, so it is rendered once.
        """
        if seat is None:
            return public
        out = dict(public)
        out["you"] = seat
        game = self.table.game
        if game is None or game.hand is None:
            return out
        hand = game.hand
        # ``view(hand, seat)`` is the spectator's view (``public``) but for the cards of the
        # seats ``own_cards`` names and the seat's legal moves: only those are rendered here.
        own = own_cards(hand, seat)
        if own:
            rows: list[dict[str, Any]] = list(public["seats"])
            out["seats"] = rows
            for s in own:
                row = rows[s]
                cards = self._cards(hand.cards[s], hand.wild, hand, s)
                was = self._own.get((seat, s))
                if was is not None and was[0] is row and was[1] is cards:
                    rows[s] = was[2]  # as last time: shared, so a patch skips it
                    continue
                rows[s] = mixed = {**row, **cards}
                self._own[(seat, s)] = (row, cards, mixed)
        legal = () if self.table.paused else hand.legal_actions(seat)
        out["legal"] = [_legal_json(a) for a in legal]
        self._rebuy_offer(seat, out)
        return out

    def _rebuy_offer(self, seat: int, out: dict[str, Any]) -> None:
        """Tell a player out of chips what happens next: ``out`` (true) once they have none,
        and ``rebuy`` (the chips, the rebuys left, the last hand they may play from) while the
        rebuy house rule lets them buy back in now."""
        game = self.table.game
        if game is None or game.finished:
            return
        hand = game.hand
        in_play = hand is not None and not hand.finished
        held = hand.chips[seat] if in_play and hand is not None else game.chips[seat]
        if held > 0 or game.bought_in(seat):  # bought back in: the chips come with the next hand
            return
        out["out"] = True
        try:
            chips = game.check_rebuy(seat)
        except EngineError:
            return
        rules = self.table.rules
        out["rebuy"] = {
            "chips": chips,
            "left": rules.rebuys_max - game.rebuys[seat],
            "until": rules.rebuy_until_hand or rules.hands,
        }

    def _settings_json(self) -> dict[str, Any]:
        """The settings as JSON, made once for each settings object."""
        settings, out = self._settings
        if settings is not self.table.settings:
            out = self.table.settings.to_json()
            self._settings = (self.table.settings, out)
        return out

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
    ) -> list[dict[str, Any]]:
        """``hand``'s public log as JSON (a new list; the entries rendered for an earlier state
        of the same hand are reused)."""
        played, rows = self._moves
        if played is not hand or len(rows) > len(actions):
            rows = []
            self._moves = (hand, rows)
        for i in range(len(rows), len(actions)):
            rows.append({**actions[i].to_json(), **outcomes[i].to_json(), **self._timed(i)})
        return list(rows)

    def _timed(self, index: int) -> dict[str, bool]:
        """``{"timeout": true}`` for a move of the hand in play that the turn timer made."""
        return {"timeout": True} if index in self.table.timeouts else {}

    @staticmethod
    def _pots(pots: tuple[Pot, ...], put_in: list[int]) -> list[dict[str, Any]]:
        """The settled pots as JSON; the top of a bet nobody called is marked ``returned``: its
        chips go back to the one who bet them, which is no win."""
        back = returned(put_in, pots)
        return [{**p.to_json(), "returned": i == back} for i, p in enumerate(pots)]

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
            out["wild_proof"] = hand.wild_proof()
        return out

    def _cards(
        self, cards: tuple[int, ...] | None, wild: int | None, hand: EngineHand, seat: int
    ) -> dict[str, Any]:
        """A row's ``cards``, ``category`` and ``proof`` (the same for every viewer allowed to
        see them, and for the whole hand: rendered once a hand, the values shared by the states
        that show them)."""
        if cards is None:
            return {"cards": None, "category": None}
        played, shown = self._shown
        if played is not hand:
            shown = {}
            self._shown = (hand, shown)
        out = shown.get(seat)
        if out is not None:
            return out
        evaluator = Evaluator.get(self.table.rules.ranking)
        out = {
            "cards": cards_str(cards).split(),
            "category": evaluator.category(cards, wild).value,
        }
        proofs = hand.proofs(seat)
        if proofs is not None:
            out["proof"] = proofs
        shown[seat] = out
        return out
