"""The server's VAPID key pair (RFC 8292): it signs every push request, and phones subscribe with
its public half (``applicationServerKey``), so the push service takes alerts for them only from
this server.

The key is made at the first start and kept in the data folder (``vapid.pem``, readable by its
owner only), or given by the operator (a PEM file: ``--vapid-key`` or ``TEENPATTI_VAPID_KEY``).
Several processes of one server must share one key (give each the same file).

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> made = VapidKeys.load_or_make(folder)
>>> again = VapidKeys.load_or_make(folder)
>>> made.public == again.public and len(made.public) == 87  # 65 bytes, base64url unpadded
True
>>> oct((folder / "vapid.pem").stat().st_mode & 0o777)
'0o600'
"""

from __future__ import annotations

import base64
import os
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02

__all__ = ["KEY_FILE", "VapidKeys", "b64url"]

KEY_FILE = "vapid.pem"
"""The key's file in the data folder."""


def b64url(raw: bytes) -> str:
    """Unpadded base64url, as Web Push writes keys.

    >>> b64url(b"\\xfb\\xff")
    '-_8'
    """
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class VapidKeys:
    """The private key (as py-vapid signs with it) and the public key as phones are given it."""

    vapid: Vapid02
    public: str

    @classmethod
    def from_pem(cls, pem: bytes) -> VapidKeys:
        """The keys of a PEM private key (PKCS#8 or SEC1) on the P-256 curve."""
        key = serialization.load_pem_private_key(pem, password=None)
        if not isinstance(key, ec.EllipticCurvePrivateKey) or key.curve.name != "secp256r1":
            raise ValueError("a VAPID key is an elliptic-curve key on P-256 (prime256v1)")
        point = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return cls(Vapid02(private_key=key), b64url(point))

    @classmethod
    def load_or_make(cls, data: Path, given: Path | None = None) -> VapidKeys:
        """The operator's key file ``given``; else ``data/vapid.pem``, made if missing."""
        if given is not None:
            return cls.from_pem(given.read_bytes())
        path = data / KEY_FILE
        if not path.exists():
            data.mkdir(parents=True, exist_ok=True)
            key = ec.generate_private_key(ec.SECP256R1())
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            # Written whole under a new name, then moved: processes starting together over
            # one folder all end up with the same key (the last move wins before any uses it).
            temporary = path.with_name(f".{KEY_FILE}.{os.getpid()}")
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "wb") as out:
                out.write(pem)
            try:
                os.link(temporary, path)  # fails if another process made it first: use theirs
            except FileExistsError:
                pass
            finally:
                temporary.unlink()
        return cls.from_pem(path.read_bytes())
