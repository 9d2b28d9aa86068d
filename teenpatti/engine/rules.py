"""Rules: a frozen set of house rules, the five presets, and the checks that refuse a bad option.

``Rules.from_options({"preset": "club", "boot": 100})`` starts from a preset and changes the options
named; every option has the name it has in ``docs/rules.md``. An unknown option, a value an option
cannot take or two options that contradict each other raise :class:`RulesError` naming the option.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any

from .errors import RulesError
from .evaluate import A23, Ranking, Variant

__all__ = [
    "OPTION_NAMES",
    "PRESETS",
    "RULES_EDITION",
    "AllIn",
    "Bets",
    "Direction",
    "Rules",
    "ShowCost",
    "ShowSeenVsBlind",
    "ShowTie",
    "SideShow",
    "Variant",
    "catalogue",
    "preset",
]


class Direction(StrEnum):
    """Which way play passes. Seats are numbered clockwise; anticlockwise play goes to seat - 1."""

    ANTICLOCKWISE = "anticlockwise"
    CLOCKWISE = "clockwise"


class Bets(StrEnum):
    """``double``: a chaal or a raise of twice the chaal; ``range``: any whole amount between."""

    DOUBLE = "double"
    RANGE = "range"


class ShowSeenVsBlind(StrEnum):
    """Whether a seen player may ask a blind player for a show: never, at the normal cost (the
    seen chaal), or at four stakes."""

    FORBIDDEN = "forbidden"
    ALLOWED = "allowed"
    QUADRUPLE = "quadruple"


class ShowCost(StrEnum):
    """What a show costs: the chaal, or double (blind two stakes, seen four)."""

    CHAAL = "chaal"
    DOUBLE = "double"


class ShowTie(StrEnum):
    """Equal hands at a show: the asker loses, or the pot is split."""

    ASKER_LOSES = "asker_loses"
    SPLIT = "split"


class SideShow(StrEnum):
    """Whom a seen player may ask for a side show: the previous player, any seen player, nobody."""

    PREVIOUS = "previous"
    ANY_SEEN = "any_seen"
    OFF = "off"


class AllIn(StrEnum):
    """What happens once a player has put in their last chip.

    ``showdown``: betting stops and everyone still in shows at once (our table). ``two_left``:
    there is no showdown among three or more; with three or more still in, a player with no
    chips left can only pack when their turn comes, and an all in is a show between the last two.
    """

    SHOWDOWN = "showdown"
    TWO_LEFT = "two_left"


RULES_EDITION = 2
"""The edition of the rules this engine plays by default. Edition 1 settled a show whose own
payment brought the pot to its limit as a show (equal hands against the asker); edition 2
(docs/rules.md, decision 14) lets the pot limit's showdown decide, equal best hands sharing.
Tables and hand histories name their edition, so a game stored under edition 1 replays as it was
played."""
_EDITIONS = (1, 2)

_RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_NEPAL_BOOTS = (5, 10, 20, 50)
_NEPAL_HANDS = (10, 20, 30)


@dataclass(frozen=True, slots=True)
class Rules:
    """One table's rules. Build it with :meth:`from_options` or :func:`preset`; it never changes.

    Amounts are in chips; ``stake_cap_boots`` and ``pot_limit_boots`` count boots (``None`` is no
    limit). ``rebuy_chips`` (``None``: no rebuys) is what a player out of chips may buy back in
    for, ``rebuys_max`` times in a game, for hands up to ``rebuy_until_hand`` (``None``: any).
    """

    preset: str = "nepal"
    min_players: int = 2
    max_players: int = 6
    boot: int = 10
    hands: int = 20
    starting_chips: int = 1000
    direction: Direction = Direction.ANTICLOCKWISE
    bets: Bets = Bets.DOUBLE
    range_max_stakes: int = 2
    stake_cap_boots: int | None = 8
    pot_limit_boots: int | None = 100
    blind_turns_max: int | None = None
    see_anytime: bool = False
    show_after_bet: bool = False
    show_seen_vs_blind: ShowSeenVsBlind = ShowSeenVsBlind.FORBIDDEN
    show_cost: ShowCost = ShowCost.CHAAL
    show_tie: ShowTie = ShowTie.ASKER_LOSES
    sideshow: SideShow = SideShow.PREVIOUS
    sideshow_all_seen: bool = False
    a23: A23 = A23.SECOND
    suits_break_ties: bool = False
    variant: Variant = Variant.STANDARD
    muflis: bool = False
    fixed_rank: str = "2"
    two_three_five: bool = False
    all_in: AllIn = AllIn.SHOWDOWN
    rebuy_chips: int | None = None
    rebuys_max: int = 1
    rebuy_until_hand: int | None = None
    edition: int = RULES_EDITION
    """Which edition of the rules (:data:`RULES_EDITION`): not a house rule a host chooses, but
    what a stored game was played by (see :meth:`of_edition`)."""

    # ----------------------------------------------------------------- construction
    @classmethod
    def from_options(cls, options: Mapping[str, Any] | None = None, **more: Any) -> Rules:
        """Rules from a preset name (key ``preset``, default ``nepal``) and house-rule options.

        >>> Rules.from_options({"preset": "duo"}).boot
        2
        >>> Rules.from_options(preset="nepal", boot=7)
        Traceback (most recent call last):
        ...
        teenpatti.engine.errors.RulesError: boot must be 5, 10, 20 or 50 at the nepal table, not 7
        """
        merged: dict[str, Any] = dict(options or {})
        merged.update(more)
        name = merged.pop("preset", "nepal")
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(
                None, f"unknown preset {name!r} (choose one of {', '.join(sorted(PRESETS))})"
            )
        base = PRESETS[name]
        changes: dict[str, Any] = {}
        for key, value in merged.items():
            if key not in OPTION_NAMES:
                raise RulesError(key, f"unknown house-rule option {key!r}")
            changes[key] = _coerce(key, value)
        if changes.get("variant") is Variant.MUFLIS:  # the old spelling of muflis, no wild cards
            changes["variant"] = Variant.STANDARD
            changes.setdefault("muflis", True)
        if changes.get("sideshow") is SideShow.OFF and "sideshow_all_seen" not in changes:
            changes["sideshow_all_seen"] = False  # a preset's all-seen condition has no side show
        rules = replace(base, **changes)
        rules.check()
        return rules

    def of_edition(self, edition: int) -> Rules:
        """These rules as ``edition`` played them (a stored game names its edition).

        >>> Rules().of_edition(1).edition, Rules().edition
        (1, 2)
        >>> Rules().of_edition(7)
        Traceback (most recent call last):
        ...
        teenpatti.engine.errors.RulesError: unknown rules edition 7 (this engine plays 1 and 2)
        """
        if isinstance(edition, bool) or edition not in _EDITIONS:
            raise RulesError(
                "edition",
                f"unknown rules edition {edition!r} (this engine plays"
                f" {', '.join(map(str, _EDITIONS[:-1]))} and {_EDITIONS[-1]})",
            )
        return self if edition == self.edition else replace(self, edition=edition)

    def check(self) -> None:
        """Raise :class:`RulesError` if these rules are contradictory or out of range."""
        if self.preset == "nepal":
            if self.boot not in _NEPAL_BOOTS:
                raise RulesError(
                    "boot", f"boot must be 5, 10, 20 or 50 at the nepal table, not {self.boot}"
                )
            if self.hands not in _NEPAL_HANDS:
                raise RulesError(
                    "hands", f"hands must be 10, 20 or 30 at the nepal table, not {self.hands}"
                )
        for name in (
            "boot",
            "hands",
            "starting_chips",
            "stake_cap_boots",
            "pot_limit_boots",
            "blind_turns_max",
            "rebuy_chips",
            "rebuys_max",
            "rebuy_until_hand",
        ):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise RulesError(name, f"{name} must be at least 1, not {value}")
        if self.starting_chips < self.boot:
            raise RulesError(
                "starting_chips",
                f"starting_chips ({self.starting_chips}) cannot be below the boot ({self.boot})",
            )
        if self.range_max_stakes < 2:
            raise RulesError(
                "range_max_stakes",
                f"range_max_stakes must be at least 2 (a blind bet of 1 to 2 stakes), not"
                f" {self.range_max_stakes}",
            )
        if self.range_max_stakes != 2 and self.bets is not Bets.RANGE:
            raise RulesError(
                "range_max_stakes",
                "range_max_stakes (bigger bets) needs bets: range, where a bet is any amount",
            )
        if self.fixed_rank not in _RANK_NAMES:
            raise RulesError(
                "fixed_rank",
                f"fixed_rank must be a rank, 2 to 10, J, Q, K or A, not {self.fixed_rank!r}",
            )
        if self.fixed_rank != "2" and self.variant is not Variant.FIXED_RANK:
            raise RulesError(
                "fixed_rank", "fixed_rank names the wild rank of variant fixed_rank only"
            )
        if self.variant is Variant.MUFLIS:
            raise RulesError("variant", "muflis is the option muflis: true")
        if self.all_in is AllIn.TWO_LEFT and self.pot_limit_boots is not None:
            raise RulesError(
                "pot_limit_boots",
                "a pot limit makes everyone still in show at once, and all_in: two_left has no"
                " showdown among three or more: choose no pot limit or all_in: showdown",
            )
        if self.rebuy_chips is None and (self.rebuys_max != 1 or self.rebuy_until_hand):
            key = "rebuys_max" if self.rebuys_max != 1 else "rebuy_until_hand"
            raise RulesError(key, f"{key} needs rebuy_chips: the chips a rebuy gives")
        if self.rebuy_until_hand is not None and self.rebuy_until_hand > self.hands:
            raise RulesError(
                "rebuy_until_hand",
                f"rebuy_until_hand ({self.rebuy_until_hand}) is past the last hand ({self.hands})",
            )
        if self.sideshow is SideShow.OFF and self.sideshow_all_seen:
            raise RulesError(
                "sideshow_all_seen",
                "sideshow_all_seen cannot be true when sideshow is off: there is no side show",
            )

    # ----------------------------------------------------------------- derived amounts
    @property
    def stake_cap(self) -> int | None:
        """The highest stake in chips, or ``None``."""
        return None if self.stake_cap_boots is None else self.stake_cap_boots * self.boot

    @property
    def pot_limit(self) -> int | None:
        """The pot, in chips, at which betting stops and everyone still in shows; or ``None``."""
        return None if self.pot_limit_boots is None else self.pot_limit_boots * self.boot

    @property
    def ranking(self) -> Ranking:
        """The options that decide which hand beats which (made once for these rules: every
        hand dealt and every computer's reading asks, and one object is cheap to look up by)."""
        known = _RANKINGS.get(id(self))
        if known is not None and known[0] is self:
            return known[1]
        ranking = Ranking(
            a23=self.a23,
            suits_break_ties=self.suits_break_ties,
            two_three_five=self.two_three_five,
            variant=self.variant,
            muflis=self.muflis,
            fixed_rank=_RANK_NAMES.index(self.fixed_rank)
            if self.variant is Variant.FIXED_RANK
            else None,
        )
        if len(_RANKINGS) >= _RANKINGS_KEPT:
            _RANKINGS.clear()
        _RANKINGS[id(self)] = (self, ranking)
        return ranking

    def options(self) -> dict[str, Any]:
        """Every option by its name, as plain JSON values, with the preset."""
        out: dict[str, Any] = {"preset": self.preset}
        for key, value in asdict(self).items():
            if key in OPTION_NAMES:
                out[key] = value.value if isinstance(value, StrEnum) else value
        return out

    def changed_options(self) -> dict[str, Any]:
        """The preset and only the options that differ from it (what a hand history records).

        Worked out once for each set of rules (a table asks at every hand's end); each call
        returns its own copy.
        """
        return dict(_changed_options(self))


_RANKINGS: dict[int, tuple[Rules, Ranking]] = {}
""":attr:`Rules.ranking` by the identity of the rules (each entry holds its rules, so an identity
is not reused while it is kept; rules are made once per table and kept)."""
_RANKINGS_KEPT = 1024


@lru_cache(maxsize=1024)
def _changed_options(rules: Rules) -> dict[str, Any]:
    base = PRESETS[rules.preset].options()
    return {k: v for k, v in rules.options().items() if k == "preset" or base.get(k) != v}


_ENUMS: dict[str, type[StrEnum]] = {
    "direction": Direction,
    "bets": Bets,
    "show_seen_vs_blind": ShowSeenVsBlind,
    "show_cost": ShowCost,
    "show_tie": ShowTie,
    "sideshow": SideShow,
    "a23": A23,
    "variant": Variant,
    "all_in": AllIn,
}
_BOOLS = (
    "see_anytime",
    "show_after_bet",
    "sideshow_all_seen",
    "suits_break_ties",
    "two_three_five",
    "muflis",
)
_INTS = ("boot", "hands", "starting_chips", "range_max_stakes", "rebuys_max")
_OPTIONAL_INTS = (
    "stake_cap_boots",
    "pot_limit_boots",
    "blind_turns_max",
    "rebuy_chips",
    "rebuy_until_hand",
)

OPTION_NAMES: frozenset[str] = frozenset((*_ENUMS, *_BOOLS, *_INTS, *_OPTIONAL_INTS, "fixed_rank"))
"""The house-rule options by their names in ``docs/rules.md``."""


def _coerce(key: str, value: Any) -> Any:
    if key in _ENUMS:
        enum = _ENUMS[key]
        try:
            return enum(value)
        except ValueError:
            allowed = ", ".join(repr(e.value) for e in enum)
            raise RulesError(key, f"{key} cannot be {value!r} (choose one of {allowed})") from None
    if key == "fixed_rank":
        text = str(value).upper() if isinstance(value, (str, int)) else None
        text = "10" if text == "T" else text
        if isinstance(value, bool) or text not in _RANK_NAMES:
            raise RulesError(
                key, f"fixed_rank must be a rank, 2 to 10, J, Q, K or A, not {value!r}"
            )
        return text
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(key, f"{key} must be true or false, not {value!r}")
        return value
    if value is None and key in _OPTIONAL_INTS:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        what = "a whole number or null" if key in _OPTIONAL_INTS else "a whole number"
        raise RulesError(key, f"{key} must be {what}, not {value!r}")
    return value


PRESETS: dict[str, Rules] = {
    "nepal": Rules(),
    "classic": Rules(
        preset="classic",
        min_players=3,
        max_players=8,
        direction=Direction.CLOCKWISE,
        bets=Bets.RANGE,
        stake_cap_boots=None,
        pot_limit_boots=None,
        sideshow_all_seen=True,
        all_in=AllIn.TWO_LEFT,
    ),
    "club": Rules(
        preset="club",
        min_players=2,
        max_players=10,
        direction=Direction.CLOCKWISE,
        boot=50,
        starting_chips=12800,
        stake_cap_boots=32,
        pot_limit_boots=256,
        see_anytime=True,
    ),
    "duo": Rules(
        preset="duo",
        min_players=2,
        max_players=2,
        boot=2,
        hands=10,
        starting_chips=100,
        stake_cap_boots=8,
        pot_limit_boots=50,
        show_after_bet=True,
        show_seen_vs_blind=ShowSeenVsBlind.ALLOWED,
    ),
    "limited": Rules(
        preset="limited",
        min_players=2,
        max_players=6,
        direction=Direction.CLOCKWISE,
        boot=2,
        starting_chips=2048,
        blind_turns_max=4,
        stake_cap_boots=64,
        pot_limit_boots=1024,
        show_seen_vs_blind=ShowSeenVsBlind.ALLOWED,
    ),
    "limited2": Rules(
        preset="limited2",
        min_players=2,
        max_players=6,
        direction=Direction.CLOCKWISE,
        boot=4,
        starting_chips=4096,
        blind_turns_max=4,
        stake_cap_boots=64,
        pot_limit_boots=1024,
        show_seen_vs_blind=ShowSeenVsBlind.ALLOWED,
    ),
}
"""The presets: ``nepal`` (our table, the default), the four other tables, and ``limited2``, the
second level of the ``limited`` table (boot 4)."""


def preset(name: str = "nepal") -> Rules:
    """The rules of a preset, unchanged."""
    return Rules.from_options({"preset": name})


assert {f.name for f in fields(Rules)} >= OPTION_NAMES


def catalogue() -> dict[str, Any]:
    """Every preset and house-rule option as plain JSON values: what a client offers and checks.

    ``presets`` gives each preset's seats, every option's value and, where a preset allows only some
    values of an option, those values (``only``); ``options`` gives each option's kind and values
    (``choice`` and ``bool``) or least value (``int``, ``null`` saying whether it may be unset).

    >>> cat = catalogue()
    >>> cat["default"], cat["presets"]["nepal"]["only"]["boot"]
    ('nepal', [5, 10, 20, 50])
    >>> cat["options"]["sideshow"]
    {'kind': 'choice', 'values': ['previous', 'any_seen', 'off']}
    >>> cat["options"]["blind_turns_max"]
    {'kind': 'int', 'min': 1, 'null': True}
    >>> cat["options"]["fixed_rank"]["values"][-4:], cat["options"]["range_max_stakes"]["min"]
    (['J', 'Q', 'K', 'A'], 2)
    """
    options: dict[str, dict[str, Any]] = {}
    for field in fields(Rules):
        key = field.name
        if key in _ENUMS:
            options[key] = {"kind": "choice", "values": [e.value for e in _ENUMS[key]]}
        elif key == "fixed_rank":
            options[key] = {"kind": "choice", "values": list(_RANK_NAMES)}
        elif key in _BOOLS:
            options[key] = {"kind": "bool", "values": [False, True]}
        elif key in OPTION_NAMES:
            least = 2 if key == "range_max_stakes" else 1  # as check() holds them
            options[key] = {"kind": "int", "min": least, "null": key in _OPTIONAL_INTS}
    only = {"nepal": {"boot": list(_NEPAL_BOOTS), "hands": list(_NEPAL_HANDS)}}
    presets = {
        name: {
            "seats": {"min": rules.min_players, "max": rules.max_players},
            "options": {k: v for k, v in rules.options().items() if k != "preset"},
            "only": only.get(name, {}),
        }
        for name, rules in PRESETS.items()
    }
    return {"default": "nepal", "presets": presets, "options": options}
