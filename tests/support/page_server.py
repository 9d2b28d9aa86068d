"""The table server the browser tests drive: a ``teenpatti serve`` process on a free port of
loopback, with computer players and the pause after each hand cut short; it can be stopped and
started again on the same port and data folder (a restart rebuilds every table from its log).

The page is loaded from it by URL, so it listens on a port the browser is told, not on a socket
the test hands it (:class:`support.server.Server` does that for the protocol tests).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

from support.server import serve_command

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """A ``teenpatti serve`` subprocess on loopback."""

    def __init__(
        self,
        data: Path,
        port: int,
        result_pause: float = 0.3,
        grace: float | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.extra = extra
        """More options for ``teenpatti serve``."""
        self.data = data
        self.port = port
        self.result_pause = result_pause
        self.grace = grace
        self.url = f"http://127.0.0.1:{port}"
        self.log = data / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            *serve_command(),
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data",
            str(self.data),
            "--bot-delay",
            "0.05",
            "--result-pause",
            str(self.result_pause),
            "--lobby-rate",
            "1000,1000",
            *([] if self.grace is None else ["--grace", str(self.grace)]),
            *self.extra,
        ]
        with open(self.log, "ab") as log:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"teenpatti serve exited:\n{self.output()}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/", timeout=1) as reply,
            ):
                if reply.status == 200:
                    return
            time.sleep(0.05)
        raise RuntimeError(f"teenpatti serve did not start in 20 s:\n{self.output()}")

    def stop(self) -> None:
        process = self.process
        self.process = None
        if process is None or process.poll() is not None:
            return
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
