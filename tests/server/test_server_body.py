"""A request body that never arrives is answered: the app's own deadline, under a plain uvicorn
(no edge of ``teenpatti serve``, whose deadline ``test_server_edges`` checks), on every route
that reads a body.

A client says ``Content-Length: 999999999999``, sends 12 bytes and waits: it is answered
``408 http/timeout`` once the app's deadline (a second here) has passed, and the table it named
is served to others meanwhile."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
from support import in_loop

from teenpatti.push.keys import VapidKeys
from teenpatti.push.sender import PushConfig
from teenpatti.store.sqlite import SqliteStore
from teenpatti.web.app import create_app


async def never_whole(http: str, path: str, token: str | None = None) -> tuple[str, dict[str, str]]:
    """POST a body of 12 bytes of the 999,999,999,999 announced: the status line and error."""
    host, port = http.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    auth = f"Authorization: Bearer {token}\r\n" if token else ""
    writer.write(
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\n{auth}Content-Type: application/json\r\n"
        f'Content-Length: 999999999999\r\n\r\n{{"name":"B"'.encode()
    )
    await writer.drain()
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 20)  # a bound, not a figure
        length = next(
            int(line.split(b":")[1])
            for line in head.split(b"\r\n")
            if line.lower().startswith(b"content-length:")
        )
        body = await reader.readexactly(length)
    finally:
        writer.close()
    return head.split(b"\r\n")[0].decode(), json.loads(body)["error"]


def test_a_body_that_never_arrives_is_answered_408(tmp_path: Path) -> None:
    keys = VapidKeys.load_or_make(tmp_path)

    async def push() -> PushConfig:
        return PushConfig(keys)

    app = create_app(SqliteStore(tmp_path / "tables.sqlite3"), push=push, body_seconds=1.0)

    async def body() -> None:
        async with in_loop.serving(app) as (http, _ws), httpx.AsyncClient(base_url=http) as client:
            made = await client.post("/api/tables", json={"name": "Asha", "play": "anytime"})
            code, token = made.json()["code"], made.json()["token"]
            waiting = [
                asyncio.create_task(never_whole(http, path, who))
                for path, who in (
                    ("/api/tables", None),
                    (f"/api/tables/{code}/join", None),
                    (f"/api/tables/{code}/push", token),
                )
            ]
            # while they wait, the table is served
            assert (await client.get(f"/api/tables/{code}")).status_code == 200
            for status, error in await asyncio.gather(*waiting):
                assert status == "HTTP/1.1 408 Request Timeout", (status, error)
                assert error["code"] == "http/timeout"
            assert (await client.get(f"/api/tables/{code}")).json()["seats"][1:] == []

    asyncio.run(asyncio.wait_for(body(), 60))
