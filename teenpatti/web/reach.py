"""Where friends can reach the table: the machine's network addresses and the link to share.

The link and QR code a host shares are built, in this order, from

1. the operator's ``--public-url`` (``https://cards.example.org``), if given;
2. the address the host's browser used, unless it is a loopback name or address (a browser on
   ``http://192.168.1.20:8000`` shares that), and only if it is a well-formed host name or
   address (never whatever an odd ``Host`` header says);
3. the machine's own network address, with the port the server listens on.

If none of them is reachable from another device (the server listens on loopback only, or the
machine has no network), the link is marked ``local_only`` and the page says so.

Finding the machine's addresses reads the interfaces (:func:`psutil.net_if_addrs`); it sends no
packet anywhere.

>>> Reach(listen_host="0.0.0.0", port=8000, addresses=lambda: ["192.168.1.20"]).link()
Link(base='http://192.168.1.20:8000', local_only=False)
>>> Reach(listen_host="127.0.0.1", port=8000, addresses=lambda: ["192.168.1.20"]).link()
Link(base='http://127.0.0.1:8000', local_only=True)
>>> Reach(public_url="https://cards.example.org/").link()
Link(base='https://cards.example.org', local_only=False)
"""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

__all__ = ["Link", "Reach", "is_loopback", "machine_addresses", "usable_addresses"]

_VIRTUAL = (
    "lo",
    "docker",
    "br-",
    "veth",
    "virbr",
    "podman",
    "cni",
    "flannel",
    "vmnet",
    "tailscale",
)
"""Interface name prefixes that no phone on the same Wi-Fi can reach (bridges of containers and
virtual machines, loopback)."""


def machine_addresses() -> list[str]:
    """The machine's addresses another device on its networks could use: private IPv4 first
    (interfaces in name order), then other IPv4, then IPv6; no loopback, no link-local, no
    interface that is down or a container's bridge.

    Reads the interface table only: no packet is sent."""
    import psutil

    stats = psutil.net_if_stats()
    v4: list[str] = []
    v6: list[str] = []
    for name, addrs in sorted(psutil.net_if_addrs().items()):
        if name.startswith(_VIRTUAL) or (name in stats and not stats[name].isup):
            continue
        for addr in addrs:
            if addr.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                ip = ipaddress.ip_address(addr.address.split("%")[0])
            except ValueError:
                continue
            if ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast:
                continue
            (v4 if ip.version == 4 else v6).append(str(ip))
    # Home networks' private addresses first: the likeliest to be the Wi-Fi the phones are on.
    v4.sort(key=lambda a: not ipaddress.ip_address(a).is_private)
    return v4 + v6


def is_loopback(host: str) -> bool:
    """Whether ``host`` (a name or address, without port) only ever means this machine.

    >>> [is_loopback(h) for h in ("localhost", "app.localhost", "127.0.0.2", "::1", "10.0.0.1")]
    [True, True, True, True, False]
    """
    host = host.strip("[]").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return False
    return ip.is_loopback or ip.is_unspecified


def usable_addresses(listen_host: str, addresses: list[str]) -> list[str]:
    """Which of the machine's ``addresses`` a server listening on ``listen_host`` answers on.

    >>> usable_addresses("0.0.0.0", ["192.168.1.20", "2001:db8::5"])
    ['192.168.1.20']
    >>> usable_addresses("::", ["192.168.1.20", "2001:db8::5"])
    ['192.168.1.20', '2001:db8::5']
    >>> usable_addresses("127.0.0.1", ["192.168.1.20"])
    []
    >>> usable_addresses("192.168.1.20", ["10.0.0.3", "192.168.1.20"])
    ['192.168.1.20']
    """
    if listen_host in ("0.0.0.0", ""):
        return [a for a in addresses if ":" not in a]
    if listen_host == "::":
        return list(addresses)
    if is_loopback(listen_host):
        return []
    return [a for a in addresses if a == listen_host] or (
        [] if _is_address(listen_host) else [listen_host]
    )


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def url_for(scheme: str, address: str, port: int) -> str:
    """``http://192.168.1.20:8000``, with IPv6 addresses in brackets and default ports left out.

    >>> url_for("http", "2001:db8::5", 8000), url_for("https", "cards.example.org", 443)
    ('http://[2001:db8::5]:8000', 'https://cards.example.org')
    """
    host = f"[{address}]" if ":" in address else address
    default = {"http": 80, "https": 443}.get(scheme)
    return f"{scheme}://{host}" + ("" if port == default else f":{port}")


@dataclass(frozen=True)
class Link:
    """Where a shared link points (``base`` + ``/t/CODE``), and whether it works only here."""

    base: str
    local_only: bool


@dataclass(frozen=True)
class Reach:
    """How the server is reached: ``--public-url``, the address it listens on, its port, and how
    to read the machine's addresses (tests pass fake interfaces)."""

    public_url: str | None = None
    listen_host: str = "0.0.0.0"
    port: int = 8000
    addresses: Callable[[], list[str]] = field(default=machine_addresses, repr=False)

    def __post_init__(self) -> None:
        if self.public_url is not None:
            parts = urlsplit(self.public_url)
            if parts.scheme not in ("http", "https") or not parts.hostname:
                raise ValueError(
                    "write the public URL as https://host[:port], like https://cards.example.org"
                )
            object.__setattr__(self, "public_url", f"{parts.scheme}://{parts.netloc}")

    def network_urls(self) -> list[str]:
        """Every URL another device on the machine's networks can open (what ``serve`` prints)."""
        found = usable_addresses(self.listen_host, self.addresses())
        return [url_for("http", address, self.port) for address in found]

    def link(self) -> Link:
        """The base of the link to share (the same for every request)."""
        if self.public_url is not None:
            return Link(self.public_url, False)
        urls = self.network_urls()
        if urls:
            return Link(urls[0], False)
        here = self.listen_host
        if not is_loopback(here) or here in ("0.0.0.0", "::"):  # all (or no) interfaces
            here = "127.0.0.1"
        return Link(url_for("http", here, self.port), True)
