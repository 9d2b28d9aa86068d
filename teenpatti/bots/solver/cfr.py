"""CFR+ over the abstract heads-up game, and the best response that measures what it leaves.

The solver works on whole ranges at once (numpy). For every public state it keeps each player's
chance of reaching it per bucket (summed over the paths into it) and the value of the hand from
there for every pair of buckets (a ``B x B`` matrix: the states form a graph, not a tree, so a
state's value must not depend on which path led to it). Every array is dense over the moves
(``(states, moves, ...)``, zero where a move is not legal), so a pass is a few dense numpy
operations per layer (states where one player acts, all blind or all seen, with no move between
them).

Merging paths into one state is sound only when the player to act reached the state by the same
moves of its own whatever the path (perfect recall): the counterfactual values below weigh each
path by the other player's chance of it alone. :mod:`teenpatti.bots.solver.game` keeps in every
state what breaks that (the chips a player had put in when it saw its cards); see
``tests/bots/test_solver.py`` for what happens without it.

One iteration updates the two players in turn (alternating updates: the second player answers
the first's new strategy): a forward pass (reach) and a backward pass (values and counterfactual
regrets, layers in reverse order). Regrets are floored at zero (CFR+), the average strategy is
weighted by the iteration number (linear averaging). A blind player's information set holds no
bucket: its regrets are summed over the buckets it may hold.

:func:`best_response` finds the perfect adversary's answer to a fixed strategy in the same
abstract game (per state and bucket; per state while the adversary is blind) and
:func:`exploitability` reports what it wins, in boots a hand, averaged over the two seats.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from .game import Abstraction, Buckets

__all__ = ["Solution", "best_response", "exploitability", "game_value", "solve"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]


@dataclass(slots=True)
class Solution:
    """A strategy for both seats: ``policy[s, a, b]``, the chance of move ``a`` at state ``s``
    with bucket ``b`` (the same for every bucket while the player to act is blind)."""

    policy: Array
    iterations: int


@dataclass(slots=True)
class _Layer:
    states: Index
    actor: int
    blind: bool
    child: Index
    """``(k, A)``: the state each move leads to; the padding row ``N`` where it does not."""
    legal: npt.NDArray[np.bool_]
    going: npt.NDArray[np.bool_]
    """Moves that lead to another state (not an end of the hand)."""
    fold: npt.NDArray[np.bool_]
    show: npt.NDArray[np.bool_]
    gain: Array
    loss: Array
    split: Array
    source: Index
    """The state (row of ``states``) of every move that leads on, grouped by where it leads."""
    move: Index
    """Those moves."""
    dest: Index
    """Where each group leads (distinct states)."""
    starts: Index
    """Where each group starts in ``source`` (for ``np.add.reduceat``)."""


class _Game:
    """The game as dense per-layer arrays, and the passes every algorithm here shares."""

    def __init__(self, game: Abstraction, hands: Buckets, dtype: type = np.float64) -> None:
        self.game = game
        self.dtype = dtype
        self.n = game.size
        self.a = game.child.shape[1]
        joint = hands.joint
        self.joint: Array = joint.astype(dtype)
        safe = np.where(joint > 0, joint, 1.0)
        self.win: Array = (hands.win / safe).astype(dtype)
        self.tie: Array = (hands.tie / safe).astype(dtype)
        self.lose: Array = (hands.lose / safe).astype(dtype)
        self.b = joint.shape[0]
        self.legal = game.child != -1
        self.layers: list[_Layer] = []
        for states in game.layers:
            child = game.child[states].astype(np.int64)
            going = child >= 0
            ends = child == -2
            fold = game.fold[states] & ends
            first = game.states[int(states[0])]
            k, a = np.nonzero(going)
            d = child[k, a]
            order = np.argsort(d, kind="stable")
            dest, starts = np.unique(d[order], return_index=True)
            self.layers.append(
                _Layer(
                    states,
                    first.turn,
                    not first.seen[first.turn],
                    np.where(going, child, self.n),
                    child != -1,
                    going,
                    fold,
                    ends & ~fold,
                    game.gain[states].astype(dtype),
                    game.loss[states].astype(dtype),
                    game.split[states].astype(dtype),
                    states[k[order]],
                    a[order],
                    dest,
                    starts,
                )
            )

    # ------------------------------------------------------------------ policies
    def normalise(self, positive: Array) -> Array:
        """Per state and bucket, ``positive`` (``(N, A, B)``) scaled to sum to one over the legal
        moves; uniform over them where it sums to zero."""
        total = positive.sum(axis=1, keepdims=True)
        uniform = (self.legal / self.legal.sum(axis=1, keepdims=True)).astype(positive.dtype)
        out: Array = np.where(
            total > 0, positive / np.where(total > 0, total, 1.0), uniform[:, :, None]
        )
        return out

    # ------------------------------------------------------------------ passes
    def reach(self, pol: Array) -> Array:
        """Each player's own chance of reaching every state, per bucket: ``(2, N + 1, B)``."""
        r: Array = np.zeros((2, self.n + 1, self.b), dtype=self.dtype)
        r[:, 0, :] = 1.0
        for layer in self.layers:
            if not len(layer.dest):
                continue
            p, o = layer.actor, 1 - layer.actor
            s, a = layer.source, layer.move
            r[p, layer.dest] += np.add.reduceat(r[p, s] * pol[s, a], layer.starts, axis=0)
            r[o, layer.dest] += np.add.reduceat(r[o, s], layer.starts, axis=0)
        return r

    def joint_reach(self, pol: Array) -> Array:
        """Per state and bucket pair, the chance of reaching it summed over the paths into it:
        ``J[s, x, y] = sum over paths of r0(path, x) * r1(path, y)`` (``(N + 1, B, B)``).

        Where every path into a state is one information set of the player to act (perfect
        recall) this is the product of the two reaches; where paths with different moves of
        its own are merged it is not, and only this keeps each path's own chance."""
        j: Array = np.zeros((self.n + 1, self.b, self.b), dtype=self.dtype)
        j[0] = 1.0
        for layer in self.layers:
            if not len(layer.dest):
                continue
            s, a = layer.source, layer.move
            chance = pol[s, a]
            step = j[s] * (chance[:, :, None] if layer.actor == 0 else chance[:, None, :])
            j[layer.dest] += np.add.reduceat(step, layer.starts, axis=0)
        return j

    def q(self, layer: _Layer, values: Array) -> Array:
        """Player 0's value of every move of ``layer`` per bucket pair: ``(k, A, B, B)``."""
        out = values[layer.child]
        if layer.fold.any():
            out[layer.fold] = layer.gain[layer.fold][:, None, None]
        if layer.show.any():
            out[layer.show] = (
                layer.gain[layer.show][:, None, None] * self.win
                - layer.loss[layer.show][:, None, None] * self.lose
                + layer.split[layer.show][:, None, None] * self.tie
            )
        return out

    def counterfactual(
        self, layer: _Layer, q: Array, reach: Array, joint: Array | None = None
    ) -> Array:
        """The actor's counterfactual value of every move per own bucket, from its own side:
        ``(k, A, B)``.

        With ``joint`` (:meth:`joint_reach`) each path into a state weighs the other player's
        chance of it times the actor's own, divided by the actor's own chance of the state: the
        same as without it under perfect recall, and the value the actor's merged paths really
        have where they differ in its own moves."""
        s = layer.states
        if layer.actor == 0:
            other = np.broadcast_to(reach[1, s][:, None, :], (len(s), self.b, self.b))
            if joint is not None:
                own = reach[0, s][:, :, None]
                other = np.where(own > 0, joint[s] / np.where(own > 0, own, 1.0), other)
            out: Array = np.einsum("kaxy,kxy->kax", q, self.joint[None, :, :] * other)
        else:
            other = np.broadcast_to(reach[0, s][:, :, None], (len(s), self.b, self.b))
            if joint is not None:
                own = reach[1, s][:, None, :]
                other = np.where(own > 0, joint[s] / np.where(own > 0, own, 1.0), other)
            out = -np.einsum("kaxy,kxy->kay", q, self.joint[None, :, :] * other)
        return out

    @staticmethod
    def mix(layer: _Layer, q: Array, pol: Array) -> Array:
        """Player 0's value of the layer's states when the actor plays ``pol``: ``(k, B, B)``."""
        if layer.actor == 0:
            out: Array = np.einsum("kaxy,kax->kxy", q, pol)
        else:
            out = np.einsum("kaxy,kay->kxy", q, pol)
        return out

    def values(self) -> Array:
        """A zeroed value array with the padding row."""
        return np.zeros((self.n + 1, self.b, self.b), dtype=self.dtype)


