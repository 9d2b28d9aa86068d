"""Computer players: they get a seat's view, never the state. See :mod:`teenpatti.bots.base`."""

from .base import BOTS, Bot, DecidesActions, RandomBot, load_bot, register
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .medium import MediumBot
from .presser import ReadingPresser
from .styles import STYLES

register("easy", EasyBot)
register("medium", MediumBot)
register("hard", HardBot)
register("expert", ExpertBot)
for _name, _style in STYLES.items():
    register(_name, _style)
register("reading_presser", ReadingPresser)

__all__ = [
    "BOTS",
    "Bot",
    "DecidesActions",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "MediumBot",
    "RandomBot",
    "ReadingPresser",
    "load_bot",
    "register",
]
