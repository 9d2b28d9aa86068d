"""Headers every HTTP response carries, whether or not a proxy stands in front of the app.

- ``Content-Security-Policy``: scripts, styles, images, sockets and the service worker from this
  origin only; no inline script and no inline style (the page sets styles through the CSSOM); no
  plugin; no page may frame the table (``frame-ancestors``).
- ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer`` (a table's link is its
  invitation: never send it to another site), ``X-Frame-Options: DENY`` for older browsers,
  ``Permissions-Policy`` turning off what the game never uses.
- ``Strict-Transport-Security`` when the request came over TLS (directly, or through a trusted
  proxy's ``X-Forwarded-Proto``).
- ``X-Request-ID``: the id the log lines of this request carry (see :mod:`teenpatti.web.logs`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .logs import context, new_request_id

__all__ = ["CSP", "SecurityHeaders"]

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' blob: data:",
        "connect-src 'self'",
        "font-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
_ALWAYS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy", b"camera=(), microphone=(self), geolocation=(), payment=()"),
]
_HSTS = (b"strict-transport-security", b"max-age=31536000")


class SecurityHeaders:
    """Adds the headers above to every HTTP response, and gives every request and socket a
    request id for the log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        request_id = new_request_id()
        extra = [*_ALWAYS, (b"x-request-id", request_id.encode())]
        if scope.get("scheme") == "https":
            extra.append(_HSTS)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        with context(request_id=request_id):
            await self.app(scope, receive, send_with_headers)
