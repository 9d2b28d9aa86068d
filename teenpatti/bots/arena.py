"""The arena: computer players against each other on duplicate deals, with a confidence interval.

**Method.** Deal ``d`` (0, 1, ...) is one hand with its own 32-byte deck seed,
``HMAC-SHA256(key=arena seed, msg=b"teenpatti-arena/deal/" + d)``. The bots fill the seats in the
order given, repeating the list when there are more seats than bots (``hard medium`` at four seats:
hard, medium, hard, medium). The deal is then played once for every distinct rotation of that
line-up round the table (a rotation by ``r`` seats puts the bot of seat ``s`` into seat
``s + r``), so every bot plays every seat on the same cards; the dealer is seat ``d mod seats``.
Every seat starts the hand with ``rules.starting_chips``.

A bot's result in one play is what it won or lost in the hand, in boots. Its **per-deal result**
is the mean over all its seats in all the rotations of that deal, and its score is the mean of the
per-deal results (boots per hand), with a 95% interval of ``1.96 * sd / sqrt(deals)`` over the
per-deal results: the rotations share the cards, so the luck of the deal largely cancels inside a
deal and the deals are independent.

**Determinism.** Each bot is made afresh for every hand it plays, with a seed derived from the
arena seed, the deal, the rotation and the seat, so a result depends on nothing but the arena's
arguments: not on the order the deals are played in, nor on how many worker processes share them.
A bot therefore cannot carry memory from one hand to the next in the arena.
"""

from __future__ import annotations

import hmac
import math
import multiprocessing
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..engine.actions import Action
from ..engine.errors import IllegalAction
from ..engine.game import Game
from ..engine.hand import Hand
from ..engine.rules import Rules
from ..engine.view import view
from .base import DecidesActions, load_bot

__all__ = [
    "ArenaError",
    "ArenaResult",
    "BotResult",
    "deal_seed",
    "game_seed",
    "play_deal",
    "play_game",
    "run_arena",
    "seatings",
]

MAX_MOVES = 10_000
"""A hand that has not ended after this many moves is stopped as an error (a bot that loops)."""
_CHUNK = 200


class ArenaError(Exception):
    """A bot could not be loaded, made an illegal move or did not let the hand end."""


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot's score: boots won (lost, if negative) per hand and the 95% interval's half-width."""

    bot: str
    boots_per_hand: float
    ci95: float

    def to_json(self) -> dict[str, object]:
        """``{"bot": "hard", "boots_per_hand": 0.21, "ci95": 0.03}``."""
        return {
            "bot": self.bot,
            "boots_per_hand": round(self.boots_per_hand, 4),
            "ci95": round(self.ci95, 4),
        }


@dataclass(frozen=True, slots=True)
class ArenaResult:
    """The outcome of an arena run, one :class:`BotResult` per bot given, in the order given."""

    deals: int
    seats: int
    bots: tuple[BotResult, ...]
    games: bool = False
    """Whether each deal was a whole game (scores are then boots per game)."""

    def to_json(self) -> dict[str, object]:
        """``{"deals": D, "seats": N, "bots": [...]}``; for whole games ``"games": true`` and
        each bot's score is ``boots_per_game``."""
        bots = [b.to_json() for b in self.bots]
        if self.games:
            for b in bots:
                b["boots_per_game"] = b.pop("boots_per_hand")
                b["ci95"] = b.pop("ci95")
        out: dict[str, object] = {"deals": self.deals, "seats": self.seats, "bots": bots}
        if self.games:
            out["games"] = True
        return out


def deal_seed(seed: int, deal: int) -> bytes:
    """The 32-byte deck seed of deal number ``deal`` of the arena run with ``seed``."""
    key = seed.to_bytes(16, "big", signed=True)
    return hmac.digest(key, b"teenpatti-arena/deal/%d" % deal, "sha256")


def _bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    key = seed.to_bytes(16, "big", signed=True)
    msg = b"teenpatti-arena/bot/%d/%d/%d" % (deal, rotation, seat)
    return int.from_bytes(hmac.digest(key, msg, "sha256")[:8], "big")


def seatings(bots: int, seats: int) -> list[tuple[int, ...]]:
    """The distinct rotations of the line-up: for each, the index of the bot in every seat.

    >>> seatings(2, 4)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    >>> seatings(3, 3)
    [(0, 1, 2), (2, 0, 1), (1, 2, 0)]
    """
    if bots < 1 or seats < 2:
        raise ValueError("the arena needs at least one bot and two seats")
    lineup = [i % bots for i in range(seats)]
    out: list[tuple[int, ...]] = []
    for r in range(seats):
        seating = tuple(lineup[(s - r) % seats] for s in range(seats))
        if seating not in out:
            out.append(seating)
    return out


def _play(
    hand: Hand,
    players: Sequence[DecidesActions],
    names: Sequence[str],
    apply: Callable[[Action], Action] | None = None,
) -> None:
    apply = apply or hand.apply
    moves = 0
    while not hand.finished:
        seat = hand.actor
        assert seat is not None
        action: Action = players[seat].decide(view(hand, seat))
        if action.seat != seat:
            raise ArenaError(f"bot {names[seat]!r} in seat {seat} played for seat {action.seat}")
        try:
            apply(action)
        except IllegalAction as error:
            raise ArenaError(
                f"bot {names[seat]!r} in seat {seat} made an illegal move"
                f" {action.to_json()}: {error.code}: {error.reason}"
            ) from None
        moves += 1
        if moves > MAX_MOVES:
            raise ArenaError(f"a hand did not end after {MAX_MOVES} moves")


