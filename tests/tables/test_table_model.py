"""The table service checked as a model: Hypothesis drives one table of a real service (its
writer, clocks, fan-out and presence, on an in-memory SQLite log) in the test's own event loop, on
a clock the test moves, with no sockets: joins before and after the start, leaving, the host's
removals and readmissions, sockets opening and closing (patches or whole states), pausing, legal
and illegal moves from every token and from spectators, the clock running out, side shows,
rebuys, play-again votes and game ends, in any order. After every step it checks what a player
relies on:

1. the seats that may act now are offered moves, and only they; a move from any other seat or
   token is refused with a code and changes nothing; a seat the computer plays for a latecomer
   offers them no move and no card of that hand;
2. chips are conserved across hands, games and rebuys;
3. no state or patch shows a seat a card it may not see, nor a hand's secret before the game ends;
4. a removed player's token and a given-up token open nothing;
5. the log replays to the same table, and every state a socket was sent (patches applied) is the
   state rebuilt from the log at that version;
6. the hands of every finished game at the table stay reachable by its players;
7. every refusal has a sentence in both languages.

It runs a few examples in the fast tier; ``TEST_HYPOTHESIS=deep`` runs the "deep" profile
(README, Tests).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
from dataclasses import dataclass, field
from typing import Any

import as_sent
import msgspec
from hypothesis import HealthCheck, Phase, event, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from support.page_strings import said
from support.properties import examples
from test_table import may_see

from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.live.table import Connection, LiveTable
from teenpatti.tables.live.time_source import ManualClock
from teenpatti.tables.play.commands import convert
from teenpatti.tables.play.errors import Refusal
from teenpatti.tables.play.events import decode
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import Table, token_hash
from teenpatti.tables.wire.patch import apply

TIMING = Timing(
    bot_delay=(1.0, 1.0),
    think_limit=30.0,
    result_pause=2.0,
    first_deal=1.0,
    reconnect_grace=8.0,
)
"""Every clock of the service a whole number of seconds, so a tick of the test's clock reaches
the ones it means to."""

NAMES = ("Maya", "Nabin", "Ojas", "Pema", "Rita", "Sita", "Chandra")
"""Who joins (Chandra is also a computer's name: a latecomer may find it taken)."""

TABLES = (
    {"preset": "limited", "seats": 3, "hands": 2},
    {"preset": "nepal", "seats": 4, "hands": 10, "rules": {"starting_chips": 200, "boot": 50}},
    {"preset": "classic", "seats": 3, "hands": 3, "rules": {"sideshow": "any_seen"}},
    {"preset": "club", "seats": 4, "hands": 2},
    {"preset": "duo", "seats": 2, "hands": 3, "play": "live"},
    {"preset": "limited", "seats": 4, "hands": 3, "rules": {"rebuy_chips": 500}},
    {"preset": "classic", "seats": 3, "hands": 3, "rules": {"starting_chips": 100, "boot": 20}},
)
"""The tables the model opens (short games: several end within an example)."""

MOVES = ("see", "chaal", "raise", "pack", "show", "sideshow", "accept", "decline", "allin")

KNOWN = frozenset(k for k in os.environ.get("TEST_MODEL_KNOWN", "").split(",") if k)
"""The faults on main when this test was written, each the name of the checks that find it; each
is switched on (taken out of here) by the change that mends it. ``TEST_MODEL_KNOWN=`` switches
them all on."""


def deep() -> bool:
    """Whether the deep profile runs (``TEST_HYPOTHESIS=deep``)."""
    return os.environ.get("TEST_HYPOTHESIS") == "deep"


@dataclass
class Socket:
    """One socket as the model holds it: the token it said hello with (``None``: a spectator),
    the state it holds (patches applied) and every state it was sent, with the seat it was for."""

    token: str | None
    conn: Connection
    held: dict[str, Any] | None = None
    got: list[dict[str, Any]] = field(default_factory=list)
    closed: bool = False
    told: list[str] = field(default_factory=list)
    """The error codes it was sent."""


PASSING = ("deadline", "now")
"""What only the serving process adds to a state (its clock): left out when a sent state is
compared with one rebuilt from the log."""


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what only the serving process knows (its clock, who is online)."""
    out = {k: v for k, v in state.items() if k not in PASSING}
    out["seats"] = [{k: v for k, v in row.items() if k != "connected"} for row in state["seats"]]
    return out


def as_json(data: Any) -> Any:
    """``data`` as a client reads it (tuples become lists...)."""
    return msgspec.json.decode(msgspec.json.encode(data))


class TableModel(RuleBasedStateMachine):
    """One table of a real service, driven by Hypothesis (see the module's docstring)."""

    def __init__(self) -> None:
        super().__init__()
        # The same steps must make the same table (Hypothesis replays them to shrink): the
        # service's deck seeds and tokens and the computer players' seeds come from one seeded
        # generator for the example, not from the system's secure source.
        drawn = random.Random(0)
        self.secure = {k: getattr(secrets, k) for k in ("token_bytes", "randbits", "randbelow")}
        secrets.token_bytes = lambda n=32: drawn.randbytes(n)  # type: ignore[assignment]
        secrets.randbits = drawn.getrandbits
        secrets.randbelow = drawn.randrange
        self.loop = asyncio.new_event_loop()
        self.clock = ManualClock()
        self.store = SqliteStore(":memory:")
        self.service = self.run(self._service())
        self.code = ""
        self.tokens: list[str] = []
        """Every seat token given at the table (the host's first), kept after it stops working."""
        self.gone: dict[str, bool] = {}
        """Tokens whose person left (``False``) or was removed (``True``)."""
        self.sockets: list[Socket] = []
        self.refused: set[str] = set()
        self.finished: dict[int, list[dict[str, Any]]] = {}
        """The hands of each finished game (by its number at the table), as everyone got them."""
        self.found: set[str] = set()
        """The known faults met in this example (``KNOWN``)."""
        self.late_seen: dict[int, int] = {}
        """Each latecomer's seat and the hand being played when they sat down."""
        self.dealt: dict[tuple[int, int], tuple[str | None, ...]] = {}
        """Who held each seat (a token's hash, ``None`` for the computer) when each hand was
        dealt, by game and hand: the model's own record, seen as each version is applied."""
        writer = self.service.writer
        told = writer._applied

        def applied(live: LiveTable, version: Any) -> None:
            told(live, version)
            self.saw(live.table)

        writer._applied = applied

    async def _service(self) -> TableService:
        return TableService(self.store, TIMING, self.clock)

    def run(self, coro: Any) -> Any:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        async def stop() -> None:
            await self.service.stop()
            await self.service.tasks.settle()
            await self.store.close()

        try:
            self.run(stop())
            self.loop.close()
        finally:
            for name, function in self.secure.items():
                setattr(secrets, name, function)

    # ------------------------------------------------------------------ helpers
    @property
    def live(self) -> LiveTable:
        return self.service.get(self.code)

    @property
    def table(self) -> Table:
        return self.live.table

    def saw(self, table: Table) -> None:
        """A version was applied: if it dealt a hand, note who holds each seat now."""
        game = table.game
        if game is None or game.hand is None:
            return
        key = (table.games_played, game.hand_number)
        if key not in self.dealt:
            self.dealt[key] = tuple(seat.token_hash for seat in table.seats)

    def fault(self, known: str, ok: bool, what: str) -> None:
        """Check ``ok``, a check of the known fault ``known``: while it is known, a failure is
        recorded, not raised."""
        if ok:
            return
        if known in KNOWN:
            self.found.add(known)
            return
        raise AssertionError(what)

    def seat_of(self, token: str | None) -> int | Refusal | None:
        try:
            return self.service.seat_for(self.live, token)
        except Refusal as refusal:
            return refusal

    def who(self, index: int) -> str | None:
        """A token by index (one past the last: a spectator)."""
        return [*self.tokens, None][index % (len(self.tokens) + 1)]

    def settle(self) -> None:
        self.run(self.clock.advance(0))

    def ask(self, token: str | None, command: dict[str, Any]) -> bool | None:
        """Send ``command`` as ``token``'s seat; ``None`` if refused (checked to change
        nothing), else whether it applied."""
        seat = self.seat_of(token)
        if isinstance(seat, Refusal):
            self.refused.add(seat.code)
            assert token is not None and token in self.gone, seat.code
            assert seat.code == ("seat/removed" if self.gone[token] else "seat/left")
            return None
        before = self.table.version, as_sent.state(self.table, None)
        try:
            done = self.run(self.service.command(self.code, seat, convert(command)))
        except Refusal as refusal:
            self.refused.add(refusal.code)
            assert (self.table.version, as_sent.state(self.table, None)) == before, refusal.code
            return None
        finally:
            self.settle()
        return bool(done)

    # ------------------------------------------------------------------ rules
    @initialize(
        which=st.integers(0, len(TABLES) - 1),
        anytime=st.booleans(),
        late=st.booleans(),
        friends=st.integers(0, 2),
        started=st.booleans(),
    )
    def open_table(
        self, which: int, anytime: bool, late: bool, friends: int, started: bool
    ) -> None:
        data: dict[str, Any] = {"name": "Host", **TABLES[which], "bots": "random", "late": late}
        if anytime:
            data["play"] = "anytime"
        elif data.get("play") != "live":
            data["turn_seconds"] = 10
        self.code, token, _ = self.run(self.service.create(read_request(data)))
        self.tokens.append(token)
        for name in NAMES[:friends]:
            self.join(name, 0, False)
        if started:
            self.start(0)

    @rule(name=st.sampled_from(NAMES), old=st.integers(0, 8), with_old=st.booleans())
    def join(self, name: str, old: int, with_old: bool) -> None:
        was = self.who(old) if with_old else None
        before = self.table.version
        hand = self.table.game.hand_number if self.table.game else 0
        # removed during this game and not let back (a readmission or a new game lifts it)
        barred = was is not None and any(
            h == token_hash(was) for _, h in self.table.barred.values()
        )
        try:
            token, seat = self.run(self.service.join(self.code, name, was))
        except Refusal as refusal:
            self.refused.add(refusal.code)
            assert self.table.version == before
            return
        finally:
            self.settle()
        assert not barred, "a removed player sat down again with their old token"
        self.tokens.append(token)
        if self.table.seats[seat].late:
            self.late_seen[seat] = hand

    @rule(by=st.integers(0, 8))
    def start(self, by: int) -> None:
        self.ask(self.who(by), {"type": "start"})

    @rule(by=st.integers(0, 8), pick=st.integers(0, 20), stale=st.booleans())
    def play_offered(self, by: int, pick: int, stale: bool) -> None:
        """A move the seat is offered (or, with none, anything)."""
        token = self.who(by)
        seat = self.seat_of(token)
        if isinstance(seat, Refusal):
            return
        state = as_sent.state(self.table, seat)
        offered = state["legal"]
        if offered:
            chosen = offered[pick % len(offered)]
            move: dict[str, Any] = {"do": chosen["do"]}
            if chosen["max"] > chosen["cost"]:
                move["amount"] = chosen["cost"] + pick % (chosen["max"] - chosen["cost"] + 1)
            if chosen["targets"]:
                move["with"] = chosen["targets"][pick % len(chosen["targets"])]
        else:
            move = {"do": MOVES[pick % len(MOVES)]}
        self.act(token, seat, state, move, stale)

    @rule(by=st.integers(0, 8), do=st.sampled_from(MOVES), amount=st.integers(-5, 200))
    def play_anything(self, by: int, do: str, amount: int) -> None:
        token = self.who(by)
        seat = self.seat_of(token)
        if isinstance(seat, Refusal):
            self.ask(token, {"type": "act", "action": {"do": do}})
            return
        move: dict[str, Any] = {"do": do}
        if do == "chaal":
            move["amount"] = amount
        if do == "sideshow":
            move["with"] = amount % 5
        self.act(token, seat, as_sent.state(self.table, seat), move, False)

    def act(
        self,
        token: str | None,
        seat: int | None,
        state: dict[str, Any],
        move: dict[str, Any],
        stale: bool,
    ) -> None:
        offered = {m["do"] for m in state["legal"]}
        late = seat is not None and bool(self.table.seats[seat].late)
        command: dict[str, Any] = {"type": "act", "action": move}
        if stale and self.table.game_version > 1:
            command["version"] = self.table.game_version - 1
        done = self.ask(token, command)
        if done:
            # (1) only a move the seat was offered is taken
            self.fault("late", not late, f"seat {seat} moved for the computer's hand it waits for")
            assert move["do"] in offered, (seat, move, state["legal"])

    def play_on(self, pick: int) -> None:
        """What moves a game along: the person whose turn it is plays a move they are offered;
        until there is one, the clock moves on through the table's deals, computer's moves and
        timeouts (a few seconds at most)."""
        for _ in range(12):
            table = self.table
            hand = table.game.hand if table.game else None
            if table.status == "finished":
                self.again(0)  # the host (if still seated) starts the next game
                return
            if table.status != "playing" or table.paused:
                return
            if hand is not None and not hand.finished:
                seat = hand.waiting_for if hand.waiting_for is not None else hand.actor
                holder = table.seats[seat] if seat is not None else None
                if holder is not None and not holder.bot and not holder.late:
                    token = next(t for t in self.tokens if holder.token_hash == token_hash(t))
                    self.play_offered(self.tokens.index(token), pick, False)
                    return
            self.tick(1.0)

    @rule(pick=st.integers(0, 20))
    def play_on_a(self, pick: int) -> None:
        self.play_on(pick)

    @rule(pick=st.integers(0, 20))
    def play_on_b(self, pick: int) -> None:
        self.play_on(pick)

    @rule(pick=st.integers(0, 20))
    def play_on_c(self, pick: int) -> None:
        self.play_on(pick)

    @rule(by=st.integers(0, 8))
    def leave(self, by: int) -> None:
        token = self.who(by)
        if self.ask(token, {"type": "leave"}) and token is not None:
            self.gone[token] = False

    @rule(by=st.integers(0, 8), whom=st.integers(-1, 5))
    def remove(self, by: int, whom: int) -> None:
        holder = next(
            (
                t
                for t in self.tokens
                if 0 <= whom < len(self.table.seats)
                and self.table.seats[whom].token_hash == token_hash(t)
            ),
            None,
        )
        if self.ask(self.who(by), {"type": "remove", "seat": whom}) and holder is not None:
            self.gone[holder] = True

    @rule(
        by=st.integers(0, 8),
        said=st.sampled_from(
            [
                {"type": "pause"},
                {"type": "resume"},
                {"type": "rebuy"},
                {"type": "configure", "late": True},
                {"type": "configure", "late": False},
                {"type": "chat", "phrase": "shabash"},
                *({"type": "readmit", "name": name} for name in NAMES[:3]),
            ]
        ),
    )
    def say(self, by: int, said: dict[str, Any]) -> None:
        """The host's say, a rebuy, a chat message."""
        self.ask(self.who(by), said)

    @rule(by=st.integers(0, 8))
    def again(self, by: int) -> None:
        self.ask(self.who(by), {"type": "again"})

    @rule(by=st.integers(0, 8), patches=st.booleans())
    def connect(self, by: int, patches: bool) -> None:
        token = self.who(by)
        seat = self.seat_of(token)
        if isinstance(seat, Refusal):
            return  # the socket is refused at its hello
        conn = Connection(
            seat,
            limit=10_000,
            token_hash=None if token is None else token_hash(token),
            patches=patches,
        )
        self.sockets.append(Socket(token, conn))
        self.run(self.service.connect(self.live, conn))
        self.settle()

    @precondition(lambda self: any(not s.closed for s in self.sockets))
    @rule(which=st.integers(0, 20))
    def disconnect(self, which: int) -> None:
        open_ = [s for s in self.sockets if not s.closed]
        socket = open_[which % len(open_)]
        socket.closed = True
        self.service.disconnect(self.live, socket.conn)
        self.settle()

    @rule(seconds=st.sampled_from([1.0, 2.0, 9.0, 11.0]))
    def tick(self, seconds: float) -> None:
        self.run(self.clock.advance(seconds))

    # ------------------------------------------------------------------ invariants
    def drain(self) -> None:
        """Take what each socket was sent, applying patches to the state it holds."""
        for socket in self.sockets:
            queue = socket.conn.queue
            while not queue.empty():
                text = queue.get_nowait()
                if text is None:
                    socket.closed = True
                    continue
                message = json.loads(text)
                kind = message["type"]
                if kind == "error":
                    socket.told.append(message["code"])
                    self.refused.add(message["code"])
                    continue
                if kind == "patch":
                    assert socket.held is not None
                    assert message["from"] == socket.held["version"], "a patch from elsewhere"
                    socket.held = apply(socket.held, message["ops"])
                else:
                    assert kind == "state"
                    socket.held = message
                assert socket.held is not None
                socket.got.append(socket.held)

    @invariant()
    def checked(self) -> None:
        if not self.code:
            return
        self.drain()
        table = self.table
        viewers: list[int | None] = [None, *range(len(table.seats))]
        states = {v: as_sent.state(table, v) for v in viewers}
        if table.status == "waiting":  # nobody's seat is the computer's before the start
            assert not any(s.bot for s in table.seats), [s.name for s in table.seats if s.bot]
        self.offered_only_to_who_may_act(states)
        self.chips_conserved()
        for viewer, state in states.items():
            holder = None if viewer is None else table.seats[viewer].token_hash
            self.cards_gated(state, viewer, holder)
        for socket in self.sockets:
            holder = None if socket.token is None else token_hash(socket.token)
            for state in socket.got[-3:]:
                self.cards_gated(state, state["you"], holder)
        self.gone_tokens_open_nothing()
        self.log_replays()
        self.hands_reachable()
        self.refusals_said()

    def offered_only_to_who_may_act(self, states: dict[int | None, dict[str, Any]]) -> None:
        table = self.table
        hand = table.game.hand if table.game else None
        in_play = hand is not None and not hand.finished and not table.paused
        for viewer, state in states.items():
            if viewer is None:
                assert state["legal"] == []
                continue
            may = in_play and hand is not None and viewer in (hand.actor, hand.waiting_for)
            # looking at one's cards is free at any time, and uses up no turn
            turn = [m for m in state["legal"] if m["do"] != "see"]
            if turn:
                assert may, (viewer, state["legal"])
            row = table.seats[viewer]
            if row.late and in_play:
                self.fault("late", state["legal"] == [], f"latecomer {viewer} offered moves")

    def chips_conserved(self) -> None:
        table = self.table
        game = table.game
        if game is None:
            return
        rules = table.rules
        bought = sum(game.rebuys) * (rules.rebuy_chips or 0)
        expected = rules.starting_chips * len(table.seats) + bought
        hand = game.hand
        if hand is not None and not hand.finished:
            pending = sum(rules.rebuy_chips or 0 for s in range(game.seats) if game.bought_in(s))
            held = sum(hand.chips) + hand.pot + pending
        else:
            held = sum(game.chips)
        assert held == expected, (held, expected)

    def cards_gated(self, state: dict[str, Any], you: int | None, holder: str | None) -> None:
        """No card ``you`` may not see, ``holder`` being the hash of the token that holds the
        seat ``you`` for this state (``None``: the computer's, or a spectator): unless they held
        it when the hand in view was dealt (the model's own record), they see that hand as a
        spectator, even once it is over (one who sat down since, by any token)."""
        hand = state["hand"]
        if state["status"] != "finished" and hand is not None:
            assert hand["secret"] is None, "a secret before the game's end"
        if hand is None:
            assert all(row.get("cards") is None for row in state["seats"])
            return
        late = you is not None and state["seats"][you].get("late", False)
        if you is not None and not late:
            held = self.dealt.get((state.get("game", 1), hand["number"]), ())
            late = you < len(held) and held[you] != holder
        for row in state["seats"]:
            seat = row["seat"]
            shown = row["cards"] is not None
            if late:  # the hand is the computer's: its person sees what a spectator sees
                ok = shown == may_see(hand, row, None)
                self.fault("late", ok, f"latecomer {you} shown cards of {seat} dealt before")
                continue
            assert shown == may_see(hand, row, you), (you, seat, hand["actions"])

    def gone_tokens_open_nothing(self) -> None:
        table = self.table
        for token, removed in self.gone.items():
            seat = self.seat_of(token)
            assert isinstance(seat, Refusal), "a token that left still holds a seat"
            assert seat.code == ("seat/removed" if removed else "seat/left")
            assert all(s.token_hash != token_hash(token) for s in table.seats)
        held = {token_hash(t) for t in self.gone}
        assert not any(c.token_hash in held for c in self.live.presence.connections)

    def log_replays(self) -> None:
        table = self.table
        stored = self.run(self.store.load(table.table_id))
        rebuilt = Table(table.table_id, table.code)
        wanted: dict[int, list[dict[str, Any]]] = {}
        for socket in self.sockets:
            for state in socket.got:
                wanted.setdefault(state["version"], []).append(state)
            socket.got.clear()  # each state checked once
        for row in stored:
            rebuilt.apply(decode(row.data))
            for state in wanted.pop(rebuilt.version, []):
                again = as_sent.state(rebuilt, state["you"])
                assert comparable(state) == comparable(again), state["version"]
        assert not wanted, f"states sent of versions not in the log: {sorted(wanted)}"
        assert rebuilt.version == table.version
        for viewer in (None, *range(len(table.seats))):
            assert as_sent.state(rebuilt, viewer) == as_sent.state(table, viewer)

    def hands_reachable(self) -> None:
        table = self.table
        if table.games_played > 1:
            event("a second game started")
        if any(s.late for s in table.seats) and table.hand_in_play:
            event("a latecomer waits for the next hand")
        if table.status == "finished":
            event(f"game {table.games_played} finished")
            self.finished[table.games_played] = as_json(table.histories(None))
        for number, hands in self.finished.items():
            reached = as_json(table.histories(None, number))
            self.fault("again", reached == hands, f"the hands of game {number} are gone")

    def refusals_said(self) -> None:
        for code in self.refused:
            assert said(code), f"{code} has no sentence in both languages"


TestTableModel = TableModel.TestCase
TestTableModel.settings = (
    settings(settings.get_profile("deep"))
    if deep()
    else settings(
        max_examples=examples(40),
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink],
        stateful_step_count=50,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
)
