"""Rules and presets: the preset table of docs/rules.md, every option, and every refusal."""

from __future__ import annotations

from typing import Any

import pytest

from teenpatti.engine import PRESETS, Rules, RulesError, preset
from teenpatti.engine.rules import OPTION_NAMES

# What rules.md's preset table (and the option table's defaults) say each preset is.
EXPECTED_PRESETS: dict[str, dict[str, Any]] = {
    "nepal": {
        "min_players": 2,
        "max_players": 6,
        "boot": 10,
        "hands": 20,
        "starting_chips": 1000,
        "direction": "anticlockwise",
        "bets": "double",
        "range_max_stakes": 2,
        "stake_cap_boots": 8,
        "pot_limit_boots": 100,
        "blind_turns_max": None,
        "see_anytime": False,
        "show_after_bet": False,
        "show_seen_vs_blind": "forbidden",
        "show_cost": "chaal",
        "show_tie": "asker_loses",
        "sideshow": "previous",
        "sideshow_all_seen": False,
        "a23": "second",
        "suits_break_ties": False,
        "variant": "standard",
        "muflis": False,
        "fixed_rank": "2",
        "two_three_five": False,
        "all_in": "showdown",
        "rebuy_chips": None,
        "rebuys_max": 1,
        "rebuy_until_hand": None,
    },
}
EXPECTED_PRESETS["classic"] = {
    **EXPECTED_PRESETS["nepal"],
    "min_players": 3,
    "max_players": 8,
    "direction": "clockwise",
    "bets": "range",
    "stake_cap_boots": None,
    "pot_limit_boots": None,
    "show_seen_vs_blind": "forbidden",
    "show_cost": "chaal",
    "sideshow_all_seen": True,
    "show_tie": "asker_loses",
    "all_in": "two_left",
}
EXPECTED_PRESETS["club"] = {
    **EXPECTED_PRESETS["nepal"],
    "min_players": 2,
    "max_players": 10,
    "direction": "clockwise",
    "boot": 50,
    "starting_chips": 12800,
    "stake_cap_boots": 32,
    "pot_limit_boots": 256,
    "see_anytime": True,
}
EXPECTED_PRESETS["duo"] = {
    **EXPECTED_PRESETS["nepal"],
    "min_players": 2,
    "max_players": 2,
    "starting_chips": 100,
    "hands": 10,
    "boot": 2,
    "stake_cap_boots": 8,
    "pot_limit_boots": 50,
    "show_after_bet": True,
    "show_seen_vs_blind": "allowed",
}
EXPECTED_PRESETS["limited"] = {
    **EXPECTED_PRESETS["nepal"],
    "min_players": 2,
    "max_players": 6,
    "direction": "clockwise",
    "boot": 2,
    "starting_chips": 2048,
    "blind_turns_max": 4,
    "stake_cap_boots": 64,
    "pot_limit_boots": 1024,
    "show_seen_vs_blind": "allowed",
}
EXPECTED_PRESETS["limited2"] = {
    **EXPECTED_PRESETS["limited"],
    "boot": 4,
    "starting_chips": 4096,
}

# Chip amounts the seeds state outright.
EXPECTED_CHIPS: dict[str, tuple[int | None, int | None]] = {
    "nepal": (80, 1000),
    "classic": (None, None),
    "club": (1600, 12800),
    "duo": (16, 100),
    "limited": (128, 2048),
    "limited2": (256, 4096),
}


def test_every_preset_exists() -> None:
    assert set(PRESETS) == set(EXPECTED_PRESETS)


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_preset_values(name: str) -> None:
    rules = preset(name)
    assert rules.preset == name
    assert rules == PRESETS[name] == Rules.from_options({"preset": name})
    for key, value in EXPECTED_PRESETS[name].items():
        assert getattr(rules, key) == value, key
    options = rules.options()
    assert options["preset"] == name
    for key, value in EXPECTED_PRESETS[name].items():
        if key not in ("min_players", "max_players"):
            assert options[key] == value, key


@pytest.mark.parametrize("name", sorted(EXPECTED_CHIPS))
def test_preset_amounts_in_chips(name: str) -> None:
    rules = preset(name)
    assert (rules.stake_cap, rules.pot_limit) == EXPECTED_CHIPS[name]


def test_nepal_is_the_default() -> None:
    assert Rules() == preset() == Rules.from_options() == Rules.from_options({}) == PRESETS["nepal"]


def test_options_by_keyword() -> None:
    rules = Rules.from_options({"preset": "club"}, boot=100, see_anytime=False)
    assert (rules.preset, rules.boot, rules.see_anytime) == ("club", 100, False)
    assert Rules.from_options(preset="duo", hands=3).hands == 3


