"""Turn alerts for play-anytime tables, by standard Web Push (RFC 8030, 8291, 8292).

- :mod:`~teenpatti.push.keys`: the server's VAPID key pair (made at first start in the data
  folder, or given by the operator);
- :mod:`~teenpatti.push.endpoint`: the one reading of an endpoint, at subscribe time and when
  sending (only what a browser's push service gives, on a host this server may call);
- :mod:`~teenpatti.push.subscription`: a phone's subscription, checked (size, keys, endpoint);
- :mod:`~teenpatti.push.address`: the addresses a push request may connect to, checked as the
  name is resolved;
- :mod:`~teenpatti.push.post`: one push request (encrypted, signed, sent to the checked address,
  no redirect followed, its answer bounded);
- :mod:`~teenpatti.push.keep`: subscriptions per seat holder, and the alerts already claimed,
  as the event store keeps them (SQLite or PostgreSQL);
- :mod:`~teenpatti.push.alerts`: which alerts a change of a table makes (pure);
- :mod:`~teenpatti.push.sender`: claiming them, and sending them in a line per push host.
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
