"""Two blind players left of a bigger deal: the heads-up game from there, solved.

At three to six seats of our table a hand often comes down to two players who are both still
blind: at three seats, with ``expert`` in every seat, two hands in three do, nearly always the
same way (the first player raises blind, the second looks and packs, the third faces the blind
raise). Neither of the two knows anything of its own hand or the other's, so from there the
hand is a heads-up game whose both ranges are every hand alike, with the packed players' chips
in the pot (*dead money*: it counts towards the pot limit and goes to the winner). That game is
the abstract heads-up game of :mod:`teenpatti.bots.solver.game` started at that public state
(its ``root``, with ``dead`` boots), solved by CFR+ as the heads-up table is: a strategy no
player can take more than the solve's exploitability from within the hand, where ``hard``'s
values (looking, and packing what a pot-limit valuation calls weak) were the largest place the
strongest exploiter took from ``expert`` at three seats (docs/bots.md, section 8, "Two blind
players left").

A solved endgame is stored as a table (:class:`~teenpatti.bots.solver.tables.Table`) per root,
``data/endgame-<put0>-<put1>-d<dead>-s<stake>-t<turn>-b<bet>.npz`` (boots; player 0 is the first
of the two after the dealer), solved on full stacks; for a game's later hands, where stacks have
drifted, the commonest roots also have tables solved on shorter stacks, ``...-c<stack>.npz``
(each player holding ``stack`` boots, so that the game has its all ins). :func:`locate` finds,
in a hand's public view, the root the hand passed through and the state it is at now;
``expert`` plays the stored strategy from there when a table for that root is shipped on a
stack near the shorter of the two (:func:`for_stack`;
:attr:`teenpatti.bots.expert.ExpertBot.endgame`).

Build one: ``python -m teenpatti.bots.solver.endgame --root 3,1,1,2,1,1 --iterations 1000``
(and ``--stack 50`` for one solved on stacks of 50 boots).

>>> root = Root((3, 1), dead=1, stake=2, turn=1, bet_made=True)
>>> root.name
'endgame-3-1-d1-s2-t1-b1'
>>> Root.parse("3,1,1,2,1,1") == root
True
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ...engine.actions import Action, ActionKind
from ...engine.rules import Rules
from ...engine.view import HandView
from .game import Abstraction, State, build_abstraction
from .tables import FOLDER, Table, build, load_path, save

__all__ = [
    "BETS",
    "NEAR",
    "Root",
    "for_stack",
    "least_stack",
    "locate",
    "main",
    "path",
    "shorter_stack",
    "stacks",
    "table",
]

BETS = (ActionKind.CHAAL, ActionKind.RAISE, ActionKind.ALLIN, ActionKind.SIDESHOW)
"""The moves that count as a bet made (the heads-up game's ``bet_made``)."""


@dataclass(frozen=True, slots=True)
class Root:
    """Where two blind players were left: each one's chips put in (boots, player 0 first after
    the dealer), the packed players' chips in the pot, the stake, who acts and whether a bet
    had been made."""

    put: tuple[int, int]
    dead: int
    stake: int
    turn: int
    bet_made: bool

    @property
    def name(self) -> str:
        """The stored table's file name, without ``.npz``."""
        a, b = self.put
        bet = int(self.bet_made)
        return f"endgame-{a}-{b}-d{self.dead}-s{self.stake}-t{self.turn}-b{bet}"

    @property
    def state(self) -> State:
        """The heads-up game's public state at the root: both blind."""
        return State(self.put, self.stake, (False, False), self.turn, self.bet_made, (0, 0))

    @classmethod
    def parse(cls, text: str) -> Root:
        """``PUT0,PUT1,DEAD,STAKE,TURN,BET`` (boots; ``BET`` 0 or 1).

        >>> Root.parse("1,1,2")
        Traceback (most recent call last):
        ...
        ValueError: a root is PUT0,PUT1,DEAD,STAKE,TURN,BET, not '1,1,2'
        """
        parts = text.split(",")
        if len(parts) != 6 or not all(p.strip().isdigit() for p in parts):
            raise ValueError(f"a root is PUT0,PUT1,DEAD,STAKE,TURN,BET, not {text!r}")
        a, b, dead, stake, turn, bet = (int(p) for p in parts)
        if turn not in (0, 1) or bet not in (0, 1) or min(a, b, stake) < 1:
            raise ValueError(f"a root is PUT0,PUT1,DEAD,STAKE,TURN,BET, not {text!r}")
        return cls((a, b), dead, stake, turn, bool(bet))


def least_stack(game: Abstraction) -> int:
    """The least stack (boots, chips put in and behind) with which no line of ``game`` (a
    root's) runs short: the most a player has put in at any of its states and the dearest
    single payment (a seen chaal at the stake cap). A full stacks' table's ``chips`` are this:
    where both stacks hold it the game ``expert`` plays is the one solved (below it, see
    :func:`for_stack`).

    >>> root = Root((3, 1), dead=1, stake=2, turn=1, bet_made=True)
    >>> least_stack(build_abstraction(Rules(), root=root.state, dead=root.dead))
    85
    """
    cap = game.rules.stake_cap_boots or max(s.stake for s in game.states)
    return max(max(s.put) for s in game.states) + 2 * cap


def path(root: Root, stack: int | None = None) -> Path:
    """Where the table of ``root`` is shipped: solved on full stacks, or with ``stack`` on
    stacks of that many boots (``...-c<stack>.npz``)."""
    return FOLDER / f"{root.name}{'' if stack is None else f'-c{stack}'}.npz"


@lru_cache(maxsize=256)
def table(root: Root, stack: int | None = None) -> Table | None:
    """The shipped table of ``root`` (on ``stack`` boots: :func:`path`), or ``None`` if none
    is."""
    return load_path(path(root, stack))


@lru_cache(maxsize=256)
def stacks(root: Root) -> tuple[int, ...]:
    """The stacks (boots) ``root`` has a table solved on besides full stacks, least first."""
    found = (p.stem.rpartition("-c")[2] for p in FOLDER.glob(f"{root.name}-c*.npz"))
    return tuple(sorted(int(x) for x in found if x.isdigit()))


def shorter_stack(view: HandView) -> int:
    """The shorter stack of the players still in, in whole boots (chips put in and behind):
    the stack :func:`for_stack` chooses a table for.

    >>> from teenpatti.engine import Hand, Rules, view
    >>> shorter_stack(view(Hand(Rules(), [1000, 575, 800], dealer=0, seed=bytes(32))))
    57
    """
    return min(s.put_in + s.chips for s in view.seats if s.dealt and not s.packed) // view.boot


NEAR = 10
"""How many boots a stack may be from the stack a table was solved on for :func:`for_stack` to
choose it."""


def for_stack(root: Root, stack: int) -> Table | None:
    """The table ``expert`` plays at ``root`` when the shorter stack of the two is ``stack``
    boots (each player's chips put in and behind): the full stacks' table where ``stack``
    holds its :func:`least_stack` (its game is then the real one), else the table solved on
    the stack nearest ``stack``, above or below it (the full stacks' counted as solved on its
    least stack; of two as near, the shorter), if that is at most :data:`NEAR` boots away;
    ``None`` where none is. Off its own stack a table's game differs from the real one only
    where a player runs short: a bet the real game does not offer is played as the one it does
    (:func:`teenpatti.bots.expert.as_legal_bets`), a state the table has no row for leaves the
    decision to the moves before the endgames. Only the full stacks' table and the one chosen
    are read.

    >>> root = Root((3, 1), dead=1, stake=2, turn=1, bet_made=True)
    >>> [getattr(for_stack(root, s), "chips", None) for s in (100, 80, 57, 55, 22, 20, 19)]
    [85, 85, 60, 50, 30, 30, None]
    """
    full = table(root)
    if full is not None and stack >= full.chips:
        return full
    solved = list(stacks(root)) + ([full.chips] if full is not None else [])
    near = [s for s in solved if abs(s - stack) <= NEAR]
    if not near:
        return None
    chosen = min(near, key=lambda s: (abs(s - stack), s))
    return full if full is not None and chosen == full.chips else table(root, chosen)


class Line(NamedTuple):
    """What the two players' moves since a point add up to, in boots, player by player."""

    paid: tuple[int, int]
    """Chips each put in by those moves."""
    stake: int
    """The stake after them."""
    seen: tuple[bool, bool]
    """Whether each saw its cards in them."""
    paid_when_seen: tuple[int, int]
    """What each had paid of ``paid`` when it saw (0 if it did not)."""

    def saw(self, put: tuple[int, int]) -> tuple[int, int]:
        """What each had put in all when it saw, having put ``put`` before these moves; 0
        for one who did not see (the heads-up state's ``saw``)."""
        a, b = (put[p] + self.paid_when_seen[p] if self.seen[p] else 0 for p in (0, 1))
        return a, b


def follow(moves: Iterable[Action], player: Mapping[int, int], stake: int) -> Line | None:
    """Replay the public ``moves`` of the two players (``player``: each one's seat to its
    number, 0 or 1) from a point where the stake was ``stake`` boots, at the heads-up game's
    prices; ``None`` if a move is by another seat or one the heads-up game does not hold. The
    one reading of a heads-up line, from the deal (:func:`~teenpatti.bots.expert.public_state`)
    or from the point where two blind players were left (:func:`locate`).

    >>> from teenpatti.engine import Action, ActionKind
    >>> chaal, see, raise_ = ActionKind.CHAAL, ActionKind.SEE, ActionKind.RAISE
    >>> moves = [Action(1, chaal), Action(2, see), Action(2, raise_)]
    >>> follow(moves, {1: 0, 2: 1}, 1)
    Line(paid=(1, 4), stake=2, seen=(False, True), paid_when_seen=(0, 0))
    >>> follow(moves, {1: 0, 2: 1}, 1).saw((1, 1))  # a boot each before: seat 2 saw on its boot
    (0, 1)
    >>> follow([Action(1, ActionKind.PACK)], {1: 0, 2: 1}, 1) is None
    True
    """
    paid = [0, 0]
    seen = [False, False]
    when = [0, 0]
    for x in moves:
        p = player.get(x.seat)
        if p is None:
            return None
        if x.kind is ActionKind.SEE:
            seen[p] = True
            when[p] = paid[p]
        elif x.kind is ActionKind.CHAAL:
            paid[p] += stake * (2 if seen[p] else 1)
        elif x.kind is ActionKind.RAISE:
            stake *= 2
            paid[p] += stake * (2 if seen[p] else 1)
        else:
            return None
    return Line((paid[0], paid[1]), stake, (seen[0], seen[1]), (when[0], when[1]))


def locate(view: HandView) -> tuple[Root, State, int] | None:
    """The root ``view``'s hand passed through (the first moment two players were left, both
    blind), the heads-up state it is at now and the viewer's player number (0: the first of
    the two after the dealer; -1 for a viewer who is not one of the two); ``None`` if the hand
    never came down to two blind players, or off the boot, or a move since then the heads-up
    game does not hold.

    >>> from teenpatti.engine import Action, ActionKind, Hand, Rules, view
    >>> hand = Hand(Rules(), [1000] * 3, dealer=0, seed=bytes(32))
    >>> _ = hand.apply(Action(2, ActionKind.RAISE))
    >>> _ = hand.apply(Action(1, ActionKind.PACK))
    >>> root, state, me = locate(view(hand, 0))
    >>> root.name, state == root.state, me
    ('endgame-3-1-d1-s2-t1-b1', True, 1)
    """
    boot = view.boot
    live = [s for s in view.seats if s.dealt and not s.packed]
    if len(live) != 2 or view.side_show is not None or view.stake % boot:
        return None
    if any(s.put_in % boot for s in view.seats if s.dealt):
        return None
    ids = {s.seat for s in live}
    first, second = (t for t in view.order if t in ids)
    actions = view.actions
    start = max((i for i, x in enumerate(actions) if x.seat not in ids), default=-1) + 1
    if start == 0 or any(x.kind is ActionKind.SEE and x.seat in ids for x in actions[:start]):
        return None  # dealt to two, or one of the two saw before the others left
    after = actions[start:]
    raises = sum(1 for x in after if x.kind is ActionKind.RAISE)
    stake = view.stake // boot
    if stake % (1 << raises):
        return None
    stake >>= raises
    player = {first: 0, second: 1}
    line = follow(after, player, stake)
    if line is None:
        return None
    a, b = view.seats[first], view.seats[second]
    put = (a.put_in // boot - line.paid[0], b.put_in // boot - line.paid[1])
    if min(put) < 1:
        return None
    if view.to_act not in player:
        return None
    turn0 = player[after[0].seat if after else view.to_act]
    dead = (view.pot - a.put_in - b.put_in) // boot
    bet_made = any(x.kind in BETS for x in actions[:start])
    root = Root(put, dead, stake, turn0, bet_made)
    state = State(
        (a.put_in // boot, b.put_in // boot),
        line.stake,
        (a.seen, b.seen),
        player[view.to_act],
        bet_made or any(x.kind in BETS for x in after),
        (0, 0),
        line.saw(put),
    )
    return root, state, player.get(view.viewer, -1) if view.viewer is not None else -1


def main(argv: list[str] | None = None) -> None:
    """``python -m teenpatti.bots.solver.endgame --root R [--root R ...] --iterations N``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--root",
        action="append",
        required=True,
        help="PUT0,PUT1,DEAD,STAKE,TURN,BET in boots (player 0: the first of the two after "
        "the dealer); several --root build several tables",
    )
    parser.add_argument(
        "--stack",
        type=int,
        action="append",
        default=None,
        help="solve on stacks of this many boots each (every --root on each; several --stack"
        " build several tables; default: full stacks)",
    )
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--tremble", type=float, default=0.001)
    parser.add_argument(
        "--state",
        type=Path,
        default=None,
        help="a folder that keeps each solve's whole state as it goes (and resumes it)",
    )
    parser.add_argument("--out", type=Path, default=FOLDER, help="the folder written to")
    args = parser.parse_args(argv)
    try:
        roots = [Root.parse(r) for r in args.root]
    except ValueError as e:
        parser.error(str(e))
    if args.stack is not None and min(args.stack) <= max(max(r.put) for r in roots):
        parser.error("a --stack must be more than either player has put in at the root")
    rules = Rules()
    for root in roots:
        for stack in args.stack or [None]:
            name = path(root, stack).stem
            state = None
            if args.state is not None:
                args.state.mkdir(parents=True, exist_ok=True)
                state = args.state / f"{name}-state.npz"
            print(name, flush=True)
            built = build(
                rules,
                args.iterations,
                tremble=args.tremble,
                state=state,
                every=100,
                root=root.state,
                dead=root.dead,
                name=name,
                chips=stack,
            )
            args.out.mkdir(parents=True, exist_ok=True)
            out = args.out / f"{name}.npz"
            if stack is None:
                game = build_abstraction(rules, root=root.state, dead=root.dead)
                built = replace(built, chips=least_stack(game))
            save(built, out)
            print(f"wrote {out} ({out.stat().st_size:,} bytes)", flush=True)


if __name__ == "__main__":
    main()
