"""Which alerts a change of a table makes: pure, from the table before and after.

A table's :class:`Facts` are what alerts are about: whose turn it is (a turn is named by the
game, the hand, the moves made in it and the seat to act, so it names one turn only), the
game's status and number, and who holds the seats. :func:`alerts_between` compares the facts of
two states: a turn that starts (for the person whose turn it is), a game that starts or ends
(for every person at the table), someone who joins (for the others). Each alert has a key that
names it for good (``turn:1:3:4:2``): the sender claims the key in the store before it sends,
so one turn is never alerted twice, whichever process or restart sees it.

Only play-anytime tables alert: a live table has a turn timer and everyone is watching.

>>> from teenpatti.tables.play.table import Settings, Seat, Table
>>> t = Table("id", "ABCD"); t.settings = Settings(play="anytime")
>>> t.seats = [Seat("Asha", "h0", False, True)]
>>> before = facts_of(t)
>>> t.seats.append(Seat("Bikash", "h1", False))
>>> [(a.kind, a.key, a.holders, a.name) for a in alerts_between(before, facts_of(t))]
[('join', 'join:h1', ('h0',), 'Bikash')]
"""

from __future__ import annotations

from dataclasses import dataclass

from ..tables.play.table import Table

__all__ = ["KINDS", "Alert", "Facts", "alerts_between", "facts_of"]

KINDS = ("turn", "start", "end", "join")
"""What an alert says: your turn; the game started; the game is over; someone joined."""


@dataclass(frozen=True, slots=True)
class Facts:
    """What alerts are about in one state of a table."""

    anytime: bool
    status: str
    games: int
    turn: tuple[int, int, int, int, str] | None
    """``(game, hand, moves made, seat, token hash)`` when a person is to act, else ``None``."""
    people: tuple[tuple[str, str], ...]
    """``(token hash, name)`` of each seat a person holds, in seat order."""


@dataclass(frozen=True, slots=True)
class Alert:
    """One alert: its kind, the key that names it for good, and whom it goes to (the token
    hashes of seat holders: never anyone but them)."""

    kind: str
    key: str
    holders: tuple[str, ...]
    name: str | None = None
    """Who joined (``join``)."""


def facts_of(table: Table) -> Facts:
    """The facts of a table's state now."""
    turn = None
    game = table.game
    if game is not None and table.hand_in_play and not table.paused:
        hand = game.hand
        assert hand is not None
        actor = hand.actor
        if actor is not None and 0 <= actor < len(table.seats):
            seat = table.seats[actor]
            if seat.token_hash is not None and not seat.bot:
                turn = (table.games_played, game.hand_number, len(hand.log), actor, seat.token_hash)
    people = tuple((s.token_hash, s.name) for s in table.seats if s.token_hash is not None)
    return Facts(table.settings.play == "anytime", table.status, table.games_played, turn, people)


def alerts_between(before: Facts, after: Facts) -> list[Alert]:
    """The alerts the change from ``before`` to ``after`` makes."""
    if not after.anytime:
        return []
    everyone = tuple(h for h, _ in after.people)
    out: list[Alert] = []
    known = {h for h, _ in before.people}
    for holder, name in after.people:
        if holder not in known:
            others = tuple(h for h in everyone if h != holder)
            out.append(Alert("join", f"join:{holder}", others, name))
    started = after.status == "playing" and (
        before.status != "playing" or before.games != after.games
    )
    if started:
        out.append(Alert("start", f"start:{after.games}", everyone))
    if after.status == "finished" and (before.status != "finished" or before.games != after.games):
        out.append(Alert("end", f"end:{after.games}", everyone))
    if after.turn is not None and after.turn != before.turn:
        game, hand, moves, seat, holder = after.turn
        out.append(Alert("turn", f"turn:{game}:{hand}:{moves}:{seat}", (holder,)))
    return out
