"""The strategy the built-in computer players share, tuned by a :class:`Level` per difficulty.

Everything here works from the seat's :class:`~teenpatti.engine.view.HandView` alone: the bot's
own cards once it has seen them, the public actions, the chips and the legal actions with their
costs. Hands are measured on one scale, ``u``: a hand's exact share of the pot against one random
hand from the cards left (:func:`teenpatti.odds.heads_up_equity`), which is close to its
percentile and is uniform for a random hand. That makes every ranking and variant (muflis, wild
cards, ``a23``, ``suits_break_ties``) the same problem.

**Ranges.** Each opponent still in is a weight over 32 bins of ``u`` (uniform = a random hand).
A blind player's moves say nothing about its cards. With ``Level.reads`` the moves an opponent made
after seeing narrow its range by a likelihood, a logistic step in ``u`` with a floor for bluffs:
one per player, the strongest its moves call for (a seen chaal, placed higher the higher the
stake; a seen raise; a side show asked or accepted), since a player's moves are not independent
evidence. Winning an accepted side show multiplies in the chance of beating the range of the
player knocked out. A player who raised blind is a gambler: its floor is raised, so its moves say
less. Without ``reads`` (medium) a seen player who stays is just taken to hold a hand above a
line that rises with the stake. The chance that a hand of ``u`` is best is the product over the
opponents of ``P(their u < u)`` (for random hands the product is within 0.1 percentage point of
the exact count with two opponents).

**Values.** A move is worth its expected chips from now on (packing is 0). A chaal pays ``c`` now
and, on a horizon of ``R`` rounds (cut short by the pot limit), ``R * c`` in all, while the others
put in their chaals as long as they stay; the bot then takes the pot with its chance ``e`` of
holding the best hand: ``e * (pot + R * T) - R * c``. A raise doubles both streams (worth it when
``e`` beats the bot's share ``c / T`` of what goes in). A show is ``p * (pot + cost) - cost``. A
side show knocks out the asked player with the chance of beating it, else the bot is out. A blind
bot compares staying blind (cheaper chaals) with seeing now and acting on what it finds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise
from operator import mul

from ..engine.actions import Action, ActionKind, LegalAction
from ..engine.prices import can_raise, chaal_cost, max_chaal, raise_cost, show_cost
from ..engine.rules import Bets, Rules
from ..engine.view import HandView
from ..odds import heads_up_equity
from .base import Bot

__all__ = ["GRID", "Level", "Reading", "StrategyBot", "read", "seen_bet_centre"]

BINS = 32
GRID: tuple[float, ...] = tuple((i + 0.5) / BINS for i in range(BINS))
"""The centres of the bins of ``u`` that ranges are kept on."""
_UNIFORM: tuple[float, ...] = (1.0,) * BINS


def _likelihood(centre: float, width: float, floor: float) -> tuple[float, ...]:
    """``P(move | u)``: a logistic step up at ``centre``, never below ``floor`` (bluffs)."""
    return tuple(floor + (1 - floor) / (1 + math.exp(-(u - centre) / width)) for u in GRID)


@dataclass(frozen=True, slots=True)
class Level:
    """The knobs that make one difficulty."""

    name: str
    reads: bool
    """Narrow each opponent's range by what it did after seeing (else: coarse steps only)."""
    horizon: float
    """Rounds of chaals a continuing hand is expected to pay for (``R``)."""
    blind_ev: bool
    """Decide when to see by comparing values; else see after ``blind_turns`` blind turns."""
    blind_turns: int
    """Most blind turns before seeing (also a cap under ``blind_ev``)."""
    blind_bonus: float
    """Extra value (in stakes) put on staying blind (cheaper chaals, nothing given away)."""
    side_shows: bool
    """Ask for side shows when they are worth it (else never)."""
    bluff: float
    """Chance of betting on a hand it would pack, when that can make seen players pack."""
    chaal_centre: float = 0.5
    """Where the likelihood of a seen chaal steps up (on the ``u`` scale)."""
    raise_centre: float = 0.72
    """Where the likelihood of a seen raise (or a chaal above the least) steps up."""
    coarse_raise: float = 0.4
    """Without ``reads``: the lower edge of the range of a seen player who raised."""
    ask_centre: float = 0.6
    """Where the likelihood of asking for a side show steps up."""
    accept_centre: float = 0.65
    """Where the likelihood of accepting a side show steps up."""
    stake_step: float = 0.03
    """How much higher the line of a seen chaal is for every doubling of the stake."""
    width: float = 0.045
    """How sharp the likelihood steps are."""
    floor: float = 0.06
    """The least likelihood of any move (room for bluffs and mistakes)."""
    loose_floor: float = 0.06
    """The floor for a player who raised blind (a gambler whose moves say less)."""
    gambler_floor: float | None = None
    """The floor for a seat the opponent model marks as a gambler (known from earlier hands to
    bet on anything; ``None``: ``loose_floor``, as for a player who raised blind)."""
    seen_stay: float = 0.75
    """Chance a seen opponent pays its next chaal."""
    blind_stay: float = 0.95
    """Chance a blind opponent pays its next chaal (blind players do not pack on their cards)."""
    to_limit: bool = False
    """Against blind opponents only, value a continuing hand to the pot limit (or to the chips
    behind), not ``horizon`` rounds: a blind player's cards do not change what it does, so the
    hand goes on until the limit, and seeing early against blind chaals pays."""


