"""The HTTP side of turn alerts: the server's public VAPID key, and a seat holder's
subscriptions (docs/protocol.md, "Turn alerts").

- ``GET /api/push``: ``{"key": ...}``, the key a phone subscribes with (404 ``push/off`` when
  this server sends no alerts);
- ``POST /api/tables/{code}/push`` (``Authorization: Bearer <seat token>``, the browser's
  ``PushSubscription.toJSON()`` as the body): keep it for that seat's holder (201);
- ``DELETE /api/tables/{code}/push`` (the same token, ``{"endpoint": ...}``): forget it (204).

A subscription is kept for the holder of the token that sent it, so only that person's alerts
reach it. Bad input is refused with a stable code (``push/invalid``, ``push/endpoint``,
``push/keys``; ``push/live``: a table with a turn timer sends no alerts) and nothing is kept.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..push.sender import Pusher
from ..push.subscription import parse_subscription
from ..tables.live.table import LiveTable
from ..tables.play.errors import Refusal
from ..tables.play.table import token_hash
from .bodies import PushKey, Subscribed, answer, read_forget
from .site import Site, bearer, site_of, status_of

__all__ = ["push_routes"]


def push_routes() -> list[Route]:
    """The routes, over the app's :class:`~.site.Site` (its lobby limits, errors and checks)."""

    async def key(request: Request) -> Response:
        site = site_of(request)
        if site.pusher is None:
            return site.error("push/off", "this server sends no turn alerts", 404)
        return answer(PushKey(key=site.pusher.config.keys.public))

    async def holder(request: Request, site: Site) -> tuple[LiveTable, str, Pusher] | Response:
        sender = site.pusher
        if sender is None:
            return site.error("push/off", "this server sends no turn alerts", 404)
        if not site.same_origin(request):
            return site.error("origin/forbidden", "alerts are set from this server's own page", 403)
        token = bearer(request)
        live = await site.look_up(request, token)
        if isinstance(live, Response):
            return live
        if token is None:
            return site.error("token/invalid", "send your seat token", 403)
        try:
            site.service.seat_for(live, token)
        except Refusal as refused:
            return site.error(refused.code, refused.reason, 403)
        return live, token_hash(token), sender

    async def subscribe(request: Request) -> Response:
        site = site_of(request)
        found = await holder(request, site)
        if isinstance(found, Response):
            return found
        live, who, sender = found
        if live.table.settings.play != "anytime":
            return site.error("push/live", "only play-anytime tables send turn alerts", 409)
        try:
            sub = parse_subscription(await site.body(request), sender.config.hosts)
            await sender.keep.add(live.table.table_id, who, sub)
        except Refusal as refused:
            return site.error(refused.code, refused.reason, status_of(refused))
        except Exception:
            return site.error("store/unavailable", "alerts cannot be set now: try again", 503)
        return answer(Subscribed(), 201)

    async def unsubscribe(request: Request) -> Response:
        site = site_of(request)
        found = await holder(request, site)
        if isinstance(found, Response):
            return found
        live, who, sender = found
        try:
            endpoint = read_forget(await site.body(request)).endpoint
        except Refusal as refused:
            return site.error(refused.code, refused.reason, status_of(refused))
        except Exception:  # the client went away while it sent
            return site.error("message/incomplete", "the request did not arrive whole", 400)
        try:
            await sender.keep.remove(live.table.table_id, who, endpoint)
        except Exception:
            return site.error("store/unavailable", "alerts cannot be changed now: try again", 503)
        return Response(status_code=204)

    return [
        Route("/api/push", key),
        Route("/api/tables/{code}/push", subscribe, methods=["POST"]),
        Route("/api/tables/{code}/push", unsubscribe, methods=["DELETE"]),
    ]
