"""A table as the replay of its event log: settings, seats, the game in play.

This module is pure (no clock, no I/O, no asyncio, no randomness: the deck seeds a command needs are
given to it): :class:`Table` folds events and turns commands into events; what each viewer sees
is rendered by :mod:`teenpatti.tables.wire.render`, the settings are checked in
:mod:`teenpatti.tables.play.settings`; :mod:`teenpatti.tables.live.service` stores the events,
draws the seeds, runs the clocks and sends the views.

Events are the typed structs of :mod:`teenpatti.tables.play.events` (stored as JSON, ``type``
first):

- ``created``: ``settings`` and the host (``name``, ``token_hash``) in seat 0;
- ``joined``: a person takes ``seat`` with ``name`` and ``token_hash``;
- ``started``: the game starts; empty seats get computer players named in ``names``; ``seed``
  (hex) is the first hand's deck seed, whose SHA-256 every client gets before the deal;
- ``part``: a seated person's contribution to the next hand's deal (sent after the server's
  secret for that hand is committed, before its deal);
- ``hand``: the next hand is dealt (``deck`` ``teenpatti-deck/2``) from the secret committed
  before and the parts sent since (a seat without one: the server's part stands), and
  ``next_seed`` is committed for the hand after it; every secret stays secret until the game
  ends;
- ``act``: ``seat`` plays ``action`` (a hand-history action), ``by`` ``person``/``bot``/``timer``;
- ``control``: the computer takes over ``seat`` (``bot`` true) or its person returns (false);
- ``again``: a new game at the same table, same seats;
- ``seated``: a person arriving after the start takes a computer's seat from the next hand;
- ``left``: a person left, or the host removed them (the computer plays their seat on; a removed
  person cannot sit down again, by name or with their old token, for the rest of the game);
- ``readmitted``: the host lets a person they removed sit down again;
- ``rebuy``: a person out of chips buys back in (the rebuy house rule), from the next hand;
- ``voted``: a person asks for a new game (a majority of the people seated starts it);
- ``paused``: the host paused or resumed the game;
- ``configured``: the host changed whether latecomers may sit and whether free text is allowed;
- ``said``: a chat message (see :mod:`teenpatti.tables.play.chat`).
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, replace
from typing import Any, Literal

import msgspec

from ...engine import (
    Action,
    ActionKind,
    Game,
    IllegalAction,
    Rules,
)
from ...engine.deck import DECK_V2, Shuffle, commitment
from ...engine.history import EVERYONE, export
from . import chat, names
from .chat import ChatLine
from .commands import Chat, Configure, Move
from .commands import Part as PartCommand
from .errors import TableError, Unavailable
from .events import (
    Act,
    Again,
    Configured,
    Control,
    Created,
    Event,
    Hand,
    Joined,
    Left,
    Part,
    Paused,
    Played,
    Readmitted,
    Rebought,
    Said,
    Seated,
    Started,
    Voted,
)
from .names import NAME_MAX, name_key
from .settings import BOT_LEVELS, HANDS_MAX, PLAY_MODES, Settings

__all__ = [
    "BOT_LEVELS",
    "HANDS_MAX",
    "NAME_MAX",
    "PLAY_MODES",
    "Seat",
    "Settings",
    "Table",
    "TableError",
    "Unavailable",
    "clean_name",
    "name_key",
    "token_hash",
]

BOT_NAMES = ("Asha", "Bikash", "Chandra", "Deepa", "Ekraj", "Firoza", "Gita", "Hari", "Indra")
"""Names the computer players take."""

REMOVED_KEPT = 64
"""How many removed persons' token hashes a table remembers (to tell them why they cannot return
with that token)."""

QUIET = (Voted, Configured, Said, Part, Readmitted, Rebought)
"""Events that change nothing in the hand in play: they leave the turn's clock as it was (a rebuy
plays from the next hand)."""

IDENTIFIED = (Started, Again, Act, Part, Said, Rebought)
"""Events of commands that may carry the client's id (a retried command applies once)."""

