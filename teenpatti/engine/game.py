"""A game: a run of hands at one table, the deal moving round, and the final standings.

Everyone starts with the rules' ``starting_chips``. After each hand the deal moves one seat in the
direction of play, to the next seat that still has chips; a seat with no chips sits out the rest of
the game. The game ends after ``rules.hands`` hands, or at once when one seat holds every chip.
Most chips wins; equal chips share a place.

Under the rebuy house rule (``rules.rebuy_chips``), a player out of chips may buy back in
(:meth:`Game.rebuy`) for that many chips, ``rules.rebuys_max`` times a game, for hands up to
``rules.rebuy_until_hand``: the chips are theirs from the next hand dealt. The standings then rank
by chips less the chips bought (``net``), so a rebuy is no win. A game where one seat holds every
chip is over at once, rebuys or not.

Every hand's deck comes from its own 32-byte seed. By default a hand's seed is derived from the
game's seed (HMAC-SHA256 of ``b"teenpatti-hand/" + hand number``), so a whole game is determined by
one seed; a server that publishes a fresh seed per hand passes it to :meth:`Game.start_hand`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .actions import Action
from .deck import Shuffle
from .errors import IllegalAction
from .hand import Hand
from .history import EVERYONE, Everyone, export
from .rules import Direction, Rules

__all__ = ["Game", "Standing"]


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place at the end (equal chips share a place: 1, 1, 3); with rebuys, the place
    is by ``net``: the chips less those bought (``rebuys`` of them)."""

    place: int
    seat: int
    name: str
    chips: int
    rebuys: int = 0
    net: int | None = None
    """The chips less the rebuys' chips (``None``: the same as ``chips``, no rebuy)."""


