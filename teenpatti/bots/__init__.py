"""Computer players: they get a seat's view, never the state. See :mod:`teenpatti.bots.base`."""

from .base import BOTS, Bot, DecidesActions, RandomBot, load_bot, register
from .easy import EasyBot
from .hard import HardBot
from .medium import MediumBot

register("easy", EasyBot)
register("medium", MediumBot)
register("hard", HardBot)

__all__ = [
    "BOTS",
    "Bot",
    "DecidesActions",
    "EasyBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "load_bot",
    "register",
]
