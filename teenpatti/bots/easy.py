"""The easy computer player: a careful beginner who looks at once and plays the cards it holds.

It sees its cards on its first turn and then goes by its hand alone (on the ``u`` scale of
:mod:`teenpatti.bots.strategy`, so the same under every ranking and variant): it stays with an
upper-half hand, raises a very strong one, asks for a show with a good one when two are left,
packs the rest. It does not count the other players, weigh the pot against the price, ask for side
shows or bluff; of what the others did it knows one thing, that a player who looked and then
raised holds a good hand (it then pays on only with ``u >= 0.66``: without it, a player who
raises its best hands and packs the rest beat it); it accepts a side show with a good hand.
Now and then (one move in twenty) it plays the next move up or down, as a person would.
"""

from __future__ import annotations

from ..engine.actions import Action, ActionKind
from ..engine.view import HandView
from ..odds import heads_up_equity
from .base import Bot

__all__ = ["EasyBot"]


class EasyBot(Bot):
    """Looks at once, stays with the better half of hands, raises the best, never bluffs."""

    name = "easy"
    stay = 0.5
    """Least ``u`` to pay a chaal."""
    show = 0.7
    """Least ``u`` to ask for a show (two left)."""
    raise_ = 0.9
    """Least ``u`` to raise."""
    accept = 0.7
    """Least ``u`` to accept a side show."""
    wobble = 0.05
    """Chance of a move one step off."""
    respect = 0.66
    """Least ``u`` to pay on once a player still in has raised after looking."""

    def decide(self, view: HandView) -> Action:
        """Look, then stay, raise, show or pack on the strength of the hand."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        legal = {a.kind: a for a in view.legal_actions}
        you = view.seats[seat]
        if ActionKind.SEE in legal and not you.seen:
            return legal[ActionKind.SEE].action(seat)
        if you.cards is None:  # not our turn and nothing to look at: whatever is offered
            return view.legal_actions[0].action(seat)
        dead = [c for s in view.seats if s.seat != seat and s.cards for c in s.cards]
        u = heads_up_equity(you.cards, view.rules.ranking, view.wild, dead)
        u += self.rng.choice((-0.1, 0.1)) if self.rng.random() < self.wobble else 0.0
        if ActionKind.ACCEPT in legal:
            kind = ActionKind.ACCEPT if u >= self.accept else ActionKind.DECLINE
            return legal[kind].action(seat)
        # Higher stakes ask for a better hand: a little more for every doubling of the stake.
        doublings = max(0, (view.stake // view.boot).bit_length() - 1)
        need = self.stay + 0.04 * doublings
        if _raised_after_seeing(view):  # a player who looked and raised holds a good hand
            need = max(need, self.respect)
        for kind, ok in (
            (ActionKind.RAISE, u >= self.raise_),
            (ActionKind.SHOW, u >= self.show and u < self.raise_),
            (ActionKind.CHAAL, u >= need),
            (ActionKind.ALLIN, u >= need),
            (ActionKind.SHOW, u >= need),
        ):
            if ok and kind in legal:
                option = legal[kind]
                return option.action(seat, option.cost if option.max_cost > option.cost else None)
        if ActionKind.PACK in legal:
            return legal[ActionKind.PACK].action(seat)
        return view.legal_actions[0].action(seat)


def _raised_after_seeing(view: HandView) -> bool:
    """Whether a player still in raised (or chaaled above the least) after seeing its cards."""
    seen: set[int] = set()
    out = {s.seat for s in view.seats if s.packed or not s.dealt}
    stake = view.boot
    raised = False
    for action, outcome in zip(view.actions, view.outcomes, strict=True):
        before, stake = stake, outcome.stake
        if action.seat == view.viewer or action.seat in out:
            continue
        if action.kind is ActionKind.SEE:
            seen.add(action.seat)
        elif action.seat in seen and stake > before:
            raised = True
    return raised