class Game:
    """A game of ``rules.hands`` hands among ``players`` (their names, clockwise)."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        seed: bytes,
        *,
        dealer: int = 0,
    ) -> None:
        if not rules.min_players <= len(players) <= rules.max_players:
            raise IllegalAction(
                "game/players",
                f"the {rules.preset} table seats {rules.min_players} to {rules.max_players}"
                f" players, not {len(players)}",
            )
        if not 0 <= dealer < len(players):
            raise IllegalAction("hand/dealer", f"there is no seat {dealer} to deal")
        if len(seed) != 32:
            raise ValueError("a game's seed is 32 bytes")
        self.rules = rules
        self.names: list[str] = list(players)
        self.seed = seed
        self.chips: list[int] = [rules.starting_chips] * len(players)
        self.dealer = dealer
        self.rebuys: list[int] = [0] * len(players)
        """How many times each seat has bought back in this game."""
        self._bought: dict[int, int] = {}
        """Chips bought during a hand, by seat: theirs when it ends."""
        self.hand: Hand | None = None
        self.hands_played = 0
        self.played: list[Hand] = []
        """Every finished hand, first first."""
        self.played_names: list[tuple[str, ...]] = []
        """Who held each seat in each finished hand (a seat may change hands between hands: a
        person arriving late takes a computer's seat), so a past hand credits each move to
        whoever made it."""
        self._dealt_names: tuple[str, ...] = tuple(players)

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.names)

    @property
    def hand_number(self) -> int:
        """The number of the hand in play, or of the last one (1 for the first hand)."""
        return self.hands_played + (1 if self.hand is not None and not self.hand.finished else 0)

    @property
    def finished(self) -> bool:
        """Whether the game is over: every hand played, or one seat holds every chip."""
        if self.hand is not None and not self.hand.finished:
            return False
        if self.hands_played >= self.rules.hands:
            return True
        return sum(1 for c in self.chips if c > 0) < 2

    @property
    def histories(self) -> list[dict[str, Any]]:
        """Every finished hand, complete (every card, every seed), in the ``teenpatti-hand/1``
        format."""
        return self.histories_for()

    def histories_for(
        self, viewer: int | Everyone | None = EVERYONE, *, reveal: bool = True
    ) -> list[dict[str, Any]]:
        """Every finished hand as ``viewer`` may have it: only the cards the rules showed it
        (``EVERYONE``: every card), and the hands' secrets only if ``reveal`` (see
        :func:`~teenpatti.engine.history.export`)."""
        return [
            export(hand, names, viewer=viewer, reveal=reveal, number=k)
            for k, (hand, names) in enumerate(zip(self.played, self.played_names, strict=True), 1)
        ]

    def hand_seed(self, number: int) -> bytes:
        """The seed of hand ``number`` (1, 2, ...) derived from the game's seed."""
        return hmac.new(self.seed, b"teenpatti-hand/%d" % number, hashlib.sha256).digest()

    def start_hand(self, seed: bytes | Shuffle | None = None) -> Hand:
        """Deal the next hand (boots paid) and return it."""
        if self.finished:
            raise IllegalAction("game/over", "the game is over")
        if self.hand is not None and not self.hand.finished:
            raise IllegalAction("game/hand_in_play", "the hand in play is not over")
        number = self.hands_played + 1
        self._dealt_names = tuple(self.names)
        self.hand = Hand(self.rules, self.chips, self.dealer, seed=seed or self.hand_seed(number))
        if self.hand.finished:
            self._end_hand()
        return self.hand

    def apply(self, action: Action) -> Action:
        """Play ``action`` in the hand in play (see :meth:`Hand.apply`)."""
        if self.hand is None or self.hand.finished:
            raise IllegalAction("hand/over", "no hand is in play")
        done = self.hand.apply(action)
        if self.hand.finished:
            self._end_hand()
        return done

    def check_rebuy(self, seat: int) -> int:
        """The chips ``seat`` may buy back in for now, or :class:`IllegalAction`: ``rebuy/off``
        (the table plays without rebuys), ``rebuy/over`` (the game is over, or its last hand for
        rebuys is dealt), ``rebuy/has_chips`` (only a player out of chips buys back in),
        ``rebuy/used`` (``rebuys_max`` reached), ``seat/unknown``."""
        chips = self.rules.rebuy_chips
        if chips is None:
            raise IllegalAction("rebuy/off", "this table plays without rebuys")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.seats:
            raise IllegalAction("seat/unknown", f"there is no seat {seat!r}")
        until = self.rules.rebuy_until_hand
        next_hand = self.hands_played + 1  # the hand the chips would play from
        if self.finished or (until is not None and next_hand > until):
            raise IllegalAction("rebuy/over", "rebuys are over for this game")
        in_play = self.hand is not None and not self.hand.finished
        held = self.hand.chips[seat] if in_play and self.hand is not None else self.chips[seat]
        if held > 0 or seat in self._bought:
            raise IllegalAction("rebuy/has_chips", "only a player out of chips buys back in")
        if self.rebuys[seat] >= self.rules.rebuys_max:
            raise IllegalAction(
                "rebuy/used", f"a player buys back in at most {self.rules.rebuys_max} times"
            )
        return chips

    def bought_in(self, seat: int) -> bool:
        """Whether ``seat`` bought back in during the hand in play (its chips come with the
        next hand)."""
        return seat in self._bought

    def rebuy(self, seat: int) -> int:
        """``seat`` buys back in (checked by :meth:`check_rebuy`); the chips play from the next
        hand dealt. Returns the chips bought.

        >>> from .rules import Rules
        >>> game = Game(Rules.from_options(rebuy_chips=500), ["A", "B", "C"], bytes(32))
        >>> game.chips[2] = 0
        >>> game.rebuy(2), game.chips, game.rebuys
        (500, [1000, 1000, 500], [0, 0, 1])
        >>> game.rebuy(2)
        Traceback (most recent call last):
        ...
        teenpatti.engine.errors.IllegalAction: only a player out of chips buys back in
        """
        chips = self.check_rebuy(seat)
        self.rebuys[seat] += 1
        if self.hand is not None and not self.hand.finished:
            self._bought[seat] = chips
        else:
            self.chips[seat] += chips
        return chips

    def _end_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.finished
        self.hands_played += 1
        self.chips = list(hand.chips)
        for seat, chips in self._bought.items():
            self.chips[seat] += chips
        self._bought.clear()
        self.played.append(hand)
        self.played_names.append(self._dealt_names)
        step = -1 if self.rules.direction is Direction.ANTICLOCKWISE else 1
        n = self.seats
        for k in range(1, n + 1):
            seat = (self.dealer + step * k) % n
            if self.chips[seat] > 0:
                self.dealer = seat
                break

    def standings(self) -> list[Standing]:
        """Everyone by chips (less the chips bought back in), most first; equal share a place."""
        bought = self.rules.rebuy_chips or 0
        net = [c - bought * n for c, n in zip(self.chips, self.rebuys, strict=True)]
        ranked = sorted(range(self.seats), key=lambda s: (-net[s], s))
        out: list[Standing] = []
        for i, seat in enumerate(ranked):
            place = out[-1].place if out and net[out[-1].seat] == net[seat] else i + 1
            rebuys = self.rebuys[seat]
            out.append(
                Standing(
                    place,
                    seat,
                    self.names[seat],
                    self.chips[seat],
                    rebuys,
                    net[seat] if rebuys else None,
                )
            )
        return out