CONFIGURABLE = ("late", "chat", "voice")
"""The settings the host may change during the game (``configure``)."""

COMMAND_IDS_KEPT = 256
"""How many of its latest command ids a table remembers (a retry comes within seconds)."""


GAMES_KEPT = 20
"""How many of its earlier games a table keeps in memory (their hands stay reachable)."""


@dataclass(frozen=True, slots=True)
class PastGame:
    """A game's engine state and what the table noted of its hands, by hand number: the moves
    the turn timer made, the seats the computer held as its own, whose token held each seat."""

    game: Game
    timed: dict[int, set[int]]
    computers: dict[int, frozenset[int]]
    holders: dict[int, tuple[str | None, ...]]


def token_hash(token: str) -> str:
    """What the log keeps of a seat token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A player's name, normalised; refused (``name/...``) if it cannot be one: see
    :mod:`teenpatti.tables.play.names`. Names are shown as text by every client, so HTML in a name
    is harmless; it is kept as typed."""
    return names.clean_name(name, TableError)


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: who sits there, the hash of their token (``None`` for a computer player's seat),
    whether the computer is playing it now, whether its person is the host, and whether its
    person arrived late and takes it at the next hand (the computer plays it until then)."""

    name: str
    token_hash: str | None
    bot: bool
    host: bool = False
    late: bool = False


class Table:
    """A table rebuilt from its events (:meth:`apply`), and the checks for new commands."""

    def __init__(self, table_id: str, code: str) -> None:
        self.table_id = table_id
        self.code = code
        self.version = 0
        self.settings = Settings()
        self.rules = Rules()
        self.seats: list[Seat] = []
        self.game: Game | None = None
        self.games_played = 0
        self.next_seed: str | None = None
        self.parts: dict[int, str] = {}
        """The contributions sent for the next hand, by seat."""
        self.timeouts: set[int] = set()
        """The moves of the hand in play (by index) that the turn timer made for its player."""
        self.timed: dict[int, set[int]] = {}
        """The same for every hand of the game, by hand number (past hands show a timeout)."""
        self.computers: dict[int, frozenset[int]] = {}
        """The seats the computer held as its own (no person sat there) when each hand of the
        game was dealt, by hand number: past hands name them as computer players, though a
        person may hold the seat now (a friend who came late) or the computer a person's seat
        (a friend who left)."""
        self.holders: dict[int, tuple[str | None, ...]] = {}
        """Whose token held each seat when each hand of the game was dealt, by hand number: a
        person is given the cards of the hands dealt to them, not of those the computer played in
        their seat before they sat down."""
        self.scored: list[tuple[int, int]] = []
        """Each seat's games won and chips won or lost (less rebuys) over the table's earlier
        games (the game in play or just ended is added by :meth:`score`)."""
        self.earlier: dict[int, PastGame] = {}
        """The table's earlier games, by number (the latest :data:`GAMES_KEPT`): their hands stay
        reachable from the table once a new game starts."""
        self.command_ids: dict[str, int] = {}
        """The ids clients gave their latest commands, with the version each made (a retried
        command is recognised here and not applied twice)."""
        self.paused = False
        self.votes: set[int] = set()
        """The seats whose persons asked for a new game since the last one started."""
        self.removed: dict[str, bool] = {}
        """Token hashes of persons who left (``False``) or were removed (``True``), latest kept."""
        self.barred: dict[str, tuple[str, str]] = {}
        """The persons the host removed during this game and has not let back, by the key of
        their name: their name and their token's hash. They cannot sit down again until the
        next game (by that name, or from the phone that still holds the old token)."""
        self.chat: deque[ChatLine] = deque(maxlen=chat.CHAT_KEPT)
        self.said = 0
        """How many chat messages the table has had (each message's number)."""
        self.game_version = 0
        """The version of the last event that changed the game (not a vote, setting or chat):
        the turn's clock counts from it."""

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> Literal["waiting", "playing", "finished"]:
        """``waiting`` (for the host to start), ``playing``, or ``finished`` (standings shown)."""
        if self.game is None:
            return "waiting"
        return "finished" if self.game.finished else "playing"

    @property
    def hand_in_play(self) -> bool:
        """Whether a hand is being played now."""
        return self.game is not None and self.game.hand is not None and not self.game.hand.finished

    def held_at_deal(self, seat: int) -> bool:
        """Whether ``seat`` is held by whoever held it when the hand in view was dealt (the
        same token, or the computer then and now): only they may see that hand's cards, even
        once it is over. ``True`` with no hand dealt in this game."""
        if self.game is None or self.game.hand is None:
            return True
        held = self.holders.get(self.game.hand_number)
        if held is None or seat >= len(held):
            return True
        return held[seat] == self.seats[seat].token_hash

    def seat_of(self, token: str) -> int | None:
        """The seat this token holds, or ``None``."""
        digest = token_hash(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash == digest:
                return i
        return None

    def held_by(self, digest: str) -> int:
        """The seat the person whose token hashes to ``digest`` holds now, or why they hold
        none: ``seat/removed`` (the host removed them; let back or not, that token holds
        nothing: a person let back sits down anew), ``seat/left`` or ``token/invalid``.

        The one check of a seat token: every route that takes one asks it (through
        :meth:`~teenpatti.tables.live.service.TableService.seat_for`), and so does each message of
        a socket, when it is applied.
        """
        for i, seat in enumerate(self.seats):
            if seat.token_hash == digest:
                return i
        removed = self.removed.get(digest)
        if removed:
            raise TableError("seat/removed", "the host has removed you from this table")
        if removed is not None:
            raise TableError("seat/left", "you have left this table")
        raise TableError("token/invalid", "that seat token is not valid at this table")

    # ------------------------------------------------------------------ events
    def apply(self, event: Event) -> None:
        """Apply one event from the log (trusted: it was checked before it was stored)."""
        match event:
            case Created(settings=settings, host=host, rules_edition=edition):
                self.settings = settings
                self.rules = Rules.from_options(self.settings.rules).of_edition(edition)
                self.seats = [Seat(host.name, host.token_hash, False, True)]
            case Joined():
                assert event.seat == len(self.seats)
                first = not any(s.host for s in self.seats)  # a table whose people all left
                self.seats.append(Seat(event.name, event.token_hash, False, first))
            case Seated():
                self._seat_late(event)
            case Left():
                self._leave(event.seat, event.removed)
            case Readmitted():
                self.barred.pop(name_key(event.name), None)
            case Rebought():
                assert self.game is not None
                self.game.rebuy(event.seat)
            case Voted():
                self.votes.add(event.seat)
            case Paused(paused=paused):
                self.paused = paused
            case Configured():
                changes = {k: v for k in CONFIGURABLE if (v := getattr(event, k)) is not None}
                self.settings = msgspec.structs.replace(self.settings, **changes)
            case Said():
                self.said += 1
                self.chat.append(
                    ChatLine(n=self.said, seat=event.seat, kind=event.kind, text=event.text)
                )
            case Started():
                for name in event.names[len(self.seats) :]:
                    self.seats.append(Seat(name, None, True))
                self._new_game(event.dealer, event.seed)
            case Again():
                self.barred.clear()  # a removal holds for the rest of the game
                self._new_game(event.dealer, event.seed)
            case Hand():
                assert self.game is not None and self.next_seed is not None
                self._take_late_seats()
                secret = bytes.fromhex(self.next_seed)
                if event.deck == DECK_V2:
                    parts = self.parts
                    shuffle = Shuffle(
                        secret,
                        tuple(
                            bytes.fromhex(parts[s]) if s in parts else None
                            for s in range(len(self.seats))
                        ),
                    )
                else:
                    shuffle = Shuffle(secret, version=event.deck)
                self.game.start_hand(shuffle)
                self.timeouts = self.timed[self.game.hand_number] = set()
                self.computers[self.game.hand_number] = frozenset(
                    i for i, s in enumerate(self.seats) if s.token_hash is None
                )
                self.holders[self.game.hand_number] = tuple(s.token_hash for s in self.seats)
                self.next_seed = event.next_seed
                self.parts = {}
            case Part():
                self.parts[event.seat] = event.part
            case Act():
                assert self.game is not None
                self.game.apply(event.action.action())
                if event.by == "timer" and self.game.hand is not None:
                    self.timeouts.add(len(self.game.hand.log) - 1)
            case Control():
                seat = self.seats[event.seat]
                self.seats[event.seat] = replace(seat, bot=event.bot)
            case _:  # pragma: no cover - the union is closed
                raise ValueError(f"unknown event {event!r}")
        self.version += 1
        if not isinstance(event, QUIET):
            self.game_version = self.version
        if isinstance(event, IDENTIFIED) and event.id is not None:
            self.command_ids[event.id] = self.version
            if len(self.command_ids) > COMMAND_IDS_KEPT:
                del self.command_ids[next(iter(self.command_ids))]

    def score(self) -> list[tuple[int, int]]:
        """Each seat's games won and chips won or lost (less rebuys) at this table, the game
        just ended included; empty until a game has ended.

        Net chips are what a seat holds at a game's end, less its starting chips and the chips
        its rebuys brought; a game's winners are its first place (equal chips share it)."""
        out = list(self.scored)
        game = self.game
        if game is not None and game.finished:
            out = self._scored(game, out)
        return out

    def _scored(self, game: Game, before: list[tuple[int, int]]) -> list[tuple[int, int]]:
        out = before + [(0, 0)] * (len(game.chips) - len(before))
        bought = self.rules.rebuy_chips or 0
        for row in game.standings():
            won, chips = out[row.seat]
            net = game.chips[row.seat] - bought * game.rebuys[row.seat] - self.rules.starting_chips
            out[row.seat] = (won + (row.place == 1), chips + net)
        return out

    def _new_game(self, dealer: int, seed: str) -> None:
        if self.game is not None and self.game.finished:
            self.scored = self._scored(self.game, self.scored)
        if self.game is not None:
            self.earlier[self.games_played] = PastGame(
                self.game, self.timed, self.computers, self.holders
            )
            if len(self.earlier) > GAMES_KEPT:
                del self.earlier[next(iter(self.earlier))]
        self._take_late_seats()
        self.votes.clear()
        self.paused = False
        # Hands take their seeds from the log, so the game's own seed is never used.
        self.game = Game(self.rules, [s.name for s in self.seats], bytes(32), dealer=dealer)
        self.games_played += 1
        self.next_seed = seed
        self.timeouts = set()
        self.timed = {}
        self.computers = {}
        self.holders = {}
        self.parts = {}

    def _seat_late(self, event: Seated) -> None:
        host = not any(s.host for s in self.seats)
        seat = Seat(event.name, event.token_hash, True, host, late=True)
        self.seats[event.seat] = seat
        if not self.hand_in_play:  # between hands or games: the seat is theirs at once
            self._take_late_seats()

    def _take_late_seats(self) -> None:
        for i, seat in enumerate(self.seats):
            if seat.late:
                self.seats[i] = replace(seat, bot=False, late=False)
                if self.game is not None:
                    self.game.names[i] = seat.name

    def _leave(self, index: int, removed: bool) -> None:
        seat = self.seats[index]
        assert seat.token_hash is not None
        self.removed[seat.token_hash] = removed
        if len(self.removed) > REMOVED_KEPT:
            del self.removed[next(iter(self.removed))]
        if removed:
            self.barred[name_key(seat.name)] = (seat.name, seat.token_hash)
            if len(self.barred) > REMOVED_KEPT:
                del self.barred[next(iter(self.barred))]
        self.votes.discard(index)
        if self.game is None:  # before the start the seat is freed, the others move up
            del self.seats[index]
        else:
            self.seats[index] = Seat(seat.name, None, True)
        if seat.host:
            self._pass_host(index)

    def _pass_host(self, after: int) -> None:
        n = len(self.seats)
        for k in range(n):
            i = (after + k) % n
            if self.seats[i].token_hash is not None:
                self.seats[i] = replace(self.seats[i], host=True)
                return

    def people(self) -> list[int]:
        """The seats a person holds (arrived late or not)."""
        return [i for i, s in enumerate(self.seats) if s.token_hash is not None]

    def _host_only(self, seat: int | None, what: str) -> None:
        if seat is None or not self.seats[seat].host:
            raise TableError("table/not_host", f"only the host can {what}")

    # ------------------------------------------------------------------ commands -> events
    def join_event(self, name: Any, token: str, was: str | None = None) -> Joined | Seated:
        """The event that seats a new person, or :class:`TableError`. Once the game has started,
        a person takes a computer's seat from the next hand, if the host lets latecomers sit.
        ``was`` is the seat token the phone held here before, if any: a person the host removed
        is refused (``seat/removed``), by that token or by their name, until let back."""
        name = clean_name(name)
        tokenlike = isinstance(was, str) and was.isascii() and len(was) <= 100
        old = token_hash(was) if tokenlike else None  # type: ignore[arg-type]
        if name_key(name) in self.barred or any(h == old for _, h in self.barred.values()):
            raise TableError(
                "seat/removed", "the host has removed you from this table: ask them to let you back"
            )
        if self.game is not None:
            return self._late_event(name, token)
        if len(self.seats) >= self.settings.seats:
            raise TableError("table/full", "every seat at this table is taken")
        if any(name_key(s.name) == name_key(name) for s in self.seats):
            raise TableError("name/taken", f"someone at this table is called {name} already")
        return Joined(seat=len(self.seats), name=name, token_hash=token_hash(token))

    def _late_event(self, name: str, token: str) -> Seated:
        if not self.settings.late:
            raise TableError(
                "table/late_closed", "the host is not letting anyone sit down during this game"
            )
        free = [i for i, s in enumerate(self.seats) if s.token_hash is None]
        if not free:
            raise TableError("table/full", "every seat at this table is taken")
        # a person who left (or was let back) and comes in again under their name takes their
        # own seat, as one does who gives a computer's name: that seat's name is theirs
        key = name_key(name)
        seat = next((i for i in free if name_key(self.seats[i].name) == key), free[0])
        others = (s for i, s in enumerate(self.seats) if i != seat)
        if any(name_key(s.name) == name_key(name) for s in others):
            raise TableError("name/taken", f"someone at this table is called {name} already")
        return Seated(seat=seat, name=name, token_hash=token_hash(token))

    def leave_event(self, seat: int | None) -> Left:
        """The event for a person leaving the table (the computer plays their seat on)."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table can leave it")
        return Left(seat=seat)

    def remove_event(self, seat: int | None, target: int) -> Left:
        """The event for the host removing the person at ``target``."""
        self._host_only(seat, "remove a player")
        if isinstance(target, bool) or not isinstance(target, int):
            raise TableError("seat/invalid", "say which seat, by its number")
        if not 0 <= target < len(self.seats) or self.seats[target].token_hash is None:
            raise TableError("seat/not_person", "there is no person in that seat to remove")
        if target == seat:
            raise TableError("seat/self", "to go, leave the table instead")
        return Left(seat=target, removed=True)

    def readmit_event(self, seat: int | None, name: str) -> Readmitted:
        """The event for the host letting a person they removed sit down again (by ``name``)."""
        self._host_only(seat, "let a removed player back")
        if not isinstance(name, str) or name_key(name) not in self.barred:
            raise TableError("seat/not_removed", "nobody of that name was removed from this game")
        return Readmitted(name=self.barred[name_key(name)][0])

    def rebuy_event(self, seat: int | None, cid: str | None = None) -> Rebought:
        """The event for ``seat``, out of chips, buying back in (the rules' ``rebuy_chips``):
        refused with the engine's ``rebuy/...`` codes (:meth:`Game.check_rebuy`)."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table buys back in")
        if self.game is None:
            raise TableError("table/not_playing", "the game has not started")
        self.game.check_rebuy(seat)
        return Rebought(seat=seat, id=cid)

    def pause_event(self, seat: int | None, paused: bool) -> Paused:
        """The event that pauses (or resumes) the game: the host only, while it is played."""
        self._host_only(seat, "pause or resume the game")
        if self.status != "playing":
            raise TableError("table/not_playing", "there is no game in play to pause or resume")
        if paused == self.paused:
            code = "table/paused" if paused else "table/not_paused"
            raise TableError(code, "the game is paused already" if paused else "the game is on")
        return Paused(paused=paused)

    def configure_event(self, seat: int | None, asked: Configure) -> Configured:
        """The event for the host changing ``late``, ``chat`` and/or ``voice`` (each true or
        false)."""
        self._host_only(seat, "change the table's settings")
        changes = {k: v for k in CONFIGURABLE if (v := getattr(asked, k)) is not None}
        if not changes:
            raise TableError("settings/invalid", "say what to change: late, chat or voice")
        return Configured(**changes)

    def chat_event(self, seat: int | None, said: Chat, cid: str | None = None) -> Said:
        """A chat message from ``seat`` (spectators read the chat but do not write in it);
        ``cid`` the client's id for it."""
        if seat is None:
            raise TableError("table/not_seated", "only the players at the table can chat")
        kind, text = chat.message(said.fields(), free_text=self.settings.chat)
        return Said(seat=seat, kind=kind, text=text, id=cid)  # type: ignore[arg-type]

    def start_event(self, seat: int | None, seed: bytes, cid: str | None = None) -> Started:
        """The event that starts the game (the host only), filling empty seats with the computer;
        ``seed`` is the first hand's deck seed, ``cid`` the client's id for the command."""
        if seat is None or not self.seats[seat].host:
            raise TableError("table/not_host", "only the host can start the game")
        if self.game is not None:
            raise TableError("table/started", "the game has started already")
        taken = {name_key(s.name) for s in self.seats}
        names = [s.name for s in self.seats]
        for candidate in BOT_NAMES:
            if len(names) >= self.settings.seats:
                break
            if name_key(candidate) not in taken:
                names.append(candidate)
        return Started(names=names, dealer=0, seed=seed.hex(), id=cid)

    def again_event(
        self, seat: int | None, seed: bytes, cid: str | None = None
    ) -> list[Voted | Again]:
        """The events for a person asking for a new game once the last one is over: the host's
        ask starts it, anyone else's is a vote, and the vote that makes a majority of the people
        seated starts it. ``seed`` is the new game's first hand's deck seed."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table can play again")
        if self.game is None or not self.game.finished:
            raise TableError("table/in_play", "the game is not over yet")
        dealer = self.games_played % len(self.seats)
        again = Again(dealer=dealer, seed=seed.hex(), id=cid)
        if self.seats[seat].host:
            return [again]
        if seat in self.votes:
            raise TableError("again/voted", "you have asked already: the host or more votes start")
        votes = len(self.votes | {seat})
        if 2 * votes > len(self.people()):
            return [Voted(seat=seat), again]
        return [Voted(seat=seat)]

    def hand_event(self, next_seed: bytes) -> Hand:
        """The event that deals the next hand and commits ``next_seed``, the seed of the one
        after."""
        if self.game is None or self.game.finished or self.hand_in_play or self.paused:
            raise TableError("table/no_deal", "there is no hand to deal now")
        return Hand(next_seed=next_seed.hex(), deck=DECK_V2)

    def part_event(self, seat: int | None, sent: PartCommand, cid: str | None = None) -> Part:
        """The event for ``seat``'s contribution to the next hand's deal: ``sent`` holds
        ``part`` (64 hex digits) and ``for``, the ``next_commitment`` it answers. Refused with
        ``deal/late`` once that hand is dealt (or for any other hand), ``deal/part`` if it is not
        64 hex digits, ``deal/sent`` if the seat has sent one already."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table adds to the deal")
        if (
            self.game is None
            or self.game.finished
            or self.hand_in_play
            or self.next_seed is None
            or sent.answers != commitment(bytes.fromhex(self.next_seed))
        ):
            raise TableError("deal/late", "that hand is dealt already: your part came too late")
        if seat in self.parts:
            raise TableError("deal/sent", "your part of this deal is in already")
        return Part(seat=seat, part=sent.part, id=cid)

    @property
    def revealed(self) -> bool:
        """Whether the hands' secrets and every card may be shown: once the game is over."""
        return self.status == "finished"

    def histories(self, seat: int | None, game: int | None = None) -> list[dict[str, Any]]:
        """The finished hands of game ``game`` at the table (the one in play or last played by
        default; ``hands/game`` if there is no such game) for ``seat`` (``None``: anyone): while
        the game is in play only the cards the rules showed that seat's person (none of the
        hands the computer played there before they sat down), each with its proof, and no
        secret; once it is over, every hand complete. Beyond the engine's export, a move the
        turn timer made has ``"timeout": true`` and a seat the computer held as its own when the
        hand was dealt ``"computer": true``."""
        number = self.games_played if game is None else game
        if number == self.games_played:
            if self.game is None:
                return []
            played = PastGame(self.game, self.timed, self.computers, self.holders)
            revealed = self.revealed
        elif number in self.earlier:
            played, revealed = self.earlier[number], True
        else:
            raise TableError("hands/game", "no game of that number was played at this table")
        mine = None if seat is None else self.seats[seat].token_hash
        out = []
        hands = zip(played.game.played, played.game.played_names, strict=True)
        for k, (hand, dealt) in enumerate(hands, 1):
            held = played.holders.get(k, ())
            viewer = None
            if seat is not None and mine is not None and seat < len(held) and held[seat] == mine:
                viewer = seat
            history = export(
                hand,
                dealt,
                viewer=EVERYONE if revealed else viewer,
                reveal=revealed,
                number=k,
            )
            timed = played.timed.get(k)
            if timed:  # a move the turn timer made reads as a timeout
                history["actions"] = [
                    {**a, "timeout": True} if i in timed else a
                    for i, a in enumerate(history["actions"])
                ]
            for i in played.computers.get(k, ()):  # the computer's own seats then
                history["seats"][i]["computer"] = True
            out.append(history)
        return out

    def act_event(
        self, seat: int | None, asked: Move, by: str = "person", cid: str | None = None
    ) -> Act:
        """The event for a seat's move (``asked``), checked by the engine
        (:class:`IllegalAction` if not legal now)."""
        if seat is None:
            raise TableError("table/not_seated", "spectators cannot act")
        if not self.hand_in_play:
            raise IllegalAction("hand/over", "no hand is in play")
        if self.paused:
            raise TableError("table/paused", "the host has paused the game")
        if by == "person" and self.seats[seat].late:
            raise TableError(
                "seat/late", "you take this seat when the next hand is dealt: watch this one"
            )
        action = Action(seat, ActionKind(asked.do), asked.amount, asked.target)
        assert self.game is not None and self.game.hand is not None
        self.game.hand.verify(action)
        return Act(seat=seat, action=Played.of(action), by=by, id=cid)  # type: ignore[arg-type]
