"""The game of three to six players at our table, abstracted, and its Monte Carlo CFR solve.

**The game.** Exactly the engine's betting at a ``double`` table whose stacks hold the pot
limit (our table: boot 10, stake cap 8 boots, pot limit 100 boots, 100 boots a stack, so nobody
is ever short of a chaal and there is no all in): every player puts in a boot, the first after
the dealer acts first; a blind player may see (and then acts again), chaal (the stake), raise
(twice that, while the cap allows) or pack; a seen player pays double; with two left a show
(a seen player may not ask a blind one; equal hands lose for the asker), with three or more a
seen player may ask the player before it for a side show if that player has bet and seen (it
costs a seen chaal; the asked player accepts or declines; if it accepts the weaker hand packs,
equal hands knock the asker out). A payment that brings the pot to its limit ends the hand in a
showdown of everyone still in, equal hands splitting. Hands are real cards (dealt from a
shuffled pack, compared by the engine's strength table), so the showdowns are exact. A real
hand is played as this game while every player still in holds 30 % of the pot limit or more
(:func:`deep_enough`: a game's later hands, where the stacks have moved from the start).

**The abstraction.** A player decides on an information set of a few public numbers and its
own hand's bucket (:func:`info_key`): whether it is acting or answering a side show, how many
are still in (2-6), its bucket of ``u`` once seen (8 buckets; blind: none), how many of the
others still in have seen (0, 1, 2 or more), whether the player before it is a side show's
possible target, the stake (1, 2, 4 or 8 boots), the pot in 6 bands, and whether a seen player
has raised since its last move. Everything else (the order of past moves, who sits where) is
forgotten: the abstraction is of imperfect recall, as in the multiway poker solves.

**The solve.** External-sampling Monte Carlo CFR (each iteration deals one hand at a number of
seats drawn from ``--seats``, 3 to 6 by default, and for each player in turn walks every one of
its moves and one sampled move of everyone else; regret matching with regrets floored at zero,
iteration ``t`` weighing ``t`` in the average). A player's own moves are walked in full for its
first :data:`BRANCH_DEPTH` decisions of a hand (long blind hands would otherwise branch out of
reach); after that its sampled move is walked on and each other move is valued by one hand
played out by the current strategies (probing), so its regrets are counted there too (until 7
December they were not: every row met only past the fourth decision, a raise war's or a long
blind hand's, stayed at the uniform strategy).

**A population** (``--population SHARE``): in that share of the hands one seat, drawn at
random, plays one of the fixed styles of :mod:`teenpatti.bots.styles` (:data:`STYLES`, as
:func:`style_move` plays them on buckets) instead of the strategy being solved. The other seats'
regrets are counted against it, so the rows such a player leads to (a seen player's answers to
a blind player who chaals to the pot limit, which the solved strategy alone never reaches) are
trained, and against it too; the style's own moves teach nothing.

``--out PATH`` writes every information set's average strategy as bytes: a blueprint
(:func:`load_blueprint`), which ``expert`` plays in hands dealt to :data:`BLUEPRINT_SEATS` from
``solver/data/multiway_blueprintN.npz`` (one is shipped for three seats and not played:
docs/bots.md, section 8).

>>> game = Deal.random(__import__("random").Random(1), 4)
>>> len(game.strength), game.n
(4, 4)
"""

from __future__ import annotations

import argparse
import random
import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt

from ...engine.actions import ActionKind
from ...engine.bulk import strength_array
from ...engine.prices import chaal_cost, raise_cost, side_show_cost
from ...engine.rules import Bets, Rules
from ...engine.view import HandView
from ...odds import heads_up_equity, universe
from .game import bucket_of as cut
from .game import same_betting

__all__ = [
    "EDGES",
    "MOVES",
    "Deal",
    "Play",
    "Solver",
    "info_key",
    "multiway_applies",
    "multiway_key",
]

EDGES: tuple[float, ...] = (0.3, 0.5, 0.65, 0.75, 0.83, 0.9, 0.95)
"""Where the buckets of ``u`` are cut: 8 buckets."""

