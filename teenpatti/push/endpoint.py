"""The one reading of a push endpoint: what a subscription is checked with and what the sender
sends to, so the two can never read a URL differently.

A browser's push service gives endpoints of one plain shape: ``https://`` and a lower-case DNS
name on the service's own domain, no port (or 443), a path of URL characters. Anything else is
refused here, at subscribe time and again before each send: a backslash or brackets (which
URL libraries split differently), ``%`` or a non-DNS character in the host, user information,
an IP address written in any form, a trailing dot, punycode, another port unless the operator
listed it, a fragment. The sender then connects to the host and port read here (and only
after the address it resolves to passed :mod:`~teenpatti.push.address`).

>>> hosts = PushHosts.default()
>>> found = parse_endpoint("https://fcm.googleapis.com/fcm/send/abc", hosts)
>>> found.host, found.port, found.target, found.entry
('fcm.googleapis.com', 443, '/fcm/send/abc', 'fcm.googleapis.com')
>>> parse_endpoint("https://127.0.0.1\\\\.fcm.googleapis.com/x", hosts)
Traceback (most recent call last):
    ...
teenpatti.push.endpoint.PushError: alerts are sent only through a browser's push service
>>> parse_endpoint("https://fcm.googleapis.com:22/x", hosts).port
Traceback (most recent call last):
    ...
teenpatti.push.endpoint.PushError: alerts are sent only through a browser's push service
>>> PushHosts.parse("push.example.org:8443").allows("https://push.example.org:8443/p")
True
>>> PushHosts.parse("http://127.0.0.1:9999").allows("http://127.0.0.1:9999/p/1")
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..tables.play.errors import TableError

__all__ = [
    "DEFAULT_HOSTS",
    "ENDPOINT_MAX",
    "Endpoint",
    "PushError",
    "PushHosts",
    "parse_endpoint",
]

ENDPOINT_MAX = 1024
"""The longest endpoint URL taken (the browsers' are 150 to 500 characters)."""

DEFAULT_HOSTS = (
    "fcm.googleapis.com",  # Chrome, Edge on Android, Samsung Internet, Opera
    "android.googleapis.com",
    "push.services.mozilla.com",  # Firefox (updates.push.services.mozilla.com)
    "push.apple.com",  # Safari (web.push.apple.com)
    "notify.windows.com",  # Edge on Windows (*.notify.windows.com)
)
"""The push services taken by default: these hosts and their subdomains, over https only."""


class PushError(TableError):
    """A subscription refused (``push/invalid``, ``push/endpoint``, ``push/keys``): a table's
    refusal, not a rule of the game."""


def _refused() -> PushError:
    return PushError("push/endpoint", "alerts are sent only through a browser's push service")


_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")
_URL = re.compile(
    r"(?P<scheme>https?)://(?P<host>[a-z0-9.-]{1,253})(?::(?P<port>[0-9]{1,5}))?"
    # RFC 3986's path and query characters, a percent sign only before two hex digits
    r"(?P<target>/(?:[A-Za-z0-9._~!$&'()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)"
)


def _dns_name(host: str) -> bool:
    """A host name a push service gives: lower-case LDH labels, no punycode, not an address.

    >>> [_dns_name(h) for h in ("web.push.apple.com", "2130706433", "0x7f.1", "a..b")]
    [True, False, False, False]
    >>> _dns_name("xn--80ak6aa92e.com"), _dns_name("localhost")
    (False, False)
    """
    labels = host.split(".")
    if len(labels) < 2 or not all(_LABEL.fullmatch(label) for label in labels):
        return False
    if any(label.startswith("xn--") for label in labels):
        return False
    # the last label of a name is never all digits: 127.0.0.1, 2130706433 and 0x7f.1's
    # cousins 0177.1 are addresses however a resolver reads them
    return not labels[-1].isdigit() and not labels[-1].startswith("0x")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """An endpoint as the sender uses it: the scheme, host and port it connects to, the target
    it POSTs to, and the operator's entry it matched (the host that counts drops)."""

    scheme: str
    host: str
    port: int
    target: str
    entry: str

    @property
    def origin(self) -> str:
        """``scheme://host[:port]``: the VAPID audience."""
        default = 443 if self.scheme == "https" else 80
        return f"{self.scheme}://{self.host}" + ("" if self.port == default else f":{self.port}")

    @property
    def url(self) -> str:
        return self.origin + self.target


_LISTED = re.compile(r"(?P<host>[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(?P<port>[0-9]{1,5}))?")
"""A host the operator lists: a lower-case name or IPv4 address, and a port if not 443."""


@dataclass(frozen=True, slots=True)
class PushHosts:
    """Where push requests may go: host suffixes over https (``push.example.org``, or with the
    one other port the operator allows: ``push.example.org:8443``), and exact ``host:port``
    pairs the operator allowed over plain http (tests' push services; off by default)."""

    https: tuple[str, ...]
    http: tuple[str, ...] = ()

    @classmethod
    def default(cls) -> PushHosts:
        return cls(DEFAULT_HOSTS)

    @classmethod
    def parse(cls, extra: str) -> PushHosts:
        """The default hosts and the operator's comma-separated list: ``push.example.org``
        (https, with its subdomains; ``:PORT`` for a port other than 443) or
        ``http://127.0.0.1:8123`` (plain http, that host and port). What is none of these is
        refused when the server starts, not at the first alert:

        >>> PushHosts.parse("push.example.org:44x")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ValueError: 'push.example.org:44x' is not a push host: ...
        """
        https: list[str] = list(DEFAULT_HOSTS)
        http: list[str] = []
        for item in (x.strip().lower() for x in extra.split(",")):
            if not item:
                continue
            plain = item.startswith("http://")
            entry = item.removeprefix("http://" if plain else "https://").rstrip("/")
            match = _LISTED.fullmatch(entry)
            port = match and match["port"]
            if (
                match is None
                or (plain and port is None)
                or (port is not None and (port.startswith("0") or not 0 < int(port) < 65536))
            ):
                raise ValueError(
                    f"{item!r} is not a push host: write push.example.org, "
                    "push.example.org:8443 or http://127.0.0.1:8123"
                )
            (http if plain else https).append(entry)
        return cls(tuple(https), tuple(http))

    def allows(self, endpoint: str) -> bool:
        """Whether :func:`parse_endpoint` takes ``endpoint``."""
        try:
            parse_endpoint(endpoint, self)
        except PushError:
            return False
        return True

    def listed_http(self, host: str, port: int) -> bool:
        """Whether the operator named this exact host and port over plain http (its address is
        theirs to choose: a test's push service on loopback)."""
        return f"{host}:{port}" in self.http


def parse_endpoint(endpoint: str, hosts: PushHosts) -> Endpoint:
    """``endpoint`` read once, strictly; or :class:`PushError` (``push/endpoint``)."""
    if not isinstance(endpoint, str) or len(endpoint) > ENDPOINT_MAX or not endpoint.isascii():
        raise _refused()
    found = _URL.fullmatch(endpoint)
    if found is None:
        raise _refused()
    scheme, host, target = found["scheme"], found["host"], found["target"]
    given = found["port"]
    if given is not None and (given.startswith("0") or not 0 < int(given) < 65536):
        raise _refused()
    if scheme == "http":
        if given is None or not hosts.listed_http(host, int(given)):
            raise _refused()
        return Endpoint(scheme, host, int(given), target, f"{host}:{given}")
    if not _dns_name(host):
        raise _refused()
    port = 443 if given is None else int(given)
    for entry in hosts.https:
        name, _, listed = entry.partition(":")
        if (host == name or host.endswith("." + name)) and port == int(listed or 443):
            return Endpoint(scheme, host, port, target, entry)
    raise _refused()
