"""web/edge.py subclasses uvicorn's own HTTP and socket protocols and reaches into their state:
this fails loudly, naming what is missing, when the uvicorn installed is not one the edge was
written for (pyproject pins the versions; a new uvicorn is taken by raising the pin once this
passes with it).

Every method the edge overrides must still be one uvicorn calls (a renamed hook would silently
stop being called), with the same parameters; every ``super()`` method and every attribute of
the protocol the edge reads must still be there.
"""

from __future__ import annotations

import ast
import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from teenpatti.web import edge

ROOT = Path(__file__).resolve().parents[2]
EDGE = ast.parse(Path(edge.__file__).read_text())
OWN = {"__init__", "timed_out", "refuse", "cut"}
"""The edge's own methods (the edge calls them), not uvicorn's hooks."""


def _class(name: str, tree: ast.AST = EDGE) -> ast.ClassDef:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == name)


def _assigned(cls: type) -> set[str]:
    """The attributes ``cls`` and its uvicorn bases give their instances (``self.x = ...``) or
    declare (``x: T``), and their methods and class attributes."""
    out: set[str] = set(dir(cls))
    for base in cls.__mro__:
        if not base.__module__.startswith("uvicorn"):
            continue
        for node in ast.walk(ast.parse(inspect.getsource(base))):
            targets: list[ast.expr] = []
            if isinstance(node, ast.Assign):
                targets = node.targets
            elif isinstance(node, ast.AnnAssign | ast.AugAssign):
                targets = [node.target]
            for target in targets:
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                    out.add(target.attr)
                elif isinstance(target, ast.Name):
                    out.add(target.id)
    return out


def _read_on(node: ast.AST, owner: str) -> set[str]:
    """Attributes read on the name ``owner`` (``self``, ``p``) inside ``node``."""
    return {
        n.attr
        for n in ast.walk(node)
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == owner
    }


def gaps(subclass: ast.ClassDef, base: type) -> list[str]:
    """What ``subclass`` (an edge class's source) needs of ``base`` and does not find there."""
    have = _assigned(base)
    methods = {n.name: n for n in subclass.body if isinstance(n, ast.FunctionDef)}
    mine = set(methods) | {
        t.attr
        for n in ast.walk(subclass)
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
    }
    mine |= {
        t.id
        for n in subclass.body
        if isinstance(n, ast.Assign | ast.AnnAssign)
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
        if isinstance(t, ast.Name)
    }
    out = []
    for name, method in methods.items():
        if name in OWN:
            continue
        theirs = getattr(base, name, None)
        if theirs is None:
            out.append(f"{base.__name__}.{name} is gone: the edge's override is never called")
            continue
        ours = [a.arg for a in method.args.args]
        params = list(inspect.signature(theirs).parameters)
        if len(ours) != len(params):
            out.append(f"{base.__name__}.{name}{tuple(params)} now, the edge has {tuple(ours)}")
    for n in ast.walk(subclass):
        if (
            isinstance(n, ast.Attribute)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Name)
            and n.value.func.id == "super"
            and not hasattr(base, n.attr)
        ):
            out.append(f"super().{n.attr}: {base.__name__} has no {n.attr}")
    for name in sorted(_read_on(subclass, "self") - mine - have):
        out.append(f"{base.__name__} no longer has self.{name}")
    return out


def test_the_installed_uvicorn_is_one_the_pin_allows() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = {Requirement(d).name: Requirement(d) for d in pyproject["project"]["dependencies"]}
    for name in ("uvicorn", "websockets"):
        pin = pins[name].specifier
        assert pin.filter([version(name)]), f"{name} {version(name)} is not {pin}"
        assert any(s.operator in ("<", "<=", "==", "~=") for s in pin), f"{name} has no ceiling"


@pytest.mark.parametrize(
    ("name", "base"),
    [("EdgeHttp", HttpToolsProtocol), ("EdgeWebSocket", WebSocketsSansIOProtocol)],
)
def test_the_edge_finds_what_it_overrides_in_uvicorn(name: str, base: type) -> None:
    assert gaps(_class(name), base) == []


def test_the_direct_way_out_finds_the_socket_protocol_s_state() -> None:
    wire = _class("Wire")
    read = _read_on(wire, "p") | {
        n.attr
        for n in ast.walk(wire)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, ast.Attribute)
        and n.value.attr == "protocol"
    }
    assert read >= {"writable", "transport", "close_sent"}  # the check reads the real class
    assert sorted(read - _assigned(WebSocketsSansIOProtocol)) == []


def test_the_check_fails_on_a_uvicorn_without_a_hook() -> None:
    class Renamed:  # a uvicorn whose hooks moved: no handle_ping, handle_events takes more
        def handle_events(self, received: object) -> None: ...

    source = ast.parse(
        "class Edge:\n"
        "    def handle_ping(self) -> None:\n"
        "        super().handle_ping()\n"
        "    def handle_events(self) -> None:\n"
        "        self.vanished.set()\n"
    )
    found = gaps(_class("Edge", source), Renamed)
    assert any("handle_ping is gone" in g for g in found)
    assert any("super().handle_ping" in g for g in found)
    assert any("handle_events(" in g for g in found)
    assert any("self.vanished" in g for g in found)
