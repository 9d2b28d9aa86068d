"""The table on the internet, as deploy/Caddyfile puts it there: Debian's Caddy with ``tls
internal`` on loopback in front of ``teenpatti serve --forwarded-allow-ips 127.0.0.1
--public-url https://...``.

Chromium trusts Caddy's local certificate authority (added to a private NSS database, the one
Chromium on Linux reads from ``$HOME/.pki/nssdb``; no certificate error is ignored), plays a hand
over ``https://`` and ``wss://``, and reconnects to its seat when Caddy restarts in the middle
of a hand. The lobby's rate limit counts each client behind Caddy by its own address (clients
come from 127.0.0.2 and 127.0.0.3), and the app's security headers, HSTS included, reach the
browser through the proxy.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import ssl
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from support.chromium import launch, need_chromium
from support.reach import Serve, free_port, stop_process

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "Caddyfile"
WAIT = 20_000

sync_api = pytest.importorskip("playwright.sync_api")


def _need(binary: str, package: str) -> str:
    found = shutil.which(binary)
    if found is None:
        why = f"{binary} is not installed (scripts/test installs {package})"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return found


class PortTaken(Exception):
    """The port picked for Caddy was taken by another process before Caddy could listen."""


class Caddy:
    """``caddy run`` with deploy/Caddyfile, its settings from the environment it documents."""

    def __init__(self, home: Path, port: int, upstream_port: int) -> None:
        upstream = f"127.0.0.1:{upstream_port}"
        self.home = home
        self.port = port
        self.url = f"https://127.0.0.1:{port}"
        self.log = home / "caddy.log"
        global_options = "\n".join(
            [
                "admin off",
                "skip_install_trust",
                "auto_https disable_redirects",
                # Loopback only, over TCP only (no HTTP/3 socket on UDP): the port checked free
                # is the one Caddy listens on, and nothing listens beyond this machine.
                "default_bind 127.0.0.1",
                "servers {\n\tprotocols h1 h2\n}",
                f"http_port {free_port(avoid={port, upstream_port})}",
                f"https_port {port}",
            ]
        )
        self.env = {
            **os.environ,
            "HOME": str(home),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
            "TEENPATTI_SITE": self.url,
            "TEENPATTI_UPSTREAM": upstream,
            "TEENPATTI_TLS": "tls internal",
            "TEENPATTI_GLOBAL": global_options,
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def tls(self) -> ssl.SSLContext:
        """A client context that trusts Caddy's local certificate authority only."""
        return ssl.create_default_context(cafile=str(self.root_ca))

    @property
    def root_ca(self) -> Path:
        return self.home / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"

    def start(self) -> None:
        command = [
            _need("caddy", "caddy"),
            "run",
            "--config",
            str(CADDYFILE),
            "--adapter",
            "caddyfile",
        ]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                if "address already in use" in self.output():
                    raise PortTaken(self.port)
                raise AssertionError(f"caddy exited:\n{self.output()}")
            if self.root_ca.exists():
                # Caddy may be writing the certificate still: a partial file is not yet one.
                with contextlib.suppress(httpx.HTTPError, ssl.SSLError, OSError):
                    reply = httpx.get(self.url + "/healthz", verify=self.tls(), timeout=1)
                    if reply.status_code == 200:
                        return
            time.sleep(0.1)
        raise AssertionError(f"caddy did not answer in 20 s:\n{self.output()}")

    def stop(self) -> None:
        proc, self.proc = self.proc, None
        stop_process(proc, signal.SIGTERM)

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:] if self.log.exists() else ""


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[tuple[Serve, Caddy]]:
    taken = ""
    for attempt in range(3):  # a free port may be taken by another process before Caddy binds
        port = free_port()
        app = Serve(
            tmp_path / f"data{attempt}",
            [
                "--host",
                "127.0.0.1",
                "--bot-delay",
                "0.05",
                "--result-pause",
                "0.5",
                "--lobby-rate",
                "0.001,8",
                "--forwarded-allow-ips",
                "127.0.0.1",
                "--public-url",
                f"https://127.0.0.1:{port}",
            ],
            port=free_port(avoid={port}),
        ).start()
        home = tmp_path / f"caddy{attempt}"
        home.mkdir()
        caddy = Caddy(home, port, app.port)
        try:
            caddy.start()
        except PortTaken:
            taken = caddy.output()
            caddy.stop()
            app.stop()
            continue
        except BaseException:
            caddy.stop()
            app.stop()
            raise
        break
    else:
        raise AssertionError(f"no free port for Caddy in 3 tries; the last:\n{taken}")
    try:
        yield app, caddy
    finally:
        caddy.stop()
        app.stop()
    assert "Traceback" not in app.output(), app.output()


