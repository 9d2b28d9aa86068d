"""What every event store does with the turn alerts' records (:mod:`teenpatti.store`'s
``push_...`` methods), checked the same way on SQLite and on PostgreSQL."""

from __future__ import annotations

import time

from teenpatti.store.base import EventStore

FIRST = {"type": "created", "settings": {"seats": 4}, "host": {"name": "Asha"}}


async def check_push_records(store: EventStore) -> None:
    """Subscriptions per holder (refreshed, the latest kept, forgotten), claims once, and a
    purged table's records gone with it."""
    await store.create_table("t1", "K7WQ3M", FIRST)
    await store.create_table("t2", "K7WQ3N", FIRST)
    for n in range(7):  # the holder's seven devices: the five latest are kept
        await store.push_subscribe("t1", "h1", f"https://p/{n}", f"k{n}", f"a{n}", 5)
    await store.push_subscribe("t1", "h2", "https://p/0", "k", "a", 5)  # one phone, two seats
    await store.push_subscribe("t2", "h1", "https://p/9", "k9", "a9", 5)
    await store.push_subscribe("t1", "h1", "https://p/3", "new", "keys", 5)  # refreshed: latest
    found = await store.push_subscriptions("t1", ["h1", "nobody"])
    assert [row[1] for row in found] == [f"https://p/{n}" for n in (2, 4, 5, 6, 3)]
    assert found[-1] == ("h1", "https://p/3", "new", "keys")
    assert await store.push_subscriptions("t1", []) == []
    assert await store.push_unsubscribe("t1", "h1", "https://p/2") is True
    assert await store.push_unsubscribe("t1", "h1", "https://p/2") is False
    assert await store.push_unsubscribe("t1", "h2", "https://p/4") is False  # not theirs
    await store.push_forget("https://p/0")  # gone, for every seat it was kept for
    assert await store.push_subscriptions("t1", ["h2"]) == []
    assert [await store.push_claim("t1", "turn:1:1:0:1") for _ in range(2)] == [True, False]
    assert await store.push_claim("t1", "end:1") is True
    assert await store.push_claim("t2", "turn:1:1:0:1") is True  # another table's key
    assert await store.push_claims("t1") == ["turn:1:1:0:1", "end:1"]  # once each, in order
    assert await store.push_claims("t2") == ["turn:1:1:0:1"]
    assert await store.push_claims("nothing") == []
    assert sorted(await store.purge(time.time() + 60)) == ["K7WQ3M", "K7WQ3N"]
    assert await store.push_subscriptions("t1", ["h1"]) == []
    assert await store.push_subscriptions("t2", ["h1"]) == []
    assert await store.push_claims("t1") == []
    assert await store.push_claim("t1", "turn:1:1:0:1") is True  # forgotten with its table