def play_deal(rules: Rules, specs: Sequence[str], seats: int, seed: int, deal: int) -> list[float]:
    """Play deal ``deal`` in every rotation; return each bot's per-deal result in boots."""
    hand_seed = deal_seed(seed, deal)
    totals = [0.0] * len(specs)
    counts = [0] * len(specs)
    start = [rules.starting_chips] * seats
    dealer = deal % seats
    for rotation, seating in enumerate(seatings(len(specs), seats)):
        names = [specs[b] for b in seating]
        try:
            players = [
                load_bot(specs[b], _bot_seed(seed, deal, rotation, s))
                for s, b in enumerate(seating)
            ]
        except ValueError as error:
            raise ArenaError(str(error)) from None
        hand = Hand(rules, start, dealer, seed=hand_seed)
        _play(hand, players, names)
        for s, b in enumerate(seating):
            totals[b] += (hand.chips[s] - start[s]) / rules.boot
            counts[b] += 1
    return [t / c for t, c in zip(totals, counts, strict=True)]


def game_seed(seed: int, game: int) -> bytes:
    """The 32-byte seed of game number ``game`` of a whole-games arena run with ``seed``."""
    key = seed.to_bytes(16, "big", signed=True)
    return hmac.digest(key, b"teenpatti-arena/game/%d" % game, "sha256")


def play_game(rules: Rules, specs: Sequence[str], seats: int, seed: int, game: int) -> list[float]:
    """Play whole game ``game`` (``rules.hands`` hands, chips carried from hand to hand, an early
    end when one seat holds every chip) in every rotation; return each bot's per-game result:
    the chips it finished with minus its starting chips, in boots, averaged over its seats and
    the rotations. Each bot is made once per game, so it may learn from one hand to the next
    (a bot with an ``observe(view)`` method is shown every finished hand from its seat)."""
    totals = [0.0] * len(specs)
    counts = [0] * len(specs)
    start = rules.starting_chips
    for rotation, seating in enumerate(seatings(len(specs), seats)):
        names = [specs[b] for b in seating]
        try:
            players = [
                load_bot(specs[b], _bot_seed(seed, -1 - game, rotation, s))
                for s, b in enumerate(seating)
            ]
        except ValueError as error:
            raise ArenaError(str(error)) from None
        table = Game(rules, names, game_seed(seed, game), dealer=game % seats)
        while not table.finished:
            hand = table.start_hand()
            _play(hand, players, names, table.apply)
            for s, player in enumerate(players):
                observe = getattr(player, "observe", None)
                if observe is not None and hand.dealt[s]:
                    observe(view(hand, s))
        for s, b in enumerate(seating):
            totals[b] += (table.chips[s] - start) / rules.boot
            counts[b] += 1
    return [t / c for t, c in zip(totals, counts, strict=True)]


def _play_range(
    task: tuple[Rules, tuple[str, ...], int, int, int, int, bool],
) -> list[list[float]]:
    rules, specs, seats, seed, first, stop, games = task
    play = play_game if games else play_deal
    return [play(rules, specs, seats, seed, d) for d in range(first, stop)]


def run_arena(
    specs: Sequence[str],
    *,
    seats: int,
    deals: int,
    seed: int,
    rules: Rules | None = None,
    workers: int = 1,
    progress: Callable[[int, int], None] | None = None,
    games: bool = False,
) -> ArenaResult:
    """Play ``deals`` duplicate deals among the bots named by ``specs`` (built-in names or
    ``pkg.module:Class``) at ``seats`` seats and score them (see the module docstring).

    With ``games`` each of the ``deals`` is a whole game instead of one hand (see
    :func:`play_game`): chips carry from hand to hand and the score is boots won per game.
    ``workers`` > 1 shares the deals among that many processes; the result is the same.
    ``progress(done, deals)`` is called as deals finish.
    """
    rules = rules or Rules()
    if not specs:
        raise ArenaError("name at least one bot")
    if deals < 2:
        raise ArenaError("the arena needs at least two deals for an interval")
    if not rules.min_players <= seats <= rules.max_players:
        raise ArenaError(
            f"the {rules.preset} table seats {rules.min_players} to {rules.max_players},"
            f" not {seats}"
        )
    for spec in dict.fromkeys(specs):
        try:
            load_bot(spec, 0)
        except ValueError as error:
            raise ArenaError(str(error)) from None
    names = tuple(specs)
    chunk = _CHUNK // 20 if games else _CHUNK
    tasks = [
        (rules, names, seats, seed, first, min(first + chunk, deals), games)
        for first in range(0, deals, chunk)
    ]
    sums = [0.0] * len(names)
    squares = [0.0] * len(names)
    done = 0

    def absorb(block: list[list[float]]) -> None:
        nonlocal done
        for per_bot in block:
            for b, x in enumerate(per_bot):
                sums[b] += x
                squares[b] += x * x
        done += len(block)
        if progress is not None:
            progress(done, deals)

    if workers <= 1 or len(tasks) == 1:
        for task in tasks:
            absorb(_play_range(task))
    else:
        with multiprocessing.get_context().Pool(workers) as pool:
            for block in pool.imap(_play_range, tasks):
                absorb(block)
    results = []
    for b, name in enumerate(names):
        mean = sums[b] / deals
        var = max(0.0, (squares[b] - deals * mean * mean) / (deals - 1))
        results.append(BotResult(name, mean, 1.96 * math.sqrt(var / deals)))
    return ArenaResult(deals, seats, tuple(results), games)
