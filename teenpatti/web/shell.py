"""The app's shell for the home screen: the web app manifests (English and Nepali) and the
service worker, served from the site's root so that the worker's scope is the whole site.

The worker (``static/sw.js``) is sent with the list of static files to keep and a digest of them
filled in, so each release gets a cache of its own and the old one is dropped.

>>> files = shell_files()
>>> "/" in files and "/static/app.css" in files and "/static/offline.html" in files
True
>>> any(f.startswith(("/api/", "/ws/")) for f in files)
False
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

__all__ = ["shell_files", "shell_routes"]

STATIC = Path(__file__).parent / "static"
_ROOT_FILES = ("manifest.webmanifest", "manifest-ne.webmanifest")


def shell_files(static: Path = STATIC) -> list[str]:
    """The URLs the service worker keeps: the page, the manifests, every static file."""
    files = sorted(
        "/static/" + path.relative_to(static).as_posix()
        for path in static.rglob("*")
        if path.is_file() and path.name not in ("sw.js", *_ROOT_FILES)
    )
    return ["/", *(f"/{name}" for name in _ROOT_FILES), *files]


@functools.cache
def _worker(static: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(static.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(static).as_posix().encode() + b"\0" + path.read_bytes())
    source = (static / "sw.js").read_text()
    source = source.replace('"__VERSION__"', json.dumps(digest.hexdigest()[:16]))
    return source.replace("__SHELL__", json.dumps(shell_files(static)))


def shell_routes(static: Path = STATIC) -> list[Any]:
    """``/sw.js``, ``/manifest.webmanifest`` and ``/manifest-ne.webmanifest``."""

    async def worker(request: Request) -> Response:
        return Response(_worker(static), media_type="text/javascript")

    def manifest(name: str) -> Any:
        async def serve(request: Request) -> Response:
            return FileResponse(static / name, media_type="application/manifest+json")

        return serve

    return [
        Route("/sw.js", worker),
        *(Route(f"/{name}", manifest(name)) for name in _ROOT_FILES),
    ]
