"""The JSON Schemas in docs/schema are the ones the message types make (regenerate them
with ``python -m teenpatti.tables.wire.schema`` when a type changes), and the types take what
the protocol says and refuse what it does not."""

from __future__ import annotations

import msgspec
import pytest

from teenpatti.tables.play import commands
from teenpatti.tables.play.chat import EMOJI, PHRASES
from teenpatti.tables.wire import messages
from teenpatti.tables.wire.schema import FOLDER, render, schemas


@pytest.mark.parametrize("name", sorted(schemas()))
def test_the_schemas_in_docs_are_up_to_date(name: str) -> None:
    path = FOLDER / name
    assert path.is_file(), f"{path} is missing: run python -m teenpatti.tables.wire.schema"
    assert path.read_text(encoding="utf-8") == render(schemas()[name]), (
        f"{path} is out of date: run python -m teenpatti.tables.wire.schema"
    )


def test_the_chat_types_list_what_the_chat_takes() -> None:
    schema = schemas()["client.schema.json"]["$defs"]["Chat"]["properties"]
    assert set(schema["phrase"]["anyOf"][0]["enum"]) == set(PHRASES)
    assert set(schema["emoji"]["anyOf"][0]["enum"]) == set(EMOJI)


def test_every_command_type_is_in_the_union() -> None:
    tags = {t.__struct_config__.tag for t in commands.ClientMessage.__args__}
    assert tags == {*commands.COMMANDS, "hello", "sync", "ping", "call", "signal"}


def test_server_messages_are_checked_strictly() -> None:
    good = b'{"type":"error","code":"a/b","reason":"r","id":"k","retryable":true}'
    assert messages.decode(good) == messages.Error(code="a/b", reason="r", id="k", retryable=True)
    for bad in (
        b'{"type":"error","code":"a/b"}',  # no reason
        b'{"type":"error","code":"a/b","reason":"r","retryable":false}',  # only ever true
        b'{"type":"pong","version":"3"}',
        b'{"type":"state","version":3}',
        b'{"type":"welcome"}',
    ):
        with pytest.raises(msgspec.ValidationError):
            messages.decode(bad)
