"""What each bet costs, from the stake and who has seen: the one place the prices are written.

The hand (:class:`teenpatti.engine.hand.Hand`) charges these prices, and the computer players
ask them here for positions they weigh but are not in (a blind player valuing the moves it would
have once it has seen), so both always agree. All amounts are in chips.

>>> from teenpatti.engine.rules import Rules
>>> chaal_cost(10, seen=False), chaal_cost(10, seen=True), raise_cost(10, seen=True)
(10, 20, 40)
>>> show_cost(Rules(), 10, seen=True, other_seen=False) is None  # forbidden at our table
True
>>> show_cost(Rules.from_options({"preset": "duo"}), 10, seen=True, other_seen=False)
20
"""

from __future__ import annotations

from .rules import Rules, ShowCost, ShowSeenVsBlind

__all__ = [
    "can_raise",
    "chaal_cost",
    "chaal_top",
    "max_chaal",
    "raise_cost",
    "show_cost",
    "side_show_cost",
]


def chaal_cost(stake: int, seen: bool) -> int:
    """A chaal: the stake blind, twice the stake seen (the least, under range bets)."""
    return stake * 2 if seen else stake


def raise_cost(stake: int, seen: bool) -> int:
    """A raise: twice the chaal (the stake doubles)."""
    return stake * 4 if seen else stake * 2


def can_raise(rules: Rules, stake: int) -> bool:
    """Whether the stake cap leaves room for a raise."""
    cap = rules.stake_cap
    return cap is None or stake * 2 <= cap


def max_chaal(rules: Rules, stake: int, seen: bool) -> int:
    """The most a chaal may carry under range bets (before the player's chips)."""
    return chaal_top(stake, seen, rules.range_max_stakes, rules.stake_cap)


def chaal_top(stake: int, seen: bool, stakes: int, cap: int | None) -> int:
    """:func:`max_chaal` from the rules' two numbers: ``stakes`` (``range_max_stakes``) and the
    stake ``cap`` in chips (``None``: no cap). The hand, which has them at hand at every move,
    asks this directly.

    >>> chaal_top(10, False, 2, None), chaal_top(10, True, 2, None), chaal_top(10, True, 4, 30)
    (20, 40, 60)
    """
    top = stake * stakes
    if seen:
        stake *= 2
        top *= 2
        if cap is not None:
            cap *= 2
    if cap is not None and top > cap:
        top = cap
    return top if top > stake else stake


def show_cost(rules: Rules, stake: int, seen: bool, other_seen: bool) -> int | None:
    """A show asked of the other player left, or ``None`` where the rules forbid it (a seen
    player asking a blind one, at tables that forbid that)."""
    vs_blind = seen and not other_seen
    if vs_blind and rules.show_seen_vs_blind is ShowSeenVsBlind.FORBIDDEN:
        return None
    cost = stake * 2 if seen else stake
    if vs_blind and rules.show_seen_vs_blind is ShowSeenVsBlind.QUADRUPLE:
        cost = stake * 4
    if rules.show_cost is ShowCost.DOUBLE:
        cost *= 2
    return cost


def side_show_cost(stake: int) -> int:
    """A side show (only a seen player asks): a seen chaal."""
    return stake * 2
