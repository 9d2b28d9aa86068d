"""The suite's tiers, and the order it runs in: the longest modules first.

Tiers. Each test module belongs to the tiers of :data:`TIERS` (markers declared in
``pyproject.toml``): ``server`` (starts a table server: a ``teenpatti serve`` process or uvicorn
on a thread), ``browser`` (drives Chromium), ``db`` (starts PostgreSQL or Redis), ``container``
(builds the image). A module in none of them needs no server, browser or database: that is the
fast tier, ``scripts/test --fast`` (``-m "not server and not browser and not db and not
container"``), less the tests marked ``slow`` (long solves and the whole game's best response,
marked test by test): the full run runs those in the fast tier.

``scripts/test`` runs the server and browser tiers on parallel workers with ``--dist loadscope
--no-loadscope-reorder``: each module goes whole to one worker, in the order collected here (the
fast tier hands out single tests, ``--dist worksteal``). A
long module handed out last keeps one worker busy after the others have finished, so the modules
that take longest (browsers, several servers, PostgreSQL and Redis, long property runs) are
collected first and the short ones fill in around them at the end. The long groups are dealt in
turn (a browser module, a scale-out module, a property module, a server module, ..., then the
next of each), so that the workers do not all drive Chromium at once. The order within each
module is unchanged, and no test depends on it (each module starts the servers and browsers it
needs).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, Phase, settings

# No per-example deadline: the suite runs on busy, shared 2-core machines, where one slow example
# says nothing about the code. The properties' example counts bound their time instead. In CI
# (CI set) every property runs its full count; elsewhere the "quick" profile runs a fifth of it
# (see support.properties.examples), unless TEST_HYPOTHESIS=full.
settings.register_profile("suite", deadline=None)
settings.register_profile("quick", deadline=None, max_examples=20)
# TEST_HYPOTHESIS=deep: every property runs its full count, and the table service's model
# (tests/tables/test_table_model.py) takes longer walks through many more tables.
settings.register_profile(
    "deep",
    deadline=None,
    max_examples=400,
    stateful_step_count=80,
    suppress_health_check=[HealthCheck.too_slow],
    phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
)
which = os.environ.get("TEST_HYPOTHESIS")
settings.load_profile(
    "deep" if which == "deep" else "suite" if os.environ.get("CI") or which == "full" else "quick"
)

TIERS: dict[str, tuple[str, ...]] = {
    "tests/ui/": ("server", "browser"),
    "tests/scale/test_faults_ui.py": ("server", "db", "browser"),
    "tests/scale/test_postgres_store.py": ("db",),
    "tests/scale/test_redis_bus.py": ("db",),
    "tests/scale/": ("server", "db"),
    "tests/server/": ("server",),
    "tests/reach/test_reach_caddy.py": ("server", "browser"),
    "tests/reach/test_reach_pwa.py": ("server", "browser"),
    "tests/reach/": ("server",),
}
"""The tiers of each module, by path prefix from the repository's top (the first match counts);
a module under none is in the fast tier."""


def tiers(path: str) -> tuple[str, ...]:
    """The tiers of the tests of ``path``."""
    return next((marks for prefix, marks in TIERS.items() if path.startswith(prefix)), ())


def pytest_itemcollected(item: pytest.Item) -> None:
    path = item.path.relative_to(item.config.rootpath).as_posix()
    for mark in tiers(path):
        item.add_marker(mark)


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