@dataclass(slots=True)
class Opponent:
    """One opponent still in, as the bot reads it."""

    seat: int
    seen: bool
    cdf: tuple[float, ...]
    """Cumulative weights, normalised: ``cdf[i]`` is the share of the range below bin ``i``."""
    at_grid: tuple[float, ...]
    """:meth:`below` at each point of :data:`GRID` (the middle of each bin)."""

    def below(self, u: float) -> float:
        """The chance that this opponent's hand is worse than a hand of ``u``."""
        if u <= 0.0:
            return 0.0
        if u >= 1.0:
            return 1.0
        pos = u * BINS
        i = int(pos)
        lo = self.cdf[i]
        return lo + (self.cdf[i + 1] - lo) * (pos - i)


@lru_cache(maxsize=4096)
def _cumulative(weights: tuple[float, ...]) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """The normalised cumulative weights of a range and their values at the grid's points
    (a few ranges come up again and again: the uniform one, one likelihood per move)."""
    total = sum(weights)
    cdf = [0.0] * (BINS + 1)
    run = 0.0
    for i, w in enumerate(weights):
        run += w
        cdf[i + 1] = run / total
    # below(GRID[i]) exactly: GRID[i] * BINS is i + 0.5 with no rounding, so the step is 0.5
    at_grid = tuple(lo + (hi - lo) * 0.5 for lo, hi in pairwise(cdf))
    return tuple(cdf), at_grid


_UNIFORM_RANGE = _cumulative(_UNIFORM)
"""The range of a player whose moves said nothing (a random hand)."""


@dataclass(slots=True)
class Reading:
    """What the bot makes of its view: the numbers its decision needs."""

    seat: int
    seen: bool
    u: float | None
    """The bot's own hand on the ``u`` scale, once seen."""
    pot: int
    stake: int
    boot: int
    chips: int
    pot_limit: int | None
    opponents: list[Opponent]
    legal: dict[ActionKind, LegalAction]
    rules: Rules
    seen_stay: float = 0.75
    """Chance a seen opponent pays its next chaal."""
    blind_stay: float = 0.95
    """Chance a blind opponent pays its next chaal."""
    matched: int = 0
    """What an all in now could win: every seat's chips in, each counted up to the bot's own
    total once all in (the rest is a side pot the bot has no share of, or is handed back)."""
    chances: list[float] | None = None
    """:meth:`grid_chances`, once worked out (the opponents do not change with the prices)."""
    bet_made: bool = False
    """Whether a chaal, raise, all in or side show has been paid this hand (``show_after_bet``)."""

    def grid_chances(self) -> list[float]:
        """:meth:`best_chance` at each point of :data:`GRID` (worked out once per reading)."""
        if self.chances is None:
            # bin by bin, the product of the opponents' columns in their order (1.0 * x is x)
            chances = list(_UNIFORM)
            for o in self.opponents:
                chances = list(map(mul, chances, o.at_grid))
            self.chances = chances
        return self.chances

    def best_chance(self, u: float, without: int | None = None) -> float:
        """The chance that a hand of ``u`` beats every opponent (but ``without``)."""
        p = 1.0
        for o in self.opponents:
            if o.seat != without:
                p *= o.below(u)
        return p

    def others_put(self, without: int | None = None) -> float:
        """What the opponents are expected to put in per round."""
        total = 0.0
        stake = self.stake
        for o in self.opponents:
            if o.seat != without:
                total += stake * 2 * self.seen_stay if o.seen else stake * self.blind_stay
        return total

    @property
    def all_blind(self) -> bool:
        """Every opponent still in is blind."""
        return all(not o.seen for o in self.opponents)


