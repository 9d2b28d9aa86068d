"""The medium computer player: counts the players, weighs the pot, uses side shows.

It plays the values of :mod:`teenpatti.bots.strategy` with a coarse reading of the others (a
player who stays after seeing is taken to hold an upper-half hand, one who raises after seeing a
hand above 0.65; nothing finer), stays blind for
up to two turns while the stake is low, asks for and accepts side shows when they pay, and never
bluffs.
"""

from __future__ import annotations

from .strategy import Level, StrategyBot

__all__ = ["MEDIUM", "MediumBot"]

MEDIUM = Level(
    name="medium",
    reads=False,
    horizon=2.0,
    blind_ev=False,
    blind_turns=2,
    blind_bonus=0.0,
    side_shows=True,
    bluff=0.0,
    stake_step=0.07,
    coarse_raise=0.65,
    blind_stay=1.0,
    to_limit=True,
)


class MediumBot(StrategyBot):
    """Pot odds and player counts, a coarse read of the others, side shows, no bluffs."""

    name = "medium"
    level = MEDIUM
