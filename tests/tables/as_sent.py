"""A table's states as a client gets them: JSON data, for tests that read them key by key."""

from __future__ import annotations

from typing import Any

import msgspec

from teenpatti.tables.play.table import Table
from teenpatti.tables.wire.render import Render


def state(table: Table, seat: int | None) -> dict[str, Any]:
    """What ``seat`` is sent of ``table`` (:meth:`Render.state
    <teenpatti.tables.wire.render.Render.state>`, a :class:`~teenpatti.tables.wire.messages.State`)
    as the JSON it is sent as, read back."""
    out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(Render(table).state(seat)))
    return out
