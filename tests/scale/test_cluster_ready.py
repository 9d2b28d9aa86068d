"""``/readyz`` of a process on PostgreSQL and Redis: ready while both answer, ``503`` naming the
bus while Redis hangs (SIGSTOP), ready again when it wakes, and ``503`` naming the store once
PostgreSQL is stopped. ``/healthz`` answers throughout: the process itself is up.

The test starts its own PostgreSQL and Redis (the session's are shared with other tests)."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
from support.cluster import FAST, Server
from support.services import PgCluster, RedisServer


def ready(srv: Server) -> tuple[int, dict[str, Any]]:
    reply = httpx.get(srv.http + "/readyz", timeout=10)
    body: dict[str, Any] = reply.json()
    return reply.status_code, body


def wait_ready(srv: Server, status: int, timeout: float = 15.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        code, body = ready(srv)
        if code == status:
            return body
        assert time.monotonic() < deadline, f"/readyz stayed {code}: {body}"
        time.sleep(0.1)


def test_readyz_follows_the_store_and_the_bus(services_available: None, tmp_path: Path) -> None:
    pg, cache = PgCluster(), RedisServer()
    srv: Server | None = None
    try:
        pg.start()
        cache.start()
        url = pg.create_database("ready")
        srv = Server(tmp_path / "a", args=[*FAST, "--database", url, "--bus", cache.url(0)])
        srv.start(30.0)
        body = wait_ready(srv, 200)
        assert body["store"] == "ok" and body["bus"] == "ok" and body["tables"] == "loaded"

        assert cache.proc is not None
        os.kill(cache.proc.pid, signal.SIGSTOP)  # Redis hangs: the bus does not answer
        try:
            body = wait_ready(srv, 503)
            assert body["status"] == "not ready" and body["store"] == "ok"
            assert body["bus"] != "ok"
            assert httpx.get(srv.http + "/healthz", timeout=10).status_code == 200
        finally:
            os.kill(cache.proc.pid, signal.SIGCONT)
        assert wait_ready(srv, 200)["bus"] == "ok"

        pg.stop()  # PostgreSQL goes away
        body = wait_ready(srv, 503)
        assert body["store"] != "ok" and body["bus"] == "ok"
        assert httpx.get(srv.http + "/healthz", timeout=10).status_code == 200
        metrics = httpx.get(srv.http + "/metrics", timeout=10).text
        assert 'teenpatti_errors_total{kind="ready/failed"}' in metrics
    finally:
        if srv is not None:
            srv.kill()
            srv.close()
        cache.stop()
        pg.stop()
