"""The house rules as a client sends them, typed: the preset and each option by its name in
docs/rules.md, each with the type the engine takes (its choices, true or false, a whole number).

What the type cannot say (a number's range, a preset's allowed boots, options that contradict
each other) the engine checks, in :meth:`~teenpatti.engine.rules.Rules.from_options`; and a value
of the wrong type is refused with the engine's own code and sentence (:func:`refusal`).

>>> rules = msgspec.convert({"preset": "club", "boot": 100}, HouseRules)
>>> rules.given()
{'preset': 'club', 'boot': 100}
>>> refusal("show_tie", "coin")
RulesError("show_tie cannot be 'coin' (choose one of 'asker_loses', 'split')")
"""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec import UNSET, UnsetType

from ...engine import Rules, RulesError
from ...engine.evaluate import A23, Variant
from ...engine.rules import AllIn, Bets, Direction, ShowCost, ShowSeenVsBlind, ShowTie, SideShow

__all__ = ["OPTIONS", "HouseRules", "refusal"]

Int = int | UnsetType
MaybeInt = int | None | UnsetType
Flag = bool | UnsetType


class HouseRules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A preset (``nepal`` when none is named) and the options that change it; an option left
    out keeps the preset's value."""

    preset: str | UnsetType = UNSET
    boot: Int = UNSET
    hands: Int = UNSET
    starting_chips: Int = UNSET
    direction: Direction | UnsetType = UNSET
    bets: Bets | UnsetType = UNSET
    range_max_stakes: Int = UNSET
    stake_cap_boots: MaybeInt = UNSET
    pot_limit_boots: MaybeInt = UNSET
    blind_turns_max: MaybeInt = UNSET
    see_anytime: Flag = UNSET
    show_after_bet: Flag = UNSET
    show_seen_vs_blind: ShowSeenVsBlind | UnsetType = UNSET
    show_cost: ShowCost | UnsetType = UNSET
    show_tie: ShowTie | UnsetType = UNSET
    sideshow: SideShow | UnsetType = UNSET
    sideshow_all_seen: Flag = UNSET
    a23: A23 | UnsetType = UNSET
    suits_break_ties: Flag = UNSET
    variant: Variant | UnsetType = UNSET
    muflis: Flag = UNSET
    fixed_rank: str | int | UnsetType = UNSET
    """A rank by its name (``2`` to ``10``, ``J``, ``Q``, ``K``, ``A``; ``T`` for ten)."""
    two_three_five: Flag = UNSET
    all_in: AllIn | UnsetType = UNSET
    rebuy_chips: MaybeInt = UNSET
    rebuys_max: Int = UNSET
    rebuy_until_hand: MaybeInt = UNSET

    def given(self) -> dict[str, Any]:
        """The preset and options sent, as :meth:`Rules.from_options` takes them."""
        fields = HouseRules.__struct_fields__  # not a subclass's own fields
        return {key: getattr(self, key) for key in fields if getattr(self, key) is not UNSET}


OPTIONS = frozenset(HouseRules.__struct_fields__) - {"preset"}
"""The options' names (the engine's: a test holds them equal)."""


def refusal(option: str, value: Any) -> RulesError:
    """The engine's refusal of ``value`` for ``option`` (or of ``option`` itself, if there is
    none by that name): the value did not fit the option's type."""
    try:
        Rules.from_options({option: value})
    except RulesError as error:
        return error
    return RulesError(option, f"{option} cannot be {value!r}")  # pragma: no cover - fits
