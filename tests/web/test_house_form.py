"""The create form checks the house rules as the server does: for thousands of option sets at
every preset, the page's checks (``houserules.js``, run by Node on the catalogue the server
serves) refuse exactly what the server refuses, and name the option the server names.

The option sets mix values each option can take with values just past its limits, and options
that contradict each other (a pot limit with ``all_in: two_left``, bigger bets with double bets,
starting chips below the boot, a wild rank without its variant, an all-seen side show with no side
show). Every option has its words in both languages, so one the engine adds is never a bare key."""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path
from typing import Any

import msgspec
from support.page_strings import node, page_strings

from teenpatti.engine.errors import EngineError
from teenpatti.tables.play.table import Settings, TableError
from teenpatti.web.lobby import rules_served

ROOT = Path(__file__).resolve().parents[2]
HOUSE = ROOT / "teenpatti" / "web" / "static" / "js" / "houserules.js"
RUN = """
const house = await import(process.argv[1]);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { cat, cases } = JSON.parse(input);
const out = cases.map(([preset, chosen]) =>
  Object.keys(house.problems(house.played(chosen, preset, cat), preset, cat)).sort(),
);
process.stdout.write(JSON.stringify(out));
"""
NUMBERS = (None, 0, 1, 2, 3, 4, 5, 7, 10, 20, 30, 50, 64, 99, 100, 101, 256, 1000, 4096)


def served() -> dict[str, Any]:
    """The catalogue as GET /api/rules serves it (the server adds its limit on hands)."""
    cat: dict[str, Any] = msgspec.to_builtins(rules_served())
    return cat


def option_sets(cat: dict[str, Any], count: int, seed: int) -> list[tuple[str, dict[str, Any]]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        preset = list(cat["presets"])[i % len(cat["presets"])]
        chosen: dict[str, Any] = {}
        for key in rng.sample(list(cat["options"]), rng.randint(1, 5)):
            option = cat["options"][key]
            if option["kind"] == "int":
                value = rng.choice(NUMBERS)
                if value is None and not option["null"]:
                    value = option["min"] - 1
            else:
                value = rng.choice([v for v in option["values"] if v != "muflis"])
            chosen[key] = value
        out.append((preset, chosen))
    return out


def server_verdict(preset: str, chosen: dict[str, Any], cat: dict[str, Any]) -> str | None:
    """The option the server names in refusing these rules, or None if it opens the table."""
    seats = cat["presets"][preset]["seats"]["min"]
    try:
        Settings.from_json({"seats": seats, "rules": {"preset": preset, **chosen}})
    except EngineError as error:
        return error.code.removeprefix("rules/")
    except TableError as error:  # pragma: no cover - a seat count the catalogue gives
        raise AssertionError(error) from error
    return None


def test_every_option_has_its_words_in_both_languages() -> None:
    """A new option of the engine's catalogue appears on the form by itself; this holds it to
    its words: a name, a line on what it changes, and each of its values in words."""
    strings = page_strings()["strings"]
    cat = served()
    missing = []
    for key, option in cat["options"].items():
        wanted = [f"opt.{key}", f"opt.{key}.help" if key not in ("hands", "boot") else None]
        if option["kind"] == "int":
            wanted.append(f"opt.{key}.n")
            wanted.append(f"opt.{key}.null" if option["null"] else None)
        elif key != "fixed_rank":  # a rank is its own word
            wanted += [f"opt.{key}.{str(v).lower()}" for v in option["values"]]
        for which in ("en", "ne"):
            missing += [f"{which} {w}" for w in wanted if w and w not in strings[which]]
    assert missing == [], missing


def test_the_form_refuses_what_the_server_refuses() -> None:
    cat = served()
    cases = option_sets(cat, 3000, seed=32)
    out = subprocess.run(
        [node(), "--input-type=module", "-e", RUN, HOUSE.as_uri()],
        input=json.dumps({"cat": cat, "cases": cases}).encode(),
        capture_output=True,
        check=True,
        timeout=60,
    )
    page = json.loads(out.stdout)
    refused = 0
    for (preset, chosen), flagged in zip(cases, page, strict=True):
        named = server_verdict(preset, chosen, cat)
        case = f"{preset} {chosen}: the page flags {flagged}, the server names {named}"
        if named is None:
            assert flagged == [], case
        else:
            refused += 1
            assert named in flagged, case
    # both kinds of case were met, in numbers
    assert 300 < refused < len(cases) - 300, refused
