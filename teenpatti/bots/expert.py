"""The expert computer player: a solved table heads-up, ``hard`` corrected by a learnt search at
three to six seats, and ``hard``'s move improved by rollouts elsewhere.

Heads-up, at our table and at ``duo``, it plays the strategy solved by CFR+ for the abstract
game of the table, from the first move (:mod:`teenpatti.bots.solver`, shipped in
``solver/data``; :attr:`ExpertBot.table`): the public state turned into the solver's state and
the hand into its bucket, then one draw from the stored row, a few microseconds. Our table's
shipped table leaves a best response 0.028 boots a hand and beats ``hard``, the rollouts and
every fixed style heads-up (docs/bots.md, section 8).

At three to six seats of our table's betting, once a hand has come down to two players who
were both blind, it plays the heads-up game from there, solved as the table is
(:mod:`teenpatti.bots.solver.endgame`: neither has seen, so both ranges are every hand alike,
as at the heads-up table's first move), where an endgame is shipped for the point the hand
came down at (:attr:`ExpertBot.endgame`). Before that, it plays ``hard``'s move (with its
reading of the others' bets after looking set where ``expert``'s own bets start:
:attr:`ExpertBot.multiway_level`), replaced by the move the rollout search was found offline to
prefer in its information set, from the table shipped for hands dealt to so many players
(:data:`~teenpatti.bots.solver.distill.SEAT_TABLES`): learnt at every decision
(``solver/data/multiway_everywhere.npz``; a build against a population of opponents writes
``multiway_population.npz``) or where every other player still in has seen
(``solver/data/multiway_moves.npz``), as each was learnt (:mod:`teenpatti.bots.solver.distill`;
:attr:`ExpertBot.multiway`): one lookup after hard's decision. At five and six seats a raise
after looking into a lone seen player while others are blind is played as a chaal
(:func:`_chaal_not_raise`). A second layer, what the strongest exploiter plays instead of
``expert``'s own move (``distill --respond``), is read in hands dealt to
:data:`~teenpatti.bots.solver.distill.RESPONSE_SEATS` (none as shipped: measured from every
place at the table, its clearest corrections left the exploiter more;
:attr:`ExpertBot.respond`). In hands dealt to :attr:`ExpertBot.blueprint_seats` (none as
shipped: at three seats the corrections won more over whole games) it plays instead a multiway
blueprint, the strategy solved by Monte Carlo CFR for so many players against itself and the
fixed styles (:mod:`teenpatti.bots.solver.multiway`, ``solver/data/multiway_blueprint3.npz``):
one draw from the row of its information set, the corrected move where the row is empty or the
opponent model marks somebody. The corrections and the blueprint are read while every player
still in holds 30 % of the pot limit (:func:`~teenpatti.bots.solver.multiway.deep_enough`), so
a game's later hands, whose stacks have moved from the start, are played as its first; the
heads-up table only while both stacks hold its own.

Everywhere else (the other presets, and heads-up where its table does not reach) it asks
``hard`` for its move and then, wherever every other player still in has seen, plays each legal
move out on deals drawn from what its seat may know (:mod:`.search`: the others' hands from
hard's reading of the public log, ``hard`` playing every seat after the move) and keeps hard's
move unless another is better by more than its standard error; a decision is then a hundred or
so hands played out, milliseconds, so the table server asks for it on the computers' own thread
(:mod:`teenpatti.tables.live.thinker`). While another player is still blind it plays hard's
move as it is: the rollouts would play a blind player as hard does, looking and packing its
weak hands, which a player who never looks does not. Wherever it plays hard's values it reads
the others as :attr:`ExpertBot.level` says: a player who raised blind is read as anyone once it
has looked. It reads the table's opponent model (:mod:`teenpatti.bots.model`) as hard does:
against a player the model shows to bet on anything, never to pack to a raise or (while it is
blind) never to look, hard's values (and the rollouts) take over from the tables: they win
more from such a player.

>>> from teenpatti.bots import load_bot
>>> load_bot("expert", 1).name
'expert'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..engine.actions import Action, ActionKind, LegalAction
from ..engine.rules import Bets, Rules
from ..engine.view import HandView
from ..odds import heads_up_equity
from .hard import HARD, HardBot
from .search import Rollouts
from .solver.distill import RESPONSE_SEATS, SEAT_TABLES, all_others_seen
from .solver.distill import load as load_corrections
from .solver.endgame import BETS, follow, for_stack, locate, shorter_stack
from .solver.game import ACTIONS, State, bucket_of, same_betting
from .solver.multiway import (
    BLUEPRINT_SEATS,
    blueprint_path,
    load_blueprint,
    multiway_applies,
    multiway_key,
)
from .solver.multiway import MOVES as MULTIWAY_MOVES
from .solver.tables import Table, load

__all__ = ["ExpertBot", "as_legal_bets", "multiway_applies", "multiway_key", "table_for"]

_KINDS = tuple(ActionKind(a) for a in ACTIONS)
_MULTIWAY_KINDS = tuple(ActionKind(m) for m in MULTIWAY_MOVES)
_INSTEAD = {
    ActionKind.CHAAL: (ActionKind.ALLIN,),
    ActionKind.RAISE: (ActionKind.CHAAL, ActionKind.ALLIN),
    ActionKind.ALLIN: (ActionKind.CHAAL, ActionKind.RAISE),
}
"""The bets a stored bet is played as when the real game does not offer it, in order."""


def as_legal_bets(weights: Iterable[int], legal: Collection[ActionKind]) -> list[int]:
    """A stored row's weights (one for each move of the solver's ``ACTIONS``) with a bet the
    real game does not offer given to the bet it does: a chaal to an all in where the stack no
    longer covers it, an all in to a chaal where it still does (a table solved on another stack
    than the real one: :func:`~teenpatti.bots.solver.endgame.for_stack`). Where the game is the
    one solved, every bet the row weighs is offered and nothing moves.

    >>> legal = {ActionKind.SEE, ActionKind.ALLIN, ActionKind.PACK}
    >>> as_legal_bets([10, 200, 40, 0, 0, 5], legal)  # see, chaal, raise, show, all in, pack
    [10, 0, 0, 0, 240, 5]
    >>> as_legal_bets([0, 0, 0, 0, 90, 10], {ActionKind.CHAAL, ActionKind.PACK})
    [0, 90, 0, 0, 0, 10]
    """
    out = [int(w) for w in weights]
    for i, kind in enumerate(_KINDS):
        if out[i] and kind not in legal and kind in _INSTEAD:
            into = next((k for k in _INSTEAD[kind] if k in legal), None)
            if into is not None:
                out[_KINDS.index(into)] += out[i]
                out[i] = 0
    return out


def table_for(rules: Rules) -> Table | None:
    """The solved table for ``rules``' betting, if one is shipped (the ranking may differ: the
    buckets are on the ``u`` scale, the same for every ranking)."""
    if rules.bets is not Bets.DOUBLE:
        return None
    table = load(rules.preset)
    if table is None:
        return None
    base = Rules.from_options({"preset": rules.preset})
    return table if same_betting(rules, base) else None


CHAAL_NOT_RAISE_FROM = 5
"""In hands dealt to this many or more, :func:`_chaal_not_raise` holds ``expert``'s raises
after looking against a lone seen player while others are blind (measured at five and six seats;
at four the raise there was worth its price, docs/bots.md, section 8)."""


def _chaal_not_raise(view: HandView, move: Action) -> Action:
    """``move``, or a chaal in its place where it is a raise made after looking while exactly
    one other player still in has seen and at least one is still blind.

    There ``hard``'s values raise as if the others' answers did not depend on it: with a good
    hand the raise starts a raise war with the seen player, who is stronger when it goes on,
    carried to the pot limit; with the best hands it makes the blind players look and pack,
    where a chaal keeps them paying. The exploiter took most of what it still took at six seats
    from this one place (docs/bots.md, section 8)."""
    seat = view.viewer
    if move.kind is not ActionKind.RAISE or seat is None or not view.seats[seat].seen:
        return move
    others = [s for s in view.seats if s.dealt and not s.packed and s.seat != seat]
    if sum(s.seen for s in others) != 1 or all(s.seen for s in others):
        return move
    chaal = next((a for a in view.legal_actions if a.kind is ActionKind.CHAAL), None)
    return move if chaal is None else chaal.action(seat)


def _dealt(view: HandView) -> int:
    return sum(1 for s in view.seats if s.dealt)


def public_state(view: HandView, chips: int) -> tuple[State, int] | None:
    """The abstract state of ``view`` and the viewer's player number (0: first to act), or
    ``None`` when the hand is not a plain heads-up hand at ``chips`` boots a stack (or more:
    a shorter stack is not the table's game, and over whole games the table played on shorter
    stacks lost to the blind styles what the rollouts win; docs/bots.md, section 8)."""
    boot = view.boot
    rules = view.rules
    dealt = [s for s in view.seats if s.dealt]
    if len(dealt) != 2 or any(s.packed for s in dealt) or view.side_show is not None:
        return None
    first, second = (s for s in view.order if view.seats[s].dealt)
    a, b = view.seats[first], view.seats[second]
    if any(s.put_in % boot or view.stake % boot for s in (a, b)):
        return None
    if any((s.put_in + s.chips) < chips * boot for s in (a, b)):
        return None
    if view.to_act not in (first, second):
        return None
    bet_made = any(x.kind in BETS for x in view.actions)
    limit = rules.blind_turns_max
    turns = (a.blind_turns, b.blind_turns) if limit is not None else (0, 0)
    saw = _saw(view, first, second)
    if saw is None:
        return None
    state = State(
        (a.put_in // boot, b.put_in // boot),
        view.stake // boot,
        (a.seen, b.seen),
        0 if view.to_act == first else 1,
        bet_made,
        turns,
        saw,
    )
    return state, 0 if view.viewer == first else 1


def _saw(view: HandView, first: int, second: int) -> tuple[int, int] | None:
    """Each player's chips put in (boots, its boot too) when it saw, replayed from the public
    log (:func:`~teenpatti.bots.solver.endgame.follow`, from the deal: a boot each, the stake
    one boot); ``None`` if the log holds a move the heads-up abstraction does not (or does not
    add up)."""
    line = follow(view.actions, {first: 0, second: 1}, 1)
    if line is None:
        return None
    boot = view.boot
    if any(
        (1 + line.paid[p]) * boot != view.seats[s].put_in for p, s in enumerate((first, second))
    ):
        return None
    return line.saw((1, 1))


def _blind_opponent(view: HandView) -> bool:
    """Whether a player still in (not the viewer) is blind: the rollouts would play it as hard
    does, looking and packing its weak hands, which a player who never looks does not (against
    ``never_looks`` heads-up that cost -3.92 boots a hand), so there hard's values to the pot
    limit decide. (Where a table of corrections learnt only where all the others have seen
    is not used either: :func:`~teenpatti.bots.solver.distill.all_others_seen`.)"""
    return not all_others_seen(view)


class ExpertBot(HardBot):
    """The solved heads-up table where it reaches; elsewhere ``hard``'s move improved by the
    rollout search."""

    name = "expert"
    level = replace(HARD, name="expert", loose_floor=HARD.floor, gambler_floor=HARD.loose_floor)
    """``hard``'s level, with the guard's reading of a player who raised blind (below, in
    :attr:`multiway_level`): wherever ``expert`` plays hard's values (heads-up on stacks its
    table was not solved for, which is a game's every hand after the first chip moves, and the
    other presets), a blind raiser's bets after looking narrow its range as anyone's do, and
    only the players the opponent model marks are read as gamblers. Heads-up over whole games
    against ``blind_presser`` it turned an even game into a win (docs/bots.md, section 8,
    "Heads-up off the table, the guard's reading"); against every player who never raises
    blind and then looks it plays exactly as before."""
    exploits = True
    """Leave the table for hard's values against an opponent the model shows to be exploitable."""

    table = True
    """Play the solved heads-up table where it reaches (on since the 800-iteration table, which
    beat the rollout search heads-up; from the first move since the 2,400-iteration one, which
    beats hard's values against a blind player too: docs/bots.md, section 8)."""
    search: Rollouts | None = Rollouts()
    """Where the table does not reach: hard's move, improved by rollouts (:mod:`.search`)."""

    multiway_level = replace(level, chaal_centre=0.70, raise_centre=0.83)
    """``hard``'s level as the multiway corrections apply to it (three to six seats), but for
    its reading of the others' bets after looking:

    - a player who raised blind is not taken for a gambler, so its moves after looking narrow
      its range as anyone's do (the guard: against a blind presser, who raises blind while the
      others are blind, then looks and plays its cards tightly, ``hard``'s gambler reading paid
      its later raises with middling hands); players the opponent model marks, from earlier
      hands, as betting on anything are still read as gamblers (``gambler_floor``, ``hard``'s
      0.6);
    - a seen chaal's range steps up at 0.70 and a seen raise's at 0.83 (``hard``'s: 0.6 and
      0.78), about where ``expert``'s own start: at three, four and six seats the 10th
      percentile of the hands ``expert`` chaals with after looking, at a stake of one or two
      boots, is 0.70-0.75, of those it raises with at four and six seats 0.78-0.88 (at three
      its raises hold its bluffs; ``bench/ranges.py``). ``hard``'s centres read a player who
      bets as ``expert`` does as weaker than it is, and paid its bets off with hands that lose
      to them (docs/bots.md, section 8)."""

    multiway = True
    """At three to six seats of our table's betting: hard's move (read as
    :attr:`multiway_level` reads), or the move the rollout search was found offline to prefer
    in its information set (``solver.distill``), in place of the search itself; at five and six
    seats a raise into a lone seen player while others are blind is a chaal
    (:func:`_chaal_not_raise`)."""

    endgame = True
    """At three to six seats of our table, once the hand has come down to two players who were
    both blind: the heads-up game from there, solved (:mod:`~teenpatti.bots.solver.endgame`),
    where a table is shipped for the point it came down at, solved on full stacks or on a
    stack within 10 boots of the shorter of the two
    (:func:`~teenpatti.bots.solver.endgame.for_stack`); the opponent model's marks leave it
    as they leave the heads-up table."""

    respond = True
    """In hands dealt to :data:`~teenpatti.bots.solver.distill.RESPONSE_SEATS`: the move after
    the first corrections, or the second layer's (``solver/data/multiway_response.npz``):
    what the strongest exploiter was found to play instead in its information set when every
    other seat is ``expert`` (the next round of the response loop, ``distill --respond``)."""

    def decide(self, view: HandView) -> Action:
        """A move drawn from the solved table, or hard's move improved by the rollout search
        (or by its offline table of corrections, at three to six seats of our table) where the
        table does not reach."""
        action = self._from_table(view) if self.table else None
        if action is not None:
            return action
        dealt = _dealt(view)
        if self.multiway and dealt >= 3 and multiway_applies(view.rules):
            if self.endgame:
                solved = self._from_endgame(view)
                if solved is not None:
                    return solved
            if dealt in self.blueprint_seats:
                drawn = self._from_blueprint(view, blueprint_path(dealt))
                if drawn is not None:
                    return drawn
            which = SEAT_TABLES.get(dealt, "seen")
            corrections = load_corrections(which)
            if corrections is not None:
                move = self._corrected(view, corrections, which != "seen")
                if dealt >= CHAAL_NOT_RAISE_FROM and not (
                    self.exploits and self._exploitable(view)
                ):
                    move = _chaal_not_raise(view, move)
                return self._responded(view, move) if dealt in RESPONSE_SEATS else move
        base = super().decide(view)
        if self.search is None or view.actor != view.viewer or _blind_opponent(view):
            return base
        return self.search.choose(view, self.rng, base, self.gamblers())

    blueprint_seats: frozenset[int] = BLUEPRINT_SEATS
    """The table sizes whose hands are played from the multiway blueprint
    (:func:`~teenpatti.bots.solver.multiway.load_blueprint`), where it reaches."""

    def _from_blueprint(self, view: HandView, path: Path) -> Action | None:
        """A move drawn from the blueprint's row for the viewer's information set (an answer to
        a side show included), or ``None`` where it has no row, offers none of the legal moves,
        or the opponent model marks somebody."""
        seat = view.viewer
        if seat is None or view.actor != seat:
            return None
        policy = load_blueprint(path)
        if policy is None:
            return None
        key = multiway_key(view)
        if key is None or (self.exploits and self._exploitable(view)):
            return None
        legal = {a.kind: a for a in view.legal_actions}
        row = policy[key]
        chosen = self._drawn(row, _MULTIWAY_KINDS, legal)
        return None if chosen is None else legal[chosen].action(seat)

    def _exploitable(self, view: HandView) -> bool:
        """Whether the other player still in has shown, in earlier hands at this table, that it
        bets on anything or never packs to a raise, or, while it is blind, that it never looks
        (:mod:`teenpatti.bots.model`): the solved strategy is safe against anyone, but hard's
        values win far more from such a player."""
        model = self.model
        gamblers = model.loose_seats()
        return any(
            s.seat in gamblers
            or model.never_packs(s.seat)
            or (not s.seen and model.never_looks(s.seat))
            for s in view.seats
            if s.dealt and not s.packed and s.seat != view.viewer
        )

    def _from_table(self, view: HandView) -> Action | None:
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        if view.to_act != seat or view.side_show is not None:
            return None
        table = table_for(view.rules)
        if table is None:
            return None
        found = public_state(view, table.chips)
        if found is None:
            return None
        state, _ = found
        if self.exploits and self._exploitable(view):
            return None  # a gambler, a player who never packs or never looks: hard's values
        return self._table_move(view, table, state)

    def _from_endgame(self, view: HandView) -> Action | None:
        """A move drawn from the solved endgame of the hand's two blind players
        (:mod:`~teenpatti.bots.solver.endgame`), or ``None`` where the hand did not come down
        to two blind players, no endgame is shipped for where it did on a stack near the
        shorter of the two (:func:`~teenpatti.bots.solver.endgame.for_stack`), or the opponent
        model marks the other player."""
        seat = view.viewer
        if seat is None or view.to_act != seat or view.side_show is not None:
            return None
        found = locate(view)
        if found is None:
            return None
        root, state, _ = found
        table = for_stack(root, shorter_stack(view))
        if table is None:
            return None
        if self.exploits and self._exploitable(view):
            return None
        return self._table_move(view, table, state)

    def _table_move(self, view: HandView, table: Table, state: State) -> Action | None:
        """A move drawn from ``table``'s row of ``state`` for the viewer's bucket, or ``None``
        where the table has no such row or it offers none of the legal moves."""
        seat = view.viewer
        assert seat is not None
        row = table.row(state)
        if row is None:
            return None
        you = view.seats[seat]
        bucket = 0
        if you.seen:
            if you.cards is None:
                return None
            u = heads_up_equity(you.cards, view.rules.ranking, view.wild)
            bucket = bucket_of(u, table.edges)
        legal = {a.kind: a for a in view.legal_actions}
        weights = as_legal_bets(table.policy[row, :, bucket], legal)
        chosen = self._drawn(weights, _KINDS, legal)
        if chosen is None:
            return None
        option = legal[chosen]
        return option.action(seat, option.cost if option.max_cost > option.cost else None)

    def _drawn(
        self,
        weights: npt.NDArray[np.integer[Any]] | Sequence[int],
        kinds: tuple[ActionKind, ...],
        legal: dict[ActionKind, LegalAction],
    ) -> ActionKind | None:
        """One move drawn from a stored row (``weights[i]`` for ``kinds[i]``) among the legal
        ones, or ``None`` when the row offers none of them."""
        choices = [(int(w), k) for w, k in zip(weights, kinds, strict=True) if w and k in legal]
        total = sum(w for w, _ in choices)
        if total <= 0:
            return None
        pick = self.rng.random() * total
        for w, kind in choices:
            pick -= w
            if pick < 0:
                return kind
        return choices[-1][1]

    def _corrected(
        self,
        view: HandView,
        corrections: npt.NDArray[np.int8],
        everywhere: bool,
    ) -> Action:
        """Hard's move (read as :attr:`multiway_level` reads), or the correction learnt for it
        where the table's search ran (every decision with ``everywhere``, else where every other
        player still in has seen) and the opponent model marks nobody."""
        self.level = self.multiway_level
        try:
            base = super().decide(view)
        finally:
            del self.level
        seat = view.viewer
        if seat is None or view.actor != seat or view.side_show is not None:
            return base
        if base.kind not in _MULTIWAY_KINDS:
            return base
        if not everywhere and _blind_opponent(view):
            return base
        return self._looked_up(view, corrections, base)

    def _responded(self, view: HandView, move: Action) -> Action:
        """``move``, or the second layer's move for it in its information set (an answer to a
        side show included), unless the opponent model marks somebody."""
        seat = view.viewer
        if not self.respond or seat is None or view.actor != seat:
            return move
        if move.kind not in _MULTIWAY_KINDS:
            return move
        table = load_corrections("response")
        return move if table is None else self._looked_up(view, table, move)

    def _looked_up(self, view: HandView, table: npt.NDArray[np.int8], move: Action) -> Action:
        """``move``, or the move ``table`` names for it in the viewer's information set (where
        it names one and offers it), unless the opponent model marks somebody."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        key = multiway_key(view)
        if key is None or (self.exploits and self._exploitable(view)):
            return move
        other = int(table[key, _MULTIWAY_KINDS.index(move.kind)])
        if other < 0:
            return move
        option = {a.kind: a for a in view.legal_actions}.get(_MULTIWAY_KINDS[other])
        return move if option is None else option.action(seat)
