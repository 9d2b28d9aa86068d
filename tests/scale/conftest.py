"""Fixtures for the scale-out tests: real PostgreSQL and Redis servers, started by the tests
themselves from the Debian packages (``postgresql``, ``redis-server``), and several real
``teenpatti serve`` processes on them.

- ``pg_cluster``, ``redis_server`` (session): one private PostgreSQL cluster (``initdb`` in a
  temporary folder, run as the ``postgres`` OS user when the tests run as root, ``fsync=off``,
  trust on 127.0.0.1) and one ``redis-server`` (no persistence), each on a free port, both stopped
  and removed at the end. If the binaries are missing the tests are skipped, or fail with the
  reason when ``CI`` is set (CI must run them).
- ``pg_url`` (per test): a fresh database (``CREATE DATABASE`` with a unique name), so tests never
  see each other's tables. ``redis_url``: the session's Redis, emptied (``FLUSHALL``) first.
- ``cluster(n, args=...)``: start ``n`` ``teenpatti serve`` processes on that database and Redis,
  all at once (their migrations race, as processes starting together do). Each is a ``Server``
  of ``tests/server/conftest.py`` (``kill()`` is SIGKILL). At the end every process still alive
  is stopped, and the test fails if any logged an exception.
- ``proxied`` (per test): a fresh database behind a ``PgProxy`` (:mod:`support.faults`), to lose a
  commit's acknowledgement or cut PostgreSQL off: ``(proxy, name, direct url)``.
- ``ws``, ``cli``, ``arun``: the same fixtures as in ``tests/server`` (every client checks every
  state it gets for cards its seat may not see; the test fails if one did).

Every wait is bounded.
"""

from __future__ import annotations

import itertools
import os
import secrets
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from support.cluster import FAST, Server
from support.faults import PgProxy
from support.server import arun as arun  # the real-server fixtures, shared as they are
from support.server import cli as cli
from support.server import ws as ws
from support.services import PgCluster, RedisServer, ServiceError, missing_services


def _unavailable(reason: str) -> None:
    """Skip; but in CI (``CI`` set) fail, so a broken install cannot pass unnoticed."""
    message = f"the scale-out tests need PostgreSQL and Redis: {reason}"
    if os.environ.get("CI"):
        pytest.fail(message + " (CI is set: scripts/test installs postgresql and redis-server)")
    pytest.skip(message)


@pytest.fixture(scope="session")
def services_available() -> None:
    missing = missing_services()
    if missing:
        _unavailable("missing " + ", ".join(missing))


@pytest.fixture(scope="session")
def pg_cluster(services_available: None) -> Iterator[PgCluster]:
    """A private PostgreSQL cluster for the whole session."""
    cluster = PgCluster()
    try:
        cluster.start()
    except ServiceError as error:
        cluster.stop()
        _unavailable(f"PostgreSQL did not start: {error}")
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def redis_server(services_available: None) -> Iterator[RedisServer]:
    """A private Redis for the whole session."""
    server = RedisServer()
    try:
        server.start()
    except ServiceError as error:
        server.stop()
        _unavailable(f"Redis did not start: {error}")
    try:
        yield server
    finally:
        server.stop()


_NUMBER = itertools.count(1)


@pytest.fixture
def pg_url(pg_cluster: PgCluster) -> str:
    """A new, empty database of the session's cluster."""
    return pg_cluster.create_database(f"t{next(_NUMBER)}_{secrets.token_hex(4)}")


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied (no lease of an earlier test is left)."""
    assert redis_server.command("FLUSHALL") == "+OK"
    return redis_server.url(0)


MakeCluster = Callable[..., list[Server]]


@pytest.fixture
def cluster(pg_url: str, redis_url: str, tmp_path: Path) -> Iterator[MakeCluster]:
    """``cluster(n, args=FAST)``: ``n`` servers on the test's database and the Redis, started at
    once; the servers are named ``a``, ``b``, ... (their logs: ``tmp_path/a-server.log``)."""
    made: list[Server] = []

    def make(n: int = 2, args: Sequence[str] = FAST) -> list[Server]:
        servers = []
        for _ in range(n):
            name = chr(ord("a") + len(made))
            extra = ["--database", pg_url, "--bus", redis_url]
            srv = Server(tmp_path / name, args=[*args, *extra])
            made.append(srv)
            servers.append(srv)
        with ThreadPoolExecutor(n) as pool:
            for future in [pool.submit(srv.start, 60.0) for srv in servers]:
                future.result()
        return servers

    yield make
    for srv in made:
        srv.close()
    problems = [
        f"server {srv.data.name} logged an exception:\n{srv.log()[-4000:]}"
        for srv in made
        if "Traceback" in srv.log()
    ]
    assert not problems, "\n".join(problems)


@pytest.fixture
def proxied(pg_cluster: PgCluster) -> Iterator[tuple[PgProxy, str, str]]:
    """A fresh database behind a :class:`PgProxy`: ``(proxy, name, direct url)``."""
    name = f"proxied_{os.getpid()}_{secrets.token_hex(4)}"
    direct = pg_cluster.create_database(name)
    proxy = PgProxy(pg_cluster.port).start()
    try:
        yield proxy, name, direct
    finally:
        proxy.stop()
