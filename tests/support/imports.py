"""What a module of the project imports, read from its source (never by importing it): every
``import`` and ``from ... import`` in it, at the top, in a function or under ``TYPE_CHECKING``,
as absolute module names.

>>> sorted(imports("from ..engine.hand import Hand\\nimport gc\\n", "teenpatti.bots.spy"))
['gc', 'teenpatti.engine.hand']
>>> sorted(imports("from . import chat, names\\n", "teenpatti.tables.play.table"))
['teenpatti.tables.play.chat', 'teenpatti.tables.play.names']
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The repository's top."""


def module_name(path: Path) -> str:
    """The dotted name of the module at ``path`` (a file of the repository)."""
    parts = path.resolve().relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: str = "teenpatti") -> Iterator[tuple[str, Path]]:
    """Every module of ``package`` (its name and path), its subpackages' too."""
    for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py")):
        yield module_name(path), path


def imports(source: str, module: str, is_package: bool = False) -> set[str]:
    """The modules ``source`` (the text of ``module``) imports, as absolute names. A name
    imported from a package (``from . import chat``) counts as the submodule it may be."""
    package = module.split(".") if is_package else module.split(".")[:-1]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            if node.module is None:
                out.update(f"{name}.{alias.name}" for alias in node.names)
            else:
                out.add(name)
    return out


def imports_of(path: Path) -> set[str]:
    """What the module at ``path`` imports."""
    return imports(path.read_text(), module_name(path), path.name == "__init__.py")
