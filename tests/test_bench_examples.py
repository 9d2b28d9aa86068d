"""The docstring examples of the benchmark scripts run: ``bench/`` is not one of the suite's test
paths (its scripts are run by hand), so each script whose docstrings hold an example is loaded
here from its file, as the script itself is run (its folder first on the path: ``ladder.py``
imports ``exploit``), and its examples are run as doctests."""

from __future__ import annotations

import doctest
import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"
SCRIPTS = sorted(p for p in BENCH.rglob("*.py") if ">>>" in p.read_text(encoding="utf-8"))


def test_the_scripts_have_examples() -> None:
    names = {p.name for p in SCRIPTS}
    assert {"exploit.py", "ranges.py"} <= names


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: str(p.relative_to(BENCH)))
def test_script_examples(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(path.parent))
    name = f"bench_examples_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, name, module)  # dataclasses look their module up there
    spec.loader.exec_module(module)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    failures: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=failures.append)
    assert runner.tries > 0
    assert not failures, "".join(failures)
