"""A phone's push subscription, checked before it is kept.

A subscription is what the browser's ``PushManager.subscribe()`` gives the page: the endpoint
(a URL on the browser maker's push service) and two keys (the phone's P-256 public key and a
16-byte secret) that encrypt what is sent to it. The server POSTs to the endpoint, so it is a
URL the server will call: it is read by :func:`~teenpatti.push.endpoint.parse_endpoint`, the
reading the sender sends with (only ``https`` on a known push service; the operator may add
hosts). The keys are taken as browsers write them: unpadded base64url, exactly 87 and 22
characters, each the one spelling of its bytes.

Bad input gets a stable code and keeps nothing:

>>> allowed = PushHosts.default()
>>> key = "B" + "A" * 86
>>> parse_subscription({"endpoint": "https://fcm.googleapis.com/fcm/send/abc",
...                     "keys": {"p256dh": key, "auth": "A" * 22}}, allowed)
Traceback (most recent call last):
    ...
teenpatti.push.endpoint.PushError: that subscription's keys are not valid
>>> parse_subscription({"endpoint": "https://10.0.0.7/x", "keys": {}}, allowed).endpoint
Traceback (most recent call last):
    ...
teenpatti.push.endpoint.PushError: alerts are sent only through a browser's push service
>>> PushHosts.default().allows("https://updates.push.services.mozilla.com/wpush/v2/gAAA")
True
>>> PushHosts.default().allows("http://fcm.googleapis.com/fcm/send/abc")
False
>>> _b64("AAAAAAAAAAAAAAAAAAAAAA", 16) is not None, _b64("AAAAAAAAAAAAAAAAAAAAAB", 16)
(True, None)
"""

from __future__ import annotations

import base64
import binascii
import re
from dataclasses import dataclass
from typing import Any

from .endpoint import DEFAULT_HOSTS, ENDPOINT_MAX, PushError, PushHosts, parse_endpoint

__all__ = [
    "DEFAULT_HOSTS",
    "ENDPOINT_MAX",
    "PushError",
    "PushHosts",
    "Subscription",
    "parse_subscription",
]

_B64URL = re.compile(r"[A-Za-z0-9_-]+")


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
    """The ``size`` bytes ``text`` spells in unpadded base64url, if it is their one spelling
    (no padding, no ``+`` or ``/``, no stray bits in the last character)."""
    if not isinstance(text, str) or len(text) != (size * 4 + 2) // 3:
        return None
    if not _B64URL.fullmatch(text):
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    canonical = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return raw if len(raw) == size and canonical == text else None


def parse_subscription(data: Any, hosts: PushHosts) -> Subscription:
    """A browser's ``PushSubscription.toJSON()``, checked; or :class:`PushError`."""
    if not isinstance(data, dict) or not isinstance(data.get("keys"), dict):
        raise PushError("push/invalid", "send the subscription as the browser gives it")
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or not 0 < len(endpoint) <= ENDPOINT_MAX:
        raise PushError("push/invalid", "send the subscription as the browser gives it")
    parse_endpoint(endpoint, hosts)
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
