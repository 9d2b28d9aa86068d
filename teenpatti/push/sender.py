"""Claiming and sending alerts, never in a move's way, and no push service in another's way.

The table service tells the :class:`Pusher` of every version it applies (``changed``) and of
every append this process made (``stored``). Alerts are made from this process's own appends
only: each version has exactly one writer, so one process sees each change first-hand; the
claim in the keep (:meth:`~teenpatti.push.keep.PushKeep.claim`) is the second fence, for a turn
seen again (a pause, a computer playing a seat for a while, a restart).

Sending is a task of its own: the claim and the look-up of the subscriptions are awaited on
the loop (the event store's writer thread or pool). Each request then waits in the line of its push
host (the endpoint's host and port): a line sends at most :attr:`PushConfig.per_host` at once
and holds at most :attr:`PushConfig.host_backlog`, past which that host's alerts are dropped
and counted by host; a slow or dead push service fills its own line only, so every other
host's alerts go at once. The encryption and signature run on the pusher's threads, the
request itself (:mod:`~teenpatti.push.post`) on the loop. At most :attr:`PushConfig.backlog`
alerts wait for the keep at once. Every outcome is counted in
``teenpatti_push_total{outcome=...}``: ``sent``, ``gone`` (404/410: the subscription is
forgotten), ``failed`` (an error status, a redirect, a timeout, a refused connection),
``refused`` (the endpoint, or an address its name resolved to, is one this server never
calls), ``dropped`` (a line or the backlog was full; by host in
``teenpatti_push_dropped_total{host=...}``) and ``store`` (the keep could not be reached).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prometheus_client import Counter

from ..metrics import Metrics
from ..tables.live.table import LiveTable
from .address import AddressRefused, Resolve, system_resolve
from .alerts import Alert, Facts, alerts_between, facts_of
from .endpoint import Endpoint, PushError, PushHosts, parse_endpoint
from .keep import PushKeep
from .subscription import Subscription

if TYPE_CHECKING:  # the Web Push libraries load with the first pusher, not with the app
    from .keys import VapidKeys
    from .post import PushClient

__all__ = ["PushConfig", "Pusher"]

log = logging.getLogger("teenpatti.push")

FACTS_KEPT = 10_000
"""Tables whose last facts are remembered (the least recently changed are forgotten)."""

LINES_MAX = 1000
"""The most push hosts with requests waiting at once (past it, a new host's are dropped)."""

OUTCOMES = ("sent", "gone", "failed", "refused", "dropped", "store")


@dataclass(frozen=True)
class PushConfig:
    """How this server sends alerts."""

    keys: VapidKeys
    subject: str = "mailto:teenpatti@localhost"
    """The VAPID ``sub`` claim: a ``mailto:`` or ``https:`` address where push services can
    reach the operator."""
    hosts: PushHosts = field(default_factory=PushHosts.default)
    timeout: float = 5.0
    """Seconds for a push request, from connecting to the end of its answer."""
    ttl: int = 4 * 86400
    """Seconds a push service keeps an alert for a phone that is off."""
    threads: int = 4
    """Threads that encrypt and sign."""
    backlog: int = 500
    """Alerts waiting for the keep (their claim, their subscriptions) at once."""
    per_host: int = 8
    """Requests one push host is sent at once."""
    host_backlog: int = 1000
    """Requests waiting for one push host."""
    resolve: Resolve = system_resolve
    """How a push host's name is resolved (tests give their own: they never resolve a name)."""


@dataclass
class _Line:
    """The requests waiting for one push host, and how many are being sent."""

    entry: str
    waiting: deque[tuple[Endpoint, Subscription, str]] = field(default_factory=deque)
    sending: int = 0


class Pusher:
    """Makes a table's alerts from its changes and sends them to its seats' subscriptions."""

    def __init__(
        self,
        config: PushConfig,
        keep: PushKeep,
        metrics: Metrics,
        connected: Callable[[LiveTable], list[bool]],
    ) -> None:
        self.config = config
        self.keep = keep
        self.connected = connected
        self.outcomes = Counter(
            "teenpatti_push",
            "Turn alerts by outcome (sent, gone, failed, refused, dropped, store).",
            ["outcome"],
            registry=metrics.registry,
        )
        for outcome in OUTCOMES:
            self.outcomes.labels(outcome=outcome)
        self.dropped = Counter(
            "teenpatti_push_dropped",
            "Turn alerts dropped because their push host's line was full, by host.",
            ["host"],
            registry=metrics.registry,
        )
        self._facts: OrderedDict[str, Facts] = OrderedDict()
        self._pending: OrderedDict[str, list[Alert]] = OrderedDict()
        """The alerts of each table's last change, until :meth:`stored` says this process made
        it (a change caught up from another process's append is never stored here: its entry
        is replaced at the table's next change, or forgotten with the oldest)."""
        self._threads = ThreadPoolExecutor(config.threads, thread_name_prefix="push")
        from .post import PushClient  # the Web Push libraries load now, not at the first alert

        self._client: PushClient = PushClient(
            config.hosts, config.resolve, config.timeout, config.per_host
        )
        self._tasks: set[asyncio.Task[None]] = set()
        """Alerts waiting for the keep."""
        self._senders: set[asyncio.Task[None]] = set()
        """The lines' senders."""
        self._lines: dict[tuple[str, int], _Line] = {}

    # ------------------------------------------------------------------ from the service
    def changed(self, live: LiveTable) -> None:
        """A version was applied (by this process's append or from another's)."""
        try:
            self._changed(live)
        except Exception:  # an alert's fault must never cost the move that made it
            log.exception("push: table %s: alerts not worked out", live.table.code)
            self._pending.pop(live.table.table_id, None)

    def stored(self, live: LiveTable) -> None:
        """This process appended the version just applied: send what it changed."""
        try:
            self._stored(live)
        except Exception:
            log.exception("push: table %s: alerts not sent", live.table.code)

    def _changed(self, live: LiveTable) -> None:
        table = live.table
        if table.settings.play != "anytime":
            return  # a live table alerts nobody, and a table's play is set when it is opened
        now = facts_of(table)
        before = self._facts.get(table.table_id)
        self._facts[table.table_id] = now
        self._facts.move_to_end(table.table_id)
        if len(self._facts) > FACTS_KEPT:
            self._facts.popitem(last=False)
        # A table first seen here (loaded, or after a restart) has no "before": nothing new.
        alerts = [] if before is None else alerts_between(before, now)
        if not alerts:
            self._pending.pop(table.table_id, None)
            return
        self._pending[table.table_id] = alerts
        self._pending.move_to_end(table.table_id)
        if len(self._pending) > FACTS_KEPT:
            self._pending.popitem(last=False)

    def _stored(self, live: LiveTable) -> None:
        alerts = self._pending.pop(live.table.table_id, [])
        if not alerts:
            return
        online = self.connected(live)
        seat_of = {s.token_hash: i for i, s in enumerate(live.table.seats) if s.token_hash}
        for alert in alerts:
            # A person whose page is open here sees it there (and hears the page's own cue).
            holders = tuple(h for h in alert.holders if not _at(online, seat_of.get(h)))
            if not holders:
                continue
            if len(self._tasks) >= self.config.backlog:
                self.outcomes.labels(outcome="dropped").inc()
                continue
            payload = {"kind": alert.kind, "table": live.table.code}
            if alert.name is not None:
                payload["name"] = alert.name
            task = asyncio.get_running_loop().create_task(
                self._deliver(live.table.table_id, alert.key, holders, payload)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ sending
    async def _deliver(
        self, table_id: str, key: str, holders: tuple[str, ...], payload: dict[str, Any]
    ) -> None:
        try:
            if not await self.keep.claim(table_id, key):
                return
            found = await self.keep.subscriptions(table_id, list(holders))
        except Exception as error:
            self.outcomes.labels(outcome="store").inc()
            log.warning("push: the keep failed (%s): alert %s not sent", error, key)
            return
        data = json.dumps(payload, ensure_ascii=False)
        for subs in found.values():
            for sub in subs:
                self.queue(sub, data)

    def queue(self, sub: Subscription, data: str) -> None:
        """Put the request of one alert (its JSON ``data``) in its push host's line, or count
        it refused or dropped."""
        try:
            endpoint = parse_endpoint(sub.endpoint, self.config.hosts)
        except PushError:  # kept before the rules of today, or the operator narrowed the list
            self.outcomes.labels(outcome="refused").inc()
            return
        where = (endpoint.host, endpoint.port)
        line = self._lines.get(where)
        if line is None and len(self._lines) < LINES_MAX:
            line = self._lines[where] = _Line(endpoint.entry)
        if line is None or len(line.waiting) >= self.config.host_backlog:
            self.outcomes.labels(outcome="dropped").inc()
            self.dropped.labels(host=endpoint.entry).inc()
            return
        line.waiting.append((endpoint, sub, data))
        if line.sending < self.config.per_host:
            line.sending += 1
            task = asyncio.get_running_loop().create_task(self._drain(where, line))
            self._senders.add(task)
            task.add_done_callback(self._senders.discard)

    async def _drain(self, where: tuple[str, int], line: _Line) -> None:
        """One of a line's senders: sends its waiting requests one by one, then ends."""
        try:
            while line.waiting:
                endpoint, sub, data = line.waiting.popleft()
                outcome = await self._send(endpoint, sub, data)
                self.outcomes.labels(outcome=outcome).inc()
                if outcome == "gone":
                    try:
                        await self.keep.gone(sub.endpoint)
                    except Exception as error:
                        log.warning("push: could not forget a gone subscription (%s)", error)
        finally:
            line.sending -= 1
            if not line.sending and self._lines.get(where) is line:
                del self._lines[where]
                line.waiting.clear()  # cancelled at close: nothing is left to send them

    async def _send(self, endpoint: Endpoint, sub: Subscription, data: str) -> str:
        """One push request: ``sent``, ``gone``, ``failed`` or ``refused``."""
        from .post import encrypt

        config = self.config
        try:
            headers, body = await asyncio.get_running_loop().run_in_executor(
                self._threads, encrypt, config.keys, config.subject, config.ttl, endpoint, sub, data
            )
            status = await self._client.post(endpoint, headers, body)
        except Exception as error:  # refused, reset, timed out, a bad answer, a bad key
            cause: BaseException | None = error
            while cause is not None and not isinstance(cause, AddressRefused):
                cause = cause.__cause__  # the HTTP client wraps what its resolver raised
            if cause is None:
                return "failed"
            log.warning("push: not sent to %s: %s", endpoint.entry, cause)
            return "refused"
        if 200 <= status < 300:
            return "sent"
        return "gone" if status in (404, 410) else "failed"

    async def send_test(self, sub: Subscription, payload: dict[str, Any]) -> str:
        """Send one payload to one subscription now, past the lines (what each line's sender
        does for each request)."""
        try:
            endpoint = parse_endpoint(sub.endpoint, self.config.hosts)
        except PushError:
            return "refused"
        return await self._send(endpoint, sub, json.dumps(payload, ensure_ascii=False))

    async def idle(self) -> None:
        """Wait until every alert on its way is sent or given up (tests, shutdown)."""
        while self._tasks or self._senders:
            await asyncio.gather(*self._tasks, *self._senders, return_exceptions=True)

    async def close(self, grace: float = 3.0) -> None:
        """Give the alerts on their way ``grace`` seconds to go, then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), grace)
        running = [*self._tasks, *self._senders]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        self._threads.shutdown(wait=False, cancel_futures=True)
        await self._client.close()


def _at(online: list[bool], seat: int | None) -> bool:
    return seat is not None and seat < len(online) and online[seat]
