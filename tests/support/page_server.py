"""The table server the browser tests drive: a ``teenpatti serve`` process on loopback, with
computer players and the pause after each hand cut short; it can be stopped and started again on
the same port and data folder (a restart rebuilds every table from its log).

The test binds the listening socket (port 0: the kernel chooses) and hands it to every start of
the process (``--fd``), as :class:`support.server.Server` does for the protocol tests: the port
is known before the process starts, no other process can take it, and while the server is down
a browser's connections wait in its backlog for the next start.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

from support.server import listening_socket, serve_command

ROOT = Path(__file__).resolve().parents[2]


class Server:
    """A ``teenpatti serve`` subprocess on loopback."""

    def __init__(
        self,
        data: Path,
        result_pause: float = 0.3,
        grace: float | None = None,
        extra: tuple[str, ...] = (),
    ) -> None:
        self.extra = extra
        """More options for ``teenpatti serve``."""
        self.data = data
        self.listener = listening_socket()
        """The socket every start of the process serves on (closed by :meth:`close`)."""
        self.port = int(self.listener.getsockname()[1])
        self.result_pause = result_pause
        self.grace = grace
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data / "serve.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        command = [
            *serve_command(),
            "serve",
            "--fd",
            str(self.listener.fileno()),
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
                command,
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                pass_fds=(self.listener.fileno(),),
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"teenpatti serve exited:\n{self.output()}")
            # On the socket handed down, the request waits in its backlog for the server.
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(self.url + "/", timeout=1) as reply,
            ):
                if reply.status == 200:
                    return
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

    def close(self) -> None:
        """Stop the process and give its port back."""
        self.stop()
        self.listener.close()

    def output(self) -> str:
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""
