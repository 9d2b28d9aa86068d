"""The JSON Schema of the socket's messages, both ways, generated from their types.

``python -m teenpatti.tables.wire.schema [folder]`` writes ``client.schema.json`` (what a client
sends: :data:`~teenpatti.tables.play.commands.ClientMessage`) and ``server.schema.json`` (what the
server sends: :data:`~teenpatti.tables.wire.messages.ServerMessage`) into ``folder``
(``docs/schema`` by default); a test fails when the files in docs/ are not what this module makes.

>>> sorted(schemas())
['client.schema.json', 'server.schema.json']
>>> schemas()["server.schema.json"]["$defs"]["Pong"]["required"]
['type', 'version']
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import msgspec

from ..play.commands import ClientMessage
from .messages import ServerMessage

__all__ = ["FOLDER", "render", "schemas"]

FOLDER = Path(__file__).resolve().parents[3] / "docs" / "schema"
"""Where the schemas are kept in a checkout."""


def schemas() -> dict[str, dict[str, Any]]:
    """Each schema by its file name."""
    out: dict[str, dict[str, Any]] = {}
    for name, kind, title in (
        ("client.schema.json", ClientMessage, "A message a client sends on its socket"),
        ("server.schema.json", ServerMessage, "A message the server sends on a socket"),
    ):
        schema = msgspec.json.schema(kind)
        out[name] = {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": title,
            "description": "Generated from teenpatti/tables/play/commands.py and "
            "teenpatti/tables/wire/messages.py by `python -m teenpatti.tables.wire.schema`: "
            "do not edit. See docs/protocol.md.",
            **schema,
        }
    return out


def render(schema: dict[str, Any]) -> str:
    """A schema as the file holds it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (folder / name).write_text(render(schema), encoding="utf-8")
        print(folder / name)


if __name__ == "__main__":
    main(sys.argv[1:])
