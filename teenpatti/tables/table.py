"""A table as the replay of its event log: settings, seats, the game in play, and each seat's view.

This module is pure (no clock, no I/O, no asyncio, no randomness: the deck seeds a command needs are
given to it): :class:`Table` applies events and checks commands; :mod:`teenpatti.tables.service`
stores the events, draws the seeds, runs the clocks and sends the views.

Events are the typed structs of :mod:`teenpatti.tables.events` (stored as JSON, ``type`` first):

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
- ``voted``: a person asks for a new game (a majority of the people seated starts it);
- ``paused``: the host paused or resumed the game;
- ``configured``: the host changed whether latecomers may sit and whether free text is allowed;
- ``said``: a chat message (see :mod:`teenpatti.tables.chat`).
"""

from __future__ import annotations

import hashlib
from collections import deque
from dataclasses import dataclass, replace
from typing import Any

import msgspec

from ..engine import (
    Action,
    ActionKind,
    Game,
    IllegalAction,
    Outcome,
    Rules,
    cards_str,
    view,
)
from ..engine.actions import LegalAction
from ..engine.deck import DECK_V2, Shuffle, commitment
from ..engine.evaluate import Evaluator
from ..engine.hand import Hand as EngineHand
from ..engine.history import EVERYONE
from ..engine.pots import Pot, returned
from . import chat, names
from .commands import Chat, Configure, Move, read
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

QUIET = (Voted, Configured, Said, Part, Readmitted)
"""Events that change nothing in the game: they leave the turn's clock as it was."""

COMMAND_IDS_KEPT = 256
"""How many of its latest command ids a table remembers (a retry comes within seconds)."""


def token_hash(token: str) -> str:
    """What the log keeps of a seat token: its SHA-256 (the token itself is never stored)."""
    return hashlib.sha256(token.encode()).hexdigest()


def clean_name(name: Any) -> str:
    """A player's name, normalised; refused (``name/...``) if it cannot be one: see
    :mod:`teenpatti.tables.names`. Names are shown as text by every client, so HTML in a name
    is harmless; it is kept as typed."""
    return names.clean_name(name, TableError)


_LEGAL: dict[LegalAction, dict[str, Any]] = {}
"""Each move on offer as JSON, made once (the same move reads the same in every state)."""
LEGAL_KEPT = 4096