def solve(
    game: Abstraction,
    hands: Buckets,
    iterations: int,
    *,
    method: str = "cfr+",
    alpha: float = 1.5,
    beta: float = 0.0,
    gamma: float = 2.0,
    progress: Callable[[int, Array], None] | None = None,
    every: int = 100,
    dtype: type = np.float64,
    own_reach: bool = False,
) -> Solution:
    """Run ``iterations`` of counterfactual regret minimisation (alternating updates) and return
    the averaged strategy (``(N, A, B)``).

    ``method="cfr+"`` (the default) floors the regrets at zero and weighs iteration ``t`` by
    ``t``. ``method="dcfr"`` is discounted CFR: after each update the positive regrets
    are scaled by ``t**alpha / (t**alpha + 1)``, the negative ones by ``t**beta / (t**beta + 1)``,
    and iteration ``t`` weighs ``t**gamma`` in the average (1.5, 0 and 2: the published
    defaults). ``method="pcfr+"`` is predictive CFR+ (the strategy answers the regrets plus the last
    iteration's, averaged with weight ``t**gamma``). On our games the three are close (see
    docs/bots.md, section 8).

    ``dtype`` is the floats of the passes and the regrets (the average is always 64-bit). Keep
    64: a regret summed in 32-bit floats drops whole every gain smaller than half its last
    place (about 6e-8 of it), and the deep states, reached along long lines, take many such
    gains; on the 64-boot game of our betting the 32-bit solve stalled where the 64-bit one
    converged (docs/bots.md, section 8). ``own_reach`` weighs each path into a state by the
    acting player's own chance of it (:meth:`_Game.joint_reach`) instead of the other
    player's alone: the same under perfect recall; on the 64-boot game it did not help.

    ``progress(t, average)`` is called every ``every`` iterations with the average so far.

    >>> from teenpatti.engine.rules import Rules
    >>> from teenpatti.bots.solver.game import buckets, build_abstraction
    >>> game, hands = build_abstraction(Rules(), chips=6), buckets(Rules(), (0.5,))
    >>> policy = solve(game, hands, 200).policy
    >>> exploitability(game, hands, policy) < 0.01
    True
    """
    if method not in ("dcfr", "cfr+", "pcfr+"):
        raise ValueError(f"unknown method {method!r} (dcfr, cfr+ or pcfr+)")
    g = _Game(game, hands, dtype)
    regret: Array = np.zeros((g.n, g.a, g.b), dtype=dtype)
    last = np.zeros((g.n, g.a, g.b), dtype=dtype) if method == "pcfr+" else regret
    total = np.zeros((g.n, g.a, g.b))
    values = g.values()
    for t in range(1, iterations + 1):
        if method == "dcfr":
            keep_pos = dtype(t**alpha / (t**alpha + 1))
            keep_neg = dtype(t**beta / (t**beta + 1))
            weight = float(t) ** gamma
        else:
            weight = float(t) ** (gamma if method == "pcfr+" else 1.0)
        for player in (0, 1):
            pol = g.normalise(
                np.maximum(regret + last, 0.0) if method == "pcfr+" else np.maximum(regret, 0.0)
            )
            reach = g.reach(pol)
            together = g.joint_reach(pol) if own_reach else None
            for layer in reversed(g.layers):
                s = layer.states
                q = g.q(layer, values)
                p = pol[s]
                values[s] = g.mix(layer, q, p)
                if layer.actor != player:
                    continue
                cfv = g.counterfactual(layer, q, reach, together)
                now = (cfv * p).sum(axis=1, keepdims=True)
                gain = np.where(layer.legal[:, :, None], cfv - now, 0.0)
                if layer.blind:
                    gain = np.broadcast_to(gain.sum(axis=2, keepdims=True), gain.shape)
                r = regret[s] + gain
                if method == "pcfr+":
                    last[s] = gain
                if method == "dcfr":
                    regret[s] = np.where(r > 0, r * keep_pos, r * keep_neg)
                else:
                    regret[s] = np.maximum(r, 0.0)
                total[s] += weight * reach[player, s][:, None, :] * p
        if progress is not None and (t % every == 0 or t == iterations):
            progress(t, g.normalise(total))
    return Solution(g.normalise(total), iterations)


