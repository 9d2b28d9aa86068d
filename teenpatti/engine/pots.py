"""Pots: how a finished hand's chips are cut into a main pot and side pots and shared out.

Pots are derived from what each seat put in this hand; nothing about them is stored. They are cut
only at the totals of all-in players still in: the main pot takes from every seat (packed ones too)
up to the smallest all-in total, the next pot up to the next all-in total, and whatever is left is
the last side pot. Each pot goes to the best hand among the players still in, leaving out the
all-in players whose total is below that pot's top: the limit binds only the all-in players. A pot
that no player may win is added to the pot below it; nothing is handed back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = ["Pot", "cut_pots", "returned", "share"]

_set = object.__setattr__


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips, the seats that could win it, and (once settled) its winners."""

    amount: int
    eligible: tuple[int, ...]
    winners: tuple[int, ...] = ()

    def __init__(
        self, amount: int, eligible: tuple[int, ...], winners: tuple[int, ...] = ()
    ) -> None:
        # what the generated initialiser does, with object.__setattr__ looked up once
        _set(self, "amount", amount)
        _set(self, "eligible", eligible)
        _set(self, "winners", winners)

    def to_json(self) -> dict[str, object]:
        """``{"amount": 60, "winners": [0]}``, as ``teenpatti replay`` prints it."""
        return {"amount": self.amount, "winners": list(self.winners)}


def cut_pots(contributed: Sequence[int], live: Sequence[bool], all_in: Sequence[bool]) -> list[Pot]:
    """Cut the chips put in into pots (without winners), main pot first.

    >>> cut_pots([50, 100, 100], [True, True, True], [True, False, False])
    [Pot(amount=150, eligible=(0, 1, 2), winners=()), Pot(amount=100, eligible=(1, 2), winners=())]
    """
    levels = sorted({contributed[s] for s in range(len(contributed)) if live[s] and all_in[s]})
    top = max(contributed, default=0)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    floor = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, floor) for c in contributed)
        eligible = tuple(
            s
            for s in range(len(contributed))
            if live[s] and (not all_in[s] or contributed[s] >= level)
        )
        if not eligible and pots:
            last = pots.pop()
            pots.append(Pot(last.amount + amount, last.eligible))
        elif amount > 0:
            pots.append(Pot(amount, eligible))
        floor = level
    return pots


def returned(contributed: Sequence[int], pots: Sequence[Pot]) -> int | None:
    """Which settled pot, if any, only hands chips back: the top of a bet nobody called.

    It is the last pot when all of it came from its single winner (who put in more than anyone
    else could match), so it is their own chips returned, not a win. Returns its index, or None.

    >>> pots = [Pot(300, (0, 1), (0,)), Pot(400, (1,), (1,))]
    >>> returned([100, 500, 100], pots)
    1
    >>> returned([100, 500, 400], [Pot(300, (0, 1, 2), (2,)), Pot(700, (1, 2), (1,))]) is None
    True
    """
    if not pots or len(pots[-1].winners) != 1:
        return None
    top, second = [*sorted(contributed, reverse=True), 0, 0][:2]
    owner = pots[-1].winners[0]
    if contributed[owner] == top > second and pots[-1].amount == top - second:
        return len(pots) - 1
    return None


def share(
    pots: Sequence[Pot], key: Callable[[int], int], order: Sequence[int]
) -> list[tuple[Pot, dict[int, int]]]:
    """Give each pot to the eligible seats with the highest ``key``; equal keys share.

    Returns each pot with its winners and the chips each winner takes, by seat. ``order`` lists
    the seats in order of play starting after the dealer: odd chips go one each to the winners in
    that order.
    """
    out: list[tuple[Pot, dict[int, int]]] = []
    rank = {seat: i for i, seat in enumerate(order)}
    for pot in pots:
        best = max(key(s) for s in pot.eligible)
        winners = sorted((s for s in pot.eligible if key(s) == best), key=rank.__getitem__)
        each, odd = divmod(pot.amount, len(winners))
        amounts = {seat: each + (1 if i < odd else 0) for i, seat in enumerate(winners)}
        out.append((Pot(pot.amount, pot.eligible, tuple(sorted(winners))), amounts))
    return out