def _apply(weights: list[float], like: Sequence[float]) -> None:
    for i, x in enumerate(like):
        weights[i] *= x


def read(view: HandView, level: Level, gamblers: frozenset[int] = frozenset()) -> Reading:
    """Turn ``view`` into a :class:`Reading` for ``level``: ranges from the public actions.

    ``gamblers`` are seats known from earlier hands to bet on anything (see
    :mod:`teenpatti.bots.model`): their moves narrow their ranges as little as a blind raiser's.
    """
    me = view.viewer
    assert me is not None, "a spectator does not act"
    rules = view.rules
    seats = view.seats
    you = seats[me]
    u: float | None = None
    if you.seen and you.cards is not None:
        dead = [c for s in seats if s.seat != me and s.cards for c in s.cards]
        u = heads_up_equity(you.cards, rules.ranking, view.wild, dead)
    centre, beaten, loose = _read_actions(view, level)
    opponents = [
        Opponent(
            s.seat,
            s.seen,
            *_range(
                level, centre.get(s.seat), beaten.get(s.seat), s.seat in loose, s.seat in gamblers
            ),
        )
        for s in seats
        if s.dealt and not s.packed and s.seat != me
    ]
    top = you.put_in + you.chips
    matched = top
    for s in seats:
        if s.seat != me:
            matched += s.put_in if s.put_in < top else top
    return Reading(
        seat=me,
        seen=you.seen,
        u=u,
        pot=view.pot,
        stake=view.stake,
        boot=view.boot,
        chips=you.chips,
        pot_limit=rules.pot_limit,
        opponents=opponents,
        legal={a.kind: a for a in view.legal_actions},
        rules=rules,
        seen_stay=level.seen_stay,
        blind_stay=level.blind_stay,
        matched=matched,
        bet_made=any(x.kind in _BETS for x in view.actions),
    )


_LIKE_CACHE: dict[tuple[float, float, float], tuple[float, ...]] = {}


def _like(centre: float, width: float, floor: float) -> tuple[float, ...]:
    key = (centre, width, floor)
    out = _LIKE_CACHE.get(key)
    if out is None:
        out = _LIKE_CACHE[key] = _likelihood(centre, width, floor)
    return out


def seen_bet_centre(level: Level, raised: bool, stake: int) -> float:
    """Where ``level``'s reading steps a range up for a bet made after looking with the stake at
    ``stake`` boots before it: from ``raise_centre`` for a raise (or a chaal above the least),
    from ``chaal_centre`` for a chaal or an all in (without ``reads``, the coarse edges), higher
    by ``stake_step`` for every doubling of the stake.

    >>> from teenpatti.bots.hard import HARD
    >>> round(seen_bet_centre(HARD, True, 4), 2), round(seen_bet_centre(HARD, False, 1), 2)
    (0.88, 0.6)
    """
    if level.reads:
        at = level.raise_centre if raised else level.chaal_centre
    else:
        at = level.coarse_raise if raised else _COARSE
    return at + level.stake_step * max(0, stake.bit_length() - 1)


