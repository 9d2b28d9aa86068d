"""CFR+ over the abstract heads-up game, and the best response that measures what it leaves.

The solver works on whole ranges at once (numpy). For every public state it keeps each player's
chance of reaching it per bucket, and the value of the hand from there for every pair of
buckets (a 16 x 16 matrix: the states form a graph, not a tree, so a state's value must not
depend on which path led to it). The moves are kept as a flat list of edges, grouped by state
and by layer (states where one player acts, all blind or all seen, with no move between them).

One iteration is a forward pass (reach, summed over the paths into a state: a state is one
information set whatever the path) and a backward pass (values and counterfactual regrets, layers
in reverse order). Regrets are floored at zero (CFR+), the average strategy is weighted by the
iteration number (linear averaging), both players are updated in the same pass. A blind
player's information set holds no bucket: its regrets are summed over the buckets it may hold.

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
    """The layer's states (global numbers)."""
    actor: int
    blind: bool
    lo: int
    hi: int
    """Its edges are ``lo:hi`` of the global edge list."""
    local: Index
    """For each of its edges, the position of the edge's state in ``states``."""
    starts: Index
    """Where each state's edges start, relative to ``lo`` (for ``reduceat``)."""


class _Edges:
    """The game as a flat edge list, and the passes every algorithm here shares."""

    def __init__(self, game: Abstraction, hands: Buckets) -> None:
        self.game = game
        joint = hands.joint
        self.joint = joint
        safe = np.where(joint > 0, joint, 1.0)
        self.win = hands.win / safe
        self.tie = hands.tie / safe
        self.lose = hands.lose / safe
        self.b = joint.shape[0]
        src: list[Index] = []
        act: list[Index] = []
        self.layers: list[_Layer] = []
        lo = 0
        for states in game.layers:
            legal = game.child[states] != -1
            s_local, a = np.nonzero(legal)  # row-major: grouped by state, in layer order
            first = game.states[int(states[0])]
            starts = np.searchsorted(s_local, np.arange(len(states)))
            layer = _Layer(
                states,
                first.turn,
                not first.seen[first.turn],
                lo,
                lo + len(a),
                s_local.astype(np.int64),
                starts.astype(np.int64),
            )
            self.layers.append(layer)
            src.append(states[s_local])
            act.append(a.astype(np.int64))
            lo += len(a)
        self.src = np.concatenate(src)
        self.act = np.concatenate(act)
        self.dst = game.child[self.src, self.act].astype(np.int64)
        self.edges = lo
        # edges run state by state in the order of game.layers: where each state's start
        order = np.concatenate(game.layers)
        counts = np.bincount(self.src, minlength=game.size)[order]
        self.group_starts = np.concatenate(([0], np.cumsum(counts)[:-1])).astype(np.int64)
        self.term_gain = game.gain[self.src, self.act]
        self.term_loss = game.loss[self.src, self.act]
        self.term_split = game.split[self.src, self.act]
        self.term_fold = game.fold[self.src, self.act]

    # ------------------------------------------------------------------ policies
    def normalise(self, positive: Array) -> Array:
        """Per state, ``positive`` (``(E, B)``) scaled to sum to one; uniform where it is zero."""
        sums = np.add.reduceat(positive, self.group_starts, axis=0)
        counts = np.diff(np.append(self.group_starts, self.edges))
        state_of_edge = np.repeat(np.arange(len(counts)), counts)
        total = sums[state_of_edge]
        uniform = 1.0 / counts[state_of_edge]
        out: Array = np.where(
            total > 0, positive / np.where(total > 0, total, 1.0), uniform[:, None]
        )
        return out

    def dense(self, edge_policy: Array) -> Array:
        """``(N, A, B)`` from ``(E, B)`` (zero for illegal moves)."""
        out = np.zeros((self.game.size, self.game.child.shape[1], self.b))
        out[self.src, self.act] = edge_policy
        return out

    def from_dense(self, policy: Array) -> Array:
        """``(E, B)`` from ``(N, A, B)``."""
        out: Array = policy[self.src, self.act]
        return out

    # ------------------------------------------------------------------ passes
    def reach(self, pol: Array) -> Array:
        """Each player's own chance of reaching every state, per bucket: ``(2, N, B)``."""
        r = np.zeros((2, self.game.size, self.b))
        r[:, 0, :] = 1.0
        for layer in self.layers:
            sl = slice(layer.lo, layer.hi)
            dst = self.dst[sl]
            go = dst >= 0
            if not go.any():
                continue
            src = self.src[sl][go]
            d = dst[go]
            p, o = layer.actor, 1 - layer.actor
            np.add.at(r[p], d, r[p, src] * pol[sl][go])
            np.add.at(r[o], d, r[o, src])
        return r

    def q(self, layer: _Layer, values: Array) -> Array:
        """Player 0's value of every edge of ``layer`` per bucket pair: ``(e, B, B)``."""
        sl = slice(layer.lo, layer.hi)
        dst = self.dst[sl]
        out = np.empty((layer.hi - layer.lo, self.b, self.b))
        go = dst >= 0
        out[go] = values[dst[go]]
        fold = self.term_fold[sl] & ~go
        out[fold] = self.term_gain[sl][fold][:, None, None]
        show = ~go & ~fold
        if show.any():
            out[show] = (
                self.term_gain[sl][show][:, None, None] * self.win
                - self.term_loss[sl][show][:, None, None] * self.lose
                + self.term_split[sl][show][:, None, None] * self.tie
            )
        return out

    def counterfactual(self, layer: _Layer, q: Array, reach: Array) -> Array:
        """The actor's counterfactual value of every edge per own bucket, from its own side."""
        states = layer.states
        if layer.actor == 0:
            weight = self.joint[None, :, :] * reach[1, states][:, None, :]
            out: Array = np.einsum("eab,eab->ea", q, weight[layer.local])
        else:
            weight = self.joint[None, :, :] * reach[0, states][:, :, None]
            out = -np.einsum("eab,eab->eb", q, weight[layer.local])
        return out

    def mix(self, layer: _Layer, q: Array, pol: Array) -> Array:
        """Player 0's value of the layer's states when the actor plays ``pol``: ``(k, B, B)``."""
        weighted = q * (pol[:, :, None] if layer.actor == 0 else pol[:, None, :])
        out: Array = np.add.reduceat(weighted, layer.starts, axis=0)
        return out


