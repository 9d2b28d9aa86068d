"""Hostile push endpoints: none leads to a connection anywhere but the test's push service.

Each row is an endpoint an attacker with a seat could subscribe with. Those a browser's push
service never gives are refused when subscribing (``push/endpoint``), and again by the sender
(a row kept before the check); the rest name an allowed push host whose name the test's
resolver points at an address the server must never call, and are refused when connecting.
The sender runs in this process, under a guard on every socket it opens: the only connections
allowed are to the test's push service on loopback. No name is resolved for real (the resolver
is the test's) and nothing is sent past loopback."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.push_service import Phone, PushService, running
from support.sockets import guarded

from teenpatti.metrics import Metrics
from teenpatti.push.endpoint import PushError
from teenpatti.push.keep import StoreKeep
from teenpatti.push.keys import VapidKeys
from teenpatti.push.sender import PushConfig, Pusher
from teenpatti.push.subscription import PushHosts, Subscription, parse_subscription
from teenpatti.store.sqlite import SqliteStore

SUBSCRIBE: list[tuple[str, str]] = [
    # seen passing the old check (the issue): the sender's parser read these otherwise
    ("https://127.0.0.1\\.fcm.googleapis.com/x", "backslash"),
    ("https://localhost\\.fcm.googleapis.com/", "backslash"),
    ("https://evil.example\\[v1.fcm.googleapis.com]/", "backslash and brackets"),
    ("https://evil.com\\.fcm.googleapis.com/x", "backslash"),
    ("https://fcm.googleapis.com:22/x", "a port not listed"),
    # refused before too, and still
    ("http://fcm.googleapis.com/fcm/send/x", "plain http"),
    ("https://127.0.0.1/x", "an address, not a name"),
    ("https://[::1]/x", "brackets (an IPv6 address)"),
    ("https://[::ffff:127.0.0.1]/x", "brackets (IPv4-mapped)"),
    ("https://2130706433/x", "an address in decimal"),
    ("https://0x7f000001/x", "an address in hex"),
    ("https://0177.0.0.1/x", "an address in octal"),
    ("https://169.254.169.254/latest/meta-data/", "an address (cloud metadata)"),
    ("https://metadata.google.internal/computeMetadata/v1/", "not a push service"),
    ("https://fcm.googleapis.com.evil.example/x", "look-alike host"),
    ("https://fcm-googleapis.com/x", "look-alike host"),
    ("https://xn--fcm.googleapis.com/x", "punycode"),
    ("https://xn--fcm-googleapis-8lb.com/x", "punycode"),
    ("https://user@fcm.googleapis.com/x", "user information"),
    ("https://user:secret@fcm.googleapis.com/x", "user information"),
    ("https://fcm.googleapis.com@evil.com/x", "user information (another host)"),
    ("https://fcm.googleapis.com./x", "trailing dot"),
    ("ftp://fcm.googleapis.com/x", "another scheme"),
    ("file:///etc/passwd", "another scheme"),
    ("gopher://fcm.googleapis.com:70/_x", "another scheme"),
    ("https://fcm.googleapis.com/x\r\nHost: evil.example", "CRLF"),
    ("https://fcm.googleapis.com/x y", "space"),
    ("https://fcm.googleapis.com/x#y", "fragment"),
    ("https://fcm.googleapis.com%2e127.0.0.1/x", "% in the host"),
    ("https://fcm.googleapis.com%00.evil.com/x", "% in the host"),
    ("https://fcm.googleapis.com:0443/x", "a port written with a leading zero"),
    ("https://fcm.googleapis.com:65979/x", "a port out of range"),
    ("https://fcm.googleapis.com:/x", "an empty port"),
    ("https://fcm.googleapis.com:443:80/x", "two ports"),
    ("https://[v1.fcm.googleapis.com]/x", "brackets"),
    ("https://FCM.googleapis.com/x", "upper case (no push service writes it)"),
    ("https://ｆcm.googleapis.com/x", "not ASCII"),
    ("https:/fcm.googleapis.com/x", "no authority"),
    ("//fcm.googleapis.com/x", "no scheme"),
    ("https://fcm.googleapis.com", "no path"),
    ("https://fcm.googleapis.com/x%zz", "a bad percent escape"),
    ("https://fcm.googleapis.com/\\..\\x", "backslash in the path"),
]
"""Endpoints refused at subscribe time, and why."""

CONNECT: list[tuple[str, list[str], str]] = [
    ("https://fcm.googleapis.com/x", ["127.0.0.1"], "loopback"),
    ("https://a.fcm.googleapis.com/x", ["10.0.0.1"], "private"),
    ("https://b.fcm.googleapis.com/x", ["169.254.169.254"], "link-local"),
    ("https://c.fcm.googleapis.com/x", ["::1"], "loopback"),
    ("https://d.fcm.googleapis.com/x", ["::ffff:127.0.0.1"], "IPv4 inside IPv6"),
    ("https://e.fcm.googleapis.com/x", ["fe80::1"], "link-local"),
    ("https://f.fcm.googleapis.com/x", ["fc00::1"], "private"),
    ("https://g.fcm.googleapis.com/x", ["224.0.0.1"], "multicast"),
    ("https://h.fcm.googleapis.com/x", ["240.0.0.1"], "reserved"),
    ("https://i.fcm.googleapis.com/x", ["0.0.0.0"], "unspecified"),
    ("https://j.fcm.googleapis.com/x", ["100.64.0.1"], "not public"),
    ("https://k.fcm.googleapis.com/x", ["142.250.1.1", "127.0.0.1"], "loopback"),
    ("https://l.fcm.googleapis.com/x", ["64:ff9b::7f00:1"], "IPv4 inside IPv6"),
    ("https://m.fcm.googleapis.com/x", ["2002:7f00:1::"], "IPv4 inside IPv6"),
    ("https://n.fcm.googleapis.com/x", ["ff02::1"], "multicast"),
    ("https://o.fcm.googleapis.com/x", ["192.168.1.1"], "private"),
    ("https://p.fcm.googleapis.com/x", ["fec0::a9fe:a9fe"], "site-local"),
    ("https://updates.push.services.mozilla.com/wpush/v2/x", ["127.0.0.2"], "loopback"),
    ("https://web.push.apple.com/x", ["172.16.0.1"], "private"),
    ("https://wns2-par02p.notify.windows.com/w/?token=x", ["::"], "unspecified"),
    ("https://nothing.fcm.googleapis.com/x", [], "no address"),
]
"""Endpoints a push service could give, whose names the test resolves to an address the server
never calls, and why."""


@pytest.fixture
def push_service() -> Iterator[PushService]:
    with running() as service:
        yield service


def keys_of(phone: Phone) -> dict[str, str]:
    sub: dict[str, str] = phone.subscription()["keys"]
    return sub


def test_the_table_holds_forty_hostile_endpoints() -> None:
    assert len(SUBSCRIBE) + len(CONNECT) >= 40
    assert len({e for e, _ in SUBSCRIBE} | {e for e, _, _ in CONNECT}) == len(SUBSCRIBE) + len(
        CONNECT
    )


def test_hostile_endpoints_reach_nothing_but_the_push_service(
    tmp_path: Path, push_service: PushService
) -> None:
    trap = socket.create_server(("127.0.0.1", 0))  # where a followed redirect would go
    trap.settimeout(0)
    trap_port = trap.getsockname()[1]
    names = {endpoint.split("/")[2].split(":")[0]: answer for endpoint, answer, _ in CONNECT}
    asked: list[str] = []

    async def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        if host not in names:  # never the system's resolver: no name is looked up for real
            raise OSError(f"the test resolves no {host}")
        return names[host]

    keys = VapidKeys.load_or_make(tmp_path)
    push_service.server_key = keys.public
    hosts = PushHosts.parse(push_service.origin)
    good, moved, talkative, slow = (
        push_service.phone(n) for n in ("good", "moved", "long", "slow")
    )
    moved.answer, moved.location = 307, f"http://127.0.0.1:{trap_port}/p/{good.id}"
    talkative.answer_body = 8 * 1024 * 1024
    slow.hold = threading.Event()
    port = int(push_service.origin.rsplit(":", 1)[1])
    outcomes: dict[str, str] = {}

    async def body() -> None:
        config = PushConfig(keys, hosts=hosts, timeout=1.0, resolve=resolve)
        pusher = Pusher(config, StoreKeep(SqliteStore(":memory:")), Metrics(), lambda _: [])
        try:
            for endpoint, why in SUBSCRIBE:
                data = {"endpoint": endpoint, "keys": keys_of(good)}
                with pytest.raises(PushError) as refused:
                    parse_subscription(data, hosts)
                assert refused.value.code == "push/endpoint", (endpoint, why)
                # kept before this check (or the operator narrowed the list): refused again
                outcomes[endpoint] = await pusher.send_test(
                    Subscription(endpoint, **keys_of(good)), {"kind": "turn"}
                )
            for endpoint, _answer, _why in CONNECT:
                sub = parse_subscription({"endpoint": endpoint, "keys": keys_of(good)}, hosts)
                outcomes[endpoint] = await pusher.send_test(sub, {"kind": "turn"})
            for phone in (good, moved, talkative, slow):
                sub = parse_subscription(phone.subscription(), hosts)
                started = time.monotonic()
                outcomes[phone.name] = await pusher.send_test(sub, {"kind": phone.name})
                assert time.monotonic() - started < 3.0, phone.name  # the answer's time is capped
        finally:
            slow.hold.set()
            await pusher.close()

    with guarded({("127.0.0.1", port)}) as guard:
        asyncio.run(body())
    with pytest.raises(BlockingIOError):
        trap.accept()  # the redirect was not followed
    trap.close()
    assert guard.refused == []  # nothing but the push service was even tried
    assert set(guard.connected) == {("127.0.0.1", port)}
    assert {e: outcomes[e] for e, _ in SUBSCRIBE} == {e: "refused" for e, _ in SUBSCRIBE}
    assert {e: outcomes[e] for e, _, _ in CONNECT} == {e: "refused" for e, _, _ in CONNECT}
    # the names asked for are the allowed hosts of the rows that passed the parser, each once
    assert sorted(asked) == sorted(names)
    assert outcomes["good"] == "sent" and outcomes["long"] == "sent"
    assert outcomes["moved"] == "failed"  # a 3xx is that alert's failure
    assert outcomes["slow"] == "failed"  # held past the deadline
    assert [p for n, p in push_service.received if n == "good"] == [{"kind": "good"}]
    push_service.problems.clear()  # the sent endpoints' bodies were fine; the rest never came


def test_keys_are_taken_only_as_browsers_write_them() -> None:
    hosts = PushHosts.default()
    phone = Phone("p", "https://fcm.googleapis.com")
    p256dh, auth = keys_of(phone)["p256dh"], keys_of(phone)["auth"]
    standard = p256dh.replace("-", "+").replace("_", "/")
    for keys in (
        {"p256dh": p256dh + "=", "auth": auth},  # padded
        {"p256dh": p256dh, "auth": auth + "=="},
        {"p256dh": standard if standard != p256dh else p256dh[:-1] + "+", "auth": auth},
        {"p256dh": p256dh, "auth": auth[:-1] + "B"},  # stray bits in the last character
        {"p256dh": " " + p256dh, "auth": auth},
    ):
        with pytest.raises(PushError) as refused:
            parse_subscription({"endpoint": "https://fcm.googleapis.com/x", "keys": keys}, hosts)
        assert refused.value.code == "push/keys", keys
    kept = parse_subscription(
        {"endpoint": "https://fcm.googleapis.com/x", "keys": keys_of(phone)}, hosts
    )
    assert (kept.p256dh, kept.auth) == (p256dh, auth)
