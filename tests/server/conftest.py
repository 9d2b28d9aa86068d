"""Fixtures for the table-server tests: a real ``teenpatti serve`` process on loopback, an HTTP
lobby helper and WebSocket clients that keep (and check) every message they receive (all of them
in :mod:`support.server`).

Every client checks each ``state`` it gets against the rules of what a seat may see (see
:func:`~support.server.card_problems`), that it is the view of its own seat, and that no message
holds any seat token the lobby gave out (or its SHA-256). The ``ws`` fixture fails the test if
any client saw a problem, so every test that plays through the server checks the card gate for
free.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import pytest
from support.server import (
    EDGE_ARGS,
    FAST,
    ISSUED_TOKENS,
    SHOWDOWN,
    TABLE_TOKENS,
    Api,
    Client,
    Closed,
    Server,
    accepted_side_shows,
    arun,
    card_problems,
    cli,
    history_problems,
    leaked_secrets,
    may_see,
    run,
    serve_command,
    ws,
)

__all__ = [
    "EDGE_ARGS",
    "FAST",
    "ISSUED_TOKENS",
    "SHOWDOWN",
    "TABLE_TOKENS",
    "Api",
    "Client",
    "Closed",
    "Server",
    "accepted_side_shows",
    "arun",
    "card_problems",
    "cli",
    "history_problems",
    "leaked_secrets",
    "may_see",
    "run",
    "serve_command",
    "ws",
]


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the tests that need no process of their own (tables do not interfere).

    Every module a worker runs opens its tables here from the same loopback address, and how
    many are still open when the next one asks depends on which modules the worker was given:
    the cap on tables open from one address (20 by default, tested on servers of their own) is
    raised out of the way, or a test would be refused ``table/limit`` by its neighbours' tables."""
    srv = Server(
        tmp_path_factory.mktemp("shared") / "data", args=(*FAST, "--tables-per-address", "1000")
    )
    srv.start()
    try:
        yield srv
    finally:
        healthy = srv.alive and "Traceback" not in srv.log()
        log = srv.log()
        srv.close()
    assert healthy, f"the shared server died or logged an exception:\n{log}"


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Make (and start) servers of the test's own; every one is stopped at the end."""
    made: list[Server] = []

    def make(args: Sequence[str] = FAST, name: str = "data", prefix: Sequence[str] = ()) -> Server:
        srv = Server(tmp_path / name, args=args, prefix=prefix)
        made.append(srv)
        srv.start()
        return srv

    yield make
    for srv in made:
        srv.close()


@pytest.fixture
def api(server: Server) -> Api:
    """The shared server's lobby."""
    return Api(server.http)


@pytest.fixture
def lobby_from() -> Callable[[Server, str], Api]:
    """``lobby_from(server, "127.0.0.2")``: a server's lobby asked from another loopback address
    (another client, as far as the server's limits can tell)."""
    return lambda srv, source: Api(srv.http, source=source)


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server with the production limits (a short client timeout) for a module's tests
    that need no options of their own (up to 100 tables open from loopback)."""
    srv = Server(
        tmp_path_factory.mktemp("edge") / "data", args=(*EDGE_ARGS, "--tables-per-address", "100")
    )
    srv.start()
    try:
        yield srv
    finally:
        srv.close()