OPTION_VALUES: list[tuple[str, str, Any]] = [
    *(("nepal", "boot", v) for v in (10, 5, 20, 50)),
    *(("nepal", "hands", v) for v in (20, 10, 30)),
    ("classic", "boot", 7),
    ("club", "boot", 1),
    ("duo", "hands", 3),
    ("limited", "hands", 1),
    *(("nepal", "starting_chips", v) for v in (1000, 50, 10)),
    ("duo", "starting_chips", 2),
    *(("nepal", "direction", v) for v in ("anticlockwise", "clockwise")),
    *(("nepal", "bets", v) for v in ("double", "range")),
    *(("nepal", "stake_cap_boots", v) for v in (8, 1, 3, 1000, None)),
    *(("nepal", "pot_limit_boots", v) for v in (100, 1, 40, None)),
    *(("nepal", "blind_turns_max", v) for v in (None, 1, 2, 3, 4)),
    *(("nepal", "see_anytime", v) for v in (False, True)),
    *(("nepal", "show_after_bet", v) for v in (False, True)),
    *(("nepal", "show_seen_vs_blind", v) for v in ("forbidden", "allowed", "quadruple")),
    *(("nepal", "show_cost", v) for v in ("chaal", "double")),
    *(("nepal", "show_tie", v) for v in ("asker_loses", "split")),
    *(("nepal", "sideshow", v) for v in ("previous", "any_seen", "off")),
    *(("nepal", "sideshow_all_seen", v) for v in (False, True)),
    *(("nepal", "a23", v) for v in ("second", "highest", "lowest")),
    *(("nepal", "suits_break_ties", v) for v in (False, True)),
    *(("nepal", "variant", v) for v in ("standard", "ak47", "jokers", "wild_rank", "fixed_rank")),
    *(("nepal", "muflis", v) for v in (False, True)),
    *(("classic", "range_max_stakes", v) for v in (2, 3, 4, 10)),
    *(("nepal", "all_in", v) for v in ("showdown",)),
    ("classic", "all_in", "showdown"),
    *(("nepal", "two_three_five", v) for v in (False, True)),
    ("classic", "sideshow_all_seen", False),
    ("limited", "blind_turns_max", None),
    ("club", "see_anytime", False),
]


@pytest.mark.parametrize(("name", "option", "value"), OPTION_VALUES)
def test_every_option_by_its_name(name: str, option: str, value: Any) -> None:
    rules = Rules.from_options({"preset": name, option: value})
    assert getattr(rules, option) == value
    assert rules.options()[option] == value
    assert rules.preset == name
    # Everything else stays as the preset has it.
    base = PRESETS[name].options()
    changed = {k for k, v in rules.options().items() if base[k] != v}
    assert changed <= {option}


def test_options_lists_every_option_of_rules_md() -> None:
    names = set(EXPECTED_PRESETS["nepal"]) - {"min_players", "max_players"}
    assert set(Rules().options()) == names | {"preset"}


