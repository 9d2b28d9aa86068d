"""A player who reads every payment at face value and presses blind players.

``reading_presser`` plays ``hard``'s values with two habits a sharp person brings to a table of
friends:

- it reads every bet as a sound player's: a player who raised blind and then bets after
  looking is read as anyone is (``hard`` takes it for a gambler), and no seat is read as a
  gambler from earlier hands;
- it presses blind players: while every other player still in is blind and the stake is below
  two boots, it raises blind once; after looking, while another player still in is blind, it
  raises with any hand of :data:`PRESS_FROM` or more on the ``u`` scale (a blind player pays half
  a seen player's price, and packs only by looking).

It is the opponent the issue's held-out measurement describes ("reads every payment as a
rational player's would be and presses blind players"), built from what is public, as a column
of ``bench/ladder.py``: at three seats of our table it beats ``hard``, which pays its raises
after a blind raise as a gambler's (docs/bots.md, section 9).

>>> from teenpatti.bots import load_bot
>>> load_bot("reading_presser", 1).name
'reading_presser'
"""

from __future__ import annotations

from dataclasses import replace

from ..engine.actions import Action, ActionKind
from ..engine.view import HandView
from .hard import HARD, HardBot
from .strategy import read

__all__ = ["PRESS_FROM", "READING", "ReadingPresser"]

READING = replace(HARD, name="reading_presser", loose_floor=HARD.floor)
"""``hard``'s level, reading a blind raiser's later bets as anyone's."""
PRESS_FROM = 0.55
"""The least hand (``u``) raised after looking while another player still in is blind."""


class ReadingPresser(HardBot):
    """``hard``'s values, every bet read at face value, blind players pressed."""

    name = "reading_presser"
    level = READING

    def gamblers(self) -> frozenset[int]:
        """Nobody: every bet is read as a sound player's."""
        return frozenset()

    def decide(self, view: HandView) -> Action:
        """A raise that presses blind players where one is open, else ``hard``'s move."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        legal = {a.kind: a for a in view.legal_actions}
        raise_ = legal.get(ActionKind.RAISE)
        if raise_ is not None and view.to_act == seat and view.side_show is None:
            others = [s for s in view.seats if s.dealt and not s.packed and s.seat != seat]
            blind = [s for s in others if not s.seen]
            you = view.seats[seat]
            if not you.seen and others and len(blind) == len(others):
                if view.stake < 2 * view.boot:
                    return raise_.action(seat)
            elif you.seen and blind:
                u = read(view, self.level, self.gamblers()).u
                if u is not None and u >= PRESS_FROM:
                    return raise_.action(seat)
        return super().decide(view)
