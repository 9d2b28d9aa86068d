"""Claiming and sending alerts, off the event loop, never in a move's way.

The table service tells the :class:`Pusher` of every version it applies (``changed``) and of
every append this process made (``stored``). Alerts are made from this process's own appends
only: each version has exactly one writer, so one process sees each change first-hand; the
claim in the keep (:meth:`~teenpatti.push.keep.PushKeep.claim`) is the second fence, for a turn
seen again (a pause, a computer playing a seat for a while, a restart).

Sending is a task of its own: the claim and the look-up of the subscriptions are awaited on
the loop (the keep's own thread or pool), and the request (ECDH, AES-GCM, the ES256 signature,
the HTTP POST with its deadline) runs on the pusher's threads. At most :attr:`PushConfig.backlog`
alerts wait at once: past it they are dropped and counted, so a slow or dead push service
costs alerts, never a move. Every outcome is counted in ``teenpatti_push_total{outcome=...}``:
``sent``, ``gone`` (404/410: the subscription is forgotten), ``failed`` (an error status, a
timeout, a refused connection), ``dropped`` (the backlog was full) and ``store`` (the keep
could not be reached).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from prometheus_client import Counter

from ..metrics import Metrics
from ..tables.live import LiveTable
from .alerts import Alert, Facts, alerts_between, facts_of
from .keep import PushKeep
from .subscription import PushHosts, Subscription

if TYPE_CHECKING:  # the Web Push libraries load with the first pusher, not with the app
    from .keys import VapidKeys

__all__ = ["PushConfig", "Pusher"]

log = logging.getLogger("teenpatti.push")

FACTS_KEPT = 10_000
"""Tables whose last facts are remembered (the least recently changed are forgotten)."""


@dataclass(frozen=True)
class PushConfig:
    """How this server sends alerts."""

    keys: VapidKeys
    subject: str = "mailto:teenpatti@localhost"
    """The VAPID ``sub`` claim: a ``mailto:`` or ``https:`` address where push services can
    reach the operator."""
    hosts: PushHosts = field(default_factory=PushHosts.default)
    timeout: float = 5.0
    """Seconds for a push service to connect and to answer."""
    ttl: int = 4 * 86400
    """Seconds a push service keeps an alert for a phone that is off."""
    threads: int = 4
    backlog: int = 500


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
            "Turn alerts by outcome (sent, gone, failed, dropped, store).",
            ["outcome"],
            registry=metrics.registry,
        )
        for outcome in ("sent", "gone", "failed", "dropped", "store"):
            self.outcomes.labels(outcome=outcome)
        self._facts: OrderedDict[str, Facts] = OrderedDict()
        self._pending: OrderedDict[str, list[Alert]] = OrderedDict()
        """The alerts of each table's last change, until :meth:`stored` says this process made
        it (a change caught up from another process's append is never stored here: its entry
        is replaced at the table's next change, or forgotten with the oldest)."""
        self._threads = ThreadPoolExecutor(config.threads, thread_name_prefix="push")
        import pywebpush  # loaded now, at start-up, not by the first alert
        import requests

        self._webpush = pywebpush
        self._session = requests.Session()
        self._session.trust_env = False  # a push service is reached directly, never via a proxy
        self._tasks: set[asyncio.Task[None]] = set()

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
        loop = asyncio.get_running_loop()
        for subs in found.values():
            for sub in subs:
                outcome = await loop.run_in_executor(self._threads, self._send, sub, data)
                self.outcomes.labels(outcome=outcome).inc()
                if outcome == "gone":
                    try:
                        await self.keep.gone(sub.endpoint)
                    except Exception as error:
                        log.warning("push: could not forget a gone subscription (%s)", error)

    def _send(self, sub: Subscription, data: str) -> str:
        """One push request (on a pusher thread): ``sent``, ``gone`` or ``failed``."""
        webpush, refused = self._webpush.webpush, self._webpush.WebPushException
        if not self.config.hosts.allows(sub.endpoint):  # the operator narrowed the list
            return "failed"
        try:
            webpush(
                sub.info(),
                data,
                vapid_private_key=self.config.keys.vapid,
                vapid_claims={"sub": self.config.subject},
                timeout=self.config.timeout,
                ttl=self.config.ttl,
                requests_session=self._session,
            )
        except refused as error:
            status = error.response.status_code if error.response is not None else None
            return "gone" if status in (404, 410) else "failed"
        except Exception:  # refused, reset, timed out, a bad answer
            return "failed"
        return "sent"

    async def send_test(self, sub: Subscription, payload: dict[str, Any]) -> str:
        """Send one payload to one subscription now (what ``_deliver`` does for each)."""
        data = json.dumps(payload, ensure_ascii=False)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, self._send, sub, data)

    async def idle(self) -> None:
        """Wait until every alert on its way is sent or given up (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self, grace: float = 3.0) -> None:
        """Give the alerts on their way ``grace`` seconds to go, then stop."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.idle(), grace)
        for task in list(self._tasks):
            task.cancel()
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._session.close()
        await self.keep.close()


def _at(online: list[bool], seat: int | None) -> bool:
    return seat is not None and seat < len(online) and online[seat]
