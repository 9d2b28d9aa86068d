"""The link a host shares: the machine's addresses (from fake interfaces), the order of choice
(``--public-url``, else the machine's address: never the request's ``Host``), the QR code of the
same link, and the plain warning when only this device can open it."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any, NamedTuple

import httpx
import pytest
from support.reach import FAKE_LAN, ThreadServer

from teenpatti.web import reach as reach_module
from teenpatti.web.reach import Reach, machine_addresses


class _Addr(NamedTuple):
    family: int
    address: str
    netmask: str | None = None
    broadcast: str | None = None
    ptp: str | None = None


class _Stats(NamedTuple):
    isup: bool


def fake_interfaces(
    monkeypatch: pytest.MonkeyPatch, table: dict[str, tuple[bool, list[str]]]
) -> None:
    """Make psutil report ``table``: name -> (up, addresses)."""
    import psutil

    def family(address: str) -> int:
        return socket.AF_INET6 if ":" in address else socket.AF_INET

    addrs = {name: [_Addr(family(a), a) for a in found] for name, (_, found) in table.items()}
    stats = {name: _Stats(up) for name, (up, _) in table.items()}
    monkeypatch.setattr(psutil, "net_if_addrs", lambda: addrs)
    monkeypatch.setattr(psutil, "net_if_stats", lambda: stats)


def test_machine_addresses_reads_the_interfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_interfaces(
        monkeypatch,
        {
            "lo": (True, ["127.0.0.1", "::1"]),
            "wlp2s0": (True, ["192.168.1.20", "fe80::1%wlp2s0", "2001:db8::20"]),
            "docker0": (True, ["172.17.0.1"]),
            "eth0": (False, ["10.0.0.5"]),
            "enp3s0": (True, ["169.254.3.3", "10.1.2.3"]),
        },
    )
    assert machine_addresses() == ["10.1.2.3", "192.168.1.20", "2001:db8::20"]


def test_machine_addresses_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_interfaces(monkeypatch, {"lo": (True, ["127.0.0.1", "::1"])})
    assert machine_addresses() == []
    reach = Reach(listen_host="0.0.0.0", port=8000)
    assert reach.link() == reach_module.Link("http://127.0.0.1:8000", True)


def test_machine_addresses_sends_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading the addresses opens no socket that could send (no connect, no sendto)."""

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("finding the machine's addresses tried to send a packet")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "sendto", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    found = machine_addresses()
    assert all(not a.startswith("127.") and a != "::1" for a in found)


def test_link_is_the_machines_address() -> None:
    reach = Reach(listen_host="0.0.0.0", port=8000, addresses=lambda: [FAKE_LAN])
    assert reach.link() == reach_module.Link(f"http://{FAKE_LAN}:8000", False)


def test_public_url_wins_and_is_checked() -> None:
    reach = Reach(public_url="https://cards.example.org/", addresses=lambda: [FAKE_LAN])
    assert reach.link().base == "https://cards.example.org"
    assert reach.network_urls() == [f"http://{FAKE_LAN}:8000"]
    for bad in ("cards.example.org", "ftp://cards.example.org", "https://"):
        with pytest.raises(ValueError, match="public URL"):
            Reach(public_url=bad)


def test_loopback_listener_is_local_only() -> None:
    reach = Reach(listen_host="127.0.0.1", port=8000, addresses=lambda: [FAKE_LAN])
    assert reach.network_urls() == []
    assert reach.link() == reach_module.Link("http://127.0.0.1:8000", True)


def create(base: str, host: str | None = None) -> dict[str, Any]:
    headers = {"host": host} if host else {}
    reply = httpx.post(base + "/api/tables", json={"name": "Asha"}, headers=headers, timeout=10)
    assert reply.status_code == 201, reply.text
    data: dict[str, Any] = reply.json()
    return data


def test_server_shares_the_network_address(thread_server: Callable[..., ThreadServer]) -> None:
    """A host on http://127.0.0.1:PORT gets the machine's network address in the link, in the
    table's info, and in the QR code."""
    srv = thread_server()
    made = create(srv.url)
    code = made["code"]
    expected = f"http://{FAKE_LAN}:{srv.port}/t/{code}"
    assert made["share"] == {"url": expected, "local_only": False}
    info = httpx.get(f"{srv.url}/api/tables/{code}", timeout=10).json()
    assert info["share"] == {"url": expected, "local_only": False}
    # Never what the request's Host says, however well formed (a link and QR code for
    # http://evil.example/t/CODE would send the friends elsewhere):
    for host in (f"10.9.8.7:{srv.port}", "evil.example", "teen-box.local:8000"):
        other = httpx.get(f"{srv.url}/api/tables/{code}", headers={"host": host}, timeout=10)
        assert other.json()["share"]["url"] == expected, host
        svg = httpx.get(f"{srv.url}/api/tables/{code}/qr.svg", headers={"host": host}, timeout=10)
        assert svg.text == qr_svg(expected), host
    svg = httpx.get(f"{srv.url}/api/tables/{code}/qr.svg", timeout=10)
    assert svg.status_code == 200 and svg.text.startswith("<svg")
    assert svg.text == qr_svg(expected)
    assert svg.text != qr_svg(f"{srv.url}/t/{code}")


def test_server_warns_when_only_this_device(thread_server: Callable[..., ThreadServer]) -> None:
    srv = thread_server(listen_host="127.0.0.1")
    made = create(srv.url)
    assert made["share"] == {"url": f"{srv.url}/t/{made['code']}", "local_only": True}


def test_server_public_url(thread_server: Callable[..., ThreadServer]) -> None:
    srv = thread_server(public_url="https://cards.example.org")
    made = create(srv.url, host="attacker.example")
    assert made["share"]["url"] == f"https://cards.example.org/t/{made['code']}"


def qr_svg(text: str) -> str:
    """segno's SVG of ``text``, drawn as the server draws its QR codes."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", xmldecl=False, scale=6, border=2)
    return out.getvalue().decode()
