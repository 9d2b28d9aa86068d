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

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from .game import Abstraction, Buckets

__all__ = ["Progress", "Solution", "best_response", "exploitability", "game_value", "solve"]

Array = npt.NDArray[np.float64]
Index = npt.NDArray[np.int64]


@dataclass(slots=True)
class Solution:
    """A strategy for both seats: ``policy[s, a, b]``, the chance of move ``a`` at state ``s``
    with bucket ``b`` (the same for every bucket while the player to act is blind)."""

    policy: Array
    iterations: int


@dataclass(slots=True)
class Progress:
    """Where a solve stands after ``t`` iterations: what :func:`solve` needs to go on from
    there exactly as if it had never stopped (``last`` only for ``"pcfr+"``)."""

    method: str
    t: int
    regret: Array
    total: Array
    last: Array | None = None
    tremble: float = 0.0

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write this state to ``path`` (``.npz``, uncompressed: hundreds of megabytes on the
        full game, written in seconds)."""
        arrays: dict[str, npt.NDArray[Any]] = {
            "method": np.array(self.method),
            "t": np.array([self.t]),
            "regret": self.regret,
            "total": self.total,
            "tremble": np.array([self.tremble]),
        }
        if self.last is not None:
            arrays["last"] = self.last
        with open(path, "wb") as out:
            np.savez(out, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> Progress:
        """Read a state :meth:`save` wrote."""
        with np.load(path) as data:
            return cls(
                str(data["method"]),
                int(data["t"][0]),
                data["regret"],
                data["total"],
                data.get("last"),
                float(data["tremble"][0]) if "tremble" in data else 0.0,
            )


@dataclass(slots=True)
class _Layer:
    states: slice
    """The layer's states (the solver numbers the states layer by layer, see :class:`_Game`)."""
    size: int
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
    row: Index
    """The row (in ``states``) of every move that leads on, in order of rows."""
    ahead: Index
    """Those moves."""
    next: Index
    """Where each leads."""
    ranks: list[tuple[Index, Index]]
    """The moves that lead on in groups with at most one per row: for each group the rows and
    the moves' places in ``row`` (so that each group adds into distinct rows)."""
    ends: Array
    """``(k, 4, A)``: the ends of the hand as weights of the four outcome matrices
    (:attr:`_Game.outcomes`): a pack pays player 0 ``gain`` whatever the cards; a show pays
    ``gain`` times the win matrix, ``-loss`` times the loss matrix and ``split`` times the tie
    matrix (zero for the moves that lead on)."""


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
        self.outcomes: Array = np.stack([np.ones_like(self.win), self.win, self.lose, self.tie])
        """The four matrices an end of the hand weighs (:attr:`_Layer.ends`)."""
        order = np.concatenate(game.layers).astype(np.int64)
        self.order: Index = order
        """The game's state of each of the solver's (``order[i]``): layer by layer, so that a
        layer's rows of every array are a slice (a view, not a copy)."""
        self.rank: Index = np.empty(self.n, dtype=np.int64)
        """The solver's number of each of the game's states (``order``'s inverse)."""
        self.rank[order] = np.arange(self.n)
        self.root = int(self.rank[0])
        raw = game.child[order].astype(np.int64)
        renumbered = np.where(raw >= 0, self.rank[np.maximum(raw, 0)], raw)
        self.legal = renumbered != -1
        self.uniform: Array = self.legal / self.legal.sum(axis=1, keepdims=True)
        self.layers: list[_Layer] = []
        start = 0
        for states in game.layers:
            size = len(states)
            here = slice(start, start + size)
            child = renumbered[here]
            going = child >= 0
            ends = child == -2
            fold = game.fold[states] & ends
            first = game.states[int(states[0])]
            k, a = np.nonzero(going)
            d = child[k, a]
            order = np.argsort(d, kind="stable")
            dest, starts = np.unique(d[order], return_index=True)
            place = np.arange(len(k)) - np.searchsorted(k, k)  # k is sorted
            ranks = [
                (k[place == r], np.flatnonzero(place == r))
                for r in range(int(place.max(initial=-1)) + 1)
            ]
            shows = ends & ~fold
            table: Array = np.stack(
                [
                    np.where(fold, game.gain[states], 0.0),
                    np.where(shows, game.gain[states], 0.0),
                    -np.where(shows, game.loss[states], 0.0),
                    np.where(shows, game.split[states], 0.0),
                ],
                axis=1,
            ).astype(dtype)
            self.layers.append(
                _Layer(
                    here,
                    size,
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
                    start + k[order],
                    a[order],
                    dest,
                    starts,
                    k,
                    a,
                    d,
                    ranks,
                    table,
                )
            )
            start += size

    # ------------------------------------------------------------------ policies
    def normalise(self, positive: Array) -> Array:
        """Per state and bucket, ``positive`` (``(N, A, B)``) scaled to sum to one over the legal
        moves; uniform over them where it sums to zero."""
        total = positive.sum(axis=1, keepdims=True)
        empty = total <= 0
        out: Array = positive / np.where(empty, 1.0, total)
        if empty.any():
            np.copyto(out, self.uniform[:, :, None].astype(out.dtype), where=empty)
        return out

    # ------------------------------------------------------------------ passes
    def reach(self, pol: Array) -> Array:
        """Each player's own chance of reaching every state, per bucket: ``(2, N + 1, B)``."""
        r: Array = np.zeros((2, self.n + 1, self.b), dtype=self.dtype)
        r[:, self.root, :] = 1.0
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
        j[self.root] = 1.0
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

    def weights(self, layer: _Layer, reach: Array, joint: Array | None = None) -> Array:
        """The chance of every bucket pair at the layer's states as the actor's counterfactual
        values weigh it (the deal times the other player's reach): ``(k, B, B)``.

        With ``joint`` (:meth:`joint_reach`) each path into a state weighs the other player's
        chance of it times the actor's own, divided by the actor's own chance of the state: the
        same as without it under perfect recall, and the value the actor's merged paths really
        have where they differ in its own moves."""
        s = layer.states
        if layer.actor == 0:
            other = np.broadcast_to(reach[1, s][:, None, :], (layer.size, self.b, self.b))
            own = reach[0, s][:, :, None]
        else:
            other = np.broadcast_to(reach[0, s][:, :, None], (layer.size, self.b, self.b))
            own = reach[1, s][:, None, :]
        if joint is not None:
            other = np.where(own > 0, joint[s] / np.where(own > 0, own, 1.0), other)
        out: Array = self.joint[None, :, :] * other
        return out

    def counterfactual(
        self, layer: _Layer, q: Array, reach: Array, joint: Array | None = None
    ) -> Array:
        """The actor's counterfactual value of every move per own bucket, from its own side:
        ``(k, A, B)`` (see :meth:`weights`)."""
        w = self.weights(layer, reach, joint)
        if layer.actor == 0:
            out: Array = np.einsum("kaxy,kxy->kax", q, w)
        else:
            out = -np.einsum("kaxy,kxy->kay", q, w)
        return out

    def step(
        self,
        layer: _Layer,
        values: Array,
        pol: Array,
        reach: Array | None = None,
        joint: Array | None = None,
    ) -> tuple[Array, Array | None]:
        """What :meth:`mix` and :meth:`counterfactual` give (the latter only with ``reach``),
        without :meth:`q`: only the moves that lead on need a ``B x B`` matrix each (a fifth
        of the dense moves on our game); a pack or a show is a few numbers per state, weighed
        against the showdown matrices once.

        ``pol`` is the layer's rows of the strategy (``(k, A, B)``)."""
        ahead = values[layer.next]  # (E, B, B)
        chance = pol[layer.row, layer.ahead]  # (E, B)
        share = np.matmul(layer.ends, pol).transpose(2, 0, 1)  # (B, k, 4)
        zero = layer.actor == 0
        if zero:  # a matrix product per bucket of the actor's
            mixed: Array = np.matmul(share, self.outcomes.transpose(1, 0, 2)).transpose(1, 0, 2)
        else:
            mixed = np.matmul(share, self.outcomes.transpose(2, 0, 1)).transpose(1, 2, 0)
        if len(chance):
            led = ahead * (chance[:, :, None] if zero else chance[:, None, :])
            for rows, places in layer.ranks:
                mixed[rows] += led[places]
        if reach is None:
            return mixed, None
        w = self.weights(layer, reach, joint)
        worth = np.einsum(
            "kxy,txy->ktx" if zero else "kxy,txy->kty", w, self.outcomes, optimize=True
        )
        cfv: Array = np.matmul(layer.ends.transpose(0, 2, 1), worth)
        if len(chance):
            pairs = "exy,exy->ex" if zero else "exy,exy->ey"
            cfv[layer.row, layer.ahead] = np.einsum(pairs, ahead, w[layer.row])
        if not zero:
            cfv = -cfv
        return mixed, cfv

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
    resume: Progress | None = None,
    keep: Callable[[Progress], None] | None = None,
    tremble: float = 0.0,
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

    ``tremble`` counts every player's chance of reaching a state as if each of its moves were
    made with at least that share of the chance (``(1 - tremble) * strategy + tremble *
    uniform``), while the values stay those of the strategy itself. Without it a row that the
    other player reaches only by moves the strategy never makes is weighed zero and never learnt
    (CFR+ floors regrets at zero, so those moves' chances are exactly zero), and a row the acting
    player never reaches keeps no average: an opponent who makes such a move meets an untrained
    row. With a small tremble every row is learnt as the answer to the other player's range just
    before its unexpected move (docs/bots.md, section 8).

    ``progress(t, average)`` is called every ``every`` iterations with the average so far, and
    ``keep(state)`` with the whole state of the solve (:class:`Progress`, the arrays themselves:
    save them, do not change them). ``resume`` goes on from such a state up to ``iterations``
    in all: the same strategy a solve that never stopped reaches.

    >>> from teenpatti.engine.rules import Rules
    >>> from teenpatti.bots.solver.game import buckets, build_abstraction
    >>> game, hands = build_abstraction(Rules(), chips=6), buckets(Rules(), (0.5,))
    >>> policy = solve(game, hands, 100).policy
    >>> exploitability(game, hands, policy) < 0.01
    True
    """
    if method not in ("dcfr", "cfr+", "pcfr+"):
        raise ValueError(f"unknown method {method!r} (dcfr, cfr+ or pcfr+)")
    if not 0.0 <= tremble < 1.0:
        raise ValueError(f"a tremble is a chance below one, not {tremble}")
    g = _Game(game, hands, dtype)
    shape = (g.n, g.a, g.b)
    if resume is not None and (resume.method != method or resume.regret.shape != shape):
        raise ValueError(
            f"cannot resume a {resume.method} solve of shape {resume.regret.shape} "
            f"as a {method} solve of shape {shape}"
        )
    if resume is not None and resume.tremble != tremble:
        raise ValueError(
            f"cannot resume a solve with a tremble of {resume.tremble} with one of {tremble}"
        )
    begin = 0 if resume is None else resume.t
    # the solver's arrays are in its own order of the states (see _Game); a Progress is in
    # the game's
    regret: Array = (
        np.zeros(shape, dtype=dtype) if resume is None else resume.regret[g.order].astype(dtype)
    )
    total: Array = np.zeros(shape) if resume is None else resume.total[g.order].astype(np.float64)
    last = regret
    if method == "pcfr+":
        before = None if resume is None else resume.last
        last = np.zeros(shape, dtype=dtype) if before is None else before[g.order].astype(dtype)
    values = g.values()
    spread: Array = g.uniform[:, :, None].astype(dtype)
    for t in range(begin + 1, iterations + 1):
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
            reach = g.reach(pol if not tremble else (1 - tremble) * pol + tremble * spread)
            together = g.joint_reach(pol) if own_reach else None
            for layer in reversed(g.layers):
                s = layer.states
                p = pol[s]
                mine = layer.actor == player
                values[s], cfv = g.step(layer, values, p, reach if mine else None, together)
                if cfv is None:
                    continue
                now = (cfv * p).sum(axis=1, keepdims=True)
                gain = np.where(layer.legal[:, :, None], cfv - now, 0.0)
                if layer.blind:
                    gain = np.broadcast_to(gain.sum(axis=2, keepdims=True), gain.shape)
                r = regret[s]  # a view: the updates below are in place
                r += gain
                if method == "pcfr+":
                    last[s] = gain
                if method == "dcfr":
                    r *= np.where(r > 0, keep_pos, keep_neg)
                else:
                    np.maximum(r, 0.0, out=r)
                total[s] += weight * reach[player, s][:, None, :] * p
        if t % every == 0 or t == iterations:
            if keep is not None:
                before = last[g.rank] if method == "pcfr+" else None
                keep(Progress(method, t, regret[g.rank], total[g.rank], before, tremble))
            if progress is not None:
                progress(t, g.normalise(total)[g.rank])
    return Solution(g.normalise(total)[g.rank], iterations)


def best_response(game: Abstraction, hands: Buckets, policy: Array, player: int) -> float:
    """What ``player`` wins a hand (boots, in its own seat) with a perfect answer to ``policy``.

    The answer is chosen per state and bucket (per state while ``player`` is blind), so it is
    the best answer only where every path into a state is one information set of ``player``'s
    (see the module's note); elsewhere it is a lower bound.
    """
    g = _Game(game, hands)
    policy = policy[g.order]
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
        rows = np.arange(layer.size)[:, None]
        if player == 0:
            values[s] = q[rows, best, own[None, :], :]
        else:
            values[s] = np.transpose(q[rows, best, :, own[None, :]], (0, 2, 1))
    v0 = float((hands.joint * values[g.root]).sum())
    return v0 if player == 0 else -v0


def game_value(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Player 0's expected boots a hand when both seats play ``policy``."""
    g = _Game(game, hands)
    policy = policy[g.order]
    values = g.values()
    for layer in reversed(g.layers):
        values[layer.states] = g.mix(layer, g.q(layer, values), policy[layer.states])
    return float((hands.joint * values[g.root]).sum())


def exploitability(game: Abstraction, hands: Buckets, policy: Array) -> float:
    """Boots a hand a perfect adversary wins against ``policy``, averaged over the two seats."""
    return (best_response(game, hands, policy, 0) + best_response(game, hands, policy, 1)) / 2
