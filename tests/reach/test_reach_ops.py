"""What an operator sees of a real ``teenpatti serve``: /healthz, /readyz, /metrics after a game
is played, the security headers on every response, the log as text (info lines visible) and as
JSON (one object a line with the table's code and a request id), and the forwarded client address
trusted only from ``--forwarded-allow-ips``."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import httpx
import pytest
import websockets
from support.reach import Serve

FAST = ["--host", "127.0.0.1", "--bot-delay", "0", "--result-pause", "0"]


def metric(text: str, name: str, labels: str = "") -> float:
    """The value of one sample in Prometheus text (``name{labels} value``)."""
    pattern = re.escape(name) + (re.escape("{" + labels + "}") if labels else "") + r" (\S+)"
    found = re.search(r"^" + pattern + "$", text, re.M)
    assert found, f"{name}{{{labels}}} not in the metrics"
    return float(found.group(1))


async def play_a_hand(base: str) -> str:
    """Open a table against the computer and play until one hand is over; the table's code."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as http:
        made = (await http.post("/api/tables", json={"name": "Ops", "computer": True})).json()
    code, token = made["code"], made["token"]
    url = base.replace("http", "ws") + f"/ws/{code}"
    async with websockets.connect(url) as ws:
        # this client reads whole states, so it asks for them instead of patches
        await ws.send(json.dumps({"type": "hello", "token": token, "patches": False}))
        async with asyncio.timeout(20):
            while True:
                state = json.loads(await ws.recv())
                if state.get("type") == "error":
                    assert state["code"] == "action/unknown", state
                    continue
                hand = state.get("hand")
                if hand and hand.get("finished"):
                    return str(code)
                if hand and not hand.get("finished") and hand.get("actor") == state.get("you"):
                    await ws.send(
                        json.dumps(
                            {"type": "act", "action": {"do": "pack"}, "version": state["version"]}
                        )
                    )
                    # an error reply is counted under its code in /metrics
                    await ws.send(json.dumps({"type": "act", "action": {"do": "fly"}}))


def test_health_metrics_headers_and_json_log(tmp_path: Path) -> None:
    srv = Serve(tmp_path / "data", [*FAST, "--log-format", "json"]).start()
    try:
        health = httpx.get(srv.url + "/healthz", timeout=10)
        assert health.json() == {"status": "ok"}
        ready = httpx.get(srv.url + "/readyz", timeout=10)
        assert ready.status_code == 200
        assert ready.json() | {"live_tables": 0} == {
            "status": "ready",
            "store": "ok",
            "bus": "ok",
            "tables": "loaded",
            "live_tables": 0,
        }
        code = asyncio.run(play_a_hand(srv.url))
        text = httpx.get(srv.url + "/metrics", timeout=10).text
        assert metric(text, "teenpatti_tables_live") == 1
        assert metric(text, "teenpatti_actions_total") >= 2  # the deal and the host's move
        assert metric(text, "teenpatti_append_seconds_count") >= 2
        assert metric(text, "teenpatti_broadcast_seconds_count") >= 2
        assert metric(text, "teenpatti_clock_lateness_seconds_count") >= 1  # the deal's clock
        assert metric(text, "teenpatti_sockets") == 0
        assert metric(text, "teenpatti_errors_total", 'kind="action/unknown"') >= 1
        # Headers on a page, an API reply and the metrics alike; no HSTS over plain HTTP.
        for path in ("/", f"/api/tables/{code}", "/metrics", "/nowhere"):
            headers = httpx.get(srv.url + path, timeout=10).headers
            csp = headers["content-security-policy"]
            assert "script-src 'self'" in csp and "style-src 'self'" in csp
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert "frame-ancestors 'none'" in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-frame-options"] == "DENY"
            assert re.fullmatch(r"[0-9a-f]{16}", headers["x-request-id"])
            assert "strict-transport-security" not in headers
        # A client claiming to be behind a proxy is not believed: nobody is trusted by default.
        https = httpx.get(srv.url + "/", headers={"x-forwarded-proto": "https"}, timeout=10)
        assert "strict-transport-security" not in https.headers
    finally:
        srv.stop()
    lines = [line for line in srv.output().splitlines() if line.startswith("{")]
    records = [json.loads(line) for line in lines]
    opened = [r for r in records if r["message"] == f"table {code} opened"]
    assert opened and opened[0]["table"] == code and opened[0]["level"] == "info"
    assert re.fullmatch(r"[0-9a-f]{16}", opened[0]["request_id"])
    assert any(r["message"].startswith("started") for r in records)


@pytest.mark.parametrize("trusted", [False, True])
def test_forwarded_address_only_from_trusted_proxies(tmp_path: Path, trusted: bool) -> None:
    """With ``--forwarded-allow-ips 127.0.0.1`` the lobby limit counts each forwarded client
    apart; without it, a forged X-Forwarded-For changes nothing. And the text log."""
    args = ["--host", "127.0.0.1", "--lobby-rate", "0.001,2"]
    if trusted:
        args += ["--forwarded-allow-ips", "127.0.0.1"]
    srv = Serve(tmp_path / "data", args).start()
    try:

        def status(client: str) -> int:
            reply = httpx.post(
                srv.url + "/api/tables",
                json={"name": "Ops"},
                headers={"x-forwarded-for": client},
                timeout=10,
            )
            return reply.status_code

        assert [status("203.0.113.1") for _ in range(3)] == [201, 201, 429]
        assert status("203.0.113.2") == (201 if trusted else 429)
        proto = httpx.get(srv.url + "/", headers={"x-forwarded-proto": "https"}, timeout=10)
        assert ("strict-transport-security" in proto.headers) == trusted
    finally:
        srv.stop()
    # The default text log: info lines are shown, tagged with the table and the request.
    out = srv.output()
    assert "INFO teenpatti.tables: started" in out
    assert re.search(
        r"INFO teenpatti.web: table (\w+) opened \[table=\1 request=[0-9a-f]{16}\]", out
    )
    # Listening on loopback only: the terminal says the link works on this device only.
    assert f"On this device: http://127.0.0.1:{srv.port}" in out
    assert "Only this device can open the table" in out
