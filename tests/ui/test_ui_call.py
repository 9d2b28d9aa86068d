"""The voice call between real phones' pages: three Chromium pages seated at one table talk over
WebRTC, with Chromium's fake microphones (a tone) and the page's own call code, through a real
``teenpatti serve``; then the same through a real coturn, relayed only.

WebRTC gathers candidates on every interface it finds, and a test may send traffic only to
loopback: each test here runs in a network namespace of its own that holds loopback alone. The
module's one test outside (``test_the_calls_run_in_a_network_of_loopback_only``) runs pytest again
on this module under ``unshare --net`` with ``lo`` up, where the ``netns_`` functions are the
tests; Chromium there gets ``--allow-loopback-in-peer-connection`` (else it offers no loopback
candidate). What the pages' connections did is read from ``getStats()``: audio packets arriving
with a level above zero, over a selected candidate pair on 127.0.0.1.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.chromium import ARGS, CHROMIUM, WAIT, need_chromium
from support.page_server import Server
from support.page_strings import page_strings
from support.table_page import settled

from teenpatti.web.ice import turn_credential

INSIDE = "TEENPATTI_CALL_NETNS"
"""Set in the environment of the run inside the namespace."""
CALL_ARGS = [
    "--use-fake-device-for-media-stream",
    "--allow-loopback-in-peer-connection",
    "--autoplay-policy=no-user-gesture-required",
]
"""Fake microphones (a tone), loopback candidates, and sound that plays without a tap. The
microphone's permission is each phone's own: granted to a context (the person taps "Allow"), or
not (the browser refuses it: NotAllowedError), rather than granted to all by
``--use-fake-ui-for-media-stream``."""
SECRET = "loopback-only-secret"
REFUSE_MIC_JS = """
if (navigator.mediaDevices) {
  navigator.mediaDevices.getUserMedia = () =>
    Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
}
"""
"""The person taps "Block": what the browser answers then, at once. Without a grant, headless
Chromium usually refuses by itself, but not always at once (a run under load waited out the
test's 30 s with the request unanswered)."""

WATCH_PEERS_JS = """
window.__pcs = [];
const Native = window.RTCPeerConnection;
if (Native) {
  window.RTCPeerConnection = class extends Native {
    constructor(...args) {
      super(...args);
      window.__pcs.push(this);
    }
  };
}
"""
"""Keeps every RTCPeerConnection the page makes, for the test to read its statistics."""

STATS_JS = """async () => {
  const out = [];
  for (const pc of window.__pcs) {
    if (pc.connectionState === "closed") continue;
    const stats = await pc.getStats();
    const byId = new Map();
    stats.forEach((r) => byId.set(r.id, r));
    const row = {state: pc.connectionState, received: 0, level: 0, sent: 0, pair: null};
    stats.forEach((r) => {
      if (r.type === "inbound-rtp" && r.kind === "audio") {
        row.received = r.packetsReceived || 0;
        row.level = r.audioLevel || 0;
      }
      if (r.type === "outbound-rtp" && r.kind === "audio") row.sent = r.packetsSent || 0;
      if (r.type === "transport" && r.selectedCandidatePairId) {
        const pair = byId.get(r.selectedCandidatePairId);
        const local = pair && byId.get(pair.localCandidateId);
        const remote = pair && byId.get(pair.remoteCandidateId);
        if (local && remote) {
          row.pair = [local.address || local.ip, local.candidateType,
                      remote.address || remote.ip, remote.candidateType];
        }
      }
    });
    out.push(row);
  }
  return out;
}"""

TURN_PROBE_JS = """async ([urls, username, credential]) => {
  const pc = new RTCPeerConnection({iceServers: [{urls, username, credential}],
                                    iceTransportPolicy: "relay"});
  const relays = [];
  const errors = [];
  pc.onicecandidate = (e) => {
    if (e.candidate && e.candidate.candidate) relays.push(e.candidate.candidate);
  };
  pc.onicecandidateerror = (e) => errors.push(e.errorCode);
  pc.addTransceiver("audio");
  await pc.setLocalDescription();
  await new Promise((done) => {
    if (pc.iceGatheringState === "complete") return done();
    pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === "complete") done(); };
    setTimeout(done, 10000);
  });
  pc.close();
  return {relays, errors};
}"""
"""Asks the TURN server for a relay with the given credentials: the candidates it got, and the
errors (401: refused)."""


def test_the_calls_run_in_a_network_of_loopback_only() -> None:
    if os.environ.get(INSIDE) == "1":
        pytest.skip("the run inside the namespace runs the netns_ tests")
    need_chromium()
    if shutil.which("unshare") is None or shutil.which("ip") is None:
        pytest.skip("needs unshare (util-linux) and ip (iproute2)")
    probe = subprocess.run(["unshare", "--net", "true"], capture_output=True, text=True)
    if probe.returncode != 0:
        pytest.skip(f"cannot make a network namespace here: {probe.stderr.strip()}")
    run = subprocess.run(
        [
            "unshare",
            "--net",
            sys.executable,
            "-m",
            "pytest",
            __file__,
            "-o",
            "python_functions=netns_*",
            "-p",
            "no:cacheprovider",
            "-q",
            "-x",
        ],
        env={**os.environ, INSIDE: "1"},
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stdout[-8000:] + run.stderr[-3000:]
    assert "2 passed" in run.stdout and "skipped" not in run.stdout, run.stdout[-3000:]


# ---------------------------------------------------------------------- inside the namespace
@pytest.fixture(scope="module")
def call_browser() -> Iterator[Any]:
    """One Chromium with fake microphones, for every page of the module (inside only)."""
    if os.environ.get(INSIDE) != "1":
        pytest.skip("runs inside its own network namespace")
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=[*ARGS, *CALL_ARGS], headless=True
        )
        try:
            yield browser
        finally:
            browser.close()


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as reply:
        out: dict[str, Any] = json.load(reply)
        return out


class Phone:
    """A phone's context and page at a table, every socket frame it receives kept."""

    def __init__(
        self, browser: Any, base: str, locale: str = "en-GB", microphone: bool = True
    ) -> None:
        self.context = browser.new_context(
            viewport={"width": 360, "height": 640},
            is_mobile=True,
            has_touch=True,
            locale=locale,
            permissions=["microphone"] if microphone else [],
        )
        self.context.add_init_script(WATCH_PEERS_JS)
        if not microphone:
            self.context.add_init_script(REFUSE_MIC_JS)
        self.page = self.context.new_page()
        self.page.set_default_timeout(WAIT)
        self.base = base
        self.frames: list[dict[str, Any]] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda err: self.errors.append(str(err)))
        self.page.on("websocket", self._watch)

    def _watch(self, ws: Any) -> None:
        def received(payload: str | bytes) -> None:
            if isinstance(payload, str):
                self.frames.append(json.loads(payload))

        ws.on("framereceived", received)

    def sit(self, code: str, token: str, seat: int) -> Phone:
        """Open the table on this phone, holding the seat (its token where the page keeps it:
        put there before the page's first script runs, so the page loads once)."""
        seats = json.dumps({code: {"token": token, "seat": seat, "at": 0}})
        self.page.add_init_script(
            f"if (!localStorage.getItem('tp.seats')) localStorage.setItem('tp.seats', {seats!r});"
        )
        self.page.goto(f"{self.base}/t/{code}")
        self.page.locator(f"[data-testid=table][data-you='{seat}']").wait_for()
        return self

    def stats(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.page.evaluate(STATS_JS)
        return rows

    def wait_stats(self, check: Any, what: str, timeout: float = 30.0) -> list[dict[str, Any]]:
        """The page's connections once ``check`` holds of them (polled: WebRTC's statistics come
        with no event to wait on)."""
        deadline = time.monotonic() + timeout
        rows = self.stats()
        while not check(rows):
            if time.monotonic() > deadline:
                raise AssertionError(f"{what}: {rows}")
            self.page.wait_for_timeout(200)
            rows = self.stats()
        return rows

    def call_frames(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f.get("type") in ("call", "signal")]

    def close(self) -> None:
        self.context.close()


def talking(peers: int, address: str = "127.0.0.1", kind: str | None = None) -> Any:
    """A check: ``peers`` open connections, each connected on a pair of ``address`` (of candidate
    type ``kind``), receiving audio packets with a level above zero."""

    def check(rows: list[dict[str, Any]]) -> bool:
        return len(rows) == peers and all(
            r["state"] == "connected"
            and r["received"] > 0
            and r["level"] > 0
            and r["pair"] is not None
            and r["pair"][0] == address
            and r["pair"][2] == address
            and (kind is None or r["pair"][1] == kind)
            for r in rows
        )

    return check


def table_of_three(
    base: str, browser: Any, dipa: bool = False
) -> tuple[str, list[str], list[Phone]]:
    """A table with Asha (the host), Bina and Chandra seated, each on a phone of their own; with
    ``dipa``, Dipa too, on a phone set to Nepali that refuses the page its microphone."""
    host = post(base, "/api/tables", {"name": "Asha", "seats": 4, "turn_seconds": None})
    code = host["code"]
    tokens = [host["token"]]
    for name in ("Bina", "Chandra", "Dipa")[: 3 if dipa else 2]:
        tokens.append(post(base, f"/api/tables/{code}/join", {"name": name})["token"])
    phones = [
        Phone(browser, base, *(("ne-NP", False) if seat == 3 else ())).sit(code, token, seat)
        for seat, token in enumerate(tokens)
    ]
    return code, tokens, phones


def join_all(phones: list[Phone]) -> None:
    for phone in phones:
        phone.page.get_by_test_id("call-join").click()
        phone.page.locator("[data-testid=call][data-joined='1']").wait_for()


def netns_three_phones_talk_mute_and_a_removed_player_drops_out(
    call_browser: Any, tmp_path: Path
) -> None:
    server = Server(tmp_path)
    server.start()
    everyone: list[Phone] = []
    try:
        _code, _tokens, everyone = table_of_three(server.url, call_browser, dipa=True)
        asha, bina, chandra, dipa = everyone
        phones = everyone
        asha.page.get_by_test_id("start").click()
        # the first deal (a second and a half after the start) moves the call's buttons down
        settled(*(phone.page for phone in phones))
        # Dipa's phone refuses the microphone: the page says so in Nepali, and she plays on.
        dipa.page.get_by_test_id("call-join").click()
        dipa.page.get_by_test_id("call-problem").get_by_text(
            page_strings()["strings"]["ne"]["call.noMic"]
        ).wait_for()
        assert dipa.page.locator("[data-testid=table][data-status='playing']").count() == 1
        assert dipa.stats() == []
        phones = [asha, bina, chandra]
        join_all(phones)
        for phone in phones:
            phone.wait_stats(talking(2), "each phone hears the other two on loopback")
        bina.page.get_by_test_id("call-roster").get_by_text("Asha").wait_for()

        # Bina mutes: her phone sends nothing, and the others stop getting her packets.
        bina.page.get_by_test_id("call-mute").click()
        asha.page.locator("[data-testid=call-people] .tag").first.wait_for()
        before = {id(p): p.stats() for p in phones}
        asha.page.wait_for_timeout(1500)
        after = {id(p): p.stats() for p in phones}
        assert [r["sent"] for r in after[id(bina)]] == [r["sent"] for r in before[id(bina)]]
        for phone in (asha, chandra):
            grew = [
                b["received"] > a["received"]
                for a, b in zip(before[id(phone)], after[id(phone)], strict=True)
            ]
            assert sorted(grew) == [False, True], (before[id(phone)], after[id(phone)])
        bina.page.get_by_test_id("call-mute").click()
        asha.wait_stats(talking(2), "Bina heard again once she unmutes")

        # Chandra switches Asha's sound off on his phone: her voice still comes, unplayed.
        hear = chandra.page.get_by_test_id("call-hear-0")
        hear.click()
        chandra.page.locator("[data-testid=call-hear-0][aria-checked=false]").wait_for()
        assert chandra.page.eval_on_selector("audio[data-seat='0']", "(a) => a.muted")
        assert not chandra.page.eval_on_selector("audio[data-seat='1']", "(a) => a.muted")
        hear.click()
        chandra.page.locator("[data-testid=call-hear-0][aria-checked=true]").wait_for()
        assert not chandra.page.eval_on_selector("audio[data-seat='0']", "(a) => a.muted")

        # Bina's phone reloads the page: it is back on the call by itself.
        bina.page.reload()
        bina.page.locator("[data-testid=call][data-joined='1']").wait_for()
        for phone in phones:
            phone.wait_stats(talking(2), "everyone hears everyone again after Bina's reload")

        # The server restarts (and forgets the call): every page's socket reconnects and joins
        # the call again by itself, with new connections (the old ones are closed).
        made = [phone.page.evaluate("() => window.__pcs.length") for phone in phones]
        server.stop()
        server.start()
        for phone, before in zip(phones, made, strict=True):
            phone.page.wait_for_function("(n) => window.__pcs.length === n + 2", arg=before)
            phone.wait_stats(talking(2), "everyone hears everyone again after the restart")

        # The host removes Chandra: he drops out of every call, his own phone's too.
        asha.page.get_by_test_id("menu-open").click()
        asha.page.get_by_test_id("remove-2").click()
        asha.page.get_by_test_id("confirm-yes").click()
        chandra.page.get_by_test_id("join-form").wait_for()
        for phone in (asha, bina):
            phone.wait_stats(talking(1), "one connection left, still talking")
        chandra.wait_stats(lambda rows: rows == [], "the removed phone's connections closed")

        # Chandra watches now, as a spectator: he is never offered a call.
        chandra.page.get_by_test_id("name").fill("Chandra")
        chandra.page.get_by_test_id("join-submit").click()
        chandra.page.get_by_test_id("watch").click()
        chandra.page.locator("[data-testid=table][data-you='']").wait_for()
        seen = len(chandra.frames)
        asha.page.get_by_test_id("call-leave").click()
        asha.page.get_by_test_id("call-join").click()
        bina.wait_stats(talking(1), "Asha back on the call")
        # Bina says something in the chat after that: once Chandra's page shows it, everything
        # sent to his socket before it has come (a socket's messages keep their order), and her
        # words are read in his chat's log, opened first.
        chandra.page.get_by_test_id("chat-open").click()
        chandra.page.get_by_test_id("chat-log").wait_for()
        bina.page.get_by_test_id("chat-open").click()
        bina.page.get_by_test_id("phrase-shabash").click()
        chandra.page.get_by_test_id("chat-log").get_by_text("Bina").wait_for()
        assert not [f for f in chandra.frames[seen:] if f.get("type") in ("call", "signal")]
        assert chandra.page.get_by_test_id("call").count() == 0
        assert chandra.stats() == []

        # Whoever talks has a ring on their seat (the fake microphones' tone comes and goes).
        asha.page.locator("[data-testid=seat-1].speaking").wait_for()
        # The host turns voice off for the table: the call ends on every phone, which says so.
        if asha.page.get_by_test_id("setting-voice").count() == 0:
            asha.page.get_by_test_id("menu-open").click()
        asha.page.get_by_test_id("setting-voice").click()
        for phone in (asha, bina):
            phone.page.get_by_test_id("call-off").wait_for()
            phone.wait_stats(lambda rows: rows == [], "voice off: no connection left")
        assert not [e for p in phones for e in p.errors]
    finally:
        for phone in everyone:
            phone.close()
        server.close()


def free_udp_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def netns_relayed_through_coturn_with_time_limited_credentials(
    call_browser: Any, tmp_path: Path
) -> None:
    turnserver = shutil.which("turnserver")
    if turnserver is None:
        if os.environ.get("CI"):
            pytest.fail("coturn is not installed (scripts/test installs it)")
        pytest.skip("coturn is not installed (scripts/test installs it)")
    port = free_udp_port()
    coturn = subprocess.Popen(
        [
            turnserver,
            "-n",  # no configuration file: everything is here
            "--listening-ip=127.0.0.1",
            "--relay-ip=127.0.0.1",
            f"--listening-port={port}",
            "--min-port=49152",
            "--max-port=49400",
            "--use-auth-secret",
            f"--static-auth-secret={SECRET}",
            "--realm=teenpatti.test",
            "--allow-loopback-peers",
            "--no-tcp",
            "--no-tls",
            "--no-dtls",
            "--no-cli",
            "--simple-log",
            "--log-file=stdout",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    server = Server(
        tmp_path,
        extra=(
            "--ice-servers",
            f"turn:127.0.0.1:{port}?transport=udp",
            "--turn-secret",
            SECRET,
            "--turn-ttl",
            "600",
            "--ice-policy",
            "relay",
        ),
    )
    server.start()
    phones: list[Phone] = []
    try:
        code, _tokens, phones = table_of_three(server.url, call_browser)
        join_all(phones)
        for phone in phones:
            phone.wait_stats(talking(2, kind="relay"), "each phone hears the others, relayed")
        roster = [f for f in phones[1].call_frames() if f["type"] == "call" and "ice" in f][-1]
        assert roster["policy"] == "relay"
        (turn,) = roster["ice"]
        expiry, who = turn["username"].split(":")
        assert who == f"{code}-1" and 590 <= int(expiry) - time.time() <= 600
        assert turn["urls"] == [f"turn:127.0.0.1:{port}?transport=udp"]

        # coturn takes the seat's credentials, and refuses one past its expiry or forged.
        page = phones[0].page
        urls = turn["urls"]
        good = page.evaluate(TURN_PROBE_JS, [urls, turn["username"], turn["credential"]])
        assert good["relays"] and all(" typ relay " in c for c in good["relays"]), good
        gone = f"{int(time.time()) - 60}:{code}-1"
        expired = page.evaluate(TURN_PROBE_JS, [urls, gone, turn_credential(SECRET.encode(), gone)])
        assert expired["relays"] == [] and 401 in expired["errors"], expired
        forged = page.evaluate(TURN_PROBE_JS, [urls, turn["username"], "bm90IHRoZSBvbmU="])
        assert forged["relays"] == [] and 401 in forged["errors"], forged

        # With the TURN server gone, a call relayed only cannot connect: the page says so (after
        # the 12 s it gives a pair), and the game goes on.
        coturn.terminate()
        coturn.wait(timeout=10)
        page.get_by_test_id("call-leave").click()
        page.get_by_test_id("call-join").click()
        page.get_by_test_id("call-problem").get_by_text("The call could not reach").wait_for()
        assert page.locator("[data-testid=table][data-you='0']").count() == 1
    finally:
        for phone in phones:
            phone.close()
        server.close()
        coturn.terminate()
        try:
            coturn.wait(timeout=10)
        except subprocess.TimeoutExpired:
            coturn.kill()
            coturn.wait(timeout=10)