POT_EDGES: tuple[int, ...] = (8, 16, 28, 45, 70)
"""Where the pot (boots) is cut into 6 bands."""

MOVES: tuple[str, ...] = ("see", "chaal", "raise", "show", "sideshow", "pack", "accept", "decline")
SEE, CHAAL, RAISE, SHOW, SIDESHOW, PACK, ACCEPT, DECLINE = range(8)
NM = len(MOVES)

BRANCH_DEPTH = 4
"""A player's own decisions walked in full in one hand; later ones are sampled."""

CAP = 8
LIMIT = 100
"""Our table's stake cap and pot limit in boots."""

KEYS = 2 * 5 * 9 * 3 * 2 * 4 * 6 * 2
"""How many information sets the key can name."""

FOLDER = Path(__file__).with_name("data")


@lru_cache(maxsize=1)
def _hand_tables() -> tuple[list[int], list[int]]:
    """Each hand's strength and bucket, by ``a * 2916 + b * 54 + c`` of its sorted cards."""
    rules = Rules()
    strength = strength_array(rules.ranking).tolist()
    u = universe(rules.ranking).equities()
    edges = np.array(EDGES)
    bucket = [0] * len(u)
    for a, b, c in combinations(range(52), 3):
        i = a * 2916 + b * 54 + c
        bucket[i] = int(np.searchsorted(edges, u[i], side="right"))
    return strength, bucket


def bucket_of(u: float) -> int:
    """The bucket of a hand of heads-up equity ``u``.

    >>> bucket_of(0.1), bucket_of(0.7), bucket_of(0.99)
    (0, 3, 7)
    """
    return cut(u, EDGES)


def pot_band(pot: int) -> int:
    """The band of a pot of ``pot`` boots.

    >>> pot_band(4), pot_band(20), pot_band(99)
    (0, 2, 5)
    """
    return cut(pot, POT_EDGES)


_BET_KINDS = (ActionKind.CHAAL, ActionKind.RAISE, ActionKind.SIDESHOW, ActionKind.ALLIN)
_STAKES = {1: 0, 2: 1, 4: 2, 8: 3}
_BANDS = [pot_band(p) for p in range(LIMIT)]


def info_key(
    answering: bool,
    n_in: int,
    bucket: int | None,
    others_seen: int,
    target: bool,
    stake: int,
    pot: int,
    raised: bool,
) -> int:
    """The number of an information set (``bucket`` ``None`` while blind).

    >>> info_key(False, 3, None, 0, False, 1, 3, False)
    2592
    """
    k = 1 if answering else 0
    k = k * 5 + (n_in - 2)
    k = k * 9 + (0 if bucket is None else bucket + 1)
    k = k * 3 + min(others_seen, 2)
    k = k * 2 + (1 if target else 0)
    k = k * 4 + _STAKES[stake]
    k = k * 6 + pot_band(pot)
    return k * 2 + (1 if raised else 0)


@dataclass(slots=True)
class Deal:
    """The cards of one hand: each position's strength and bucket (position 0 acts first)."""

    n: int
    strength: list[int]
    bucket: list[int]

    @classmethod
    def random(cls, rng: random.Random, n: int) -> Deal:
        strength, bucket = _hand_tables()
        cards = rng.sample(range(52), 3 * n)
        st, bu = [], []
        for p in range(n):
            a, b, c = sorted(cards[3 * p : 3 * p + 3])
            i = a * 2916 + b * 54 + c
            st.append(strength[i])
            bu.append(bucket[i])
        return cls(n, st, bu)


