"""The server's log: readable text by default, or one JSON object a line (``--log-format json``).

Every line written while a request or a socket is being handled carries its request id (also sent
back in the ``X-Request-ID`` header) and, once known, the table's code:

    {"time": "2026-12-01T03:10:00.123Z", "level": "info", "logger": "teenpatti.web",
     "message": "table C9NSNQ opened", "request_id": "5f0c2a9e41d7b3aa", "table": "C9NSNQ"}

>>> import logging
>>> record = logging.LogRecord("teenpatti.web", logging.INFO, "", 0, "opened %s", ("C9",), None)
>>> with context(request_id="abc", table="C9"):
...     ContextFilter().filter(record)
...     line = JsonFormatter().format(record)
True
>>> import json; {k: json.loads(line)[k] for k in ("message", "request_id", "table")}
{'message': 'opened C9', 'request_id': 'abc', 'table': 'C9'}
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import secrets
import time
from collections.abc import Iterator

__all__ = ["ContextFilter", "JsonFormatter", "configure", "context", "new_request_id", "set_table"]

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_table: contextvars.ContextVar[str | None] = contextvars.ContextVar("table", default=None)


def new_request_id() -> str:
    """16 hex digits, new for each request and socket."""
    return secrets.token_hex(8)


@contextlib.contextmanager
def context(request_id: str | None = None, table: str | None = None) -> Iterator[None]:
    """Tag the lines logged inside with ``request_id`` and ``table``."""
    tokens = (_request_id.set(request_id), _table.set(table))
    try:
        yield
    finally:
        _request_id.reset(tokens[0])
        _table.reset(tokens[1])


def set_table(code: str) -> None:
    """Tag the rest of this request's or socket's lines with the table's code."""
    _table.set(code)


class ContextFilter(logging.Filter):
    """Copies the request id and table code into each record (``None`` outside a request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = _request_id.get()
        record.table = _table.get()
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC), level, logger, message, request id, table, and the
    traceback if there is one."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": getattr(record, "request_id", None),
            "table": getattr(record, "table", None),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class _TextFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        table, request_id = getattr(record, "table", None), getattr(record, "request_id", None)
        tags = [f"table={table}"] if table else []
        if request_id:
            tags.append(f"request={request_id}")
        return f"{text} [{' '.join(tags)}]" if tags else text


def configure(fmt: str = "text", level: int = logging.INFO) -> None:
    """Send the ``teenpatti`` loggers' lines (``level`` and above) and uvicorn's warnings to
    standard error, as ``text`` or ``json``."""
    handler = logging.StreamHandler()
    handler.addFilter(ContextFilter())
    if fmt == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(_TextFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger("teenpatti").setLevel(level)
