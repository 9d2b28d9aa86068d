"""Fixtures for the tests of how friends reach a table (see :mod:`support.reach`)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support.reach import FAKE_LAN, ThreadServer, free_port

from teenpatti.web.reach import Reach


@pytest.fixture
def thread_server(tmp_path: Path) -> Iterator[Callable[..., ThreadServer]]:
    """``thread_server(listen_host=..., addresses=[...], public_url=...)`` starts one; all are
    stopped when the test ends."""
    with contextlib.ExitStack() as stack:

        def make(
            listen_host: str = "0.0.0.0",
            addresses: list[str] | None = None,
            public_url: str | None = None,
            **options: Any,
        ) -> ThreadServer:
            found = [FAKE_LAN] if addresses is None else addresses
            reach = Reach(
                public_url=public_url,
                listen_host=listen_host,
                port=free_port(),
                addresses=lambda: list(found),
            )
            data = tmp_path / f"data-{reach.port}"
            return stack.enter_context(ThreadServer(data, reach, **options))

        yield make
