"""The files in deploy/ and the container's files are what the tools accept: the systemd unit
passes ``systemd-analyze verify``, the Caddyfile adapts with its documented settings, and every
``teenpatti serve`` option they use exists."""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from support.reach import teenpatti

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "deploy" / "teenpatti.service"
CADDYFILE = ROOT / "deploy" / "Caddyfile"


@functools.cache
def serve_options() -> set[str]:
    """The long options ``teenpatti serve --help`` lists."""
    shown = subprocess.run(
        [*teenpatti(), "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200", "TERM": "dumb", "NO_COLOR": "1"},
    ).stdout
    return set(re.findall(r"--[a-z][a-z-]+", shown))


def used_options(words: list[str]) -> set[str]:
    return {w.split("=")[0] for w in words if w.startswith("--")}


def test_systemd_unit_verifies(tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed")
    text = UNIT.read_text()
    exec_start = re.search(r"^ExecStart=(.+)$", text, re.M)
    assert exec_start is not None
    words = shlex.split(exec_start.group(1))
    assert words[:2] == ["/opt/teenpatti/bin/teenpatti", "serve"]
    assert used_options(words) <= serve_options()
    # verify checks that the command exists: point it at this checkout's console script.
    unit = tmp_path / "teenpatti.service"
    unit.write_text(text.replace("/opt/teenpatti/bin/teenpatti", teenpatti()[0]))
    checked = subprocess.run([tool, "verify", str(unit)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    broken = tmp_path / "broken.service"
    broken.write_text(text.replace("/opt/teenpatti/bin/teenpatti", "/nonexistent/teenpatti"))
    assert subprocess.run([tool, "verify", str(broken)], capture_output=True).returncode != 0


@pytest.mark.parametrize(
    "env",
    [
        {},
        {"TEENPATTI_SITE": "localhost", "TEENPATTI_TLS": "tls internal"},
        {"TEENPATTI_UPSTREAM": "app1:8000 app2:8000", "TEENPATTI_GLOBAL": "email ops@example.org"},
    ],
)
def test_caddyfile_adapts(env: dict[str, str]) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        if os.environ.get("CI"):
            pytest.fail("caddy is not installed (scripts/test installs it)")
        pytest.skip("caddy is not installed")
    keep = {k: v for k, v in os.environ.items() if not k.startswith("TEENPATTI_")}
    adapted = subprocess.run(
        [caddy, "adapt", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
        capture_output=True,
        text=True,
        env={**keep, **env},
    )
    assert adapted.returncode == 0, adapted.stderr
    config = json.loads(adapted.stdout)
    text = json.dumps(config)
    server = next(iter(config["apps"]["http"]["servers"].values()))
    hosts = [h for route in server["routes"] for m in route.get("match", []) for h in m["host"]]
    assert hosts == [env.get("TEENPATTI_SITE", "cards.example.org")]
    # Two proxies to the same processes: the sockets', each table's to one process (its path
    # hashed: the players of a table share its voice call there), and everything else's.
    upstreams = re.findall(r'"dial": "([^"]+)"', text)
    assert upstreams == env.get("TEENPATTI_UPSTREAM", "127.0.0.1:8000").split() * 2
    proxies = {
        json.dumps(route.get("match")): handler["load_balancing"].get("selection_policy")
        for route in server["routes"][0]["handle"][0]["routes"]
        for handler in route["handle"]
        if handler["handler"] == "reverse_proxy"
    }
    assert proxies == {'[{"path": ["/ws/*"]}]': {"policy": "uri_hash"}, "null": None}
    assert '"encodings"' in text and '"/static/*"' in text
    assert ("internal" in text) == ("TEENPATTI_TLS" in env)


def test_container_files_use_real_options() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    cmd = re.search(r"^CMD (\[.+\])$", dockerfile, re.M)
    assert cmd is not None
    assert used_options(json.loads(cmd.group(1))) <= serve_options()
    # The image installs the project as CI does: a virtualenv, then pip install of pyproject.
    assert "python3 -m venv /opt/teenpatti" in dockerfile
    assert "/opt/teenpatti/bin/python -m pip install" in dockerfile
    assert re.search(r"^USER teenpatti$", dockerfile, re.M)
    assert "HEALTHCHECK" in dockerfile and "/healthz" in dockerfile
    compose = (ROOT / "compose.yaml").read_text()
    assert used_options(re.findall(r"- (--[a-z-]+)=", compose)) <= serve_options()
