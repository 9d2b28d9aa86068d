"""One push request, sent by a client this server controls end to end.

The request goes to the scheme, host, port and target that
:func:`~teenpatti.push.endpoint.parse_endpoint` read (never a URL re-read by another parser),
through aiohttp with a
:class:`~teenpatti.push.address.CheckedResolver`: the name is resolved once per connection,
every address checked, and the connection made to those addresses only (TLS still names the
host and checks its certificate against it). A redirect is never followed (a 3xx is that
alert's failure), no proxy from the environment is used, no cookie kept, and the answer is
bounded: its head by aiohttp's limits (8 KiB a line, 128 fields), its body read to at most
:data:`ANSWER_MAX` bytes, the whole request to the deadline given.

The payload is encrypted as RFC 8291 says (pywebpush's encoder, aes128gcm) and signed with
the server's VAPID key (RFC 8292) for the endpoint's origin.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from .address import CheckedResolver, Resolve
from .endpoint import Endpoint, PushHosts
from .keys import VapidKeys
from .subscription import Subscription

__all__ = ["ANSWER_MAX", "PushClient", "encrypt"]

ANSWER_MAX = 4096
"""The most of an answer's body read (a push service answers with none, or a line of JSON)."""


def encrypt(
    keys: VapidKeys, subject: str, ttl: int, endpoint: Endpoint, sub: Subscription, data: str
) -> tuple[dict[str, str], bytes]:
    """The headers and body of the push request for ``data`` (CPU work: run it off the loop)."""
    from pywebpush import WebPusher

    body = WebPusher(sub.info()).encode(data.encode(), "aes128gcm")["body"]
    claims = {"sub": subject, "aud": endpoint.origin, "exp": int(time.time()) + 12 * 3600}
    headers = {str(k): str(v) for k, v in keys.vapid.sign(claims).items()}
    headers |= {
        "content-encoding": "aes128gcm",
        "content-type": "application/octet-stream",
        "ttl": str(ttl),
    }
    return headers, bytes(body)


class PushClient:
    """The HTTP client of push requests: :meth:`post` one, :meth:`close` at the end."""

    def __init__(self, hosts: PushHosts, resolve: Resolve, timeout: float, per_host: int) -> None:
        self.hosts = hosts
        self.resolve = resolve
        self.timeout = timeout
        self.per_host = per_host
        self._session: Any = None

    def _open(self) -> Any:
        import aiohttp

        if self._session is None:
            connector = aiohttp.TCPConnector(
                resolver=CheckedResolver(self.resolve, self.hosts.listed_http),
                use_dns_cache=False,  # each connection resolves, and checks, afresh
                limit=0,  # each host is bounded on its own (the sender's lines)
                limit_per_host=self.per_host,
            )
            self._session = aiohttp.ClientSession(
                connector=connector,
                trust_env=False,  # a push service is reached directly, never via a proxy
                cookie_jar=aiohttp.DummyCookieJar(),
                auto_decompress=False,
                timeout=aiohttp.ClientTimeout(total=self.timeout),
            )
        return self._session

    async def post(self, endpoint: Endpoint, headers: dict[str, str], body: bytes) -> int:
        """POST ``body`` to ``endpoint``: the answer's status. Raises :class:`AddressRefused`
        (the name resolved to an address never called), :class:`TimeoutError` or
        :class:`OSError` / ``aiohttp.ClientError`` (no answer)."""
        from yarl import URL

        path, mark, query = endpoint.target.partition("?")
        url = URL.build(
            scheme=endpoint.scheme,
            host=endpoint.host,
            port=endpoint.port,
            path=path,
            query_string=query if mark else "",
            encoded=True,
        )
        session = self._open()
        async with asyncio.timeout(self.timeout):
            async with session.post(
                url, data=body, headers=headers, allow_redirects=False
            ) as answer:
                await answer.content.read(ANSWER_MAX)
                if not answer.content.at_eof():
                    answer.close()  # the rest is never read: the connection is not reused
                return int(answer.status)

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()
            self._session = None