def best_response(game: Abstraction, hands: Buckets, policy: Array, player: int) -> float:
    """What ``player`` wins a hand (boots, in its own seat) with a perfect answer to ``policy``.

    The answer is chosen per state and bucket (per state while ``player`` is blind), so it is
    the best answer only where every path into a state is one information set of ``player``'s
    (see the module's note); elsewhere it is a lower bound.
    """
    g = _Game(game, hands)
    reach = g.reach(policy)
    values = g.values()
    own = np.arange(g.b)
    for layer in reversed(g.layers):
        s = layer.states
        q = g.q(layer, values)
        if layer.actor != player:
            values[s] = g.mix(layer, q, policy[s])
            continue
        cfv = g.counterfactual(layer, q, reach)  # (k, A, B)
        if layer.blind:
            cfv = np.broadcast_to(cfv.sum(axis=2, keepdims=True), cfv.shape)
        best = np.where(layer.legal[:, :, None], cfv, -np.inf).argmax(axis=1)  # (k, B)
        rows = np.arange(len(s))[:, None]
        if player == 0:
            values[s] = q[rows, best, own[None, :], :]
        else:
            values[s] = np.transpose(q[rows, best, :, own[None, :]], (0, 2, 1))
    v0 = float((hands.joint * values[0]).sum())
    return v0 if player == 0 else -v0


def game_value(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Player 0's expected boots a hand when both seats play ``policy``."""
    g = _Game(game, hands)
    values = g.values()
    for layer in reversed(g.layers):
        values[layer.states] = g.mix(layer, g.q(layer, values), policy[layer.states])
    return float((hands.joint * values[0]).sum())


def exploitability(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Boots a hand a perfect adversary wins against ``policy``, averaged over the two seats."""
    return (best_response(game, hands, policy, 0) + best_response(game, hands, policy, 1)) / 2
