"""A live table's parts are each changed by one module: the one that defines the part's class.

A :class:`~teenpatti.tables.live.table.LiveTable` is its state, its lock and one part for each
component of the service that keeps something of the table (``live.clocks``, ``live.presence``,
...; teenpatti/tables/live/table.py lists them). This reads every module of ``teenpatti`` (its
source, never running it) for the writes to a part's fields: an assignment (``=``, ``+=``, ``del``)
to the field or to an item of it, or a call of a container's changing method on it (``add``,
``pop``, ``update``, ...), through the live table (``live.clocks.timer = None``), through a name
the part or the field was taken into (``clocks = live.clocks``), or as ``self`` in the part's own
methods; and replacing a part (``live.clocks = ...``). A write from any module but the one that
defines the part's class fails the test. Reading a part, or calling one of its own methods (which
live in the owner's module), is not a write.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
from typing import get_type_hints

import pytest
from support.imports import modules

from teenpatti.tables.live.table import LiveTable

WHOLE = frozenset({"table", "lock"})
"""The live table's own fields, which are no part (set when it is made)."""
CHANGING = frozenset(
    {
        "add",
        "append",
        "appendleft",
        "clear",
        "discard",
        "extend",
        "insert",
        "pop",
        "popitem",
        "popleft",
        "remove",
        "reverse",
        "setdefault",
        "sort",
        "update",
    }
)
"""The methods that change the container they are called on."""

Write = tuple[str, int, str, str]
"""A write found: the module, its line, the part and the field (``""``: the part replaced)."""


class Part:
    """One part of a live table, as the source says: its class, owner module and fields."""

    def __init__(self, cls: type) -> None:
        self.cls = cls.__name__
        self.owner = cls.__module__
        tree = ast.parse(textwrap.dedent(inspect.getsource(cls)))
        fields = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                fields.add(node.target.id)  # a dataclass's field
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and _is_self(node.value)
            ):
                fields.add(node.attr)  # a plain class's attribute
        self.fields = frozenset(fields)


def live_parts() -> dict[str, Part]:
    """Each part of a live table, by its name on the table."""
    hints = get_type_hints(LiveTable)
    return {name: Part(cls) for name, cls in hints.items() if name not in WHOLE}


class _Finder:
    """The writes to the parts' fields in one module's source."""

    def __init__(self, parts: dict[str, Part], module: str) -> None:
        self.parts = parts
        self.module = module
        self.found: set[Write] = set()

    def scan(self, tree: ast.Module) -> set[Write]:
        self._scope(tree, {}, {})
        return self.found

    def _scope(
        self, node: ast.AST, parts: dict[str, str], fields: dict[str, tuple[str, str]]
    ) -> None:
        """Look through a module, class or function body; ``parts`` and ``fields``: the names
        that stand for a part or a part's field there (a nested function sees its outer
        function's)."""
        parts, fields = dict(parts), dict(fields)
        body = list(ast.iter_child_nodes(node))
        for child in _walk_here(body):  # the names taken for a part or a field in this scope
            if isinstance(child, ast.Assign) and len(child.targets) == 1:
                target = child.targets[0]
                if isinstance(target, ast.Name):
                    self._alias(target.id, child.value, parts, fields)
        for child in _walk_here(body):
            self._check(child, parts, fields)
            if isinstance(child, ast.ClassDef):
                owned = {
                    name
                    for name, part in self.parts.items()
                    if part.cls == child.name and part.owner == self.module
                }
                for method in child.body:
                    if isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
                        mine = {"self": next(iter(owned))} if owned else {}
                        self._scope(method, {**parts, **mine}, fields)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                self._scope(child, parts, fields)

    def _alias(
        self,
        name: str,
        value: ast.expr,
        parts: dict[str, str],
        fields: dict[str, tuple[str, str]],
    ) -> None:
        part = self._part(value, parts)
        if part is not None:
            parts[name] = part
            return
        field = self._field(value, parts, fields)
        if field is not None:
            fields[name] = field

    def _part(self, node: ast.expr, parts: dict[str, str]) -> str | None:
        """The part ``node`` stands for (``x.clocks``, or a name taken for a part)."""
        if isinstance(node, ast.Name):
            return parts.get(node.id)
        return self._named(node)

    def _named(self, node: ast.expr) -> str | None:
        """The part ``node`` names on a live table (``x.clocks``; ``self.clocks`` is the
        service's component of that name, not a part)."""
        if isinstance(node, ast.Attribute) and node.attr in self.parts and not _is_self(node.value):
            return node.attr
        return None

    def _field(
        self, node: ast.expr, parts: dict[str, str], fields: dict[str, tuple[str, str]]
    ) -> tuple[str, str] | None:
        """The part's field ``node`` stands for, or is an item of."""
        while isinstance(node, ast.Subscript):
            node = node.value
        if isinstance(node, ast.Attribute):
            part = self._part(node.value, parts)
            if part is not None and node.attr in self.parts[part].fields:
                return part, node.attr
        if isinstance(node, ast.Name):
            return fields.get(node.id)
        return None

    def _check(
        self, node: ast.AST, parts: dict[str, str], fields: dict[str, tuple[str, str]]
    ) -> None:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in CHANGING
        ):
            field = self._field(node.func.value, parts, fields)
            if field is not None:
                self._found(node, *field)
        for target in targets:
            for each in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(each, ast.Name):
                    continue  # (re)binding a name, even one taken from a field, writes no part
                replaced = self._named(each)
                if replaced is not None:
                    self._found(node, replaced, "")
                    continue
                field = self._field(each, parts, fields)
                if field is not None:
                    self._found(node, *field)

    def _found(self, node: ast.AST, part: str, field: str) -> None:
        self.found.add((self.module, getattr(node, "lineno", 0), part, field))


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"