def _read_actions(
    view: HandView, level: Level
) -> tuple[dict[int, float], dict[int, list[Sequence[float]]], set[int]]:
    """What the moves made after seeing say about each player: the centre of the one likelihood
    its range takes, the ranges it beat in accepted side shows, and whether it raised blind.

    A player's moves are not independent evidence (most players stay while the hand is above a
    line of their own), so each player's range takes one likelihood, the strongest its moves
    call for: a seen chaal, stronger the higher the stake; a raise; a side show asked or
    accepted. Winning an accepted side show then multiplies in the chance of beating the range
    of the player knocked out. The stake before each move and a side show's loser are read from
    the public log (:attr:`HandView.outcomes`).
    """
    boot = view.boot
    stake = boot
    seen: set[int] = set()
    centre: dict[int, float] = {}
    beaten: dict[int, list[Sequence[float]]] = {}
    loose: set[int] = set()
    """Players who raised blind: gamblers, whose later moves say less about their cards."""
    reads = level.reads
    see, chaal, raise_, allin = ActionKind.SEE, ActionKind.CHAAL, ActionKind.RAISE, ActionKind.ALLIN
    pack, sideshow, accept = ActionKind.PACK, ActionKind.SIDESHOW, ActionKind.ACCEPT
    asker: int | None = None
    for a, outcome in zip(view.actions, view.outcomes, strict=True):
        kind, seat = a.kind, a.seat
        before, stake = stake, outcome.stake
        if kind is see:
            seen.add(seat)
            continue
        if kind is pack:
            continue
        is_seen = seat in seen
        c: float
        if kind is chaal:
            if is_seen:
                c = seen_bet_centre(level, outcome.paid > before * 2, before // boot)
            else:
                if outcome.paid > before:
                    loose.add(seat)
                continue
        elif kind is raise_:
            if not is_seen:
                loose.add(seat)
                continue
            c = seen_bet_centre(level, True, before // boot)
        elif kind is allin:
            if not is_seen:
                continue
            c = seen_bet_centre(level, False, before // boot)
        elif kind is sideshow:
            c = level.ask_centre if reads else _COARSE
            asker = seat
        elif kind is accept:
            c = level.accept_centre if reads else _COARSE
            if c > centre.get(seat, -1.0):
                centre[seat] = c
            loser = outcome.loser
            if asker is not None and loser is not None and reads:
                winner = seat if loser == asker else asker
                # the chance of beating the loser's range at each point of the grid
                lost = _range(level, centre.get(loser), beaten.get(loser), loser in loose)
                beaten.setdefault(winner, []).append(lost[1])
            asker = None
            continue
        else:  # a show (the hand ends) or a declined side show
            if kind is ActionKind.DECLINE:
                asker = None
            continue
        if c > centre.get(seat, -1.0):
            centre[seat] = c
    return centre, beaten, loose


_COARSE = 0.4
"""Where the coarse reading (``Level.reads`` false) puts the lower edge of a seen stayer's range."""

_Range = tuple[tuple[float, ...], tuple[float, ...]]
_RANGES: dict[tuple[float, float, float], _Range] = {}
"""The ranges of one likelihood each, by its ``(centre, width, floor)``: a handful come up."""


def _range(
    level: Level,
    centre: float | None,
    beaten: list[Sequence[float]] | None,
    loose: bool = False,
    gambler: bool = False,
) -> _Range:
    """A player's range as ``(cdf, at_grid)`` (see :class:`Opponent`): one likelihood at
    ``centre`` (uniform without one), times the chance of beating each range in ``beaten``; its
    floor is ``level.gambler_floor`` for a ``gambler`` the opponent model marks (when set),
    ``level.loose_floor`` for a ``loose`` player who raised blind, else ``level.floor``."""
    if centre is None:
        if not beaten:
            return _UNIFORM_RANGE
        return _cumulative(_beaten(list(_UNIFORM), beaten))
    if level.reads:
        if gambler and level.gambler_floor is not None:
            floor = level.gambler_floor
        else:
            floor = level.loose_floor if loose or gambler else level.floor
        key = (min(centre, 0.97), level.width, floor)
    else:
        key = (centre, 0.01, 0.0)
    if beaten:
        return _cumulative(_beaten(list(_like(*key)), beaten))
    out = _RANGES.get(key)
    if out is None:
        out = _RANGES[key] = _cumulative(_like(*key))
    return out


def _beaten(weights: list[float], beaten: list[Sequence[float]]) -> tuple[float, ...]:
    for factor in beaten:
        _apply(weights, factor)
    return tuple(weights)


_PACK = LegalAction(ActionKind.PACK)
_BETS = frozenset((ActionKind.CHAAL, ActionKind.RAISE, ActionKind.ALLIN, ActionKind.SIDESHOW))


def _as_seen(r: Reading, pot: int, chips: int) -> Reading:
    """The position of a blind bot once it has seen: the same table at the engine's seen prices
    (:mod:`teenpatti.engine.prices`: a chaal and a raise cost double, a show as the rules price
    it against the other player, or none where a seen player may not ask a blind one); no side
    show counted."""
    rules, stake = r.rules, r.stake
    legal: dict[ActionKind, LegalAction] = {ActionKind.PACK: _PACK}
    chaal = chaal_cost(stake, True)
    if chaal <= chips:
        most = max_chaal(rules, stake, True) if rules.bets is Bets.RANGE else chaal
        legal[ActionKind.CHAAL] = LegalAction(ActionKind.CHAAL, chaal, min(most, chips))
    raised = raise_cost(stake, True)
    if can_raise(rules, stake) and raised <= chips:
        legal[ActionKind.RAISE] = LegalAction(ActionKind.RAISE, raised, raised)
    if len(r.opponents) == 1 and (r.bet_made or not rules.show_after_bet):
        show = show_cost(rules, stake, True, r.opponents[0].seen)
        if show is not None and show <= chips:
            legal[ActionKind.SHOW] = LegalAction(ActionKind.SHOW, show, show)
    r.grid_chances()  # worked out once, shared by every seen position made from ``r``
    return Reading(
        r.seat,
        True,
        r.u,
        pot,
        r.stake,
        r.boot,
        chips,
        r.pot_limit,
        r.opponents,
        legal,
        r.rules,
        r.seen_stay,
        r.blind_stay,
        r.matched,
        r.chances,
        r.bet_made,
    )


# ---------------------------------------------------------------------------------- values
def chaal_value(
    e: float,
    pot: float,
    cost: float,
    others: float,
    horizon: float,
    pot_limit: int | None,
    chips: float | None = None,
) -> float:
    """Expected chips from paying ``cost`` a round for up to ``horizon`` rounds while the others
    put in ``others`` a round, then holding the best hand with chance ``e``. The rounds stop at
    the pot limit and, given ``chips``, when the bot's chips run out (then it is all in and can
    win only what it matched).

    >>> round(chaal_value(0.5, 20, 10, 10, 2.0, 1000), 6)
    10.0
    """
    won, paid = chaal_line(pot, cost, others, horizon, pot_limit, chips)
    return e * won - paid


def chaal_line(
    pot: float,
    cost: float,
    others: float,
    horizon: float,
    pot_limit: int | None,
    chips: float | None = None,
) -> tuple[float, float]:
    """:func:`chaal_value` as a line in ``e``: ``(won, paid)`` with value ``e * won - paid``
    (nothing else in it depends on the bot's hand, so it is worked out once per position)."""
    if pot_limit is not None and pot + cost >= pot_limit:
        return pot + cost, cost  # this payment ends the betting: everyone shows
    per_round = cost + others
    rounds = horizon
    if pot_limit is not None:
        rounds = max(1.0, min(horizon, (pot_limit - pot) / per_round))
    if chips is not None and cost > 0:
        rounds = max(1.0, min(rounds, chips / cost))
    return pot + rounds * per_round, rounds * cost


_TO_THE_END = 1e9
"""A horizon that lasts until the pot limit or the chips behind end the hand."""


def show_value(p: float, pot: float, cost: float) -> float:
    """Expected chips from paying ``cost`` for a show won with chance ``p``."""
    won, paid = show_line(pot, cost)
    return p * won - paid


def show_line(pot: float, cost: float) -> tuple[float, float]:
    """:func:`show_value` as a line in ``p``: ``(won, paid)``."""
    return pot + cost, cost


class StrategyBot(Bot):
    """A computer player that plays by :class:`Level`; subclasses set ``level``."""

    level: Level

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.name = self.level.name

    def gamblers(self) -> frozenset[int]:
        """Seats known from earlier hands to bet on anything (none: this level does not learn
        across hands; :class:`~teenpatti.bots.hard.HardBot` does)."""
        return frozenset()

    def bluffable(self, seat: int) -> bool:
        """Whether a bluff may make ``seat`` pack, as far as earlier hands tell (yes here)."""
        return True

    # ---------------------------------------------------------------- entry point
    def decide(self, view: HandView) -> Action:
        """The move for ``view.viewer``: always one of ``view.legal_actions``."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        legal = {a.kind: a for a in view.legal_actions}
        if not legal:
            raise ValueError("nothing to decide: the seat has no legal action")
        if ActionKind.ACCEPT in legal:
            return self._answer(view, legal)
        you = view.seats[seat]
        if not you.seen and ActionKind.SEE in legal and not self._other_than_see_pack(legal):
            return legal[ActionKind.SEE].action(seat)  # the blind-turn limit: look (then decide)
        if view.to_act != seat:  # asked while it is not our turn: only "see" can be offered
            return view.legal_actions[0].action(seat)
        if not you.seen and not self.level.blind_ev:
            return self._blind_by_turns(view, legal)
        reading = read(view, self.level, self.gamblers())
        if not you.seen:
            return self._blind(view, reading)
        return self._seen(view, reading)

    def _blind_by_turns(self, view: HandView, legal: dict[ActionKind, LegalAction]) -> Action:
        """:meth:`_blind` without ``Level.blind_ev``, which reads nothing of the others: see
        after ``Level.blind_turns`` blind turns or under pressure, else a blind chaal (the same
        moves, without working out a :class:`Reading` it would not look at)."""
        seat = view.viewer
        assert seat is not None
        if view.seats[seat].blind_turns >= self.level.blind_turns or view.stake >= 4 * view.boot:
            return legal[ActionKind.SEE].action(seat)  # (_pressure: the stake is 4 boots)
        chaal = legal.get(ActionKind.CHAAL)
        if chaal is not None:  # (as _act plays it)
            return chaal.action(seat, chaal.cost if chaal.max_cost > chaal.cost else None, None)
        return legal[ActionKind.SEE].action(seat)

    @staticmethod
    def _other_than_see_pack(legal: dict[ActionKind, LegalAction]) -> bool:
        return any(k not in (ActionKind.SEE, ActionKind.PACK) for k in legal)

    def _horizon(self, r: Reading) -> float:
        """Rounds a continuing hand is valued over: to the end against blind opponents under
        ``Level.to_limit`` (a war of attrition: blind players do not pack on their cards),
        else ``Level.horizon``."""
        if self.level.to_limit and r.all_blind and (r.pot_limit is not None or r.chips > 0):
            return _TO_THE_END
        return self.level.horizon

    # ---------------------------------------------------------------- seen
    def _seen_lines(self, r: Reading) -> dict[ActionKind, tuple[float, float]]:
        """Every move open to a seen hand but packing and the side show, as a line in the
        chance ``e`` of holding the best hand: ``(won, paid)``, worth ``e * won - paid``."""
        legal = r.legal
        pot = r.pot
        others = r.others_put()
        lines: dict[ActionKind, tuple[float, float]] = {}
        horizon = self._horizon(r)
        chaal = legal.get(ActionKind.CHAAL)
        if chaal is not None:
            lines[ActionKind.CHAAL] = chaal_line(
                pot, chaal.cost, others, horizon, r.pot_limit, r.chips
            )
        raise_ = legal.get(ActionKind.RAISE)
        if raise_ is not None:
            lines[ActionKind.RAISE] = chaal_line(
                pot, raise_.cost, others * 2, horizon, r.pot_limit, r.chips
            )
        show = legal.get(ActionKind.SHOW)
        if show is not None:
            lines[ActionKind.SHOW] = show_line(pot, show.cost)
        allin = legal.get(ActionKind.ALLIN)
        if allin is not None:
            lines[ActionKind.ALLIN] = show_line(r.matched - allin.cost, allin.cost)
        return lines

    def _seen_options(self, r: Reading, u: float) -> dict[ActionKind, float]:
        """The value of every move open to a seen hand of ``u``."""
        e = r.best_chance(u)
        values: dict[ActionKind, float] = {ActionKind.PACK: 0.0}
        for kind, (won, paid) in self._seen_lines(r).items():
            values[kind] = e * won - paid
        side = r.legal.get(ActionKind.SIDESHOW)
        if side is not None and self.level.side_shows:
            values[ActionKind.SIDESHOW] = self._side_show_value(r, u, side, e, r.others_put())
        return values

    def _side_show_value(
        self, r: Reading, u: float, side: LegalAction, e: float, others: float
    ) -> float:
        level = self.level
        c = side.cost
        target = self._side_show_target(r, u, side)
        opp = next(o for o in r.opponents if o.seat == target)
        p = opp.below(u)
        e_after = r.best_chance(u, without=target)
        others_after = r.others_put(without=target)
        stay = chaal_value(e, r.pot, c, others, level.horizon, r.pot_limit)
        after = chaal_value(e_after, r.pot + c, c, others_after, level.horizon - 1, r.pot_limit)
        accept = 0.6
        knocked = p * max(0.0, after) - c
        return accept * knocked + (1 - accept) * stay

    @staticmethod
    def _side_show_target(r: Reading, u: float, side: LegalAction) -> int:
        """The target we beat most often (the only one, under ``previous``)."""
        if len(side.targets) == 1:
            return side.targets[0]
        by_seat = {o.seat: o for o in r.opponents}
        return max(side.targets, key=lambda t: by_seat[t].below(u) if t in by_seat else -1.0)

    def _seen(self, view: HandView, r: Reading) -> Action:
        assert r.u is not None
        values = self._seen_options(r, r.u)
        kind = max(values, key=values.__getitem__)
        if (
            kind is ActionKind.PACK
            and self.level.bluff > 0
            and self._may_bluff(r)
            and self.rng.random() < self.level.bluff
        ):
            kind = ActionKind.RAISE if ActionKind.RAISE in r.legal else ActionKind.CHAAL
        return self._act(view, r, kind)

    def _may_bluff(self, r: Reading) -> bool:
        """A bluff can work only when every opponent has seen (a blind player never packs on
        its cards) and it costs little next to the chips behind."""
        if ActionKind.CHAAL not in r.legal or not r.opponents:
            return False
        if not all(o.seen and self.bluffable(o.seat) for o in r.opponents):
            return False
        return r.legal[ActionKind.CHAAL].cost * 8 <= r.chips

    # ---------------------------------------------------------------- blind
    def _blind(self, view: HandView, r: Reading) -> Action:
        level = self.level
        legal = r.legal
        seat = r.seat
        you = view.seats[seat]
        if not level.blind_ev:
            if you.blind_turns >= level.blind_turns or self._pressure(r):
                return legal[ActionKind.SEE].action(seat)
            if ActionKind.CHAAL in legal:
                return self._act(view, r, ActionKind.CHAAL)
            return legal[ActionKind.SEE].action(seat)
        if you.blind_turns >= level.blind_turns and ActionKind.SEE in legal:
            return legal[ActionKind.SEE].action(seat)
        # Seeing now: the best seen move for each hand we may hold, averaged over the hands.
        see_value = self._look_value(_as_seen(r, r.pot, r.chips))
        # Staying blind: the chance that a random hand is best.
        e = sum(r.grid_chances()) / BINS
        others = r.others_put()
        bonus = level.blind_bonus * r.stake
        horizon = self._horizon(r)
        best_kind = ActionKind.SEE
        best = see_value
        chaal = legal.get(ActionKind.CHAAL)
        if chaal is not None:
            c = chaal.cost
            v = chaal_value(e, r.pot, c, others, horizon, r.pot_limit, r.chips) + bonus
            # or pay blind now and see next round, with the others' chaals in the pot
            later = r.pot + c + others
            if r.pot_limit is None or later < r.pot_limit:
                nxt = _as_seen(r, int(later), r.chips - c)
                nxt.legal.pop(ActionKind.SHOW, None)
                v = max(v, self._look_value(nxt) - c + bonus)
            if v > best:
                best_kind, best = ActionKind.CHAAL, v
        raise_ = legal.get(ActionKind.RAISE)
        if raise_ is not None:
            c = raise_.cost
            v = chaal_value(e, r.pot, c, others * 2, horizon, r.pot_limit, r.chips) + bonus
            if v > best:
                best_kind, best = ActionKind.RAISE, v
        show = legal.get(ActionKind.SHOW)
        if show is not None:
            v = show_value(e, r.pot, show.cost)
            if v > best:
                best_kind, best = ActionKind.SHOW, v
        allin = legal.get(ActionKind.ALLIN)
        if allin is not None:
            v = show_value(e, r.matched - allin.cost, allin.cost)
            if v > best:
                best_kind, best = ActionKind.ALLIN, v
        if best_kind is ActionKind.SEE and ActionKind.SEE not in legal:
            best_kind = ActionKind.PACK
        return self._act(view, r, best_kind)

    def _look_value(self, seen: Reading) -> float:
        """The value of seeing: the best seen move for each hand we may find, averaged.

        Each move's value is a line in the chance of holding the best hand, so the lines are
        worked out once and only that chance changes along the grid (the same sums, in the
        same order, as valuing every move at every point with :meth:`_seen_options`).
        """
        if self.level.side_shows and ActionKind.SIDESHOW in seen.legal:
            total = 0.0
            for u in GRID:
                total += max(self._seen_options(seen, u).values())
            return total / BINS
        chances = seen.grid_chances()
        best: Iterable[float] | None = None  # at each point, the best move but packing
        for won, paid in self._seen_lines(seen).values():
            values = [e * won - paid for e in chances]
            best = values if best is None else map(max, best, values)
        total = 0.0
        if best is not None:
            for value in best:
                if value > 0.0:  # else packing (0) is best
                    total += value
        return total / BINS

    @staticmethod
    def _pressure(r: Reading) -> bool:
        """The stake has climbed to four boots or more: time to look."""
        return r.stake >= 4 * r.boot

    # ---------------------------------------------------------------- side show answer
    def _answer(self, view: HandView, legal: dict[ActionKind, LegalAction]) -> Action:
        seat = view.viewer
        assert seat is not None and view.side_show is not None
        asker = view.side_show[0]
        r = read(view, self.level, self.gamblers())
        if r.u is None:  # cannot happen (the asked seat is seen), but never fail
            return legal[ActionKind.DECLINE].action(seat)
        u = r.u
        opp = next((o for o in r.opponents if o.seat == asker), None)
        p = 0.5 if opp is None else opp.below(u)
        stake = r.stake
        cost = 2 * stake
        others = r.others_put()
        stay = max(
            0.0, chaal_value(r.best_chance(u), r.pot, cost, others, self.level.horizon, r.pot_limit)
        )
        after = max(
            0.0,
            chaal_value(
                r.best_chance(u, without=asker),
                r.pot,
                cost,
                r.others_put(without=asker),
                self.level.horizon,
                r.pot_limit,
            ),
        )
        kind = ActionKind.ACCEPT if p * after > stay else ActionKind.DECLINE
        return legal[kind].action(seat)

    # ---------------------------------------------------------------- the move itself
    def _act(self, view: HandView, r: Reading, kind: ActionKind) -> Action:
        seat = r.seat
        option = r.legal.get(kind)
        if option is None:  # the values only name legal moves; fall back to a safe one
            for fallback in (ActionKind.CHAAL, ActionKind.SEE, ActionKind.PACK):
                if fallback in r.legal:
                    option = r.legal[fallback]
                    break
            else:
                option = view.legal_actions[0]
        amount: int | None = None
        target: int | None = None
        if option.kind is ActionKind.CHAAL and option.max_cost > option.cost:
            amount = option.cost
        elif option.kind is ActionKind.SIDESHOW:
            target = self._side_show_target(r, r.u if r.u is not None else 0.5, option)
        return option.action(seat, amount, target)
