"""The JSON Schema of the lobby's HTTP bodies, generated from their types (:mod:`.bodies`, and the
table layer's request to open a table and the push layer's subscription).

``python -m teenpatti.web.schema [folder]`` writes ``lobby.schema.json`` into ``folder``
(``docs/schema`` by default, beside the socket's schemas); a test fails when the file in docs/ is
not what this module makes. Its ``$defs`` hold every body; ``routes`` says, for each route, the
request it reads and the answer of each status (every refusal: ``ErrorBody``).

>>> lobby = schema()
>>> lobby["routes"]["POST /api/tables/{code}/join"]["request"]
{'$ref': '#/$defs/Join'}
>>> lobby["$defs"]["TableRequest"]["properties"]["turn_seconds"]["anyOf"][0]
{'type': 'integer', 'minimum': 5, 'maximum': 600}
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec

from ..push.subscription import SubscriptionBody
from ..tables.play.settings import TableRequest
from ..tables.wire.schema import FOLDER, render
from .bodies import (
    Catalogue,
    ErrorBody,
    Forget,
    HandHistory,
    Join,
    Joined,
    Opened,
    PushKey,
    ServerInfo,
    Subscribed,
    TableInfo,
)

__all__ = ["NAME", "ROUTES", "schema"]

NAME = "lobby.schema.json"

HANDS = {
    "description": "teenpatti-hand/1 hand histories: see docs/hand-history.md",
    "type": "array",
    "items": {"$ref": "#/$defs/HandHistory"},
}

ROUTES: dict[str, dict[str, Any]] = {
    "GET /": {"200": ServerInfo},
    "GET /api/rules": {"200": Catalogue},
    "POST /api/tables": {"request": TableRequest, "201": Opened},
    "GET /api/tables/{code}": {"200": TableInfo},
    "POST /api/tables/{code}/join": {"request": Join, "200": Joined},
    "GET /api/tables/{code}/hands": {"200": HANDS},
    "GET /api/push": {"200": PushKey},
    "POST /api/tables/{code}/push": {"request": SubscriptionBody, "201": Subscribed},
    "DELETE /api/tables/{code}/push": {"request": Forget, "204": None},
}
"""Each route's request and answers by status: a type, a schema written here, or ``None`` for
no body."""


def schema() -> dict[str, Any]:
    """The schema, as the file holds it."""
    kinds = [ErrorBody, HandHistory] + [
        kind for route in ROUTES.values() for kind in route.values() if isinstance(kind, type)
    ]
    _, defs = msgspec.json.schema_components(kinds, ref_template="#/$defs/{name}")

    def ref(kind: Any) -> Any:
        return {"$ref": f"#/$defs/{kind.__name__}"} if isinstance(kind, type) else kind

    routes = {
        path: {part: ref(kind) for part, kind in route.items()} | {"error": ref(ErrorBody)}
        for path, route in ROUTES.items()
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "The lobby's HTTP bodies",
        "description": "Generated from teenpatti/web/bodies.py (and the table and push layers' "
        "request types) by `python -m teenpatti.web.schema`: do not edit. See docs/protocol.md.",
        "routes": routes,
        "$defs": defs,
    }


def main(argv: list[str]) -> None:
    folder = Path(argv[0]) if argv else FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    (folder / NAME).write_text(render(schema()), encoding="utf-8")
    print(folder / NAME)


if __name__ == "__main__":
    main(sys.argv[1:])
