"""The container image, built and run with whichever runtime works here (Podman, else Docker):
it answers /healthz and /readyz on a loopback port, becomes ``healthy`` by its own HEALTHCHECK,
runs as an unprivileged user and keeps its tables in the /data volume across a restart.

Marked ``container`` (``-m container`` runs only these; ``-m "not container"`` leaves them out).
Where no runtime can build or start a container the test is skipped with the runtime's own error,
which says what failed."""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from support.reach import free_port

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.container


def runtime() -> str:
    for name in ("podman", "docker"):
        found = shutil.which(name)
        if (
            found
            and subprocess.run([found, "info"], capture_output=True, timeout=60).returncode == 0
        ):
            return found
    pytest.skip("no container runtime answers (podman info / docker info)")


def run(*words: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(words), capture_output=True, text=True, timeout=timeout)


def test_image_builds_runs_and_is_healthy() -> None:
    tool = runtime()
    tag = "localhost/teenpatti-test:latest"
    built = (
        run(tool, "build", "--format", "docker", "-t", tag, str(ROOT))
        if "podman" in tool
        else run(tool, "build", "-t", tag, str(ROOT))
    )
    if built.returncode != 0:
        pytest.skip(f"{tool} build failed here:\n{built.stderr[-2000:]}")
    port = free_port()
    name = f"teenpatti-test-{port}"
    volume = f"teenpatti-test-data-{port}"
    started = run(
        tool,
        "run",
        "-d",
        "--name",
        name,
        "-p",
        f"127.0.0.1:{port}:8000",
        "-v",
        f"{volume}:/data",
        tag,
    )
    if started.returncode != 0:
        run(tool, "rmi", "-f", tag)
        pytest.skip(f"{tool} run failed here:\n{started.stderr[-2000:]}")
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(base + "/readyz", timeout=1).status_code == 200:
                    break
            assert time.monotonic() < deadline, run(tool, "logs", name).stdout
            time.sleep(0.2)
        made = httpx.post(base + "/api/tables", json={"name": "Box"}, timeout=10).json()
        assert run(tool, "exec", name, "id", "-u").stdout.strip() == "10001"
        deadline = time.monotonic() + 90
        while (
            run(tool, "inspect", "--format", "{{.State.Health.Status}}", name).stdout.strip()
            != "healthy"
        ):
            assert time.monotonic() < deadline, "the HEALTHCHECK never passed"
            time.sleep(1)
        # The tables live in the volume: a new container on it still knows the table.
        run(tool, "rm", "-f", name)
        assert (
            run(
                tool,
                "run",
                "-d",
                "--name",
                name,
                "-p",
                f"127.0.0.1:{port}:8000",
                "-v",
                f"{volume}:/data",
                tag,
            ).returncode
            == 0
        )
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(httpx.HTTPError):
                reply = httpx.get(f"{base}/api/tables/{made['code']}", timeout=1)
                if reply.status_code == 200:
                    break
            assert time.monotonic() < deadline, run(tool, "logs", name).stdout
            time.sleep(0.2)
    finally:
        run(tool, "rm", "-f", name)
        run(tool, "volume", "rm", "-f", volume)
        run(tool, "rmi", "-f", tag)
