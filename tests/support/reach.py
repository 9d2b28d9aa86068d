"""Helpers for the tests of how friends reach a table: an app served by a real uvicorn in a
thread of the test process (so a test can give it fake network interfaces).

Every server listens on loopback only; nothing here sends a packet anywhere else.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Collection
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from teenpatti.store import open_store
from teenpatti.store.base import EventStore
from teenpatti.tables.live.service import Timing
from teenpatti.web.app import create_app
from teenpatti.web.reach import Reach

FAKE_LAN = "192.0.2.77"
"""The fake machine's Wi-Fi address (TEST-NET-1: never routed, and no test sends to it)."""


def free_port(avoid: Collection[int] = ()) -> int:
    """A TCP port free on loopback now, and none of ``avoid`` (ports picked but not yet bound)."""
    while True:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port not in avoid:
            return port


class ThreadServer:
    """``create_app`` under uvicorn on ``127.0.0.1:port`` in a thread of this process."""

    def __init__(self, data: Path, reach: Reach, **options: Any) -> None:
        self.port = reach.port
        self.url = f"http://127.0.0.1:{self.port}"
        data.mkdir(parents=True, exist_ok=True)

        async def store() -> EventStore:
            return await open_store(None, data)

        timing = Timing(bot_delay=(0.05, 0.05), result_pause=0.3, first_deal=0.05)
        self.app = create_app(store, timing=timing, reach=reach, **options)
        config = uvicorn.Config(
            self.app,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            lifespan="on",
            ws="websockets-sansio",
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=lambda: asyncio.run(self.server.serve()), daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=0.5).status_code == 200:
                    return self
            time.sleep(0.05)
        raise AssertionError("the in-process server did not start in 15 s")

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)


def teenpatti() -> list[str]:
    """How to run ``teenpatti``: the virtualenv's console script, else the module."""
    script = Path(sys.executable).parent / "teenpatti"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from teenpatti.cli import main; main()"]


def stop_process(proc: subprocess.Popen[bytes] | None, sig: signal.Signals) -> None:
    """Ask a process started in its own session to stop with ``sig``; kill its group after 10 s."""
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


class Serve:
    """A ``teenpatti serve`` subprocess with ``args``; its output goes to ``log``."""

    def __init__(self, data: Path, args: list[str], port: int | None = None) -> None:
        self.data = data
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.args = args
        self.log = data.parent / f"{data.name}-serve.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 20.0) -> Serve:
        command = [*teenpatti(), "serve", "--port", str(self.port), "--data", str(self.data)]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                [*command, *self.args],
                stdout=out,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                start_new_session=True,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"teenpatti serve exited:\n{self.output()}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.url + "/healthz", timeout=0.5).status_code == 200:
                    return self
            time.sleep(0.05)
        self.stop()
        raise AssertionError(f"teenpatti serve did not start:\n{self.output()}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        stop_process(proc, signal.SIGINT)

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")
        except OSError:
            return ""
