"""The abstract heads-up game the expert level is solved on: exact betting, bucketed hands.

**Public state.** Everything the engine's betting depends on with two players in, in boots:
each player's chips put in (``c0``, ``c1``), the stake, who has seen, whose turn it is, whether a
bet has been made (for ``show_after_bet``) and each player's blind turns (only under
``blind_turns_max``). Player 0 is the first to act after the dealer. Nothing is rounded: every
chaal, raise, show and all in of the engine's ``double`` bets is there at its exact price, the
stake cap, the pot limit (a showdown when the pot reaches it) and all in, settled as the engine's
side pots settle it heads-up (a caller short of the other's total risks only what it matched).

**Hands.** A hand is known to its holder only once seen, and then only by its bucket: the
buckets cut the scale ``u`` (a hand's exact share against one random hand, see
:mod:`teenpatti.bots.strategy`) at fixed edges, finer at the top where big pots are decided.
The chance of each pair of buckets and the chance that one beats or ties the other are counted
exactly over every pair of disjoint hands, so card removal is in the showdown values.

The tree is a directed graph: states reached by different paths are one state (the abstraction
forgets the order of past moves, as the engine's own state does) except that each state keeps the
chips each player had put in when it saw (``State.saw``): paths that differ in when a player saw
are different information sets of that player, and merging them (imperfect recall) stalls CFR.
Every move but ``see`` adds to the pot, so ordering states by (pot, players seen) is a
topological order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
import numpy.typing as npt

from ...engine.bulk import strength_array
from ...engine.prices import chaal_cost, raise_cost, show_cost
from ...engine.rules import Rules, ShowTie
from ...odds import heads_up_equity

__all__ = [
    "ACTIONS",
    "EDGES",
    "Abstraction",
    "Buckets",
    "State",
    "bucket_of",
    "buckets",
    "build_abstraction",
    "same_betting",
]

EDGES: tuple[float, ...] = (0.3, 0.45, 0.58, 0.68, 0.76, 0.83, 0.89, 0.94, 0.97)
"""Where the buckets of ``u`` are cut: 10 buckets, finer among the strong hands."""

ACTIONS: tuple[str, ...] = ("see", "chaal", "raise", "show", "allin", "pack")
"""The moves of the abstract game, in the order of a strategy row."""
SEE, CHAAL, RAISE, SHOW, ALLIN, PACK = range(6)


def bucket_of(u: float, edges: tuple[float, ...] = EDGES) -> int:
    """The bucket of a hand of heads-up equity ``u``.

    >>> bucket_of(0.1), bucket_of(0.5), bucket_of(0.995)
    (0, 2, 9)
    """
    lo, hi = 0, len(edges)
    while lo < hi:
        mid = (lo + hi) // 2
        if u < edges[mid]:
            hi = mid
        else:
            lo = mid + 1
    return lo


@dataclass(frozen=True, slots=True)
class Buckets:
    """The chance of each pair of buckets and, given the pair, of a win or a tie for player 0."""

    joint: npt.NDArray[np.float64]
    """``joint[a, b]``: the chance that player 0 holds bucket ``a`` and player 1 bucket ``b``."""
    win: npt.NDArray[np.float64]
    """``win[a, b]``: the chance of player 0's hand beating player 1's, times ``joint[a, b]``."""
    tie: npt.NDArray[np.float64]
    """``tie[a, b]``: the chance of equal hands, times ``joint[a, b]``."""

    @property
    def lose(self) -> npt.NDArray[np.float64]:
        """``joint - win - tie``: the chance of player 0 losing, times ``joint``."""
        out: npt.NDArray[np.float64] = self.joint - self.win - self.tie
        return out


def buckets(rules: Rules, edges: tuple[float, ...] = EDGES) -> Buckets:
    """Count every pair of disjoint hands (standard 52-card pack) into bucket pairs.

    Exact, a fraction of a second of numpy: see :func:`pair_counts`.
    """
    ranking = rules.ranking
    hands = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    table = strength_array(ranking)
    strength = table[hands[:, 0] * 2916 + hands[:, 1] * 54 + hands[:, 2]].astype(np.int64)
    u = np.array([heads_up_equity(tuple(int(c) for c in h), ranking) for h in hands])
    bucket = np.searchsorted(np.array(edges), u, side="right").astype(np.int64)
    n = len(edges) + 1
    count, beaten, equal = pair_counts(hands, strength, bucket, n)

    def by_pair(per_hand: npt.NDArray[np.int64]) -> npt.NDArray[np.float64]:
        out = np.zeros((n, n), dtype=np.int64)
        np.add.at(out, bucket, per_hand)
        return out.astype(np.float64)

    joint, win, tie = by_pair(count), by_pair(beaten), by_pair(equal)
    total = joint.sum()
    return Buckets(joint / total, win / total, tie / total)


def pair_counts(
    hands: npt.NDArray[np.int64],
    strength: npt.NDArray[np.int64],
    bucket: npt.NDArray[np.int64],
    n: int,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """For each hand (a row of ``hands``, three distinct cards) and each bucket ``b`` below
    ``n``: how many hands of bucket ``b`` share no card with it, and how many of those it beats
    and ties (a higher ``strength`` wins; strengths below 65,536).

    By inclusion and exclusion over the hand's own cards: the hands sharing none are all hands,
    less those holding each card, plus those holding each two, less the hand itself. Each count
    of the hands holding a set of cards is two binary searches in one sorted array of (set,
    bucket, strength) keys, so every hand is counted against every other without comparing the
    pairs one by one.

    >>> hands = np.array([[0, 1, 2], [3, 4, 5], [0, 4, 6], [7, 8, 9]])
    >>> strength, bucket = np.array([4, 1, 4, 4]), np.array([1, 0, 1, 0])
    >>> count, beaten, equal = pair_counts(hands, strength, bucket, 2)
    >>> count.tolist()  # the last hand shares no card with any other
    [[2, 0], [1, 1], [1, 0], [1, 2]]
    >>> beaten.tolist(), equal.tolist()
    ([[1, 0], [0, 0], [0, 0], [1, 0]], [[1, 0], [0, 0], [1, 0], [0, 2]])
    """
    digits = hands + 1
    subsets: list[tuple[npt.NDArray[np.int64], int]] = []
    for size in range(4):
        for picked in combinations(range(3), size):
            code = np.zeros(len(hands), dtype=np.int64)
            for i in picked:
                code = code * 53 + digits[:, i]
            subsets.append((code, -1 if size % 2 else 1))
    span = 1 << 16
    keys = np.sort(np.concatenate([(code * n + bucket) * span + strength for code, _ in subsets]))
    count = np.zeros((len(hands), n), dtype=np.int64)
    beaten = np.zeros((len(hands), n), dtype=np.int64)
    equal = np.zeros((len(hands), n), dtype=np.int64)
    for code, sign in subsets:
        base = (code[:, None] * n + np.arange(n)[None, :]) * span
        start = np.searchsorted(keys, base)
        low = np.searchsorted(keys, base + strength[:, None])
        high = np.searchsorted(keys, base + strength[:, None], side="right")
        end = np.searchsorted(keys, base + span)
        count += sign * (end - start)
        beaten += sign * (low - start)
        equal += sign * (high - low)
    return count, beaten, equal


@dataclass(frozen=True, slots=True)
class State:
    """A public state of the heads-up game, amounts in boots."""

    put: tuple[int, int]
    stake: int
    seen: tuple[bool, bool]
    turn: int
    bet_made: bool
    blind_turns: tuple[int, int]
    saw: tuple[int, int] = (0, 0)
    """Each player's chips put in when it saw its cards (0 while blind): paths that differ in
    when a player saw are different information sets of that player (perfect recall)."""

    @property
    def pot(self) -> int:
        """Boots in the pot."""
        return self.put[0] + self.put[1]


@dataclass(slots=True)
class Abstraction:
    """The heads-up game of one table, enumerated: every public state and where each move goes.

    ``child[s, a]`` is the state move ``a`` leads to (``-1``: not legal, ``-2``: the move ends the
    hand, then ``end[s, a]`` says how). Terminal payoffs are kept as player 0's win, lose and tie
    amounts (``gain``, ``loss``, ``split``) so that a bucket pair's value is
    ``win * gain - lose * loss + tie * split``.
    """

    rules: Rules
    chips: int
    """Each player's chips at the start of the hand, in boots."""
    states: list[State]
    index: dict[State, int]
    child: npt.NDArray[np.int32]
    gain: npt.NDArray[np.float64]
    loss: npt.NDArray[np.float64]
    split: npt.NDArray[np.float64]
    fold: npt.NDArray[np.bool_]
    """Whether a terminal move is a pack (then ``gain`` is paid whatever the cards)."""
    layers: list[npt.NDArray[np.int64]] = field(default_factory=list)
    """States grouped so that every move leads from one group to a later one; in a group the
    same player acts, blind in every state of it or seen in every state."""

    @property
    def size(self) -> int:
        """How many public states."""
        return len(self.states)


