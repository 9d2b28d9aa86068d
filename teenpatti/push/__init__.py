"""Turn alerts for play-anytime tables, by standard Web Push (RFC 8030, 8291, 8292).

- :mod:`~teenpatti.push.keys`: the server's VAPID key pair (made at first start in the data
  folder, or given by the operator);
- :mod:`~teenpatti.push.subscription`: a phone's subscription, checked (size, keys, and an
  endpoint on a push service this server may call);
- :mod:`~teenpatti.push.keep`: subscriptions per seat holder, and the alerts already claimed,
  in SQLite or PostgreSQL;
- :mod:`~teenpatti.push.alerts`: which alerts a change of a table makes (pure);
- :mod:`~teenpatti.push.sender`: claiming and sending them, off the event loop.
"""

from __future__ import annotations

from .alerts import Alert, Facts, alerts_between, facts_of
from .sender import PushConfig, Pusher
from .subscription import PushError, Subscription, parse_subscription

__all__ = [
    "Alert",
    "Facts",
    "PushConfig",
    "PushError",
    "Pusher",
    "Subscription",
    "alerts_between",
    "facts_of",
    "parse_subscription",
]
