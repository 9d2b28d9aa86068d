"""A phone's push subscription, checked before it is kept.

A subscription is what the browser's ``PushManager.subscribe()`` gives the page: the endpoint
(a URL on the browser maker's push service) and two keys (the phone's P-256 public key and a
16-byte secret) that encrypt what is sent to it. The server POSTs to the endpoint, so it is a
URL the server will call: only ``https`` URLs on a known push service are taken (the operator
may add hosts), never an address of the server's own network. A plain ``http`` endpoint is
taken only for a host the operator listed with ``http://`` (a test's push service on loopback).

Bad input gets a stable code and keeps nothing:

>>> allowed = PushHosts.default()
>>> key = "B" + "A" * 86
>>> parse_subscription({"endpoint": "https://fcm.googleapis.com/fcm/send/abc",
...                     "keys": {"p256dh": key, "auth": "A" * 22}}, allowed)
Traceback (most recent call last):
    ...
teenpatti.push.subscription.PushError: that subscription's keys are not valid
>>> parse_subscription({"endpoint": "https://10.0.0.7/x", "keys": {}}, allowed).endpoint
Traceback (most recent call last):
    ...
teenpatti.push.subscription.PushError: alerts are sent only through a browser's push service
>>> PushHosts.default().allows("https://updates.push.services.mozilla.com/wpush/v2/gAAA")
True
>>> PushHosts.default().allows("http://fcm.googleapis.com/fcm/send/abc")
False
>>> PushHosts.parse("http://127.0.0.1:9999").allows("http://127.0.0.1:9999/p/1")
True
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from ..engine import EngineError

__all__ = [
    "DEFAULT_HOSTS",
    "ENDPOINT_MAX",
    "PushError",
    "PushHosts",
    "Subscription",
    "parse_subscription",
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


class PushError(EngineError):
    """A subscription refused (``push/invalid``, ``push/endpoint``, ``push/keys``)."""


@dataclass(frozen=True, slots=True)
class PushHosts:
    """Where push requests may go: host suffixes over https, and exact ``host:port`` pairs
    the operator allowed over plain http (tests' push services; off by default)."""

    https: tuple[str, ...]
    http: tuple[str, ...] = ()

    @classmethod
    def default(cls) -> PushHosts:
        return cls(DEFAULT_HOSTS)

    @classmethod
    def parse(cls, extra: str) -> PushHosts:
        """The default hosts and the operator's comma-separated list: ``push.example.org``
        (https, with its subdomains) or ``http://127.0.0.1:8123`` (plain http, that port)."""
        https, http = list(DEFAULT_HOSTS), []
        for item in (x.strip().lower() for x in extra.split(",")):
            if not item:
                continue
            if item.startswith("http://"):
                http.append(item.removeprefix("http://").rstrip("/"))
            else:
                https.append(item.removeprefix("https://").rstrip("/"))
        return cls(tuple(https), tuple(http))

    def allows(self, endpoint: str) -> bool:
        try:
            parts = urlsplit(endpoint)
            host, port = (parts.hostname or ""), parts.port
        except ValueError:
            return False
        if parts.username is not None or parts.password is not None or not host:
            return False
        if parts.scheme == "https":
            return any(host == h or host.endswith("." + h) for h in self.https)
        if parts.scheme == "http":
            return f"{host}:{port}" in self.http
        return False


@dataclass(frozen=True, slots=True)
class Subscription:
    """A push endpoint and the phone's keys (base64url, as the browser gave them)."""

    endpoint: str
    p256dh: str
    auth: str

    def info(self) -> dict[str, Any]:
        """As pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


def _b64(text: Any, size: int) -> bytes | None:
    if not isinstance(text, str) or not 0 < len(text) <= 2 * size or not text.isascii():
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    return raw if len(raw) == size else None


def parse_subscription(data: Any, hosts: PushHosts) -> Subscription:
    """A browser's ``PushSubscription.toJSON()``, checked; or :class:`PushError`."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise PushError("push/invalid", "send the subscription as the browser gives it")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_MAX:
        raise PushError("push/invalid", "send the subscription as the browser gives it")
    if not endpoint.isascii() or not endpoint.isprintable() or not hosts.allows(endpoint):
        raise PushError("push/endpoint", "alerts are sent only through a browser's push service")
    keys = data["keys"]
    point, secret = _b64(keys.get("p256dh"), 65), _b64(keys.get("auth"), 16)
    if point is None or secret is None:
        raise PushError("push/keys", "that subscription's keys are not valid")
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PushError("push/keys", "that subscription's keys are not valid") from None
    return Subscription(endpoint, keys["p256dh"], keys["auth"])