def solve(
    game: Abstraction,
    hands: Buckets,
    iterations: int,
    *,
    progress: Callable[[int, Array], None] | None = None,
    every: int = 100,
) -> Solution:
    """Run ``iterations`` of CFR+ and return the linearly averaged strategy (``(N, A, B)``).

    ``progress(t, average)`` is called every ``every`` iterations with the average so far.
    """
    g = _Edges(game, hands)
    regret = np.zeros((g.edges, g.b))
    total = np.zeros((g.edges, g.b))
    values = np.zeros((game.size, g.b, g.b))
    for t in range(1, iterations + 1):
        pol = g.normalise(regret)
        reach = g.reach(pol)
        for layer in reversed(g.layers):
            sl = slice(layer.lo, layer.hi)
            q = g.q(layer, values)
            p = pol[sl]
            values[layer.states] = g.mix(layer, q, p)
            cfv = g.counterfactual(layer, q, reach)
            now = np.add.reduceat(cfv * p, layer.starts, axis=0)
            gain = cfv - now[layer.local]
            if layer.blind:
                gain = np.broadcast_to(gain.sum(axis=1, keepdims=True), gain.shape)
            regret[sl] = np.maximum(regret[sl] + gain, 0.0)
            own = reach[layer.actor, layer.states][layer.local]
            total[sl] += t * own * p
        if progress is not None and (t % every == 0 or t == iterations):
            progress(t, g.dense(g.normalise(total)))
    return Solution(g.dense(g.normalise(total)), iterations)


def best_response(game: Abstraction, hands: Buckets, policy: Array, player: int) -> float:
    """What ``player`` wins a hand (boots, in its own seat) with a perfect answer to ``policy``."""
    g = _Edges(game, hands)
    pol = g.from_dense(policy)
    reach = g.reach(pol)
    values = np.zeros((game.size, g.b, g.b))
    a_count = game.child.shape[1]
    for layer in reversed(g.layers):
        sl = slice(layer.lo, layer.hi)
        q = g.q(layer, values)
        if layer.actor != player:
            values[layer.states] = g.mix(layer, q, pol[sl])
            continue
        cfv = g.counterfactual(layer, q, reach)  # (e, B)
        k = len(layer.states)
        table = np.full((k, a_count, g.b), -np.inf)
        table[layer.local, g.act[sl]] = cfv
        if layer.blind:
            table[:] = table.sum(axis=2, keepdims=True)
        best = table.argmax(axis=1)  # (k, B): the move per own bucket
        edge_of = np.full((k, a_count), -1, dtype=np.int64)
        edge_of[layer.local, g.act[sl]] = np.arange(layer.hi - layer.lo)
        chosen = edge_of[np.arange(k)[:, None], best]  # (k, B)
        own = np.arange(g.b)[None, :]
        if player == 0:
            values[layer.states] = q[chosen, own, :]
        else:
            values[layer.states] = np.transpose(q[chosen, :, own], (0, 2, 1))
    v0 = float((hands.joint * values[0]).sum())
    return v0 if player == 0 else -v0


def game_value(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Player 0's expected boots a hand when both seats play ``policy``."""
    g = _Edges(game, hands)
    pol = g.from_dense(policy)
    values = np.zeros((game.size, g.b, g.b))
    for layer in reversed(g.layers):
        values[layer.states] = g.mix(layer, g.q(layer, values), pol[layer.lo : layer.hi])
    return float((hands.joint * values[0]).sum())


def exploitability(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Boots a hand a perfect adversary wins against ``policy``, averaged over the two seats."""
    return (best_response(game, hands, policy, 0) + best_response(game, hands, policy, 1)) / 2
