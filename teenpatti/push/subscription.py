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
>>> parse_subscription({"endpoint": "https://10.0.0.7/x", "keys": {"p256dh": key, "auth": ""}},
...                    allowed)
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
from typing import Annotated, Any

import msgspec

from ..tables.play.fault import Fault, typed
from .endpoint import DEFAULT_HOSTS, ENDPOINT_MAX, PushError, PushHosts, parse_endpoint

__all__ = [
    "DEFAULT_HOSTS",
    "ENDPOINT_MAX",
    "PushError",
    "PushHosts",
    "Subscription",
    "SubscriptionBody",
    "SubscriptionKeys",
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


def _b64(text: str, size: int) -> bytes | None:
    """The ``size`` bytes ``text`` spells in unpadded base64url, if it is their one spelling
    (no padding, no ``+`` or ``/``, no stray bits in the last character)."""
    if len(text) != (size * 4 + 2) // 3:
        return None
    if not _B64URL.fullmatch(text):
        return None
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        return None
    canonical = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    return raw if len(raw) == size and canonical == text else None


class SubscriptionKeys(msgspec.Struct, frozen=True):
    """The phone's P-256 public key and its 16-byte secret, in unpadded base64url."""

    p256dh: str
    auth: str


class SubscriptionBody(msgspec.Struct, frozen=True):
    """``POST /api/tables/{code}/push``: a browser's ``PushSubscription.toJSON()`` (other
    fields, such as ``expirationTime``, are left alone)."""

    endpoint: Annotated[str, msgspec.Meta(min_length=1, max_length=ENDPOINT_MAX)]
    keys: SubscriptionKeys


def _refused(fault: Fault, data: Any) -> PushError:
    if len(fault.path) > 1 and fault.path[0] == "keys":
        return PushError("push/keys", "that subscription's keys are not valid")
    return PushError("push/invalid", "send the subscription as the browser gives it")


def parse_subscription(data: Any, hosts: PushHosts) -> Subscription:
    """A browser's ``PushSubscription.toJSON()`` (parsed JSON), typed and checked; or
    :class:`PushError`."""
    body = typed(data, SubscriptionBody, _refused)
    parse_endpoint(body.endpoint, hosts)
    keys = body.keys
    point, secret = _b64(keys.p256dh, 65), _b64(keys.auth, 16)
    if point is None or secret is None:
        raise PushError("push/keys", "that subscription's keys are not valid")
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise PushError("push/keys", "that subscription's keys are not valid") from None
    return Subscription(body.endpoint, keys.p256dh, keys.auth)
