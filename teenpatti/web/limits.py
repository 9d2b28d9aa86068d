"""The lobby's rate limits: per client address, per address and table, per seat token, and a
budget of failed table-code look-ups.

Every route that names a table code passes :meth:`Lobby.check` before the code is looked up,
and :meth:`Lobby.missed` after a code that names no table. The limits are made for people
behind one shared address (a family, a café): the per-address allowance seats a table of ten
at once; one client polling one table spends that table's allowance, not the address's; and
guessing codes spends the small budget of misses, refilled slowly, whatever the route.
"""

from __future__ import annotations

import math
import time

from .edge import address_key

__all__ = ["Lobby", "RateLimiter", "Refused"]


class RateLimiter:
    """A token bucket per key: ``rate`` a second, ``burst`` at most.

    >>> limiter = RateLimiter(1.0, 2.0)
    >>> [limiter.allow("a") for _ in range(3)], limiter.allow("b")
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: float, *, most: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self.buckets: dict[str, tuple[float, float]] = {}

    def _tokens(self, key: str, now: float) -> float:
        tokens, last = self.buckets.get(key, (self.burst, now))
        return min(self.burst, tokens + (now - last) * self.rate)

    def allow(self, key: str) -> bool:
        """Take one token for ``key`` if there is one."""
        now = time.monotonic()
        tokens = self._tokens(key, now)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return False
        if len(self.buckets) >= self.most and key not in self.buckets:
            self._forget(now)
        self.buckets[key] = (tokens - 1, now)
        return True

    def wait(self, key: str) -> float:
        """Seconds until ``key`` has a token again (0: it has one now)."""
        tokens = self._tokens(key, time.monotonic())
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate

    def _forget(self, now: float) -> None:
        """Forget the keys whose bucket is full again (they would start full anyway); if all
        are in use, the oldest half (memory stays bounded whatever the clients do)."""
        full = [k for k, v in self.buckets.items() if v[0] + (now - v[1]) * self.rate >= self.burst]
        for key in full:
            del self.buckets[key]
        if len(self.buckets) >= self.most:
            for key in list(self.buckets)[: self.most // 2]:
                del self.buckets[key]


class Refused(Exception):
    """A request over a limit: ``code``, ``reason`` and the seconds to wait."""

    def __init__(self, code: str, reason: str, retry_after: float) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.retry_after = retry_after


class Lobby:
    """The lobby's limits for one process.

    - ``rate``: requests per address (a second, burst) that name a table, create one or open
      a socket; a look-up (``read``) of a table the address looked up less than a second ago is
      not counted again (it gets the same answer), so one client polling a table spends at most
      one a second of what its neighbours need;
    - per address *and table*: five times that rate and the same burst, a hard cap taken first;
    - per seat token: half the rate, a fifth of the burst (a token reconnecting in a loop);
    - ``misses``: look-ups of a code that names no table, per address (a second, burst); past
      them every look-up is refused until the budget refills (``Retry-After`` says when).
    """

    def __init__(
        self, rate: tuple[float, float] = (5.0, 100.0), misses: tuple[float, float] = (0.1, 10.0)
    ) -> None:
        per, burst = rate
        self.address = RateLimiter(per, burst)
        self.table = RateLimiter(per * 5, burst)
        self.token = RateLimiter(max(per / 2, 0.5), max(burst / 5, 5.0))
        self.misses = RateLimiter(*misses)
        self.looked: dict[str, float] = {}

    def check(
        self, host: str, code: str | None = None, token: str | None = None, *, read: bool = False
    ) -> None:
        """Raise :class:`Refused` if a request from ``host`` (about table ``code``, with seat
        ``token``; ``read``: a look-up that changes nothing) is over a limit."""
        key = address_key(host)
        if code is not None:
            wait = self.misses.wait(key)
            if wait > 0:
                raise Refused(
                    "rate/lookups", "too many wrong table codes: wait before trying again", wait
                )
            table = f"{key} {code.strip().upper()[:16]}"
            if not self.table.allow(table):
                raise _slow_down(self.table.wait(table))
            if read:
                now = time.monotonic()
                if now - self.looked.get(table, -1.0) < 1.0:
                    return
                if len(self.looked) >= 100_000:
                    self.looked.clear()
                self.looked[table] = now
        if token is not None and not self.token.allow(token[:64]):
            raise _slow_down(self.token.wait(token[:64]))
        if not self.address.allow(key):
            raise _slow_down(self.address.wait(key))

    def missed(self, host: str) -> None:
        """A look-up from ``host`` named no table: it spends one of the address's misses."""
        self.misses.allow(address_key(host))


def _slow_down(wait: float) -> Refused:
    return Refused("rate/limited", "too many requests: wait a moment", wait)


def retry_after(seconds: float) -> str:
    """A ``Retry-After`` header's value: whole seconds, at least one.

    >>> retry_after(0.2), retry_after(9.5)
    ('1', '10')
    """
    return str(max(1, math.ceil(seconds)))
