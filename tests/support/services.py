"""Private PostgreSQL and Redis servers for the scale-out tests and the scale benchmark.

Both are started from the Debian packages' binaries (``postgresql``, ``redis-server``) on free
loopback ports, in temporary folders, and stopped (and their folders removed) by :meth:`stop`.
Nothing is installed, no system service is touched, and nothing here needs pytest: the benchmark
(``bench/load/scale.py``) uses the same classes.

- :class:`PgCluster`: ``initdb`` into a temporary folder (as the ``postgres`` OS user when run as
  root: PostgreSQL refuses to run as root, and its data folder must belong to the user it runs
  as), then ``postgres -D DIR -p PORT -k SOCKDIR -c listen_addresses=127.0.0.1 -c fsync=off``.
  Trust authentication, loopback only. :meth:`PgCluster.create_database` makes a fresh database.
- :class:`RedisServer`: ``redis-server --port PORT --bind 127.0.0.1 --save '' --appendonly no``.

Every wait is bounded; a server that does not come up raises with its log.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

__all__ = [
    "PgCluster",
    "RedisServer",
    "ServiceError",
    "free_port",
    "missing_services",
    "postgres_bindir",
    "redis_binary",
]


class ServiceError(RuntimeError):
    """A service could not be started (the message says why, with its log)."""


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _on_a_free_port(service: PgCluster | RedisServer, timeout: float, tries: int = 5) -> None:
    """Launch ``service`` on a port free now. Neither server can be handed a socket, so another
    process may take the port before the server binds it: the server then says so and exits,
    and it is launched again on another port (a refusal the test sees only after ``tries``)."""
    for attempt in range(tries):
        service.port = free_port()
        try:
            service._launch(timeout)
            return
        except ServiceError as error:
            if attempt == tries - 1 or "Address already in use" not in str(error):
                raise


def _version_key(path: Path) -> tuple[int, ...]:
    return tuple(int(x) for x in re.findall(r"\d+", path.parent.name) or ["0"])


def postgres_bindir() -> Path | None:
    """The folder of ``postgres``, ``initdb`` and ``psql``: ``$TEENPATTI_PG_BINDIR``, the newest
    ``/usr/lib/postgresql/*/bin`` (Debian), or wherever ``pg_config``/``postgres`` are on PATH."""
    needed = ("postgres", "initdb", "psql")
    candidates: list[Path] = []
    if os.environ.get("TEENPATTI_PG_BINDIR"):
        candidates.append(Path(os.environ["TEENPATTI_PG_BINDIR"]))
    candidates.extend(
        sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=_version_key, reverse=True)
    )
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            candidates.append(Path(out))
    on_path = shutil.which("postgres")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    for folder in candidates:
        if all((folder / name).is_file() for name in needed):
            return folder
    return None


def redis_binary() -> Path | None:
    """``redis-server`` on PATH (or in /usr/bin, /usr/sbin)."""
    found = shutil.which("redis-server") or shutil.which(
        "redis-server", path="/usr/bin:/usr/sbin:/usr/local/bin"
    )
    return Path(found) if found else None


def missing_services() -> list[str]:
    """What is missing to run the scale-out tests, as Debian package names with a reason."""
    missing = []
    if postgres_bindir() is None:
        missing.append("postgresql (postgres, initdb and psql not found)")
    if redis_binary() is None:
        missing.append("redis-server (not found on PATH)")
    if os.geteuid() == 0:
        try:
            import pwd

            pwd.getpwnam("postgres")
        except KeyError:
            missing.append("postgresql (running as root, but there is no 'postgres' OS user)")
        if shutil.which("runuser") is None:
            missing.append("util-linux (runuser, to run PostgreSQL as 'postgres')")
    return missing


def _tail(path: Path, size: int = 4000) -> str:
    try:
        return path.read_text(errors="replace")[-size:]
    except OSError:
        return "(no log)"


class PgCluster:
    """A throwaway PostgreSQL cluster on ``127.0.0.1:port`` (see the module's docstring)."""

    def __init__(self, bindir: Path | None = None, *, fsync: bool = False) -> None:
        found = bindir or postgres_bindir()
        if found is None:
            raise ServiceError("PostgreSQL is not installed (apt-get install postgresql)")
        self.bindir = found
        self.fsync = fsync
        self.port = 0
        self.root: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self.as_postgres = os.geteuid() == 0

    # ------------------------------------------------------------------ paths
    @property
    def data(self) -> Path:
        assert self.root is not None
        return self.root / "data"

    @property
    def log_path(self) -> Path:
        assert self.root is not None
        return self.root / "postgres.log"

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this cluster (user ``postgres``, trusted on loopback)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def _as_owner(self, command: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *command] if self.as_postgres else command

    # ------------------------------------------------------------------ life cycle
    def start(self, timeout: float = 60.0) -> PgCluster:
        """``initdb`` a new cluster, start it, wait until it accepts connections."""
        # Not under pytest's temporary folders: those are private to root, and the server runs as
        # 'postgres', which must be able to reach its data folder.
        self.root = Path(tempfile.mkdtemp(prefix="teenpatti-pg-"))
        if self.as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        initdb = [
            str(self.bindir / "initdb"),
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ]
        done = subprocess.run(
            self._as_owner(initdb), capture_output=True, text=True, timeout=timeout, check=False
        )
        if done.returncode != 0:
            raise ServiceError(f"initdb failed ({done.returncode}):\n{done.stdout}{done.stderr}")
        _on_a_free_port(self, timeout)
        return self

    def _launch(self, timeout: float) -> None:
        """Start ``postgres`` on the cluster's folder and port; wait until it answers."""
        command = [
            str(self.bindir / "postgres"),
            "-D",
            str(self.data),
            "-p",
            str(self.port),
            "-k",
            str(self.root),
            "-c",
            "listen_addresses=127.0.0.1",
            "-c",
            f"fsync={'on' if self.fsync else 'off'}",
            "-c",
            "max_connections=200",
        ]
        log = self.log_path.open("ab")
        try:
            self.proc = subprocess.Popen(
                self._as_owner(command),
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServiceError(
                    f"postgres exited ({self.proc.returncode}):\n{_tail(self.log_path)}"
                )
            if self._ready():
                return
            time.sleep(0.1)
        self.stop()
        raise ServiceError(f"postgres did not accept connections in {timeout:.0f} s")

    def restart(self, down: float = 1.0, timeout: float = 60.0) -> None:
        """Fast shutdown (every connection is cut, a transaction under way is rolled back), and
        start again on the same folder and port after ``down`` seconds: the data stays."""
        assert self.proc is not None
        pid = self.postmaster_pid()
        if pid is not None:
            os.kill(pid, signal.SIGINT)
        self.proc.wait(30)
        time.sleep(down)
        self._launch(timeout)

    def terminate_backends(self, database: str) -> int:
        """End every server process serving ``database`` (``pg_terminate_backend``): their
        clients' connections break at once. How many were ended."""
        out = self.sql(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            f" WHERE datname = '{database}' AND pid <> pg_backend_pid()"
        )
        return int(out.strip() or 0)

    def _ready(self) -> bool:
        try:
            done = subprocess.run(
                [*self._psql("postgres"), "-c", "SELECT 1"],
                capture_output=True,
                text=True,
                timeout=10,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return False
        return done.returncode == 0

    def _psql(self, database: str) -> list[str]:
        return [
            str(self.bindir / "psql"),
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-h",
            "127.0.0.1",
            "-p",
            str(self.port),
            "-U",
            "postgres",
            "-d",
            database,
        ]

    def sql(self, statement: str, database: str = "postgres") -> str:
        """Run one statement with ``psql``; its output (unaligned, tuples only)."""
        done = subprocess.run(
            [*self._psql(database), "-A", "-t", "-c", statement],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if done.returncode != 0:
            raise ServiceError(f"psql {statement!r} failed: {done.stderr.strip()}")
        return done.stdout

    def create_database(self, name: str) -> str:
        """Create an empty database; its URL."""
        if not re.fullmatch(r"[a-z_][a-z0-9_]{0,62}", name):
            raise ValueError(f"not a plain database name: {name!r}")
        self.sql(f"CREATE DATABASE {name}")
        return self.url(name)

    def postmaster_pid(self) -> int | None:
        """The server's own process id (the first line of ``postmaster.pid``)."""
        try:
            return int((self.data / "postmaster.pid").read_text().split()[0])
        except (OSError, ValueError, IndexError, AssertionError):
            return None

    def stop(self, timeout: float = 20.0) -> None:
        """Fast shutdown (SIGINT to the postmaster), then SIGQUIT/SIGKILL; remove the folder."""
        pid = self.postmaster_pid()
        if self.proc is not None and self.proc.poll() is None:
            for sig in (signal.SIGINT, signal.SIGQUIT):
                if pid is not None:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, sig)
                try:
                    self.proc.wait(timeout / 2)
                    break
                except subprocess.TimeoutExpired:
                    continue
            if self.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None


class RedisServer:
    """A throwaway ``redis-server`` on ``127.0.0.1:port`` with no persistence."""

    def __init__(self, binary: Path | None = None) -> None:
        found = binary or redis_binary()
        if found is None:
            raise ServiceError("redis-server is not installed (apt-get install redis-server)")
        self.binary = found
        self.port = 0
        self.root: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    @property
    def log_path(self) -> Path:
        assert self.root is not None
        return self.root / "redis.log"

    def start(self, timeout: float = 30.0) -> RedisServer:
        """Start it and wait until it answers PING."""
        self.root = Path(tempfile.mkdtemp(prefix="teenpatti-redis-"))
        _on_a_free_port(self, timeout)
        return self

    def _launch(self, timeout: float) -> None:
        assert self.root is not None
        command = [
            str(self.binary),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.root),
            "--daemonize",
            "no",
        ]
        log = self.log_path.open("ab")
        try:
            self.proc = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL
            )
        finally:
            log.close()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise ServiceError(
                    f"redis-server exited ({self.proc.returncode}):\n{_tail(self.log_path)}"
                )
            if self.command("PING") == "+PONG":
                return
            time.sleep(0.05)
        self.stop()
        raise ServiceError(f"redis-server did not answer in {timeout:.0f} s")

    def restart(self, down: float = 0.5, timeout: float = 30.0) -> None:
        """Stop the server (SIGTERM) and start it again on the same port after ``down`` seconds:
        everything it held is gone (no persistence), every client's connection is broken."""
        assert self.proc is not None and self.root is not None
        self.proc.terminate()
        self.proc.wait(10)
        time.sleep(down)
        self._launch(timeout)

    def command(self, *words: str) -> str | None:
        """Send one command (RESP) and return the first line of the reply, or ``None``."""
        payload = f"*{len(words)}\r\n" + "".join(f"${len(w.encode())}\r\n{w}\r\n" for w in words)
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
                sock.sendall(payload.encode())
                reply = b""
                while not reply.endswith(b"\r\n"):
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    reply += chunk
        except OSError:
            return None
        return reply.decode(errors="replace").split("\r\n", 1)[0]

    def stop(self, timeout: float = 10.0) -> None:
        """SIGTERM, then SIGKILL; remove its folder."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
            self.root = None
