"""Monte-Carlo rollouts from the public state: the value of each legal move, with ``hard`` after it.

A rollout algorithm (one step of policy improvement over a base policy): from what the seat
sees, draw ``samples`` deals of the cards it cannot see, each opponent's hand drawn from its range
as ``hard`` reads it from the public log (:func:`teenpatti.bots.strategy.read`), the seat's own
hand drawn at random while it is blind; for each deal, rebuild the hand (the same chips, dealer
and moves, replayed in the engine; a deal that does not reproduce the public log, such as a side
show won by the other player, is drawn again), make each legal move and play the hand out with
every seat, this one included, playing ``hard`` (bots seeded per deal, the same for every move:
common random numbers). A move's value is the seat's mean chips at the end. The move kept is the
base policy's (``hard``'s own choice) unless another move's paired gain over it is larger than
its standard error: then the best move.

With ``posterior`` the others' hands are not read as ``hard`` reads them but inferred from the
policy the rollouts play them by (:attr:`Rollouts.seats`): Bayes on that policy's action
probabilities at each of their decisions made after looking (:class:`_PolicyDealer`). Drawn
uniformly, each candidate deal is replayed and weighed by the chance that every other player's
policy, holding those cards, makes the moves the log shows; the deals played out are drawn from
the candidates by their weight. This is what a player who knows how the others play reads
from their moves (``bench/exploit.py``'s exploiter, and the population build of
:mod:`.solver.distill`).

Only the seat's view is used: its own cards once seen, the cards a side show or a show turned
over to it, the public moves. Nothing reads another seat's cards.

>>> from teenpatti.engine import Hand, Rules, view
>>> from teenpatti.bots.hard import HardBot
>>> hand = Hand(Rules(), [1000, 1000, 1000], 0, seed=bytes(32))
>>> search = Rollouts(samples=8)
>>> import random
>>> seen = view(hand, hand.actor)
>>> search.choose(seen, random.Random(1), HardBot(1).decide(seen)).seat == hand.actor
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..engine.actions import Action, ActionKind
from ..engine.errors import IllegalAction
from ..engine.evaluate import Variant
from ..engine.hand import Hand
from ..engine.view import HandView, view
from ..odds import heads_up_equity
from .base import DecidesActions
from .hard import HARD, HardBot
from .strategy import BINS, read

__all__ = ["Policies", "Rollouts", "candidates"]

Policies = Callable[[int, int], DecidesActions]
"""Who plays each seat in a rollout: ``(seat, seed)`` to a bot made afresh."""

MAX_MOVES = 400
"""A rolled-out hand that has not ended after this many moves is abandoned (never seen)."""


def candidates(v: HandView) -> list[Action]:
    """Every move the seat may make, one per kind (a chaal at the least of a range, a side show
    per target).

    >>> from teenpatti.engine import Hand, Rules, view
    >>> hand = Hand(Rules(), [1000, 1000], 0, seed=bytes(32))
    >>> sorted(a.kind.value for a in candidates(view(hand, hand.actor)))
    ['chaal', 'pack', 'raise', 'see', 'show']
    """
    seat = v.viewer
    assert seat is not None
    out: list[Action] = []
    for option in v.legal_actions:
        if option.kind is ActionKind.SIDESHOW:
            out.extend(option.action(seat, None, t) for t in option.targets)
        elif option.kind is ActionKind.CHAAL and option.max_cost > option.cost:
            out.append(option.action(seat, option.cost))
        else:
            out.append(option.action(seat))
    return out


def _clone(hand: Hand) -> Hand:
    """A copy of ``hand`` that moves independently: its state (``vars(hand)``) with every list
    and dict copied, and what the hand keeps only to save time (its slots) as it is."""
    copy = Hand.__new__(Hand)
    for name in getattr(Hand, "__slots__", ()):
        if name not in ("__dict__", "__weakref__") and hasattr(hand, name):
            value = getattr(hand, name)
            setattr(copy, name, list(value) if isinstance(value, list) else value)
    for name, value in vars(hand).items():
        if isinstance(value, list):
            value = list(value)
        elif isinstance(value, dict):
            value = dict(value)
        setattr(copy, name, value)
    return copy


@dataclass(slots=True)
class Rollouts:
    """The rollout search: ``samples`` deals a decision, ``hard`` as the base policy."""

    samples: int = 24
    """Deals drawn per decision (every move is played out on each)."""
    tries: int = 4
    """Draws allowed per deal kept (deals that do not reproduce the public log are redrawn)."""
    margin: float = 1.0
    """Standard errors by which a move's gain over the base move must be above zero."""
    base: Callable[[int], HardBot] = HardBot
    """The base policy, made afresh per deal from a seed."""
    seats: Policies | None = None
    """Each seat's own policy in the rollouts (``None``: :attr:`base` in every seat)."""
    posterior: bool = False
    """Draw the others' hands by Bayes on their policies' moves (:class:`_PolicyDealer`)
    rather than from ``hard``'s reading of the log."""
    candidates: int = 4
    """With :attr:`posterior`: candidate deals weighed per deal played out."""
    floor: float = 0.03
    """With :attr:`posterior`: the least chance given to a move the policy would not make
    (its own random draws, such as ``hard``'s bluffs, and the bots' mistakes)."""

    def choose(
        self,
        v: HandView,
        rng: random.Random,
        base_move: Action,
        gamblers: frozenset[int] = frozenset(),
    ) -> Action:
        """The move for ``v.viewer``: ``base_move`` (the base policy's choice) unless the
        rollouts find another move better by more than ``margin`` standard errors."""
        seat = v.viewer
        assert seat is not None
        moves = candidates(v)
        if len(moves) < 2:
            return base_move
        index = next(
            (i for i, m in enumerate(moves) if _same(m, base_move)),
            None,
        )
        if index is None:
            return base_move
        values = self.values(v, moves, rng, gamblers)
        if values is None:
            return base_move
        base = values[index]
        best_i, best_gain = index, 0.0
        n = len(base)
        for i, row in enumerate(values):
            if i == index:
                continue
            diffs = [a - b for a, b in zip(row, base, strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
            if mean > best_gain and mean > self.margin * math.sqrt(var / n):
                best_i, best_gain = i, mean
        return moves[best_i] if best_i != index else base_move

    def values(
        self,
        v: HandView,
        moves: Sequence[Action],
        rng: random.Random,
        gamblers: frozenset[int] = frozenset(),
    ) -> list[list[float]] | None:
        """For each of ``moves``, the seat's chips at the end of each drawn deal (``None`` if
        no deal reproduced the public log)."""
        seat = v.viewer
        assert seat is not None
        hands: Iterable[Hand]
        if self.posterior:
            hands = _PolicyDealer(v, rng, self._policy, self.floor).sample(
                self.samples, self.samples * self.candidates
            )
        else:
            hands = _Dealer(v, rng, gamblers).sample(self.samples, self.samples * self.tries)
        out: list[list[float]] = [[] for _ in moves]
        kept = 0
        for hand in hands:
            kept += 1
            seeds = [rng.getrandbits(32) for _ in range(hand.seats)]
            for i, move in enumerate(moves):
                if move.kind is ActionKind.PACK:
                    out[i].append(float(v.seats[seat].chips))
                    continue
                out[i].append(float(self._play(_clone(hand), move, seeds)[seat]))
        if kept < 2:
            return None
        return out

    def _policy(self, seat: int, seed: int) -> DecidesActions:
        return self.base(seed) if self.seats is None else self.seats(seat, seed)

    def _play(self, hand: Hand, move: Action, seeds: Sequence[int]) -> list[int]:
        hand.apply(move)
        bots: dict[int, DecidesActions] = {}
        moves = 0
        while not hand.finished:
            actor = hand.actor
            assert actor is not None
            bot = bots.get(actor)
            if bot is None:
                bot = bots[actor] = self._policy(actor, seeds[actor])
            hand.apply(bot.decide(view(hand, actor)))
            moves += 1
            if moves > MAX_MOVES:
                break
        return hand.chips


def _unseen(v: HandView) -> tuple[dict[int, tuple[int, ...]], list[int]]:
    """The hands the seat has seen, by seat, and the cards it has not (the deck to draw from)."""
    known: set[int] = set()
    fixed: dict[int, tuple[int, ...]] = {}
    for s in v.seats:
        if s.dealt and s.cards is not None:
            fixed[s.seat] = s.cards
            known.update(s.cards)
    if v.wild is not None:
        known.add(v.wild)
    top = 54 if v.rules.variant is Variant.JOKERS else 52
    return fixed, [c for c in range(top) if c not in known]


class _Dealer:
    """Draws deals of the unseen cards consistent with a seat's view, replayed to its state."""

    def __init__(self, v: HandView, rng: random.Random, gamblers: frozenset[int]) -> None:
        self.v = v
        self.rng = rng
        seat = v.viewer
        assert seat is not None
        self.ranking = v.rules.ranking
        self.fixed, self.deck = _unseen(v)
        reading = read(v, HARD, gamblers)
        self.accept: dict[int, list[float]] = {}
        for o in reading.opponents:
            if o.seat in self.fixed:
                continue
            dens = [o.cdf[i + 1] - o.cdf[i] for i in range(BINS)]
            peak = max(dens)
            self.accept[o.seat] = [d / peak for d in dens] if peak > 0 else [1.0] * BINS
        self.chips = [s.chips + s.put_in if s.dealt else 0 for s in v.seats]

    def sample(self, samples: int, tries: int) -> Iterator[Hand]:
        """Up to ``samples`` deals reproducing the log, in at most ``tries`` draws (drawn as
        they are asked for: the rollouts draw from the same source between them)."""
        kept = 0
        for _ in range(tries):
            if kept == samples:
                break
            hand = self.draw()
            if hand is not None:
                kept += 1
                yield hand

    def draw(self) -> Hand | None:
        """One deal replayed to the view's state, or ``None`` if it does not reproduce the log."""
        v = self.v
        rng = self.rng
        rest = list(self.deck)
        rng.shuffle(rest)
        cards: list[tuple[int, ...] | None] = [None] * len(v.seats)
        for seat, held in self.fixed.items():
            cards[seat] = held
        # the ranged opponents first, each hand accepted with the chance its range gives it
        for s, accept in self.accept.items():
            for _ in range(64):
                pick = rng.sample(range(len(rest)), 3)
                drawn = tuple(rest[i] for i in pick)
                u = heads_up_equity(drawn, self.ranking, v.wild)
                if rng.random() < accept[min(BINS - 1, int(u * BINS))]:
                    break
            for i in sorted(pick, reverse=True):
                rest.pop(i)
            cards[s] = drawn
        for row in v.seats:
            if row.dealt and cards[row.seat] is None:  # the seat itself while blind, packed seats
                cards[row.seat] = (rest.pop(), rest.pop(), rest.pop())
        return _replayed(v, self.chips, cards)


def _replayed(
    v: HandView,
    chips: list[int],
    cards: list[tuple[int, ...] | None],
    before: Callable[[Hand, Action], None] | None = None,
) -> Hand | None:
    """The hand of ``cards`` with the view's moves made (``before`` shown each move and the
    hand it is made in), or ``None`` if they do not reproduce its log (a side show's loser) or
    its state."""
    try:
        hand = Hand(v.rules, chips, v.dealer, cards, wild=v.wild)
        for action, outcome in zip(v.actions, v.outcomes, strict=True):
            if before is not None:
                before(hand, action)
            hand.apply(action)
            if hand.outcomes[-1].loser != outcome.loser:
                return None
    except IllegalAction:
        return None
    if hand.finished or hand.actor != v.actor:
        return None
    return hand


class _PolicyDealer:
    """Draws deals of the unseen cards weighed by the others' policies (Bayes on their moves).

    A candidate deals every unseen card at random; it is replayed move by move, and at each
    move of another seat that had looked (a blind player's moves do not depend on its cards,
    so they weigh every deal alike) the seat's policy, holding the candidate's cards, is asked
    what it would do there: the candidate's weight is multiplied by the chance of the move the
    log shows (1 if the policy makes it, ``floor`` if not; one draw of the policy's own random
    source). The deals played out are drawn from the candidates by weight, with replacement.
    """

    def __init__(self, v: HandView, rng: random.Random, policy: Policies, floor: float) -> None:
        self.v = v
        self.rng = rng
        self.policy = policy
        self.floor = floor
        self.fixed, self.deck = _unseen(v)
        self.chips = [s.chips + s.put_in if s.dealt else 0 for s in v.seats]

    def sample(self, samples: int, candidates: int) -> list[Hand]:
        """``samples`` deals drawn by weight from ``candidates`` weighed ones (fewer, or none,
        when no candidate reproduces the log)."""
        hands: list[Hand] = []
        weights: list[float] = []
        for _ in range(candidates):
            found = self.weighed()
            if found is not None:
                hands.append(found[0])
                weights.append(found[1])
        if not hands or sum(weights) <= 0:
            return []
        return self.rng.choices(hands, weights, k=min(samples, len(hands)))

    def weighed(self) -> tuple[Hand, float] | None:
        """One candidate deal replayed to the view's state and its weight."""
        v = self.v
        rng = self.rng
        rest = list(self.deck)
        rng.shuffle(rest)
        cards: list[tuple[int, ...] | None] = [None] * len(v.seats)
        for row in v.seats:
            if row.dealt:
                held = self.fixed.get(row.seat)
                cards[row.seat] = held or (rest.pop(), rest.pop(), rest.pop())
        me = v.viewer
        weight = 1.0

        def weigh(hand: Hand, action: Action) -> None:
            nonlocal weight
            seat = action.seat
            if seat != me and hand.seen[seat]:
                seen = view(hand, seat)
                if len(seen.legal_actions) > 1:
                    made = self.policy(seat, rng.getrandbits(32)).decide(seen)
                    if not _same(made, action):
                        weight *= self.floor

        hand = _replayed(v, self.chips, cards, weigh)
        return None if hand is None else (hand, weight)


def _same(a: Action, b: Action) -> bool:
    if a.kind is not b.kind:
        return False
    if a.kind is ActionKind.SIDESHOW:
        return a.target == b.target
    return True