def _key(rules: Rules) -> tuple[int, int | None, int | None, int]:
    boot = rules.boot
    cap = None if rules.stake_cap is None else rules.stake_cap // boot
    limit = None if rules.pot_limit is None else -(-rules.pot_limit // boot)
    return boot, cap, limit, rules.starting_chips // boot


_End = tuple[bool, float, float, float]
"""A move that ends the hand: (a pack?, player 0's gain, loss, tie amount)."""


def _expand(
    s: State, rules: Rules, cap: int | None, limit: int | None, stack: int, half: float = 0.0
) -> tuple[list[tuple[int, State]], list[_End | None]]:
    """The moves from ``s``: the states they lead to, and the ends of those that end the hand.

    ``half`` is half the dead money in the pot (boots of players who packed before the two
    still in): the winner takes it, which is the same zero-sum game as each of the two having
    put in that much more. (In an all in's side pot that is exact only while each packed player
    put in no more than the all-in player: the endgames' packed players put in a boot or two, and
    the shortest stack they are solved on is 30 boots.)"""
    moves: list[tuple[int, State]] = []
    end: list[_End | None] = [None] * len(ACTIONS)
    p = s.turn
    o = 1 - p
    seen = s.seen[p]
    left = stack - s.put[p]
    max_blind = rules.blind_turns_max

    def showdown(move: int, put: tuple[int, int], asker: int | None, all_in: bool) -> None:
        if all_in and put[p] < put[o]:  # the caller's excess is a pot only it may win
            m = float(min(put)) + half
            gain, loss, split = m, m, 0.0
        else:
            gain, loss = put[1] + half, put[0] + half
            split = (put[1] - put[0]) / 2
        if asker is not None and rules.show_tie is ShowTie.ASKER_LOSES:
            split = -loss if asker == 0 else gain
        end[move] = (False, gain, loss, split)

    def pay(amount: int) -> tuple[int, int]:
        return (s.put[0] + amount, s.put[1]) if p == 0 else (s.put[0], s.put[1] + amount)

    def bet(move: int, amount: int, new_stake: int) -> None:
        put = pay(amount)
        turns = list(s.blind_turns)
        if not seen and max_blind is not None:
            turns[p] += 1
        if amount == left:
            showdown(move, put, None, True)
        elif limit is not None and put[0] + put[1] >= limit:
            showdown(move, put, None, False)
        else:
            turns_after = (turns[0], turns[1])
            moves.append((move, State(put, new_stake, s.seen, o, True, turns_after, s.saw)))

    if not seen:
        flags = (True, s.seen[1]) if p == 0 else (s.seen[0], True)
        saw = (s.put[0], s.saw[1]) if p == 0 else (s.saw[0], s.put[1])
        moves.append((SEE, State(s.put, s.stake, flags, p, s.bet_made, s.blind_turns, saw)))
    end[PACK] = (True, s.put[1] + half if p == 1 else -(s.put[0] + half), 0.0, 0.0)
    if not seen and max_blind is not None and s.blind_turns[p] >= max_blind:
        return moves, end  # out of blind turns: see or pack
    # The engine's prices (teenpatti.engine.prices), in boots: they are linear in the stake.
    cost = chaal_cost(s.stake, seen)
    if left >= cost:
        bet(CHAAL, cost, s.stake)  # a chaal leaves the stake as it is
        raised = raise_cost(s.stake, seen)
        if (cap is None or s.stake * 2 <= cap) and left >= raised:
            bet(RAISE, raised, s.stake * 2)
    else:
        bet(ALLIN, left, s.stake)
    if s.bet_made or not rules.show_after_bet:
        show = show_cost(rules, s.stake, seen, s.seen[o])
        if show is not None and left >= show:
            put = pay(show)
            reached = limit is not None and put[0] + put[1] >= limit
            # A show with a player's last chips is still a show: its asker loses a tie (the
            # engine's rule); only the pot limit's showdown splits one.
            showdown(SHOW, put, None if reached else p, show == left)
    return moves, end


def build_abstraction(
    rules: Rules,
    chips: int | None = None,
    *,
    recall: bool = True,
    root: State | None = None,
    dead: int = 0,
) -> Abstraction:
    """Enumerate the heads-up game of ``rules`` from the boots paid to the end of every line.

    ``chips`` (in boots) overrides the rules' starting chips. ``root`` starts the game at
    another public state than the boots (two players left of a bigger deal, with ``dead`` boots
    in the pot from those who packed: it counts towards the pot limit and goes to the winner;
    :mod:`teenpatti.bots.solver.endgame`). Range bets are played as the
    ``double`` table's chaals and raises (the least chaal and the top of the range).
    ``recall=False`` forgets when each player saw (merging those paths: the abstraction of
    earlier versions, kept to show why it fails; see :mod:`teenpatti.bots.solver.cfr`).

    >>> from teenpatti.engine.rules import preset
    >>> game = build_abstraction(preset("nepal"), chips=6)
    >>> game.size, game.states[0].put
    (94, (1, 1))
    """
    _boot, cap, limit, stack = _key(rules)
    if chips is not None:
        stack = chips
    if limit is not None:
        limit -= dead
    if root is None:
        root = State((1, 1), 1, (False, False), 0, False, (0, 0))
    states: list[State] = [root]
    index: dict[State, int] = {root: 0}
    rows: list[list[int]] = []
    ends: list[list[_End | None]] = []
    queue = 0
    while queue < len(states):
        s = states[queue]
        queue += 1
        moves, end = _expand(s, rules, cap, limit, stack, dead / 2)
        row = [-2 if e is not None else -1 for e in end]
        for move, nxt in moves:
            if not recall:
                nxt = replace(nxt, saw=(0, 0))
            if nxt not in index:
                index[nxt] = len(states)
                states.append(nxt)
            row[move] = index[nxt]
        rows.append(row)
        ends.append(end)
    n = len(states)
    child = np.array(rows, dtype=np.int32).reshape(n, len(ACTIONS))
    gain = np.zeros((n, len(ACTIONS)))
    loss = np.zeros((n, len(ACTIONS)))
    split = np.zeros((n, len(ACTIONS)))
    fold = np.zeros((n, len(ACTIONS)), dtype=bool)
    for i, end in enumerate(ends):
        for a, e in enumerate(end):
            if e is not None:
                fold[i, a], gain[i, a], loss[i, a], split[i, a] = e
    order: dict[tuple[int, int, int, bool], list[int]] = {}
    for i, s in enumerate(states):
        key = (s.pot, s.seen[0] + s.seen[1], s.turn, s.seen[s.turn])
        order.setdefault(key, []).append(i)
    layers = [np.array(order[k], dtype=np.int64) for k in sorted(order)]
    return Abstraction(rules, stack, states, index, child, gain, loss, split, fold, layers)


def same_betting(rules: Rules, base: Rules) -> bool:
    """Whether ``rules`` bet exactly as ``base`` in everything a solved game models with two
    players in (the boot, the stake cap, the pot limit, blind turns, who may ask for a show and
    what it costs, its tie, when cards may be seen); the ranking may differ.

    >>> same_betting(Rules.from_options({"muflis": True}), Rules())
    True
    >>> same_betting(Rules.from_options({"pot_limit_boots": 50}), Rules())
    False
    """
    return (
        rules.bets is base.bets
        and rules.boot == base.boot
        and rules.stake_cap_boots == base.stake_cap_boots
        and rules.pot_limit_boots == base.pot_limit_boots
        and rules.blind_turns_max == base.blind_turns_max
        and rules.show_after_bet == base.show_after_bet
        and rules.show_seen_vs_blind == base.show_seen_vs_blind
        and rules.show_cost == base.show_cost
        and rules.show_tie == base.show_tie
        and rules.see_anytime == base.see_anytime
    )
