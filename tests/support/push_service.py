"""A Web Push service for tests, on loopback: what a browser maker's push service does with
the server's requests, checked as strictly as the standards say.

- Each :class:`Phone` is a subscription: its own P-256 key pair and 16-byte secret, and an
  endpoint ``http://127.0.0.1:PORT/p/<id>`` on this service.
- Every request must carry ``Authorization: vapid t=<JWT>, k=<key>`` (RFC 8292): ``k`` is the
  server's public key the test expects, the JWT is ES256-signed by it (checked against ``k``),
  its ``aud`` is this service's origin, its ``exp`` in the next 24 hours, its ``sub`` a
  ``mailto:`` or ``https:`` address; ``Content-Encoding: aes128gcm`` and a ``TTL``.
- The body is decrypted (RFC 8188, RFC 8291) with the phone's private key and secret, written
  here from the RFCs with ``cryptography`` (not with the library the server sends with), and
  the JSON payload recorded. A request that fails a check is answered 400 and recorded as a
  problem (the test fails on any).
- A phone may answer ``410`` (gone), redirect (a 3xx and a ``Location``), answer with a body
  of any size, or hold requests until the test releases them (a slow push service).
"""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

__all__ = ["Phone", "PushService", "b64", "running", "unb64"]


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _hkdf(salt: bytes, ikm: bytes, info: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, salt, info).derive(ikm)


@dataclass
class Phone:
    """A subscription: its keys, its endpoint and what it answers."""

    name: str
    base: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    answer: int = 201
    hold: threading.Event | None = None
    """Set: requests wait until it is set (a slow push service)."""
    location: str | None = None
    """Sent as the answer's ``Location`` (with an ``answer`` of 3xx: a redirect)."""
    answer_body: int = 0
    """Bytes of answer after the head (a push service that talks on and on)."""

    @property
    def endpoint(self) -> str:
        return f"{self.base}/p/{self.id}"

    @property
    def public(self) -> bytes:
        return self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )

    def subscription(self) -> dict[str, Any]:
        """As ``PushSubscription.toJSON()`` gives it."""
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64(self.public), "auth": b64(self.auth)},
        }

    def decrypt(self, body: bytes) -> bytes:
        """RFC 8291's aes128gcm: one record, the sender's key in the header."""
        salt, rs, idlen = body[:16], int.from_bytes(body[16:20], "big"), body[20]
        sender = body[21 : 21 + idlen]
        record = body[21 + idlen :]
        assert idlen == 65 and len(record) <= rs, (idlen, rs, len(record))
        shared = self.key.exchange(
            ec.ECDH(), ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), sender)
        )
        ikm = _hkdf(self.auth, shared, b"WebPush: info\0" + self.public + sender, 32)
        cek = _hkdf(salt, ikm, b"Content-Encoding: aes128gcm\0", 16)
        nonce = _hkdf(salt, ikm, b"Content-Encoding: nonce\0", 12)
        plain = AESGCM(cek).decrypt(nonce, record, None).rstrip(b"\0")
        assert plain.endswith(b"\x02"), "the last record's delimiter"
        return plain[:-1]


