"""What a process measures for its operator, in Prometheus' format (``GET /metrics``).

One :class:`Metrics` per app, each with its own registry (two apps in one process, as in tests,
count apart):

- ``teenpatti_tables_live`` and ``teenpatti_sockets``: tables in memory, sockets open now;
- ``teenpatti_actions_total``: commands appended (``rate(...[1m])`` is actions a second);
- ``teenpatti_append_seconds``: how long the event store takes to append a command's events;
- ``teenpatti_broadcast_seconds``: how long sending every socket its view of a change takes;
- ``teenpatti_messages_queued_total``: messages that waited in a socket's queue because its
  transport's buffer was over the high-water mark (the others went straight out);
- ``teenpatti_clock_lateness_seconds``: how late a table's clock (a deal, a computer's move, a
  turn timer) fires after its time, which grows when the process is overloaded;
- ``teenpatti_push_total{outcome=...}``: turn alerts by outcome (``sent``, ``gone``,
  ``failed``, ``dropped``, ``store``; see :mod:`teenpatti.push.sender`);
- ``teenpatti_errors_total{kind=...}``: errors by kind: the stable codes sent to clients
  (``rate/limited``, ``turn/not_yours``, ...) and the server's own (``store/append``, ...).

>>> m = Metrics()
>>> m.error("rate/limited"); m.actions.inc()
>>> b"teenpatti_errors_total{kind=\\"rate/limited\\"} 1.0" in m.render()
True
>>> for n in range(MAX_KINDS + 5): m.error(f"rules/made_up_{n}")
>>> b'kind="other"} 6.0' in m.render()
True
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

__all__ = ["BOT_FAILED", "BOT_SLOW", "CLOCK_REFUSED", "CONTENT_TYPE", "NOT_READY", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
CLOCK_REFUSED = "clock/refused"
"""The server's own error kind: a table's clock fired a move the table refused."""
BOT_FAILED = "computer/failed"
"""The server's own error kind: a computer player raised an error instead of deciding (it packs,
or declines a side show, as on a timeout)."""
BOT_SLOW = "computer/slow"
"""The server's own error kind: a computer player took longer than ``Timing.think_limit`` (it
packs, or declines a side show, as on a timeout)."""
NOT_READY = "ready/failed"
"""The server's own error kind: ``/readyz`` found the store or the bus down."""
MAX_KINDS = 200
"""The most error kinds counted apart (see :meth:`Metrics.error`)."""
_FAST = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_LATE = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class Metrics:
    """The process's counters, gauges and histograms in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.tables = Gauge("teenpatti_tables_live", "Tables in this process's memory.", registry=r)
        self.sockets = Gauge("teenpatti_sockets", "WebSockets open now.", registry=r)
        self.actions = Counter(
            "teenpatti_actions", "Commands appended to a table's log.", registry=r
        )
        self.append = Histogram(
            "teenpatti_append_seconds",
            "Time the event store takes to append a command's events.",
            buckets=_FAST,
            registry=r,
        )
        self.broadcast = Histogram(
            "teenpatti_broadcast_seconds",
            "Time to render and queue every socket's view of a change.",
            buckets=_FAST,
            registry=r,
        )
        self.queued = Counter(
            "teenpatti_messages_queued",
            "Messages that waited in a socket's queue (its client read slowly).",
            registry=r,
        )
        self.lateness = Histogram(
            "teenpatti_clock_lateness_seconds",
            "How late a table's clock fires after its time.",
            buckets=_LATE,
            registry=r,
        )
        self.thinking = Histogram(
            "teenpatti_computer_decision_seconds",
            "Time from asking a computer player for its move to its answer (on the computers'"
            " thread, its queue included).",
            buckets=_FAST,
            registry=r,
        )
        self.waiting = Gauge(
            "teenpatti_computer_decisions_waiting",
            "Computer players' decisions asked for and not answered yet (queued or being made).",
            registry=r,
        )
        self.errors = Counter(
            "teenpatti_errors", "Errors by kind (stable error codes).", ["kind"], registry=r
        )
        self._kinds: set[str] = set()

    def error(self, kind: str) -> None:
        r"""Count one error of ``kind`` (the server's own codes). A code may name a house rule a
        client sent, so past ``MAX_KINDS`` kinds the rest are counted as ``other``: what clients
        send never grows the metrics without bound. A kind is kept in ASCII (a rule's name
        may hold anything, a lone surrogate too, which the text format could not encode).

        >>> m = Metrics()
        >>> m.error("rules/\ud800")
        >>> b'kind="rules/\\\\ud800"} 1.0' in m.render()
        True
        """
        kind = kind.encode("ascii", "backslashreplace").decode("ascii")
        if kind not in self._kinds:
            if len(self._kinds) >= MAX_KINDS:
                kind = "other"
            self._kinds.add(kind)
        self.errors.labels(kind=kind).inc()

    def watch_tables(self, count: Callable[[], int]) -> None:
        """Read the live-table gauge from ``count`` at each scrape."""
        self.tables.set_function(count)

    def watch_thinking(self, count: Callable[[], int]) -> None:
        """Read the waiting-decisions gauge from ``count`` at each scrape."""
        self.waiting.set_function(count)

    def render(self) -> bytes:
        """The registry in the Prometheus text format."""
        return generate_latest(self.registry)
