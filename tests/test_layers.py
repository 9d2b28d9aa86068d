"""The packages' layers: every import of ours runs down the stack, never up or sideways.

From the bottom: the engine (the game itself); the odds and the computer players on the
engine's public view (which parts of it, tests/bots/test_bot_interface.py says); the store, the
bus and the metrics, which import nothing of ours; then the table server in three layers, the
rules of play (pure: the engine only), the wire (what a socket is sent) and the live server
(the service, its clocks, its sockets, the store and the bus); push alerts on top of the live
tables; the web app; the command line on top of everything.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.imports import ROOT, imports, module_name, modules

ENGINE = "teenpatti.engine"
PLAY = "teenpatti.tables.play"
WIRE = "teenpatti.tables.wire"
LIVE = "teenpatti.tables.live"

MAY_IMPORT: dict[str, frozenset[str]] = {
    ENGINE: frozenset(),
    "teenpatti.odds": frozenset({ENGINE}),
    "teenpatti.bots": frozenset({ENGINE, "teenpatti.odds"}),
    "teenpatti.store": frozenset(),
    "teenpatti.bus": frozenset(),
    "teenpatti.metrics": frozenset(),
    PLAY: frozenset({ENGINE}),
    WIRE: frozenset({ENGINE, PLAY}),
    LIVE: frozenset(
        {ENGINE, "teenpatti.bots", "teenpatti.store", "teenpatti.bus", "teenpatti.metrics"}
        | {PLAY, WIRE}
    ),
    "teenpatti.push": frozenset({ENGINE, "teenpatti.store", "teenpatti.metrics", PLAY, WIRE, LIVE}),
}
"""Each layer and the layers below it that its modules may import (its own modules, always)."""
MAY_IMPORT["teenpatti.web"] = frozenset({*MAY_IMPORT, "teenpatti.push"}) - {"teenpatti.web"}
MAY_IMPORT["teenpatti.cli"] = frozenset({*MAY_IMPORT, "teenpatti.web"})
INITS = {"teenpatti": frozenset[str](), "teenpatti.tables": frozenset[str]()}
"""Packages whose ``__init__`` alone is a layer: it imports nothing of ours (importing the
engine must not load the server), and a module of theirs must sit in one of the layers."""


def layer(module: str) -> str:
    """The layer ``module`` belongs to: the longest layer name it is in."""
    found = [name for name in MAY_IMPORT if module == name or module.startswith(name + ".")]
    return max(found, key=len) if found else module


def allowed(mine: str) -> frozenset[str] | None:
    """What the layer ``mine`` may import, or None if it is no layer."""
    return MAY_IMPORT.get(mine, INITS.get(mine))


def upward(sources: dict[str, tuple[str, bool]]) -> set[tuple[str, str]]:
    """Every (module, import) of ours in ``sources`` (name: text and whether it is a package's
    ``__init__``) that its layer may not import; a module in no layer counts against itself."""
    wrong: set[tuple[str, str]] = set()
    for name, (text, is_package) in sources.items():
        mine = layer(name)
        below = allowed(mine)
        if below is None:
            wrong.add((name, name))
            continue
        for target in imports(text, name, is_package):
            if target != "teenpatti" and not target.startswith("teenpatti."):
                continue
            theirs = layer(target)
            if theirs != mine and theirs not in below:
                wrong.add((name, target))
    return wrong


def ours() -> dict[str, tuple[str, bool]]:
    return {name: (path.read_text(), path.name == "__init__.py") for name, path in modules()}


def test_every_import_runs_down_the_layers() -> None:
    assert upward(ours()) == set()


def test_the_layers_are_the_folders() -> None:
    """Nothing is left in teenpatti/tables/ beside the three layers; each layer says what it
    is for."""
    tables = ROOT / "teenpatti" / "tables"
    assert sorted(p.name for p in tables.iterdir() if p.name != "__pycache__") == [
        "__init__.py",
        "live",
        "play",
        "wire",
    ]
    for name in ("play", "wire", "live"):
        init = tables / name / "__init__.py"
        assert init.read_text().startswith('"""'), f"{init} says what its layer is for"


@pytest.mark.parametrize(
    ("module", "text", "caught"),
    [
        (f"{PLAY}.table", "from ..live.service import TableService\n", f"{LIVE}.service"),
        (f"{PLAY}.table", "from ...store.base import EventStore\n", "teenpatti.store.base"),
        (f"{WIRE}.render", "import teenpatti.tables.live.fanout\n", f"{LIVE}.fanout"),
        (f"{LIVE}.fanout", "from ...web import app\n", "teenpatti.web"),
        (f"{LIVE}.fanout", "from ...push import sender\n", "teenpatti.push"),
        ("teenpatti.store.sqlite", "from ..tables.play import events\n", PLAY),
        ("teenpatti.engine.hand", "from ..bots import load_bot\n", "teenpatti.bots"),
        ("teenpatti.bots.easy", "from ..tables.play.table import Table\n", f"{PLAY}.table"),
        ("teenpatti.newcomer", "import json\n", "teenpatti.newcomer"),
    ],
)
def test_the_check_catches_an_upward_import(module: str, text: str, caught: str) -> None:
    """Inside a function or under ``TYPE_CHECKING`` too; a package nobody placed is caught."""
    nested = "def later() -> None:\n" + "".join(f"    {line}\n" for line in text.splitlines())
    for source in (text, nested):
        assert {wrong for wrong in upward({module: (source, False)})} == {(module, caught)}


def test_the_layers_read_this_tree() -> None:
    """The check reads real modules (a wrong root would find none and pass)."""
    names = {name for name, _ in modules()}
    assert {f"{PLAY}.table", f"{WIRE}.messages", f"{LIVE}.service", "teenpatti.web.app"} <= names
    assert module_name(Path(__file__)) == "tests.test_layers"


def test_only_the_rules_of_the_game_are_engine_errors() -> None:
    """A full table or a bad push subscription is refused with a code and a sentence like a
    rule is, but is no rule of the game: the engine's errors are the engine's alone."""
    from teenpatti.engine import EngineError
    from teenpatti.push import PushError
    from teenpatti.tables.play.errors import TableError

    for refusal in (TableError, PushError):
        assert not issubclass(refusal, EngineError), refusal
    assert issubclass(PushError, TableError)  # answered as the table's refusals are