def _legal_json(option: LegalAction) -> dict[str, Any]:
    """A move on offer as JSON (shared: callers must not change it)."""
    out = _LEGAL.get(option)
    if out is None:
        if len(_LEGAL) >= LEGAL_KEPT:
            _LEGAL.clear()
        out = _LEGAL[option] = {
            "do": option.kind.value,
            "cost": option.cost,
            "max": option.max_cost,
            "label": option.label,
            "targets": list(option.targets),
        }
    return out


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
        self._public: tuple[int, dict[str, Any]] | None = None
        self._shown: tuple[object, dict[int, dict[str, Any]]] = (None, {})
        """The hand in play and the cards of its seats as JSON (:meth:`_cards`)."""
        self._moves: tuple[object, list[dict[str, Any]]] = (None, [])
        """The hand in play and its log's entries as JSON so far: a move, once played, reads the
        same in every later state, so each is rendered once (and shared by the states)."""
        self._rows: dict[int, tuple[object, object, object, dict[str, Any]]] = {}
        """Each seat's public row of the last state rendered during a hand, with the hand, the
        engine's view of the seat and the seat it was made from: a row whose three are the same
        objects again is reused, so consecutive states share it (and a patch skips it)."""
        self._own: dict[tuple[int, int], tuple[object, object, dict[str, Any]]] = {}
        """For a viewer and a seat whose cards only it may see: the public row and the cards
        the row last shown to it was made of, and that row (reused while both are the same)."""
        self._facts: tuple[object, bool, dict[str, Any]] = (None, False, {})
        """The hand in play, whether the game was over, and its deal facts as JSON."""
        self._settings: tuple[object, dict[str, Any]] = (None, {})
        """The settings and their JSON (remade when the settings change)."""
        self._committed: tuple[str | None, str] = (None, "")
        """The next hand's seed and its commitment."""
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
        self.chat: deque[dict[str, Any]] = deque(maxlen=chat.CHAT_KEPT)
        self.said = 0
        """How many chat messages the table has had (each message's number)."""
        self.game_version = 0
        """The version of the last event that changed the game (not a vote, setting or chat):
        the turn's clock counts from it."""

    # ------------------------------------------------------------------ state
    @property
    def status(self) -> str:
        """``waiting`` (for the host to start), ``playing``, or ``finished`` (standings shown)."""
        if self.game is None:
            return "waiting"
        return "finished" if self.game.finished else "playing"

    @property
    def hand_in_play(self) -> bool:
        """Whether a hand is being played now."""
        return self.game is not None and self.game.hand is not None and not self.game.hand.finished

    def seat_of(self, token: str) -> int | None:
        """The seat this token holds, or ``None``."""
        digest = token_hash(token)
        for i, seat in enumerate(self.seats):
            if seat.token_hash == digest:
                return i
        return None

    # ------------------------------------------------------------------ events
    def apply(self, event: Event) -> None:
        """Apply one event from the log (trusted: it was checked before it was stored)."""
        match event:
            case Created(settings=settings, host=host):
                self.settings = settings
                self.rules = Rules.from_options(self.settings.rules)
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
            case Voted():
                self.votes.add(event.seat)
            case Paused(paused=paused):
                self.paused = paused
            case Configured():
                changes = {k: v for k in ("late", "chat") if (v := getattr(event, k)) is not None}
                self.settings = msgspec.structs.replace(self.settings, **changes)
            case Said():
                self.said += 1
                self.chat.append(
                    {"n": self.said, "seat": event.seat, "kind": event.kind, "text": event.text}
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
        if isinstance(event, Started | Again | Act | Part | Said) and event.id is not None:
            self.command_ids[event.id] = self.version
            if len(self.command_ids) > COMMAND_IDS_KEPT:
                del self.command_ids[next(iter(self.command_ids))]

    def _new_game(self, dealer: int, seed: str) -> None:
        self._take_late_seats()
        self.votes.clear()
        self.paused = False
        # Hands take their seeds from the log, so the game's own seed is never used.
        self.game = Game(self.rules, [s.name for s in self.seats], bytes(32), dealer=dealer)
        self.games_played += 1
        self.next_seed = seed
        self.timeouts = set()
        self.timed = {}
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
        seat = free[0]
        others = (s for i, s in enumerate(self.seats) if i != seat)
        if any(name_key(s.name) == name_key(name) for s in others):
            raise TableError("name/taken", f"someone at this table is called {name} already")
        return Seated(seat=seat, name=name, token_hash=token_hash(token))

    def leave_event(self, seat: int | None) -> Left:
        """The event for a person leaving the table (the computer plays their seat on)."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table can leave it")
        return Left(seat=seat)

    def remove_event(self, seat: int | None, target: Any) -> Left:
        """The event for the host removing the person at ``target``."""
        self._host_only(seat, "remove a player")
        if isinstance(target, bool) or not isinstance(target, int):
            raise TableError("seat/invalid", "say which seat, by its number")
        if not 0 <= target < len(self.seats) or self.seats[target].token_hash is None:
            raise TableError("seat/not_person", "there is no person in that seat to remove")
        if target == seat:
            raise TableError("seat/self", "to go, leave the table instead")
        return Left(seat=target, removed=True)

    def readmit_event(self, seat: int | None, name: Any) -> Readmitted:
        """The event for the host letting a person they removed sit down again (by ``name``)."""
        self._host_only(seat, "let a removed player back")
        if not isinstance(name, str) or name_key(name) not in self.barred:
            raise TableError("seat/not_removed", "nobody of that name was removed from this game")
        return Readmitted(name=self.barred[name_key(name)][0])

    def pause_event(self, seat: int | None, paused: bool) -> Paused:
        """The event that pauses (or resumes) the game: the host only, while it is played."""
        self._host_only(seat, "pause or resume the game")
        if self.status != "playing":
            raise TableError("table/not_playing", "there is no game in play to pause or resume")
        if paused == self.paused:
            code = "table/paused" if paused else "table/not_paused"
            raise TableError(code, "the game is paused already" if paused else "the game is on")
        return Paused(paused=paused)

    def configure_event(self, seat: int | None, data: Configure | Any) -> Configured:
        """The event for the host changing ``late`` and/or ``chat`` (both true or false)."""
        self._host_only(seat, "change the table's settings")
        asked = data if isinstance(data, Configure) else read(Configure, data)
        changes = {k: v for k in ("late", "chat") if (v := getattr(asked, k)) is not None}
        if not changes:
            raise TableError("settings/invalid", "say what to change: late, chat or both")
        return Configured(**changes)

    def chat_event(self, seat: int | None, data: Chat | Any, cid: str | None = None) -> Said:
        """A chat message from ``seat`` (spectators read the chat but do not write in it);
        ``cid`` the client's id for it."""
        if seat is None:
            raise TableError("table/not_seated", "only the players at the table can chat")
        said = data if isinstance(data, Chat) else read(Chat, data)
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

    def part_event(
        self, seat: int | None, message: PartCommand | Any, cid: str | None = None
    ) -> Part:
        """The event for ``seat``'s contribution to the next hand's deal: ``message`` holds
        ``part`` (64 hex digits) and ``for``, the ``next_commitment`` it answers. Refused with
        ``deal/late`` once that hand is dealt (or for any other hand), ``deal/part`` if it is not
        64 hex digits, ``deal/sent`` if the seat has sent one already."""
        if seat is None:
            raise TableError("table/not_seated", "only a player at the table adds to the deal")
        sent = message if isinstance(message, PartCommand) else read(PartCommand, message)
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

    def histories(self, seat: int | None) -> list[dict[str, Any]]:
        """The finished hands of the current game for ``seat`` (``None``: anyone): while the game
        is in play only the cards the rules showed that seat, each with its proof, and no
        secret; once it is over, every hand complete."""
        game = self.game
        if game is None:
            return []
        out = (
            game.histories_for(EVERYONE, reveal=True)
            if self.revealed
            else game.histories_for(seat, reveal=False)
        )
        for history in out:  # a move the turn timer made reads as a timeout
            timed = self.timed.get(history["hand"])
            if timed:
                history["actions"] = [
                    {**a, "timeout": True} if i in timed else a
                    for i, a in enumerate(history["actions"])
                ]
        return out

    def act_event(
        self, seat: int | None, move: Move | Any, by: str = "person", cid: str | None = None
    ) -> Act:
        """The event for a seat's move (a :class:`Move`, or its JSON), checked by the engine
        (:class:`IllegalAction` if not legal now)."""
        if seat is None:
            raise TableError("table/not_seated", "spectators cannot act")
        if not self.hand_in_play:
            raise IllegalAction("hand/over", "no hand is in play")
        if self.paused:
            raise TableError("table/paused", "the host has paused the game")
        asked = move if isinstance(move, Move) else read(Move, move, "action")
        action = Action(seat, ActionKind(asked.do), asked.amount, asked.target)
        assert self.game is not None and self.game.hand is not None
        self.game.hand.verify(action)
        return Act(seat=seat, action=Played.of(action), by=by, id=cid)  # type: ignore[arg-type]

    # ------------------------------------------------------------------ what a client sees
    def state(self, seat: int | None) -> dict[str, Any]:
        """Everything ``seat`` (``None``: a spectator) may know of the table, as JSON: a
        serialisation of the engine's :func:`~teenpatti.engine.view.view` of the hand for that
        seat (the only gate for cards and legal moves), with the table around it."""
        return self.state_for(seat, self.public_state())

    def public_state(self) -> dict[str, Any]:
        """What everyone may know: the spectator's state (``view(hand, None)`` serialised),
        built once per version; :meth:`state_for` adds what a seat's own view holds beyond it.

        The result is shared: callers must not change it (copy what they change).
        """
        cached = self._public
        if cached is not None and cached[0] == self.version:
            return cached[1]
        out: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "code": self.code,
            "status": self.status,
            "settings": self._settings_json(),
            "you": None,
            "seats": [
                {
                    "seat": i,
                    "name": s.name,
                    "bot": s.bot,
                    "host": s.host,
                    "person": s.token_hash is not None,
                    **({"late": True} if s.late else {}),  # only while it is so: replies stay small
                }
                for i, s in enumerate(self.seats)
            ],
            "hand": None,
            "legal": [],
            "paused": self.paused,
            "votes": sorted(self.votes),
            "chat": list(self.chat),
        }
        if self.barred:  # only while someone is: replies stay small
            out["removed"] = [name for name, _ in self.barred.values()]
        if self.next_seed is not None and self.status == "playing":
            out["next_commitment"] = self._next_commitment(self.next_seed)
            out["next_parts"] = sorted(self.parts)
        game = self.game
        if game is not None and game.hand is not None:
            hand = game.hand
            seen = view(hand, None)
            rows = out["seats"]
            for i, (row, sv) in enumerate(zip(rows, seen.seats, strict=True)):
                kept = self._rows.get(i)
                if (
                    kept is not None
                    and kept[0] is hand
                    and kept[1] is sv
                    and kept[2] is self.seats[i]
                ):
                    rows[i] = kept[3]
                    continue
                row.update(
                    chips=sv.chips,
                    put_in=sv.put_in,
                    dealt=sv.dealt,
                    packed=sv.packed,
                    seen=sv.seen,
                    all_in=sv.all_in,
                )
                row.update(self._cards(sv.cards, seen.wild, hand, sv.seat))
                self._rows[i] = (hand, sv, self.seats[i], row)
            number = game.hand_number
            out["hand"] = {
                "number": number,
                "of": self.rules.hands,
                "dealer": seen.dealer,
                "to_act": seen.to_act,
                "actor": seen.actor,
                "stake": seen.stake,
                "boot": seen.boot,
                "pot": seen.pot,
                "side_show": list(seen.side_show) if seen.side_show else None,
                "wild": None if seen.wild is None else cards_str([seen.wild]),
                "finished": seen.finished,
                "ended_by": seen.ended_by,
                "pots": self._pots(seen.pots, [sv.put_in for sv in seen.seats]),
                "actions": self._logged(hand, seen.actions, seen.outcomes),
                **self._facts_of(hand),
            }
            if game.finished:
                out["standings"] = [
                    {"place": s.place, "seat": s.seat, "name": s.name, "chips": s.chips}
                    for s in game.standings()
                ]
        self._public = (self.version, out)
        return out

    def state_for(self, seat: int | None, public: dict[str, Any]) -> dict[str, Any]:
        """``seat``'s state: ``public`` (this version's :meth:`public_state`) with what
        ``view(hand, seat)`` holds beyond the spectator's view: the cards it may see, its moves.

        Everything else in a view is the same for every viewer, so it is rendered once.
        """
        if seat is None:
            return public
        out = dict(public)
        out["you"] = seat
        game = self.game
        if game is None or game.hand is None:
            return out
        mine = view(game.hand, seat)
        rows: list[dict[str, Any]] = list(public["seats"])
        out["seats"] = rows
        for row, sv in zip(rows, mine.seats, strict=True):
            if sv.cards is not None and row["cards"] is None:
                cards = self._cards(sv.cards, mine.wild, game.hand, sv.seat)
                was = self._own.get((seat, sv.seat))
                if was is not None and was[0] is row and was[1] is cards:
                    rows[sv.seat] = was[2]  # as last time: shared, so a patch skips it
                    continue
                rows[sv.seat] = mixed = {**row, **cards}
                self._own[(seat, sv.seat)] = (row, cards, mixed)
        out["legal"] = [] if self.paused else [_legal_json(a) for a in mine.legal_actions]
        return out

    def _settings_json(self) -> dict[str, Any]:
        """The settings as JSON, made once for each settings object."""
        settings, out = self._settings
        if settings is not self.settings:
            out = self.settings.to_json()
            self._settings = (self.settings, out)
        return out

    def _next_commitment(self, seed: str) -> str:
        """The commitment to the next hand's seed, worked out once for each seed."""
        known, out = self._committed
        if known != seed:
            out = commitment(bytes.fromhex(seed))
            self._committed = (seed, out)
        return out

    def _facts_of(self, hand: EngineHand) -> dict[str, Any]:
        """:meth:`_deal_facts`, made once a hand (and again when the game is over)."""
        played, revealed, out = self._facts
        if played is not hand or revealed != self.revealed:
            out = self._deal_facts(hand)
            self._facts = (hand, self.revealed, out)
        return out

    def _logged(
        self, hand: EngineHand, actions: tuple[Action, ...], outcomes: tuple[Outcome, ...]
    ) -> list[dict[str, Any]]:
        """``hand``'s public log as JSON (a new list; the entries rendered for an earlier state
        of the same hand are reused)."""
        played, rows = self._moves
        if played is not hand or len(rows) > len(actions):
            rows = []
            self._moves = (hand, rows)
        for i in range(len(rows), len(actions)):
            rows.append({**actions[i].to_json(), **outcomes[i].to_json(), **self._timed(i)})
        return list(rows)

    def _timed(self, index: int) -> dict[str, bool]:
        """``{"timeout": true}`` for a move of the hand in play that the turn timer made."""
        return {"timeout": True} if index in self.timeouts else {}

    @staticmethod
    def _pots(pots: tuple[Pot, ...], put_in: list[int]) -> list[dict[str, Any]]:
        """The settled pots as JSON; the top of a bet nobody called is marked ``returned``: its
        chips go back to the one who bet them, which is no win."""
        back = returned(put_in, pots)
        return [{**p.to_json(), "returned": i == back} for i, p in enumerate(pots)]

    def _deal_facts(self, hand: EngineHand) -> dict[str, Any]:
        """What everyone may know of how ``hand`` was dealt: the server's commitment, the
        contributions, the cards commitment, and the secret once the game is over."""
        shuffle = hand.shuffle
        assert shuffle is not None
        out: dict[str, Any] = {
            "deck": shuffle.version,
            "commitment": shuffle.commitment,
            "secret": shuffle.secret.hex() if self.revealed else None,
        }
        tree = hand.tree
        if tree is not None:
            out["contributions"] = [None if p is None else p.hex() for p in shuffle.parts]
            out["cards_root"] = tree.root
            out["wild_proof"] = hand.wild_proof()
        return out

    def _cards(
        self, cards: tuple[int, ...] | None, wild: int | None, hand: EngineHand, seat: int
    ) -> dict[str, Any]:
        """A row's ``cards``, ``category`` and ``proof`` (the same for every viewer allowed to
        see them, and for the whole hand: rendered once a hand, the values shared by the states
        that show them)."""
        if cards is None:
            return {"cards": None, "category": None}
        played, shown = self._shown
        if played is not hand:
            shown = {}
            self._shown = (hand, shown)
        out = shown.get(seat)
        if out is not None:
            return out
        evaluator = Evaluator.get(self.rules.ranking)
        out = {
            "cards": cards_str(cards).split(),
            "category": evaluator.category(cards, wild).value,
        }
        proofs = hand.proofs(seat)
        if proofs is not None:
            out["proof"] = proofs
        shown[seat] = out
        return out
