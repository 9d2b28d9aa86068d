"""A slow push host delays no other host's alerts: with 300 alerts held by one push service,
an alert to another goes at once; what a full line drops is counted for its host."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from support.push_service import running

from teenpatti.metrics import Metrics
from teenpatti.push.keep import StoreKeep
from teenpatti.push.keys import VapidKeys
from teenpatti.push.sender import PushConfig, Pusher
from teenpatti.push.subscription import PushHosts, parse_subscription
from teenpatti.store.sqlite import SqliteStore


async def no_names(host: str, port: int) -> list[str]:
    raise OSError(f"the test resolves no {host}")


def test_a_held_host_delays_no_other(tmp_path: Path) -> None:
    keys = VapidKeys.load_or_make(tmp_path)
    with running() as slow_service, running() as fast_service:
        slow_service.server_key = fast_service.server_key = keys.public
        hosts = PushHosts.parse(f"{slow_service.origin},{fast_service.origin}")
        slow, fast = slow_service.phone("slow"), fast_service.phone("fast")
        slow.hold = threading.Event()
        config = PushConfig(
            keys, hosts=hosts, timeout=60.0, per_host=8, host_backlog=300, resolve=no_names
        )
        metrics = Metrics()

        async def body() -> None:
            pusher = Pusher(config, StoreKeep(SqliteStore(":memory:")), metrics, lambda _: [])
            held = parse_subscription(slow.subscription(), hosts)
            try:
                for n in range(301):  # the last finds the line full
                    pusher.queue(held, f'{{"kind": "turn", "n": {n}}}')
                await asyncio.to_thread(slow_service.wait, lambda: slow_service.held == 8)
                pusher.queue(parse_subscription(fast.subscription(), hosts), '{"kind": "turn"}')
                await asyncio.to_thread(fast_service.wait, lambda: len(fast_service.received) == 1)
                assert slow_service.held == 8 and slow_service.received == []  # all still held
            finally:
                slow.hold.set()
                await pusher.close(grace=0)

        asyncio.run(body())
        samples = {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for family in metrics.registry.collect()
            for s in family.samples
        }
        host = slow_service.origin.removeprefix("http://")
        assert samples[("teenpatti_push_dropped_total", (("host", host),))] == 1
        assert samples[("teenpatti_push_total", (("outcome", "dropped"),))] == 1
        assert fast_service.received == [("fast", {"kind": "turn"})]
