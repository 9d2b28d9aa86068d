"""The STUN and TURN servers a table's call may use, and the short-lived TURN credentials the
server makes for each seat.

The operator names the servers (``--ice-servers``, or ``TEENPATTI_ICE_SERVERS``) and shares a
secret with their TURN server (``--turn-secret``, or ``TEENPATTI_TURN_SECRET``): coturn's REST API
convention (``use-auth-secret`` with ``static-auth-secret``), where the username is
``"<expiry>:<who>"`` (``expiry`` in epoch seconds) and the password is
``base64(HMAC-SHA1(secret, username))``. The TURN server checks the password and the expiry itself,
so the server never hands out a long-lived secret and never talks to the TURN server.

>>> turn_credential(b"north-wind", "1800000000:AB3D-2")
'8zfdNiwRlHYTcCoIIOWTA+KbXco='
>>> ice = Ice.parse("stun:stun.example.org:3478, turn:turn.example.org:3478?transport=udp",
...                 secret="north-wind", ttl=3600)
>>> [server.urls for server in ice.servers("AB3D-2", now=1799996400.0)]
[['stun:stun.example.org:3478'], ['turn:turn.example.org:3478?transport=udp']]
>>> relay = ice.servers("AB3D-2", now=1799996400.0)[1]
>>> relay.username, relay.credential
('1800000000:AB3D-2', '8zfdNiwRlHYTcCoIIOWTA+KbXco=')
>>> Ice.parse("http://example.org")
Traceback (most recent call last):
...
ValueError: 'http://example.org' is not a stun:, stuns:, turn: or turns: URL
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from dataclasses import dataclass
from typing import Literal

from ..tables.wire.messages import IceServer

__all__ = ["DEFAULT_TTL", "Ice", "turn_credential"]

DEFAULT_TTL = 4 * 3600
"""Seconds a TURN credential lasts: a long evening's game (each join of the call gets new ones,
so a player who rejoins later is not cut off; an allocation made before the expiry may be
refreshed only until it)."""

_URL = re.compile(r"^(stun|stuns|turn|turns):[A-Za-z0-9.\-\[\]:]+(\?transport=(udp|tcp))?$")


def turn_credential(secret: bytes, username: str) -> str:
    """The password coturn's ``use-auth-secret`` expects for ``username``."""
    digest = hmac.new(secret, username.encode("utf-8"), hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


@dataclass(frozen=True, slots=True)
class Ice:
    """The operator's ICE settings: STUN and TURN URLs, the TURN secret, how long each
    credential lasts, and whether calls go through TURN only (``relay``: no player's own
    address is shown to another)."""

    stun: tuple[str, ...] = ()
    turn: tuple[str, ...] = ()
    secret: bytes | None = None
    ttl: int = DEFAULT_TTL
    policy: Literal["all", "relay"] = "all"

    @classmethod
    def parse(
        cls,
        urls: str,
        secret: str | None = None,
        ttl: int = DEFAULT_TTL,
        policy: str = "all",
    ) -> Ice:
        """The settings from ``--ice-servers`` (URLs separated by commas or spaces),
        ``--turn-secret``, ``--turn-ttl`` and ``--ice-policy``; :class:`ValueError` says what
        is wrong with them."""
        stun: list[str] = []
        turn: list[str] = []
        for url in re.split(r"[,\s]+", urls.strip()):
            if not url:
                continue
            if not _URL.match(url):
                raise ValueError(f"{url!r} is not a stun:, stuns:, turn: or turns: URL")
            (turn if url.startswith("turn") else stun).append(url)
        if turn and not secret:
            raise ValueError("TURN servers need the secret they share with this server")
        if ttl < 60:
            raise ValueError("TURN credentials must last a minute at least")
        if policy not in ("all", "relay"):
            raise ValueError("the ICE policy is all or relay")
        if policy == "relay" and not turn:
            raise ValueError("calls through TURN only need a TURN server")
        return cls(
            tuple(stun),
            tuple(turn),
            secret.encode("utf-8") if secret else None,
            ttl,
            "relay" if policy == "relay" else "all",
        )

    def servers(self, who: str, now: float) -> list[IceServer]:
        """The ``iceServers`` for ``who`` (a table's seat), with TURN credentials that expire
        ``ttl`` seconds after ``now``."""
        out = [IceServer(urls=list(self.stun))] if self.stun else []
        if self.turn and self.secret is not None:
            username = f"{int(now) + self.ttl}:{who}"
            password = turn_credential(self.secret, username)
            out.append(IceServer(urls=list(self.turn), username=username, credential=password))
        return out
