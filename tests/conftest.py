"""The order the suite runs in: the longest modules first.

``scripts/test`` runs the suite on parallel workers with ``--dist loadscope
--no-loadscope-reorder``: each module goes whole to one worker, in the order collected here. A
long module handed out last keeps one worker busy after the others have finished, so the modules
that take longest (browsers, several servers, PostgreSQL and Redis, long property runs) are
collected first and the short ones fill in around them at the end. The long groups are dealt in
turn (a browser module, a scale-out module, a property module, a server module, ..., then the
next of each), so that the workers do not all drive Chromium at once. The order within each
module is unchanged, and no test depends on it (each module starts the servers and browsers it
needs).
"""

from __future__ import annotations

import pytest
from hypothesis import settings

# No per-example deadline: the suite runs on busy, shared 2-core machines, where one slow example
# says nothing about the code. The properties' example counts bound their time instead.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

FIRST = (
    "tests/ui/",
    "tests/scale/",
    "tests/engine/test_properties.py",
    "tests/server/",
    "tests/reach/",
    "tests/bots/test_solver.py",
)
"""Path prefixes (from the repository's top) of the longest modules, longest group first."""


def group(path: str) -> int:
    """The group of a test of ``path``: its first matching prefix in :data:`FIRST`, else after
    all of them."""
    return next((i for i, prefix in enumerate(FIRST) if path.startswith(prefix)), len(FIRST))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    paths = {item: item.path.relative_to(config.rootpath).as_posix() for item in items}
    modules: dict[int, list[str]] = {}
    for path in dict.fromkeys(paths.values()):
        modules.setdefault(group(path), []).append(path)
    # the n-th module of each long group, then the (n+1)-th of each, ...; the rest after them
    turn = {
        path: (g == len(FIRST), n, g)
        for g, paths_of_group in modules.items()
        for n, path in enumerate(paths_of_group)
    }
    items.sort(key=lambda item: turn[paths[item]])