class Play:
    """The betting of one hand of the abstract game, in boots (mutable; :meth:`copy`)."""

    __slots__ = (
        "asker",
        "bet",
        "decisions",
        "gain",
        "live",
        "n",
        "n_in",
        "pot",
        "put",
        "raised",
        "seen",
        "stake",
        "turn",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.put = [1] * n
        self.live = [True] * n
        self.seen = [False] * n
        self.bet = [False] * n
        self.raised = [False] * n
        self.stake = 1
        self.pot = n
        self.turn = 0
        self.asker = -1
        """The seat that asked for the side show waiting for its answer (-1: none)."""
        self.n_in = n
        self.decisions = [0] * n
        self.gain: list[float] | None = None

    def copy(self) -> Play:
        c = Play.__new__(Play)
        c.n, c.stake, c.pot, c.turn, c.asker, c.n_in = (
            self.n,
            self.stake,
            self.pot,
            self.turn,
            self.asker,
            self.n_in,
        )
        c.put, c.live, c.seen = self.put[:], self.live[:], self.seen[:]
        c.bet, c.raised, c.decisions = self.bet[:], self.raised[:], self.decisions[:]
        c.gain = self.gain
        return c

    def next_in(self, p: int) -> int:
        n, live = self.n, self.live
        q = (p + 1) % n
        while not live[q]:
            q = (q + 1) % n
        return q

    def previous_in(self, p: int) -> int:
        n, live = self.n, self.live
        q = (p - 1) % n
        while not live[q]:
            q = (q - 1) % n
        return q

    def actor(self) -> int:
        """Who decides now: the seat asked for a side show, else the seat to act."""
        return self._asked() if self.asker >= 0 else self.turn

    def _asked(self) -> int:
        return self.previous_in(self.asker)

    def moves(self) -> list[int]:
        """The legal moves of :meth:`actor` (the engine's at our table)."""
        if self.asker >= 0:
            return [ACCEPT, DECLINE]
        p = self.turn
        seen = self.seen[p]
        out = [] if seen else [SEE]
        out.append(CHAAL)
        if self.stake * 2 <= CAP:
            out.append(RAISE)
        if self.n_in == 2:
            if not seen or self.seen[self.next_in(p)]:
                out.append(SHOW)
        elif seen:
            q = self.previous_in(p)
            if self.bet[q] and self.seen[q]:
                out.append(SIDESHOW)
        out.append(PACK)
        return out

    def key(self, deal: Deal) -> int:
        """The information set of :meth:`actor` (:func:`info_key`, worked out inline)."""
        if self.asker >= 0:
            p = self._asked()
            return info_key(True, self.n_in, deal.bucket[p], 1, True, self.stake, self.pot, False)
        p = self.turn
        seen, live = self.seen, self.live
        others = 0
        for q in range(self.n):
            if seen[q] and live[q] and q != p:
                others += 1
        q = self.previous_in(p)
        k = self.n_in - 2
        k = k * 9 + (deal.bucket[p] + 1 if seen[p] else 0)
        k = k * 3 + (others if others < 2 else 2)
        k = k * 2 + (1 if seen[q] and self.bet[q] else 0)
        k = k * 4 + _STAKES[self.stake]
        k = k * 6 + (_BANDS[self.pot] if self.pot < LIMIT else 5)
        return k * 2 + (1 if self.raised[p] else 0)

    def cost(self, move: int) -> int:
        """What ``move`` costs the actor, in boots."""
        seen = self.seen[self.turn]
        if move in (CHAAL, SHOW):  # a show costs a chaal at our table
            return chaal_cost(self.stake, seen)
        if move == RAISE:
            return raise_cost(self.stake, seen)
        if move == SIDESHOW:
            return side_show_cost(self.stake)
        return 0

    def apply(self, move: int, deal: Deal) -> None:
        """Play ``move`` (one of :meth:`moves`) for :meth:`actor`."""
        if self.asker >= 0:
            asker = self.asker
            asked = self._asked()
            self.asker = -1
            self.decisions[asked] += 1
            if move == ACCEPT:
                s = deal.strength
                loser = asked if s[asker] > s[asked] else asker
                self.live[loser] = False
                self.n_in -= 1
            self.turn = self.next_in(asker)
            return
        p = self.turn
        if move == SEE:
            self.seen[p] = True
            return
        self.decisions[p] += 1
        self.raised[p] = False
        if move == PACK:
            self.live[p] = False
            self.n_in -= 1
            if self.n_in == 1:
                self._settle(deal, None)
            else:
                self.turn = self.next_in(p)
            return
        cost = self.cost(move)
        self.put[p] += cost
        self.pot += cost
        if move == SHOW:
            self._settle(deal, None if self.pot >= LIMIT else p)
            return
        self.bet[p] = True
        if move == RAISE:
            self.stake *= 2
            if self.seen[p]:
                for q in range(self.n):
                    if q != p:
                        self.raised[q] = True
        if self.pot >= LIMIT:
            self._settle(deal, None)
            return
        if move == SIDESHOW:
            self.asker = p
            return
        self.turn = self.next_in(p)

    def _settle(self, deal: Deal, asker: int | None) -> None:
        """End the hand: the pot to the best hand still in (equal hands split; a show's asker
        loses a tie)."""
        live = [q for q in range(self.n) if self.live[q]]
        s = deal.strength
        if len(live) == 1:
            winners = live
        else:
            best = max(s[q] for q in live)
            winners = [q for q in live if s[q] == best]
            if asker is not None and len(winners) > 1:
                winners = [q for q in winners if q != asker]
        share = self.pot / len(winners)
        gain = [-float(x) for x in self.put]
        for q in winners:
            gain[q] += share
        self.gain = gain


STYLES: tuple[str, ...] = (
    "never_looks",
    "blind_raiser",
    "station",
    "maniac",
    "show_asker",
    "sideshow_asker",
    "tight_aggressive",
    "blind_presser",
    "calldown",
)
"""The fixed styles of :mod:`teenpatti.bots.styles`, as the abstract game plays them
(:func:`style_move`), that a solve with a population seats among its players."""

_TIGHT_PACK = 2
"""``tight_aggressive`` packs buckets up to this one (``u`` below 0.65; the style: 0.6)."""
_TIGHT_RAISE = 5
"""... and raises from this one (``u`` from 0.83; the style: 0.85)."""


def style_move(style: str, play: Play, deal: Deal) -> int:
    """The move the fixed style ``style`` makes for :meth:`Play.actor` (the first of its
    preferred moves that is legal, as :class:`teenpatti.bots.styles.StyleBot` plays; a hand's
    line by its bucket).

    >>> play, deal = Play(3), Deal(3, [1, 2, 3], [7, 0, 4])
    >>> MOVES[style_move("blind_raiser", play, deal)], MOVES[style_move("station", play, deal)]
    ('raise', 'see')
    """
    moves = play.moves()
    if play.asker >= 0:
        return ACCEPT if style in ("maniac", "sideshow_asker") else DECLINE
    p = play.turn
    seen = play.seen[p]
    if style == "blind_presser" and not seen:
        others_blind = any(play.live[q] and not play.seen[q] for q in range(play.n) if q != p)
        prefer: tuple[int, ...] = (RAISE, CHAAL) if others_blind else (SEE,)
    elif style in ("never_looks", "blind_raiser"):
        prefer = (RAISE, CHAAL) if style == "blind_raiser" else (CHAAL,)
    elif not seen:
        prefer = (SEE,)
    elif style in ("tight_aggressive", "blind_presser", "calldown"):
        bucket = deal.bucket[p]
        if style == "calldown":
            prefer = (PACK,) if bucket == 0 else (CHAAL,)
        elif bucket <= _TIGHT_PACK:
            prefer = (PACK,)
        else:
            prefer = (RAISE, CHAAL, SHOW) if bucket >= _TIGHT_RAISE else (SHOW, CHAAL)
    else:
        prefer = {
            "station": (CHAAL,),
            "maniac": (RAISE, CHAAL),
            "show_asker": (SHOW, CHAAL),
            "sideshow_asker": (SIDESHOW, CHAAL),
        }[style]
    for m in (*prefer, CHAAL, SHOW, PACK):
        if m in moves:
            return m
    return moves[0]


def _draw(rng: random.Random, moves: list[int], weights: list[float]) -> int:
    """One of ``moves`` drawn in proportion to ``weights`` (their sum above zero)."""
    pick = rng.random() * sum(weights)
    for m, w in zip(moves, weights, strict=True):
        pick -= w
        if pick < 0:
            return m
    return moves[-1]


class Solver:
    """External-sampling MCCFR over :class:`Play`, regrets and averages per information set."""

    def __init__(
        self, seed: int = 1, seats: tuple[int, ...] = (3, 4, 5, 6), population: float = 0.0
    ) -> None:
        self.seats = seats
        """The table sizes the hands are dealt to (one drawn a hand)."""
        self.population = population
        """The share of hands in which one seat, drawn at random, plays one of :data:`STYLES`
        (drawn at random) instead of the strategy being solved: the others' regrets are then
        counted against it, so the solved strategy answers the styles as well as itself
        (nothing is learnt from the style's own moves)."""
        self.regret = np.zeros((KEYS, NM), dtype=np.float64)
        self.average = np.zeros((KEYS, NM), dtype=np.float64)
        self.iterations = 0
        self.rng = random.Random(seed)
        self._r: list[list[float]] = self.regret.tolist()
        self._a: list[list[float]] = self.average.tolist()

    def strategy(self, key: int, moves: list[int]) -> list[float]:
        r = self._r[key]
        pos = [r[m] if r[m] > 0 else 0.0 for m in moves]
        total = sum(pos)
        if total <= 0:
            return [1.0 / len(moves)] * len(moves)
        return [x / total for x in pos]

    def iterate(self, count: int) -> None:
        rng = self.rng
        for _ in range(count):
            self.iterations += 1
            n = self.seats[rng.randint(0, len(self.seats) - 1)]
            deal = Deal.random(rng, n)
            styled, style = -1, ""
            if self.population > 0 and rng.random() < self.population:
                styled, style = rng.randrange(n), rng.choice(STYLES)
            for traverser in range(n):
                if traverser != styled:
                    self._walk(Play(n), deal, traverser, styled, style)

    def _walk(self, play: Play, deal: Deal, tr: int, styled: int = -1, style: str = "") -> float:
        rng = self.rng
        weight = float(self.iterations)
        while play.gain is None:
            actor = play.actor()
            if actor == styled:
                play.apply(style_move(style, play, deal), deal)
                continue
            moves = play.moves()
            key = play.key(deal)
            strat = self.strategy(key, moves)
            if actor == tr:
                # every move walked for the first decisions; past them the sampled one walked
                # on and the others probed
                every = play.decisions[tr] < BRANCH_DEPTH
                chosen = -1 if every else _draw(rng, moves, strat)
                values = []
                for m in moves:
                    child = play.copy()
                    child.apply(m, deal)
                    walk = self._walk if every or m == chosen else self._probe
                    values.append(walk(child, deal, tr, styled, style))
                node = sum(p * v for p, v in zip(strat, values, strict=True))
                r = self._r[key]
                for m, v in zip(moves, values, strict=True):
                    x = r[m] + v - node
                    r[m] = x if x > 0 else 0.0
                return node
            chosen = _draw(rng, moves, strat)
            a = self._a[key]
            for m, p in zip(moves, strat, strict=True):
                a[m] += weight * p
            play.apply(chosen, deal)
        return play.gain[tr]

    def _probe(self, play: Play, deal: Deal, tr: int, styled: int, style: str) -> float:
        """What ``tr`` wins from ``play`` on in one hand played out by the current strategies
        (and the style), nothing learnt: the value of a move not sampled past the branching
        depth (probing, as in Gibson et al., 2012)."""
        rng = self.rng
        while play.gain is None:
            if play.actor() == styled:
                play.apply(style_move(style, play, deal), deal)
                continue
            moves = play.moves()
            play.apply(_draw(rng, moves, self.strategy(play.key(deal), moves)), deal)
        return play.gain[tr]

    def sync(self) -> None:
        """Copy the working lists into the arrays (to save or read them)."""
        self.regret = np.array(self._r, dtype=np.float64)
        self.average = np.array(self._a, dtype=np.float64)

    def save(self, path: Path) -> None:
        self.sync()
        version, words, _ = self.rng.getstate()
        np.savez_compressed(
            path,
            regret=self.regret,
            average=self.average,
            iterations=np.int64(self.iterations),
            rng=np.array([version, *words], dtype=np.int64),
            seats=np.array(self.seats, dtype=np.int64),
            population=np.float64(self.population),
        )

    @classmethod
    def resume(cls, path: Path) -> Solver:
        with np.load(path) as f:
            seats = tuple(int(x) for x in f["seats"]) if "seats" in f else (3, 4, 5, 6)
            population = float(f["population"]) if "population" in f else 0.0
            s = cls(seats=seats, population=population)
            s.regret, s.average = f["regret"], f["average"]
            s.iterations = int(f["iterations"])
            words = [int(x) for x in f["rng"]]
            s.rng.setstate((words[0], tuple(words[1:]), None))
        s._r, s._a = s.regret.tolist(), s.average.tolist()
        return s


def multiway_applies(rules: Rules) -> bool:
    """Whether the multiway table's game is ``rules``' betting: our table's (the ranking may
    differ: the buckets are on the ``u`` scale)."""
    if rules.bets is not Bets.DOUBLE:
        return False
    base = Rules()
    return (
        same_betting(rules, base)
        and rules.sideshow == base.sideshow
        and rules.sideshow_all_seen == base.sideshow_all_seen
        and rules.edition >= 2  # a show that reaches the pot limit: its showdown, ties split
    )


DEEP = 30
"""The least stack, in boots, that every player still in must hold for a hand to be played as
the multiway game (:func:`deep_enough`): 30 % of the pot limit."""


def deep_enough(view: HandView) -> bool:
    """Whether every player still in holds :data:`DEEP` boots or more this hand (its chips and
    what it has put in), where the multiway game's stacks hold the pot limit (100 boots).

    The multiway game has no all in. A player with a shorter stack can run short, and its all
    in ends the hand before the pot limit, but only once the pot has grown to about its stack
    times the players in: with every stack at 30 boots or more, a pot of 60 boots or more at
    three seats, which few hands reach, and the hands are the game's but for those. So a game's
    later hands (the stacks moved from the start, a rebuy) are played as its first hand is
    (docs/bots.md, section 8, "A game's later hands"). A packed player's stack does not matter.

    >>> from teenpatti.engine import Hand, Rules, view
    >>> rules = Rules()
    >>> deep_enough(view(Hand(rules, [990, 1010, 300], dealer=0, seed=bytes(32)), 0))
    True
    >>> deep_enough(view(Hand(rules, [990, 1010, 290], dealer=0, seed=bytes(32)), 0))
    False
    """
    least = DEEP * view.boot
    return all(s.chips + s.put_in >= least for s in view.seats if s.dealt and not s.packed)


def multiway_key(view: HandView) -> int | None:
    """The multiway table's information set for the viewer (``multiway.info_key``), or
    ``None`` when the hand is not one of its game (fewer than three dealt in, a player still
    in short of :data:`DEEP` boots, a stake or a pot off the boot)."""
    seat = view.viewer
    assert seat is not None
    boot = view.boot
    rules = view.rules
    limit = rules.pot_limit_boots
    seats = view.seats
    dealt = [s for s in seats if s.dealt]
    if len(dealt) < 3 or limit is None:
        return None
    if any(s.put_in % boot for s in dealt):
        return None
    if not deep_enough(view):
        return None
    stake = view.stake // boot
    if view.stake % boot or stake not in (1, 2, 4, 8):
        return None
    live = [s.seat for s in dealt if not s.packed]
    you = seats[seat]
    bucket = None
    if you.seen:
        if you.cards is None:
            return None
        bucket = bucket_of(heads_up_equity(you.cards, rules.ranking, view.wild))
    pot = view.pot // boot
    if view.side_show is not None:
        return info_key(True, len(live), bucket, 1, True, stake, pot, False)
    n = len(seats)
    step = -1 if rules.direction.value == "anticlockwise" else 1
    before = next(
        t for t in ((seat - step * k) % n for k in range(1, n)) if t in live and t != seat
    )
    seen_now = [False] * n
    has_bet = [False] * n
    raised = False
    for x in view.actions:
        if x.kind is ActionKind.SEE:
            seen_now[x.seat] = True
            continue
        if x.kind in _BET_KINDS:
            has_bet[x.seat] = True
        if x.seat == seat and x.kind not in (ActionKind.ACCEPT, ActionKind.DECLINE):
            raised = False
        elif x.kind is ActionKind.RAISE and seen_now[x.seat]:
            raised = True
    others = sum(1 for t in live if t != seat and seats[t].seen)
    target = seats[before].seen and has_bet[before]
    return info_key(False, len(live), bucket, others, target, stake, pot, raised)


BLUEPRINT_SEATS: frozenset[int] = frozenset()
"""The table sizes whose hands ``expert`` plays from a blueprint (:func:`load_blueprint`): none.
The blueprint shipped for three seats (``data/multiway_blueprint3.npz``: 400,000 iterations of a
solve dealt to three, against itself and the styles in half the hands) was played there from 7
December until whole games were measured: over a game's hands it won less than the corrections
from ``hard`` (+1.75 against +6.54 boots a game) and from every style measured, and the strongest
exploiter took as much from it (+0.80 ± 0.65 boots a hand on the stacks of a game's later hands,
against +0.86 ± 0.22), so ``expert`` plays the corrections at three seats (docs/bots.md, section
8, "A game's later hands"). ``ExpertBot.blueprint_seats = frozenset({3})`` plays it again."""


def blueprint_path(seats: int) -> Path:
    """Where the blueprint for hands dealt to ``seats`` players is shipped: the average
    strategy of a solve dealt to that many (``--seats N --out PATH``)."""
    return FOLDER / f"multiway_blueprint{seats}.npz"


@lru_cache(maxsize=8)
def load_blueprint(path: Path) -> npt.NDArray[np.uint8] | None:
    """A blueprint's policy, ``policy[key, move]`` in 255ths (a row of zeros: never reached in
    the solve), or ``None`` when it is not there."""
    if not path.exists():
        return None
    with np.load(path) as f:
        out: npt.NDArray[np.uint8] = np.asarray(f["policy"], dtype=np.uint8)
    return out


def policy_bytes(average: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """Each information set's average strategy as bytes summing to about 255 (zero: unseen)."""
    total = average.sum(axis=1, keepdims=True)
    p = np.divide(average, total, out=np.zeros_like(average), where=total > 0)
    out: npt.NDArray[np.uint8] = np.rint(p * 255).astype(np.uint8)
    return out


def table_sizes(text: str) -> tuple[int, ...]:
    """``--seats``: table sizes, comma separated.

    >>> table_sizes("3"), table_sizes("4,6")
    ((3,), (4, 6))
    """
    return tuple(int(x) for x in text.split(","))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=10_000)
    parser.add_argument("--state", type=Path, required=True)
    parser.add_argument("--every", type=int, default=5_000)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument(
        "--seats",
        type=table_sizes,
        default=(3, 4, 5, 6),
        help="the table sizes dealt to, comma separated (default 3,4,5,6)",
    )
    parser.add_argument(
        "--population",
        type=float,
        default=0.0,
        help="the share of hands in which one seat plays a fixed style (default 0)",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    if args.state.exists():
        solver = Solver.resume(args.state)
        if solver.seats != args.seats:
            parser.error(f"{args.state} is a solve dealt to {solver.seats} seats, not {args.seats}")
        if solver.population != args.population:
            parser.error(
                f"{args.state} is a solve with a population of {solver.population},"
                f" not {args.population}"
            )
    else:
        if any(n not in range(3, 7) for n in args.seats):
            parser.error("--seats takes table sizes from 3 to 6")
        if not 0 <= args.population <= 1:
            parser.error("--population is a share of hands, from 0 to 1")
        solver = Solver(args.seed, args.seats, args.population)
    started = time.process_time()
    while solver.iterations < args.iterations:
        step = min(args.every, args.iterations - solver.iterations)
        solver.iterate(step)
        solver.save(args.state)
        visited = int((solver.average.sum(axis=1) > 0).sum())
        print(
            f"{solver.iterations} iterations, {visited} information sets,"
            f" {time.process_time() - started:.0f} CPU s",
            flush=True,
        )
        if args.out is not None:
            np.savez_compressed(
                args.out,
                policy=policy_bytes(solver.average),
                iterations=np.int64(solver.iterations),
            )


if __name__ == "__main__":
    main()
