"""The hard computer player: reads every move, weighs seeing against staying blind, bluffs a little.

It plays the values of :mod:`teenpatti.bots.strategy` with full range reading (each seen chaal,
raise, side show asked, accepted or won narrows that player's range), decides when to see by
comparing the value of looking now with the value of another blind chaal, asks for and answers
side shows by their value, and bluffs at a controlled rate when every opponent has seen.

Across hands it keeps a :class:`~teenpatti.bots.model.TableModel` of the others' public
tendencies, shown every finished hand from its seat (:meth:`HardBot.observe`: the table server
and the arena's whole games call it): a seat whose seen bets are shown down on weak hands is read
as a gambler, and a seat that never packs to a raise is not bluffed.
"""

from __future__ import annotations

from ..engine.view import HandView
from .model import TableModel
from .strategy import Level, StrategyBot

__all__ = ["HARD", "HardBot"]

HARD = Level(
    name="hard",
    reads=True,
    horizon=3.0,
    blind_ev=True,
    blind_turns=99,
    blind_bonus=0.0,
    side_shows=True,
    bluff=0.03,
    stake_step=0.05,
    loose_floor=0.6,
    raise_centre=0.78,
    chaal_centre=0.6,
    blind_stay=1.0,
    to_limit=True,
)


class HardBot(StrategyBot):
    """Full range reading, value-based blind play, side shows and controlled bluffs."""

    name = "hard"
    level = HARD

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.model = TableModel()

    def observe(self, view: HandView) -> None:
        """Learn from a finished hand, as this bot's seat saw it (public facts only)."""
        self.model.observe(view)

    def gamblers(self) -> frozenset[int]:
        """Seats whose seen bets have been shown down on weak hands at this table."""
        return self.model.loose_seats()

    def bluffable(self, seat: int) -> bool:
        """Not a seat that has never packed to a raise at this table."""
        return not self.model.never_packs(seat)
