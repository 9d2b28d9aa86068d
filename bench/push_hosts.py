"""How long an alert to one push host takes while another host holds 300 alerts.

Two push services on loopback (the tests' own, ``tests/support/push_service.py``, which checks
the signature and decrypts every request): one holds each request 30 s, the other answers at
once. The server's sender (:class:`teenpatti.push.sender.Pusher`, as ``teenpatti serve`` makes
it: 8 requests a host at once, 5 s each) is given 300 alerts for the slow host, then alerts for
the fast one, one at a time; each is timed from being queued to being received (decrypted) by
its push service. The baseline is the same alerts with nothing held, in the same run.

    .venv/bin/python bench/push_hosts.py [--pending 300] [--alerts 20]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.push_service import PushService, running  # noqa: E402

from teenpatti.metrics import Metrics  # noqa: E402
from teenpatti.push.keep import StoreKeep  # noqa: E402
from teenpatti.push.keys import VapidKeys  # noqa: E402
from teenpatti.push.sender import PushConfig, Pusher  # noqa: E402
from teenpatti.push.subscription import PushHosts, parse_subscription  # noqa: E402
from teenpatti.store.sqlite import SqliteStore  # noqa: E402


async def no_names(host: str, port: int) -> list[str]:
    raise OSError(f"the benchmark resolves no {host}")


async def timed_alerts(pusher: Pusher, fast: PushService, hosts: PushHosts, n: int) -> list[float]:
    """Send ``n`` alerts to ``fast``'s phone one after the other: each one's seconds."""
    phone = next(iter(fast.phones.values()))
    sub = parse_subscription(phone.subscription(), hosts)
    out = []
    for i in range(n):
        before = len(fast.received)
        started = time.perf_counter()
        pusher.queue(sub, f'{{"kind": "turn", "n": {i}}}')
        await asyncio.to_thread(fast.wait, lambda b=before: len(fast.received) > b, 30.0)
        out.append(time.perf_counter() - started)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pending", type=int, default=300)
    parser.add_argument("--alerts", type=int, default=20)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp())
    keys = VapidKeys.load_or_make(folder)
    with running() as slow, running() as fast:
        slow.server_key = fast.server_key = keys.public
        hosts = PushHosts.parse(f"{slow.origin},{fast.origin}")
        held = slow.phone("held")
        held.hold = threading.Event()  # never set during the run: each request waits 30 s
        fast.phone("fast")
        config = PushConfig(keys, hosts=hosts, resolve=no_names)

        async def run() -> tuple[list[float], list[float], int]:
            pusher = Pusher(config, StoreKeep(SqliteStore(":memory:")), Metrics(), lambda _: [])
            try:
                await timed_alerts(pusher, fast, hosts, 3)  # warm: threads, the first connection
                alone = await timed_alerts(pusher, fast, hosts, args.alerts)
                sub = parse_subscription(held.subscription(), hosts)
                for i in range(args.pending):
                    pusher.queue(sub, f'{{"kind": "turn", "n": {i}}}')
                await asyncio.to_thread(slow.wait, lambda: slow.held >= config.per_host)
                during = await timed_alerts(pusher, fast, hosts, args.alerts)
                waiting = sum(len(line.waiting) for line in pusher._lines.values())
                return alone, during, waiting
            finally:
                held.hold.set()
                await pusher.close(grace=0)

        alone, during, waiting = asyncio.run(run())
    print(f"alerts to the fast host, {args.alerts} one after the other (ms):")
    for label, times in (("alone", alone), (f"{args.pending} pending to a held host", during)):
        ms = sorted(t * 1000 for t in times)
        print(f"  {label:34} median {statistics.median(ms):7.1f}  max {ms[-1]:7.1f}")
    print(f"  ({waiting} alerts still waiting for the held host at the end)")
    ratio = statistics.median(during) / statistics.median(alone)
    print(f"  ratio of medians (during / alone): {ratio:.2f}")


if __name__ == "__main__":
    main()