@pytest.mark.parametrize("option", ["bogus", "min_players", "max_players", "Boot", "sideshows"])
def test_unknown_option_is_refused(option: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": "nepal", option: 1})
    assert info.value.option == option
    assert option in str(info.value)
    assert info.value.code == f"rules/{option}"


@pytest.mark.parametrize("name", ["texas", "Nepal", "", "standard"])
def test_unknown_preset_is_refused(name: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": name})
    assert info.value.option is None
    assert info.value.code == "rules/preset"
    assert repr(name) in str(info.value)
    with pytest.raises(RulesError):
        preset(name)


@pytest.mark.parametrize("name", [5, None, ["nepal"], True])
def test_preset_name_of_the_wrong_type_is_refused(name: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": name})
    assert info.value.option is None
    assert info.value.code == "rules/preset"


WRONG_TYPES: list[tuple[str, Any]] = [
    ("boot", "10"),
    ("boot", 10.0),
    ("boot", True),
    ("boot", None),
    ("hands", 20.5),
    ("hands", None),
    ("starting_chips", "1000"),
    ("starting_chips", None),
    ("stake_cap_boots", "8"),
    ("stake_cap_boots", False),
    ("stake_cap_boots", 8.0),
    ("pot_limit_boots", [100]),
    ("blind_turns_max", 2.5),
    ("blind_turns_max", True),
    ("see_anytime", "true"),
    ("see_anytime", 1),
    ("see_anytime", None),
    ("show_after_bet", 0),
    ("sideshow_all_seen", "false"),
    ("suits_break_ties", None),
    ("two_three_five", 1),
    ("direction", "left"),
    ("direction", 1),
    ("direction", None),
    ("bets", "any"),
    ("show_seen_vs_blind", "sometimes"),
    ("muflis", "yes"),
    ("range_max_stakes", 2.5),
    ("range_max_stakes", "3"),
    ("fixed_rank", "1"),
    ("fixed_rank", True),
    ("fixed_rank", None),
    ("all_in", "never"),
    ("show_cost", 2),
    ("show_tie", "asker"),
    ("sideshow", True),
    ("sideshow", "any"),
    ("a23", "first"),
    ("variant", "joker"),
    ("variant", ["muflis"]),
]


@pytest.mark.parametrize(("option", "value"), WRONG_TYPES)
def test_wrong_value_is_refused(option: str, value: Any) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": "club", option: value})
    assert info.value.option == option
    assert info.value.code == f"rules/{option}"
    assert option in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("boot", 0),
        ("boot", -5),
        ("hands", 0),
        ("starting_chips", 0),
        ("stake_cap_boots", 0),
        ("pot_limit_boots", 0),
        ("pot_limit_boots", -1),
        ("blind_turns_max", 0),
    ],
)
def test_amounts_below_one_are_refused(option: str, value: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": "classic", option: value})
    assert info.value.option == option


@pytest.mark.parametrize("boot", [1, 2, 7, 15, 25, 100])
def test_nepal_boot_outside_its_four_values_is_refused(boot: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"boot": boot})
    assert info.value.option == "boot"
    assert str(boot) in str(info.value)
    # Another preset takes any whole number.
    assert Rules.from_options({"preset": "club", "boot": boot}).boot == boot


@pytest.mark.parametrize("hands", [1, 5, 15, 21, 40])
def test_nepal_hands_outside_10_20_30_is_refused(hands: int) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"preset": "nepal", "hands": hands})
    assert info.value.option == "hands"
    assert str(hands) in str(info.value)
    assert Rules.from_options({"preset": "limited", "hands": hands}).hands == hands


def test_sideshow_off_with_sideshow_all_seen_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options({"sideshow": "off", "sideshow_all_seen": True})
    assert info.value.option in ("sideshow", "sideshow_all_seen")
    # The classic preset asks for every player to be seen: turning side shows off there drops
    # that condition with them, unless it is asked for in the same breath.
    rules = Rules.from_options({"preset": "classic", "sideshow": "off"})
    assert rules.sideshow == "off"
    assert rules.sideshow_all_seen is False
    with pytest.raises(RulesError):
        Rules.from_options({"preset": "classic", "sideshow": "off", "sideshow_all_seen": True})


@pytest.mark.parametrize(
    ("options", "ok"),
    [
        ({"boot": 50, "starting_chips": 49}, False),
        ({"boot": 50, "starting_chips": 50}, True),
        ({"boot": 20, "starting_chips": 10}, False),
        ({"preset": "duo", "boot": 101}, False),
        ({"preset": "duo", "boot": 100}, True),
        ({"preset": "club", "starting_chips": 49}, False),
        ({"preset": "club", "boot": 5, "starting_chips": 5}, True),
    ],
)
def test_starting_chips_below_the_boot_is_refused(options: dict[str, Any], ok: bool) -> None:
    if ok:
        rules = Rules.from_options(options)
        assert rules.starting_chips >= rules.boot
        return
    with pytest.raises(RulesError) as info:
        Rules.from_options(options)
    assert info.value.option in ("starting_chips", "boot")


def test_refusal_names_the_first_bad_option_and_changes_nothing() -> None:
    before = PRESETS["nepal"]
    with pytest.raises(RulesError):
        Rules.from_options({"see_anytime": True, "boot": 3})
    assert PRESETS["nepal"] == before
    assert PRESETS["nepal"].see_anytime is False


def test_rules_are_frozen() -> None:
    rules = preset("club")
    with pytest.raises(AttributeError):
        rules.boot = 5  # type: ignore[misc]


@pytest.mark.parametrize("name", sorted(EXPECTED_PRESETS))
def test_changed_options_of_a_preset_is_just_its_name(name: str) -> None:
    assert preset(name).changed_options() == {"preset": name}