def _walk_here(nodes: list[ast.AST]) -> list[ast.AST]:
    """Every node under ``nodes`` that belongs to their scope (not inside a nested function or
    class), the nested functions and classes themselves included."""
    out: list[ast.AST] = []
    todo = list(nodes)
    while todo:
        node = todo.pop()
        out.append(node)
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            todo.extend(ast.iter_child_nodes(node))
    return out


def writes(source: str, module: str, parts: dict[str, Part]) -> set[Write]:
    """Every write to a part's field (or of a part) in ``source``, the text of ``module``."""
    return _Finder(parts, module).scan(ast.parse(source))


def wrong(source: str, module: str, parts: dict[str, Part]) -> set[tuple[str, str]]:
    """The parts' fields ``module`` writes but does not own."""
    return {
        (part, field)
        for _, _, part, field in writes(source, module, parts)
        if parts[part].owner != module or field == ""
    }


@pytest.fixture(scope="module")
def parts() -> dict[str, Part]:
    return live_parts()


def test_each_part_is_changed_by_its_own_module_only(parts: dict[str, Part]) -> None:
    found = {
        (name, part, field)
        for name, path in modules()
        if name != LiveTable.__module__  # where the parts are made
        for part, field in wrong(path.read_text(), name, parts)
    }
    assert found == set()


def test_the_check_reads_the_parts_and_their_owners_writes(parts: dict[str, Part]) -> None:
    """The parts and their fields are read from the source, and each owner's own writes are
    found (a check that found nothing would pass whatever the modules did)."""
    live = "teenpatti.tables.live"
    assert {name: (p.owner, p.fields) for name, p in parts.items()} == {
        "writer": (f"{live}.writer", {"since", "stale"}),
        "clocks": (f"{live}.timers", {"timer", "deadline", "armed", "failures"}),
        "computers": (f"{live}.thinker", {"bots", "observed"}),
        "presence": (f"{live}.presence", {"connections", "graces", "left"}),
        "fanout": (f"{live}.fanout", {"render", "sent", "rows"}),
        "cluster": (f"{live}.cluster", {"owned", "remote"}),
        "reconciler": (f"{live}.reconciler", {"touched"}),
        "chat_limit": ("teenpatti.tables.play.chat", {"count", "seconds", "_times"}),
    }
    seen = {
        (part, field)
        for name, path in modules()
        for _, _, part, field in writes(path.read_text(), name, parts)
        if parts[part].owner == name
    }
    everything = {(name, f) for name, p in parts.items() for f in p.fields}
    # Every field is written by its owner (the render only when the part is made).
    assert seen == everything - {("fanout", "render")}


CAUGHT = [
    # the fan-out dropped a socket from presence's set itself, before the parts
    ("fanout", "live.presence.connections.discard(conn)", {("presence", "connections")}),
    # the cluster called off presence's graces itself
    ("cluster", "live.presence.graces.pop(seat).cancel()", {("presence", "graces")}),
    ("cluster", "live.writer.stale = True", {("writer", "stale")}),
    ("reconciler", "live.writer.stale = True", {("writer", "stale")}),
    ("timers", "live.computers.bots[seat] = load_bot(kind)", {("computers", "bots")}),
    ("timers", "live.computers.observed = hand", {("computers", "observed")}),
    ("presence", "live.cluster.remote = set()", {("cluster", "remote")}),
    ("service", "live.clocks.failures += 1", {("clocks", "failures")}),
    ("service", "del live.fanout.rows[0]", {("fanout", "rows")}),
    ("service", "live.chat_limit._times.clear()", {("chat_limit", "_times")}),
    ("service", "live.fanout = None", {("fanout", "")}),
    ("fanout", "live.fanout = None", {("fanout", "")}),
    ("writer", "clocks = live.clocks\nclocks.deadline = 1.0", {("clocks", "deadline")}),
    ("writer", "left = live.presence.left\nleft[0] = 1.0", {("presence", "left")}),
    ("writer", "a, live.cluster.owned = 1, True", {("cluster", "owned")}),
    (
        "writer",
        "here = live.presence\ndef later():\n    here.graces.clear()",
        {("presence", "graces")},
    ),
]


@pytest.mark.parametrize(("module", "line", "caught"), CAUGHT)
def test_the_check_catches_a_write_from_another_module(
    parts: dict[str, Part], module: str, line: str, caught: set[tuple[str, str]]
) -> None:
    """In a function, a method or a lambda's scope too; and the same line in the owner's
    module is fine (but replacing a part, which is the live table's)."""
    name = f"teenpatti.tables.live.{module}"
    body = textwrap.indent(line, "    ")
    method = textwrap.indent(body, "    ")
    for source in (
        line + "\n",
        f"def f(live, conn, seat, hand, kind):\n{body}\n",
        f"class C:\n    async def m(self, live, conn, seat, hand, kind):\n{method}\n",
    ):
        assert wrong(source, name, parts) == caught, source
        for part, field in caught:
            if field:
                assert wrong(source, parts[part].owner, parts) == set(), source


@pytest.mark.parametrize(
    "line",
    [
        "x = live.clocks.deadline",
        "live.fanout.render.public_state()",
        "live.presence.back([1])",
        "live.presence.drop(conn)",
        "self.clocks = Clocks()",
        "self.presence.ensure(live)",
        "failures = live.clocks.failures\nfailures += 1",
        "n = len(live.presence.connections)",
        "record.table = 1",
    ],
)
def test_reading_a_part_or_calling_its_methods_is_no_write(
    parts: dict[str, Part], line: str
) -> None:
    assert wrong(line + "\n", "teenpatti.web.lobby", parts) == set()
