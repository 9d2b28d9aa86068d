"""Which addresses a push request may connect to, and the resolver that checks them.

A push service's name is resolved once per connection, by a :data:`Resolve` function (the
system's, or a test's), and every address it gives is checked: one that is not a public
unicast address (loopback, private, shared, link-local, multicast, reserved, unspecified,
documentation, IPv4 written inside IPv6 in any of its forms) refuses the name's whole answer,
so a name that resolves to a public and a private address cannot pick the private one. The
connection is then made to exactly the addresses checked (:class:`CheckedResolver` gives them
to the HTTP client, which never resolves the name again).

>>> [refusal(a) for a in ("142.250.1.1", "127.0.0.1", "10.1.2.3", "169.254.169.254")]
[None, 'loopback', 'private', 'link-local']
>>> [refusal(a) for a in ("::ffff:127.0.0.1", "fe80::1", "ff02::1", "2a00:1450:4001::1")]
['IPv4 inside IPv6', 'link-local', 'multicast', None]
>>> refusal("100.64.0.1"), refusal("240.0.0.1"), refusal("0.0.0.0"), refusal("64:ff9b::a00:1")
('not public', 'reserved', 'unspecified', 'IPv4 inside IPv6')
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["AddressRefused", "CheckedResolver", "Resolve", "refusal", "system_resolve"]

Resolve = Callable[[str, int], Awaitable[list[str]]]
"""A name and port -> the addresses to try, in order (``getaddrinfo``'s answer, or a test's)."""

_EMBEDS_IPV4 = tuple(
    ipaddress.ip_network(n)
    for n in (
        "::ffff:0:0/96",  # IPv4-mapped
        "::/96",  # IPv4-compatible (deprecated)
        "64:ff9b::/96",  # NAT64
        "64:ff9b:1::/48",  # local NAT64
        "2002::/16",  # 6to4
        "2001::/32",  # Teredo
        "::ffff:0:0:0/96",  # IPv4-translated
    )
)


class AddressRefused(OSError):
    """A push service's name resolved to an address this server never calls."""


def refusal(text: str) -> str | None:
    """Why the server will not connect to address ``text`` (``None``: a public unicast
    address it may)."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return "not an address"
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    if isinstance(address, ipaddress.IPv6Address) and any(address in net for net in _EMBEDS_IPV4):
        return "IPv4 inside IPv6"
    for reason, test in (
        ("link-local", address.is_link_local),
        # fec0::/10: deprecated, but still routed inside some networks, and not "private"
        ("site-local", isinstance(address, ipaddress.IPv6Address) and address.is_site_local),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
        ("private", address.is_private),
    ):
        if test:
            return reason
    return None if address.is_global else "not public"


async def system_resolve(host: str, port: int) -> list[str]:
    """The system's answer for ``host`` (TCP, any family), in its order."""
    infos = await asyncio.get_running_loop().getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP
    )
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


try:  # the resolver interface of the HTTP client alerts are sent with
    from aiohttp.abc import AbstractResolver
except ImportError:  # pragma: no cover - an install without the Web Push libraries
    AbstractResolver = object  # type: ignore[assignment,misc]


class CheckedResolver(AbstractResolver):
    """aiohttp's resolver interface over a :data:`Resolve`: the name is resolved once for the
    connection, and its addresses are given only if every one passes :func:`refusal`. The names
    the operator listed for plain http (``trusted``) are theirs to point anywhere."""

    def __init__(self, resolve: Resolve, trusted: Callable[[str, int], bool]) -> None:
        self.resolve_name = resolve
        self.trusted = trusted

    async def resolve(self, host: str, port: int = 0, family: Any = socket.AF_UNSPEC) -> Any:
        addresses = await self.resolve_name(host, port)
        if not addresses:
            raise AddressRefused(f"{host} resolved to no address")
        if not self.trusted(host, port):
            for address in addresses:
                reason = refusal(address)
                if reason is not None:
                    raise AddressRefused(f"{host} resolved to {address} ({reason})")
        return [
            {
                # TLS names the host, and its certificate is checked against it, not the address
                "hostname": host,
                "host": address.split("%", 1)[0],
                "port": port,
                "family": socket.AF_INET6 if ":" in address else socket.AF_INET,
                "proto": 0,
                "flags": socket.AI_NUMERICHOST,
            }
            for address in addresses
        ]

    async def close(self) -> None:
        pass
