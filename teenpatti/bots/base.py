"""The computer-player interface: a bot sees what a person in its seat would see, and no more.

A bot gets the seat's :class:`~teenpatti.engine.view.HandView` (its own cards only once it has
seen them, the public actions so far, and its legal actions with their costs) and returns an
:class:`~teenpatti.engine.actions.Action` for that seat, including the answer to a side-show
request. It never receives the :class:`~teenpatti.engine.hand.Hand`, so it cannot read another
seat's cards or the deck.

Anyone can write one: subclass :class:`Bot` (or provide any object with the same ``decide``) and
load it by import path, ``package.module:Class``, with :func:`load_bot`.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine.actions import Action, ActionKind
from ..engine.view import HandView

__all__ = ["BOTS", "Bot", "DecidesActions", "RandomBot", "load_bot", "register"]


@runtime_checkable
class DecidesActions(Protocol):
    """What the table asks of a computer player."""

    name: str

    def decide(self, view: HandView) -> Action:
        """Choose an action for ``view.viewer`` from ``view.legal_actions``."""
        ...


class Bot:
    """Base class for computer players: a name and a seeded random source.

    ``seed`` makes a bot's choices reproducible (the arena and the tests rely on it).
    """

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self._seed = seed
        self._rng: random.Random | None = None

    @property
    def rng(self) -> random.Random:
        """The bot's random source, seeded with ``seed``; made when first used (seeding costs
        more than most decisions, and many bots never draw: the arena makes one per hand)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    @rng.setter
    def rng(self, rng: random.Random) -> None:
        self._rng = rng

    def decide(self, view: HandView) -> Action:
        """Choose an action for ``view.viewer`` from ``view.legal_actions``."""
        raise NotImplementedError


class RandomBot(Bot):
    """The baseline: any legal action, uniformly (a random amount under range bets; it never
    looks at its cards on purpose, so it sees only when ``see`` happens to be drawn)."""

    name = "random"

    def decide(self, view: HandView) -> Action:
        """A uniformly random legal action."""
        seat = view.viewer
        assert seat is not None, "a spectator does not act"
        choice = self.rng.choice(view.legal_actions)
        amount = None
        if choice.kind is ActionKind.CHAAL and choice.max_cost > choice.cost:
            amount = self.rng.randint(choice.cost, choice.max_cost)
        target = self.rng.choice(choice.targets) if choice.kind is ActionKind.SIDESHOW else None
        return choice.action(seat, amount, target)


BOTS: dict[str, Callable[[int | None], DecidesActions]] = {"random": RandomBot}
"""The built-in computer players by name."""


def register(name: str, factory: Callable[[int | None], DecidesActions]) -> None:
    """Make a computer player available by ``name``."""
    BOTS[name] = factory


def load_bot(spec: str, seed: int | None = None) -> DecidesActions:
    """A bot by built-in name (``random``, ``easy``, ...) or import path (``pkg.module:Class``)."""
    if spec in BOTS:
        return BOTS[spec](seed)
    module_name, sep, attr = spec.partition(":")
    if not sep or not module_name or not attr:
        known = ", ".join(sorted(BOTS))
        raise ValueError(
            f"unknown bot {spec!r}: use one of {known} or an import path pkg.module:Class"
        )
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot load bot {spec!r}: {error}") from None
    bot = factory(seed)
    if not isinstance(bot, DecidesActions):
        raise ValueError(f"{spec!r} is not a bot: it needs a name and a decide(view) method")
    return bot
