"""The operator's endpoints: ``/healthz`` (the process answers), ``/readyz`` (the store and the
bus answer, and the app has started) and ``/metrics`` (Prometheus). See docs/deploy.md."""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..metrics import CONTENT_TYPE, NOT_READY
from ..tables.live.service import TableService
from .site import site_of

__all__ = ["READY_TIMEOUT", "operator_routes"]

READY_TIMEOUT = 2.0
"""How long ``/readyz`` waits for the store and the bus to answer."""


def operator_routes() -> list[Route]:
    """The operator's routes (over the app's :class:`~.site.Site`)."""

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> Response:
        service = site_of(request).service
        checks: dict[str, str] = {}
        for name, probe in (("store", _ping_store), ("bus", _ping_bus)):
            try:
                await asyncio.wait_for(probe(service), READY_TIMEOUT)
                checks[name] = "ok"
            except Exception as error:  # down or slow: not ready
                checks[name] = f"{type(error).__name__}: {error}"[:200]
        # A request is served only once the app has started (its lifespan made the service,
        # started it and handed it to every request), so the tables are ready to be loaded.
        checks["tables"] = "loaded"
        up = all(v in ("ok", "loaded") for v in checks.values())
        if not up:
            service.metrics.error(NOT_READY)
        body = {"status": "ready" if up else "not ready", **checks}
        return JSONResponse(
            body | {"live_tables": len(service.tables)}, status_code=200 if up else 503
        )

    async def prometheus(request: Request) -> Response:
        return Response(site_of(request).service.metrics.render(), media_type=CONTENT_TYPE)

    return [
        Route("/healthz", healthz),
        Route("/readyz", readyz),
        Route("/metrics", prometheus),
    ]


async def _ping_store(service: TableService) -> None:
    await service.store.find("-")  # a look-up by a code no table has: one round trip


async def _ping_bus(service: TableService) -> None:
    await service.bus.ping()
