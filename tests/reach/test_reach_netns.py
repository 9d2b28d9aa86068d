"""The README's first command, unchanged, gives a link a second phone on the same network opens.

The test makes its own network namespace (``unshare -n``) holding a pretend home network: a veth
pair, ``10.77.0.1`` (the host's computer) and ``10.77.0.2`` (a friend's phone). Inside it,
``teenpatti serve`` runs with no option at all; the test checks what it prints (each usable URL,
with a QR code), then the host opens ``http://127.0.0.1:8000``, creates a table and is given the
network link; the "phone", from ``10.77.0.2``, opens that link, joins and gets its seat's state
over a WebSocket. Every packet stays inside the namespace, which ends with the test.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support.reach import teenpatti

DRIVER = textwrap.dedent(
    """
    import asyncio, json, subprocess, sys, time
    import httpx, websockets

    def ip(*words):
        subprocess.run(["ip", *words], check=True)

    ip("link", "set", "lo", "up")
    ip("link", "add", "tpwifi0", "type", "veth", "peer", "name", "tpwifi1")
    ip("addr", "add", "10.77.0.1/24", "dev", "tpwifi0")
    ip("addr", "add", "10.77.0.2/24", "dev", "tpwifi1")
    ip("link", "set", "tpwifi0", "up")
    ip("link", "set", "tpwifi1", "up")

    serve = subprocess.Popen(
        [*json.loads(sys.argv[1]), "serve"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT
    )
    out = {}
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get("http://127.0.0.1:8000/healthz", timeout=0.5).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        host = httpx.post("http://127.0.0.1:8000/api/tables", json={"name": "Host"}).json()
        out["share"] = host["share"]
        phone = httpx.Client(transport=httpx.HTTPTransport(local_address="10.77.0.2"), timeout=5)
        page = phone.get(host["share"]["url"])
        out["page"] = [page.status_code, "<!doctype html>" in page.text.lower()]
        base = host["share"]["url"].rsplit("/t/", 1)[0]
        joined = phone.post(f"{base}/api/tables/{host['code']}/join", json={"name": "Phone"}).json()
        out["joined_seat"] = joined["seat"]

        async def socket():
            url = base.replace("http", "ws") + f"/ws/{host['code']}"
            async with websockets.connect(url) as ws:
                await ws.send(json.dumps({"type": "hello", "token": joined["token"]}))
                state = json.loads(await asyncio.wait_for(ws.recv(), 10))
                return [state.get("you"), [s and s["name"] for s in state["seats"]][:2]]

        out["socket"] = asyncio.run(socket())
    finally:
        serve.terminate()
        printed = serve.communicate(timeout=15)[0].decode(errors="replace")
    out["printed"] = printed
    print(json.dumps(out))
    """
)


def test_readme_first_command_gives_a_link_a_phone_opens(tmp_path: Path) -> None:
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs unshare (util-linux) and ip (iproute2)")
    probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {probe.stderr.strip()}")
    script = tmp_path / "driver.py"
    script.write_text(DRIVER)
    run = subprocess.run(
        ["unshare", "-n", sys.executable, str(script), json.dumps(teenpatti())],
        cwd=tmp_path,  # the README's command keeps its data in ./data
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    code = out["share"]["url"].rsplit("/", 1)[-1]
    assert out["share"] == {"url": f"http://10.77.0.1:8000/t/{code}", "local_only": False}
    assert out["page"] == [200, True]
    assert out["joined_seat"] == 1
    assert out["socket"] == [1, ["Host", "Phone"]]
    printed = out["printed"]
    assert "Friends open: http://10.77.0.1:8000" in printed
    assert "Friends open: http://10.77.0.2:8000" in printed
    assert "127.0.0.1:8000" in printed.split("Friends open")[0]
    # A QR code under each URL: rows of half-block characters.
    assert printed.count("\u2580") + printed.count("\u2584") + printed.count("\u2588") > 100
    assert (tmp_path / "data" / "teenpatti.sqlite3").exists()
