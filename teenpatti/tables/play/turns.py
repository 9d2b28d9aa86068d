"""When a turn begins: the moment its clock counts from.

Every game event begins the turn afresh (a deal, a move, a side show asked or answered, a resume
after a pause) except a player looking at their own cards: a See leaves the same player to move,
and looking does not buy time.

>>> from teenpatti.tables.play.events import Act, Played
>>> looks_only([Act(seat=1, action=Played(seat=1, do="see"), by="person")])
True
>>> looks_only([Act(seat=1, action=Played(seat=1, do="chaal"), by="person")])
False
>>> looks_only([])
False
"""

from __future__ import annotations

from collections.abc import Sequence

from teenpatti.tables.play.events import Act, Event

__all__ = ["looks_only"]


def looks_only(events: Sequence[Event]) -> bool:
    """Whether ``events`` are all a player looking at their cards (so the turn goes on)."""
    return bool(events) and all(
        isinstance(event, Act) and event.action.do == "see" for event in events
    )