ROUND_TRIPS: list[dict[str, Any]] = [
    {"preset": "nepal", "boot": 50, "hands": 30},
    {"preset": "nepal", "direction": "clockwise", "bets": "range", "stake_cap_boots": None},
    {"preset": "nepal", "sideshow": "any_seen", "sideshow_all_seen": True, "see_anytime": True},
    {"preset": "classic", "sideshow": "off", "sideshow_all_seen": False, "show_tie": "split"},
    {"preset": "classic", "stake_cap_boots": 4, "pot_limit_boots": 30, "all_in": "showdown"},
    {"preset": "classic", "range_max_stakes": 4, "boot": 3, "variant": "fixed_rank"},
    {"preset": "club", "variant": "fixed_rank", "fixed_rank": "Q", "muflis": True},
    {"preset": "club", "variant": "wild_rank", "a23": "lowest", "suits_break_ties": True},
    {"preset": "duo", "show_after_bet": False, "show_cost": "double", "starting_chips": 40},
    {"preset": "limited", "blind_turns_max": None, "two_three_five": True, "muflis": True},
    {"preset": "limited", "show_seen_vs_blind": "quadruple", "variant": "jokers", "hands": 3},
    {"preset": "duo", "show_seen_vs_blind": "forbidden"},
    {"preset": "limited2", "show_seen_vs_blind": "quadruple", "starting_chips": 1000},
    {"preset": "nepal", "variant": "ak47", "pot_limit_boots": None, "blind_turns_max": 2},
]


@pytest.mark.parametrize("options", ROUND_TRIPS)
def test_changed_options_round_trips(options: dict[str, Any]) -> None:
    rules = Rules.from_options(options)
    changed = rules.changed_options()
    assert changed == options
    assert Rules.from_options(changed) == rules
    assert Rules.from_options(rules.options()) == rules


def test_changed_options_leaves_out_values_equal_to_the_preset() -> None:
    rules = Rules.from_options({"preset": "club", "boot": 50, "see_anytime": True, "hands": 7})
    assert rules.changed_options() == {"preset": "club", "hands": 7}


def test_variant_muflis_is_read_as_the_muflis_option() -> None:
    old = Rules.from_options({"variant": "muflis"})
    assert (old.variant, old.muflis) == ("standard", True)
    assert old == Rules.from_options({"muflis": True})
    assert old.changed_options() == {"preset": "nepal", "muflis": True}


@pytest.mark.parametrize("variant", ["ak47", "jokers", "wild_rank", "fixed_rank"])
def test_muflis_combines_with_every_wild_card_variant(variant: str) -> None:
    rules = Rules.from_options({"variant": variant, "muflis": True})
    assert rules.ranking.lowest_wins and rules.ranking.variant == variant


@pytest.mark.parametrize(("text", "rank"), [(2, "2"), ("10", "10"), ("T", "10"), ("k", "K")])
def test_fixed_rank_reads_rank_names(text: Any, rank: str) -> None:
    rules = Rules.from_options({"variant": "fixed_rank", "fixed_rank": text})
    assert rules.fixed_rank == rank


@pytest.mark.parametrize(
    ("options", "option"),
    [
        ({"fixed_rank": "K"}, "fixed_rank"),
        ({"range_max_stakes": 3}, "range_max_stakes"),
        ({"preset": "classic", "range_max_stakes": 1}, "range_max_stakes"),
        ({"preset": "classic", "pot_limit_boots": 100}, "pot_limit_boots"),
        ({"all_in": "two_left"}, "pot_limit_boots"),
    ],
)
def test_contradicting_options_are_refused(options: dict[str, Any], option: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_options(options)
    assert info.value.code == f"rules/{option}"


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED_PRESETS if n != "classic"))
def test_starting_chips_are_the_pot_limit(name: str) -> None:
    rules = preset(name)
    assert rules.starting_chips == rules.pot_limit


def test_the_catalogue_names_every_option_with_values_the_rules_accept() -> None:
    from teenpatti.engine.rules import _coerce, catalogue

    cat = catalogue()
    assert set(cat["options"]) == OPTION_NAMES
    for key, option in cat["options"].items():
        if option["kind"] in ("choice", "bool"):
            for value in option["values"]:
                _coerce(key, value)
            with pytest.raises(RulesError):
                _coerce(key, "no such value")
        else:
            assert option["kind"] == "int"
            assert _coerce(key, option["min"]) == option["min"]
            with pytest.raises(RulesError):
                _coerce(key, "many")
            if option["null"]:
                assert _coerce(key, None) is None
    for name, entry in cat["presets"].items():
        rules = Rules.from_options({"preset": name, **entry["options"]})
        assert rules == PRESETS[name]
        assert (rules.min_players, rules.max_players) == tuple(entry["seats"].values())
        for key, values in entry["only"].items():
            for value in values:
                Rules.from_options({"preset": name, key: value})