def trust(home: Path, root_ca: Path) -> None:
    """Add ``root_ca`` to the NSS database Chromium reads in ``home``."""
    certutil = _need("certutil", "libnss3-tools")
    nssdb = home / ".pki" / "nssdb"
    nssdb.mkdir(parents=True)
    subprocess.run([certutil, "-d", f"sql:{nssdb}", "-N", "--empty-password"], check=True)
    subprocess.run(
        [
            certutil,
            "-d",
            f"sql:{nssdb}",
            "-A",
            "-t",
            "C,,",
            "-n",
            "caddy-local",
            "-i",
            str(root_ca),
        ],
        check=True,
    )


def test_a_hand_over_https_behind_caddy(stack: tuple[Serve, Caddy], tmp_path: Path) -> None:
    app, caddy = stack
    ca = caddy.tls()

    # Rate limits see each client behind the proxy by its own address.
    def create(source: str) -> int:
        transport = httpx.HTTPTransport(local_address=source, verify=ca)
        with httpx.Client(transport=transport, timeout=10) as client:
            return client.post(caddy.url + "/api/tables", json={"name": "Ops"}).status_code

    assert [create("127.0.0.2") for _ in range(9)] == [201] * 8 + [429]
    assert create("127.0.0.3") == 201
    # Metrics stay with the operator; static files are compressed, the API is not.
    with httpx.Client(verify=ca, timeout=10) as client:
        assert client.get(caddy.url + "/metrics").status_code == 404
        js = client.get(caddy.url + "/static/js/main.js", headers={"accept-encoding": "gzip"})
        assert js.headers.get("content-encoding") == "gzip"
        api = client.get(caddy.url + "/healthz", headers={"accept-encoding": "gzip"})
        assert "content-encoding" not in api.headers

    need_chromium()
    home = tmp_path / "browser-home"
    trust(home, caddy.root_ca)
    with launch(env={**os.environ, "HOME": str(home)}) as browser:
        play_through_caddy(browser, app, caddy)


def play_through_caddy(browser: Any, app: Serve, caddy: Caddy) -> None:
    context = browser.new_context(
        viewport={"width": 360, "height": 640}, is_mobile=True, has_touch=True
    )
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    # A CSP violation is a console error; a socket refused while Caddy is down is expected.
    page.on(
        "console",
        lambda msg: (
            errors.append(msg.text)
            if msg.type == "error" and "WebSocket connection" not in msg.text
            else None
        ),
    )
    sockets: list[str] = []
    page.on("websocket", lambda ws: sockets.append(ws.url))

    first = page.goto(caddy.url + "/")
    assert first is not None and first.status == 200
    headers = first.all_headers()
    assert headers["strict-transport-security"].startswith("max-age=")
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    page.wait_for_selector("html[data-ready='1']")
    page.get_by_test_id("menu-computer").tap()
    table = page.locator("[data-testid=table][data-status=playing][data-you='0']")
    table.wait_for()
    assert sockets and all(url.startswith(f"wss://127.0.0.1:{caddy.port}/ws/") for url in sockets)
    # Seats are placed by CSS variables, set through the CSSOM under the strict CSP.
    placed = page.eval_on_selector(
        "[data-seat]", "e => getComputedStyle(e).getPropertyValue('--row').trim()"
    )
    assert placed, "the seat has no position"
    my_turn = "[data-testid=table][data-myturn='1'][data-pending='0']"
    page.locator(my_turn).wait_for()
    hand = page.get_by_test_id("table").get_attribute("data-hand")

    # Caddy restarts in the middle of the hand: the page says so, reconnects by itself to the
    # same seat of the same hand, and plays on.
    caddy.stop()
    page.locator("[data-testid=conn-banner][data-state=reconnecting]").wait_for()
    caddy.start()
    page.get_by_test_id("conn-banner").wait_for(state="hidden")
    page.locator(f"[data-testid=table][data-you='0'][data-hand='{hand}']").wait_for()
    page.locator(my_turn).wait_for()
    assert len(sockets) >= 2
    page.get_by_test_id("act-pack").tap()
    page.locator(f"[data-testid=table][data-hand='{int(hand or 0) + 1}']").wait_for()
    assert not errors, errors
    context.close()