class PushService:
    """The service: :meth:`start`, make phones, read what each received."""

    def __init__(self) -> None:
        self.server_key: str | None = None
        """The server's public VAPID key (base64url), once the test knows it."""
        self.phones: dict[str, Phone] = {}
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.problems: list[str] = []
        self.held = 0
        """Requests waiting in a held phone now."""
        self.requests = 0
        self._cond = threading.Condition()
        self._http: ThreadingHTTPServer | None = None

    @property
    def origin(self) -> str:
        assert self._http is not None
        return f"http://127.0.0.1:{self._http.server_address[1]}"

    def start(self) -> PushService:
        service = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                size = int(self.headers.get("content-length", "0"))
                body = self.rfile.read(size)
                status = service._take(self.path, dict(self.headers.items()), body)
                phone = service.phones.get(self.path.removeprefix("/p/"))
                self.send_response(status)
                if phone is not None and phone.location is not None:
                    self.send_header("location", phone.location)
                size = phone.answer_body if phone is not None else 0
                self.send_header("content-length", str(size))
                self.end_headers()
                with contextlib.suppress(OSError):  # the sender stops reading, as it should
                    for _ in range(size // 65536):
                        self.wfile.write(b"x" * 65536)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = True
        threading.Thread(target=self._http.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._http is not None:
            for phone in self.phones.values():
                if phone.hold is not None:
                    phone.hold.set()
            self._http.shutdown()
            self._http.server_close()

    def phone(self, name: str) -> Phone:
        made = Phone(name, self.origin)
        self.phones[made.id] = made
        return made

    # ------------------------------------------------------------------ a request
    def _check_vapid(self, headers: dict[str, str]) -> str | None:
        auth = {k.lower(): v for k, v in headers.items()}.get("authorization", "")
        scheme, _, rest = auth.partition(" ")
        if scheme.lower() != "vapid":
            return f"not a vapid authorization: {auth[:40]!r}"
        params = dict(p.strip().split("=", 1) for p in rest.split(","))
        token, key = params.get("t", ""), params.get("k", "")
        if key != self.server_key:
            return f"signed with another key: {key[:20]}..."
        head, claims, signature = token.split(".")
        if json.loads(unb64(head)) != {"typ": "JWT", "alg": "ES256"}:
            return f"JWT header {unb64(head)!r}"
        raw = unb64(signature)
        public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(key))
        try:
            public.verify(
                encode_dss_signature(
                    int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
                ),
                f"{head}.{claims}".encode(),
                ec.ECDSA(hashes.SHA256()),
            )
        except InvalidSignature:
            return "the JWT's signature does not verify"
        body = json.loads(unb64(claims))
        if body.get("aud") != self.origin:
            return f"aud {body.get('aud')!r}"
        if not time.time() < body.get("exp", 0) <= time.time() + 86400:
            return f"exp {body.get('exp')!r}"
        if not str(body.get("sub", "")).startswith(("mailto:", "https:")):
            return f"sub {body.get('sub')!r}"
        return None

    def _take(self, path: str, headers: dict[str, str], body: bytes) -> int:
        with self._cond:
            self.requests += 1
        phone = self.phones.get(path.removeprefix("/p/"))
        lower = {k.lower(): v for k, v in headers.items()}
        problem = None if phone is not None else f"no phone at {path}"
        problem = problem or self._check_vapid(headers)
        if problem is None and lower.get("content-encoding") != "aes128gcm":
            problem = f"content-encoding {lower.get('content-encoding')!r}"
        if problem is None and not lower.get("ttl", "").isdigit():
            problem = "no TTL"
        payload: dict[str, Any] | None = None
        if problem is None:
            assert phone is not None
            try:
                payload = json.loads(phone.decrypt(body))
            except Exception as error:
                problem = f"cannot decrypt: {error!r}"
        if problem is not None:
            with self._cond:
                self.problems.append(problem)
                self._cond.notify_all()
            return 400
        assert phone is not None and payload is not None
        if phone.hold is not None:
            with self._cond:
                self.held += 1
                self._cond.notify_all()
            phone.hold.wait(30)
            with self._cond:
                self.held -= 1
        with self._cond:
            if phone.answer < 300:
                self.received.append((phone.name, payload))
            self._cond.notify_all()
        return phone.answer

    # ------------------------------------------------------------------ the test's side
    def wait(self, check: Any, timeout: float = 10.0) -> None:
        """Wait until ``check()`` holds (under the service's lock)."""
        with self._cond:
            if not self._cond.wait_for(check, timeout):
                raise AssertionError(f"push service: not in {timeout} s; got {self.received}")

    def alerts(self, phone: Phone) -> list[dict[str, Any]]:
        with self._cond:
            return [p for name, p in self.received if name == phone.name]


@contextlib.contextmanager
def running() -> Iterator[PushService]:
    """A push service started for a test (or a module of tests) and stopped after it; a request
    it had to refuse (a bad signature, a payload it could not decrypt) fails the test."""
    service = PushService().start()
    try:
        yield service
    finally:
        service.stop()
    assert not service.problems, service.problems
