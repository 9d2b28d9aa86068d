"""Every message a real ``teenpatti serve`` process sends over a game (states to players and a
spectator, patches, errors, pongs) fits the server's message types strictly, and the page's
schema check (tests/js/schema.js, over docs/schema) agrees: the recorded messages are written to
a temporary folder and checked by Node, with the states the page's own patch code makes from the
patches. Client and server cannot drift apart without this test failing."""

from __future__ import annotations

import asyncio
import json
import os
import random
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec
import pytest

from teenpatti.tables.play import commands
from teenpatti.tables.wire import messages

if TYPE_CHECKING:
    from support.server import Api, Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]
RECORDED = Path(__file__).parents[1] / "js" / "recorded.mjs"


async def _record(server: Server, api: Api, ws: MakeClient) -> dict[str, Any]:
    rng = random.Random(2727)
    made = await api.create(name="Asha", seats=3, preset="limited", hands=2, turn_seconds=None)
    code = made["code"]
    joined = await api.join(code, "Bikash")
    tokens = {0: made["token"], 1: joined["token"], None: None}
    whole = {seat: ws(server, code, seat, f"whole {seat}") for seat in tokens}
    for seat, client in whole.items():
        assert (await client.hello(tokens[seat], patches=False))["type"] == "state"
    patched = ws(server, code, 1, "patched 1")
    await patched.open()
    await patched.send({"type": "hello", "token": tokens[1]})  # patches: the default
    await patched.next()
    sent: list[dict[str, Any]] = [
        {"type": "hello", "token": tokens[1]},
        {"type": "start", "id": "c-1"},
        {"type": "chat", "phrase": "shabash"},
        {"type": "ping"},
        {"type": "sync"},
    ]
    await whole[0].send(sent[1])
    await whole[1].send(sent[2])
    ends = await _play(whole, rng)
    await patched.next(lambda m: m["type"] in ("state", "patch") and m["version"] >= ends)
    await whole[None].send({"type": "ping"})
    await whole[None].next(lambda m: m["type"] == "pong")
    refused = {"type": "act", "action": {"do": "chaal"}, "id": "c-2"}
    await whole[0].send(refused)
    await whole[0].next(lambda m: m["type"] == "error")
    sent.append(refused)
    server.assert_healthy()
    return {
        "server": [text for c in [*whole.values(), patched] for text in c.raw],
        "client": [json.dumps(m) for m in sent],
        "patched": [patched.raw],
    }


async def _play(whole: dict[Any, Client], rng: random.Random) -> int:
    def over(s: dict[str, Any]) -> bool:
        return bool(s["status"] == "finished")

    ends = await asyncio.gather(
        whole[0].play(rng, over, timeout=60), whole[1].play(rng, over, timeout=60)
    )
    return max(int(s["version"]) for s in ends)


def test_every_message_of_a_real_game_fits_the_types_and_the_schema(
    server: Server, api: Api, ws: MakeClient, arun: Run, tmp_path: Path
) -> None:
    got = arun(_record(server, api, ws), 120)
    kinds: dict[str, int] = {}
    for text in got["server"]:
        try:
            message = messages.decode(text)  # strictly: no key the types do not have
        except msgspec.ValidationError as error:
            pytest.fail(f"{error}: {text[:300]}")
        kinds[type(message).__name__] = kinds.get(type(message).__name__, 0) + 1
    assert set(kinds) == {"State", "Patch", "Error", "Pong"}, kinds
    for text in got["client"]:
        assert commands.decode_hello(text) if '"hello"' in text else commands.decode(text)
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node is not installed (scripts/test installs it)")
        pytest.skip("Node is not installed")
    path = tmp_path / "recorded.json"
    path.write_text(json.dumps(got), encoding="utf-8")
    out = subprocess.run(
        [node, str(RECORDED), str(path)], capture_output=True, check=True, timeout=120
    )
    page = json.loads(out.stdout)
    assert len(page["server"]) == len(got["server"])
    wrong = [(p, t[:200]) for p, t in zip(page["server"], got["server"], strict=True) if p]
    assert not wrong, wrong
    assert not [p for p in page["client"] if p]
    held = page["patched"][0]
    assert len(held) > 5 and not [p for p in held if p], held
