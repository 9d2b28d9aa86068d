"""Tables without a network: codes and tokens, the host's settings, names, a table as the replay
of its events (the same events always give the same state, for every seat), the card gate on
every state of random games, and the service's compare-and-set (two services on one file: the
stale one gets ``state/conflict`` and catches up)."""

from __future__ import annotations

import asyncio
import hashlib
import random
import string
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import as_sent
import pytest
from support.tables import until

from teenpatti.engine import RULES_EDITION, IllegalAction, Rules
from teenpatti.engine.deck import commitment
from teenpatti.store.sqlite import SqliteStore
from teenpatti.tables.live import codes as codes_module
from teenpatti.tables.live import service as service_module
from teenpatti.tables.live.codes import (
    ALPHABET,
    CODE_LENGTH,
    looks_like_code,
    new_code,
    new_seed,
    new_token,
)
from teenpatti.tables.live.service import TableService, Timing
from teenpatti.tables.play.commands import Move, convert, read
from teenpatti.tables.play.errors import Refusal
from teenpatti.tables.play.events import Act, Event, Played, Seated, decode
from teenpatti.tables.play.settings import read_request
from teenpatti.tables.play.table import (
    BOT_NAMES,
    NAME_MAX,
    Settings,
    Table,
    TableError,
    clean_name,
    name_key,
    token_hash,
)

SEED = hashlib.sha256(b"first hand").digest()
NEXT_SEED = hashlib.sha256(b"second hand").digest()
"""Deck seeds the tests give the table (the service draws them from the system's secure source)."""


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, 30))


# ---------------------------------------------------------------------- codes and tokens
def test_code_alphabet_has_no_look_alikes() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 31
    assert not set(ALPHABET) & set("0O1IU")
    assert set(ALPHABET) <= set(string.ascii_uppercase + string.digits)
    assert set(ALPHABET) == set(string.ascii_uppercase + string.digits) - set("0O1IU")
    assert codes_module.ALPHABET is ALPHABET


def test_new_seeds_are_fresh_and_committed_to() -> None:
    seeds = {new_seed() for _ in range(10)}
    assert len(seeds) == 10
    for seed in seeds:
        assert len(seed) == 32
        assert commitment(seed) == hashlib.sha256(seed).hexdigest()


def test_new_codes_have_the_shape_and_use_every_character() -> None:
    made = [new_code() for _ in range(5000)]
    assert all(len(c) == CODE_LENGTH == 6 for c in made)
    assert all(set(c) <= set(ALPHABET) and looks_like_code(c) for c in made)
    counts = Counter(ch for c in made for ch in c)
    assert set(counts) == set(ALPHABET)  # 30,000 draws: each character about 970 times
    assert min(counts.values()) > 700 and max(counts.values()) < 1250
    for position in range(CODE_LENGTH):
        assert len({c[position] for c in made}) == len(ALPHABET)
    # 31**6 codes: among 5,000 a repeat is rare (expected 0.014); the service retries anyway.
    assert len(made) - len(set(made)) <= 2


@pytest.mark.parametrize(
    "text", ["", "K7WQ3", "K7WQ3MM", "k7wq3m", "K0WQ3M", "KOWQ3M", "K1WQ3M", "KIWQ3M", "KUWQ3M"]
)
def test_looks_like_code_refuses(text: str) -> None:
    assert not looks_like_code(text)


def test_tokens_are_long_random_and_url_safe() -> None:
    made = {new_token() for _ in range(1000)}
    assert len(made) == 1000
    assert all(len(t) == 43 for t in made)
    assert all(set(t) <= set(string.ascii_letters + string.digits + "-_") for t in made)
    token = next(iter(made))
    assert token_hash(token) == hashlib.sha256(token.encode()).hexdigest()
    assert token_hash(token) != token_hash(token + "x")


def test_the_service_gives_every_table_its_own_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), SLOW)
        made = [(await service.create(read_request({"name": f"P{i}"})))[0] for i in range(300)]
        assert len(set(made)) == 300 and all(looks_like_code(c) for c in made)
        # A code that is taken already is never given again: the service draws another.
        taken = made[0]
        draws = iter([taken, taken, "ZZZZZZ"])
        monkeypatch.setattr(service_module, "new_code", lambda: next(draws))
        code, token, seat = await service.create(read_request({"name": "Late"}))
        assert (code, seat) == ("ZZZZZZ", 0)
        assert service.get(taken).table.seats[0].name == "P0"
        assert service.get("zzzzzz").table.seat_of(token) == 0
        assert len(await service.store.tables()) == 301
        await service.stop()
        await service.store.close()

    run(body())


def test_a_table_plays_the_rules_edition_it_was_opened_under(tmp_path: Path) -> None:
    # A new table records today's edition; a log from before editions were recorded replays
    # under edition 1, where a show whose payment reaches the pot limit stays a show.
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "e.sqlite3"), SLOW)
        code, _, _ = await service.create(read_request({"name": "Asha"}))
        assert service.get(code).table.rules.edition == RULES_EDITION == 2
        await service.stop()
        await service.store.close()
        again = TableService(SqliteStore(tmp_path / "e.sqlite3"), SLOW)
        await again.start()
        assert (await again.find(code)).table.rules.edition == 2  # rebuilt from its log
        await again.stop()
        await again.store.close()

    run(body())
    old = decode(
        {
            "type": "created",
            "settings": Settings.from_json({"preset": "duo", "seats": 2}).to_json(),
            "host": {"name": "Host", "token_hash": token_hash("t0")},
        }
    )
    table = Table("id1", "K7WQ3M")
    table.apply(old)
    assert table.rules.edition == 1 and table.rules.preset == "duo"


# ---------------------------------------------------------------------- settings and names
def test_settings_defaults_and_shortcuts() -> None:
    default = Settings.from_json({})
    assert (default.seats, default.bots, default.turn_seconds) == (4, "medium", 30)
    assert default.rules == Rules.from_options({"preset": "nepal"}).options()
    chosen = Settings.from_json(
        {
            "seats": 6,
            "hands": 10,
            "boot": 20,
            "bots": "hard",
            "turn_seconds": None,
            "rules": {"hands": 30, "show_tie": "split"},
        }
    )
    assert chosen.rules["hands"] == 10 and chosen.rules["boot"] == 20  # the shortcut wins
    assert chosen.rules["show_tie"] == "split" and chosen.turn_seconds is None
    other = Settings.from_json({"preset": "limited", "hands": 3, "rules": {"preset": "club"}})
    assert other.rules["preset"] == "limited" and other.rules["hands"] == 3
    for turn in (5, 600, None):
        assert Settings.from_json({"turn_seconds": turn}).turn_seconds == turn
    for level in ("random", "easy", "medium", "hard", "expert"):
        assert Settings.from_json({"bots": level}).bots == level
    assert Settings.from_json({"preset": "duo", "seats": 2}).seats == 2
    assert Settings.from_json({"preset": "club", "seats": 6}).seats == 6
    # Each preset seats as many as its table does: ten at the club, eight at classic.
    assert Settings.from_json({"preset": "club", "seats": 10}).seats == 10
    assert Settings.from_json({"preset": "classic", "seats": 8}).seats == 8
    # Live tables have a turn timer; anytime tables none, and duo plays anytime unless asked.
    assert (default.play, chosen.play) == ("live", "anytime")
    duo = Settings.from_json({"preset": "duo", "seats": 2})
    assert (duo.play, duo.turn_seconds) == ("anytime", None)
    live_duo = Settings.from_json({"preset": "duo", "seats": 2, "play": "live"})
    assert (live_duo.play, live_duo.turn_seconds) == ("live", 30)
    anytime = Settings.from_json({"play": "anytime"})
    assert (anytime.play, anytime.turn_seconds) == ("anytime", None)
    # What is stored is read back as the same settings (the ``created`` event).
    for s in (default, chosen, other, duo, live_duo):
        assert Settings(**s.to_json()) == s
        assert Settings.from_json({**s.to_json(), **s.to_json()["rules"]}) == s


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "settings/invalid"),
        (None, "settings/invalid"),
        ("nepal", "settings/invalid"),
        ({"rules": "nepal"}, "settings/rules"),
        ({"rules": []}, "settings/rules"),
        ({"seats": 1}, "settings/seats"),
        ({"seats": 7}, "settings/seats"),
        ({"seats": "4"}, "settings/seats"),
        ({"seats": 4.0}, "settings/seats"),
        ({"seats": True}, "settings/seats"),
        ({"seats": None}, "settings/seats"),
        ({"preset": "classic", "seats": 2}, "settings/seats"),
        ({"preset": "duo", "seats": 3}, "settings/seats"),
        ({"preset": "club", "seats": 11}, "settings/seats"),
        ({"preset": "classic", "seats": 9}, "settings/seats"),
        ({"preset": "limited2", "seats": 7}, "settings/seats"),
        ({"play": "later"}, "settings/play"),
        ({"play": None, "turn_seconds": 3}, "settings/timer"),
        ({"play": "anytime", "turn_seconds": 30}, "settings/timer"),
        ({"play": "live", "turn_seconds": None}, "settings/timer"),
        ({"bots": "grandmaster"}, "settings/bots"),
        ({"bots": None}, "settings/bots"),
        ({"bots": "Medium"}, "settings/bots"),
        ({"turn_seconds": 4}, "settings/timer"),
        ({"turn_seconds": 601}, "settings/timer"),
        ({"turn_seconds": -30}, "settings/timer"),
        ({"turn_seconds": 30.0}, "settings/timer"),
        ({"turn_seconds": "30"}, "settings/timer"),
        ({"turn_seconds": True}, "settings/timer"),
        ({"preset": "nope"}, "rules/preset"),
        ({"rules": {"preset": "nope"}}, "rules/preset"),
        ({"hands": 7}, "rules/hands"),
        ({"boot": 7}, "rules/boot"),
        ({"rules": {"colour": "red"}}, "rules/colour"),
        ({"rules": {"show_tie": "coin"}}, "rules/show_tie"),
        ({"preset": "limited", "hands": 0}, "rules/hands"),
    ],
)
def test_settings_refused(data: Any, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        Settings.from_json(data)
    assert refused.value.code == code
    assert refused.value.reason


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("Asha", "Asha"),
        ("  Asha  ", "Asha"),
        ("Asha   Rai", "Asha Rai"),
        ("Asha\tRai\n", "Asha Rai"),
        ("<b>x</b>", "<b>x</b>"),
        ("<script>alert(1)</script>"[:NAME_MAX], "<script>alert(1)</script"),
        ("a & b \"c\" 'd'", "a & b \"c\" 'd'"),
        ("दीपा 🂡", "दीपा 🂡"),
        ("x" * NAME_MAX, "x" * NAME_MAX),
        (" " + "x" * NAME_MAX + " ", "x" * NAME_MAX),
        ("a\u0085b", "a b"),  # NEL is a space to str.split
        # 33 code points, 22 characters as a reader counts them: whole, not cut after भट्टराई
        ("श्रीकृष्ण प्रसाद भट्टराई उपाध्याय", "श्रीकृष्ण प्रसाद भट्टराई उपाध्याय"),
    ],
)
def test_clean_name_keeps_text_as_typed(raw: str, clean: str) -> None:
    assert clean_name(raw) == clean


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("", "name/empty"),
        ("   ", "name/empty"),
        ("\n\t", "name/empty"),
        ("x" * (NAME_MAX + 1), "name/too_long"),
        ("क" * (NAME_MAX + 1), "name/too_long"),
        ("a" + "\u0301" * 80, "name/too_long"),  # marks past what a seat can draw
        ("a\x00b", "name/invalid"),
        ("a\x1bb", "name/invalid"),
        ("a\x7fb", "name/invalid"),
        ("a\x9fb", "name/invalid"),
        ("a\ud800b", "name/invalid"),
        ("\udfff", "name/invalid"),
        (None, "name/invalid"),
        (5, "name/invalid"),
        (["Asha"], "name/invalid"),
        (b"Asha", "name/invalid"),
    ],
)
def test_clean_name_refuses(raw: Any, code: str) -> None:
    with pytest.raises(TableError) as refused:
        clean_name(raw)
    assert refused.value.code == code


# ---------------------------------------------------------------------- a table from events
def created(settings: dict[str, Any], name: str = "Host", token: str = "t0") -> Event:
    return decode(
        {
            "type": "created",
            "settings": Settings.from_json(settings).to_json(),
            "host": {"name": name, "token_hash": token_hash(token)},
            "rules_edition": RULES_EDITION,
        }
    )


class Log:
    """A table and the events it was built from; ``commit`` applies and keeps them."""

    def __init__(self, settings: dict[str, Any]) -> None:
        self.table = Table("id1", "K7WQ3M")
        self.events: list[Event] = []
        self.commit(created(settings))

    def commit(self, *events: Event) -> None:
        for event in events:
            self.table.apply(event)
            self.events.append(event)

    def rebuilt(self) -> Table:
        table = Table("id1", "K7WQ3M")
        for event in self.events:
            table.apply(event)
        return table


def test_events_build_the_table() -> None:
    log = Log({"seats": 4, "preset": "limited", "hands": 2})
    table = log.table
    assert (table.version, table.status, table.next_seed) == (1, "waiting", None)
    assert as_sent.state(table, None)["hand"] is None and "next_commitment" not in as_sent.state(
        table, None
    )
    with pytest.raises(TableError) as taken:
        table.join_event("  HOST ", "t1")
    assert taken.value.code == "name/taken"
    log.commit(table.join_event("Asha", "t1"))
    assert table.seat_of("t1") == 1 and table.seat_of("t0") == 0 and table.seat_of("x") is None
    for seat in (1, None):
        with pytest.raises(TableError) as refused:
            table.start_event(seat, SEED)
        assert refused.value.code == "table/not_host"
    with pytest.raises(TableError) as refused:
        table.again_event(0, SEED)
    assert refused.value.code == "table/in_play"
    start = table.start_event(0, SEED)
    assert start.names == ["Host", "Asha", "Bikash", "Chandra"]  # "Asha" is taken
    log.commit(start)
    assert table.status == "playing" and table.version == 3
    assert [(s.bot, s.token_hash is None) for s in table.seats] == [(False, False)] * 2 + [
        (True, True)
    ] * 2
    refusals: list[tuple[Callable[[], Any], str]] = [
        (lambda: table.start_event(0, SEED), "table/started"),
        (lambda: table.act_event(0, read(Move, {"do": "pack"}, "action")), "hand/over"),
    ]
    for refusal, code in refusals:
        with pytest.raises(Refusal) as error:
            refusal()
        assert error.value.code == code
    log.commit(table.hand_event(NEXT_SEED))
    with pytest.raises(TableError) as refused:
        table.hand_event(NEXT_SEED)
    assert refused.value.code == "table/no_deal"
    assert as_sent.state(table, 0)["hand"]["number"] == 1
    assert (
        as_sent.state(table, 0)["next_commitment"] != as_sent.state(table, 0)["hand"]["commitment"]
    )


def test_a_full_table_refuses_joins() -> None:
    log = Log({"seats": 2, "preset": "limited"})
    log.commit(log.table.join_event("B", "t1"))
    with pytest.raises(TableError) as refused:
        log.table.join_event("C", "t2")
    assert refused.value.code == "table/full"
    assert BOT_NAMES[0] == "Asha"


def test_act_event_uses_the_seat_it_is_given() -> None:
    log = Log({"seats": 2, "preset": "limited", "hands": 1})
    log.commit(log.table.join_event("B", "t1"))
    log.commit(log.table.start_event(0, SEED))
    log.commit(log.table.hand_event(NEXT_SEED))
    table = log.table
    assert table.game is not None and table.game.hand is not None
    actor = table.game.hand.actor
    assert actor is not None
    other = 1 - actor
    before = as_sent.state(table, other), table.version
    with pytest.raises(IllegalAction) as refused:
        table.act_event(
            other, read(Move, {"do": "pack", "seat": actor}, "action")
        )  # acting for another seat
    assert refused.value.code == "turn/not_yours"
    with pytest.raises(TableError) as spectator:
        table.act_event(None, read(Move, {"do": "pack"}, "action"))
    assert spectator.value.code == "table/not_seated"
    for raw, code in (("pack", "action/malformed"), ({"do": "fly"}, "action/unknown")):
        with pytest.raises(TableError) as bad:  # refused as the socket refuses it
            table.act_event(actor, read(Move, raw, "action"))
        assert bad.value.code == code
    assert (as_sent.state(table, other), table.version) == before  # refusals change nothing
    event = table.act_event(actor, read(Move, {"do": "pack", "seat": other}, "action"))
    assert event == Act(seat=actor, action=Played(seat=actor, do="pack"), by="person")
    log.commit(event)
    assert table.status == "finished"
    assert [s["seat"] for s in as_sent.state(table, None)["standings"]] == [other, actor]
    with pytest.raises(TableError) as not_seated:
        table.again_event(None, SEED)
    assert not_seated.value.code == "table/not_seated"
    log.commit(*table.again_event(1, SEED))  # a guest's ask is one vote of two: not a majority
    assert table.status == "finished" and table.votes == {1}
    log.commit(*table.again_event(0, SEED))  # the host's starts the game
    assert table.status == "playing" and table.games_played == 2 and table.game.dealer == 1
    assert table.votes == set()


# ---------------------------------------------------------------------- random games
SHOWDOWN = {"show", "pot_limit", "all_in"}


def side_show_pairs(actions: list[dict[str, Any]]) -> set[frozenset[int]]:
    pairs: set[frozenset[int]] = set()
    pending: tuple[int, int] | None = None
    for a in actions:
        if a["do"] == "sideshow":
            pending = (a["seat"], a["with"])
        elif a["do"] == "accept" and pending is not None:
            pairs.add(frozenset(pending))
            pending = None
        elif a["do"] == "decline":
            pending = None
    return pairs


def may_see(hand: dict[str, Any], row: dict[str, Any], you: int | None) -> bool:
    """Whether the rules show ``you`` (``None``: a spectator) the cards of ``row``'s seat in
    ``hand`` (as sent): at a showdown everyone still in, else your own once seen (or the hand
    over), and those you compared in an accepted side show."""
    seat = row["seat"]
    if not row["dealt"]:
        return False
    if hand["finished"] and hand["ended_by"] in SHOWDOWN and not row["packed"]:
        return True
    if you is None:
        return False
    if you == seat:
        return bool(row["seen"] or hand["finished"])
    return frozenset((you, seat)) in side_show_pairs(hand["actions"])


def check_cards(state: dict[str, Any], you: int | None) -> None:
    """Each seat's cards are shown to ``you`` exactly when the rules allow it."""
    assert state["you"] == you
    hand = state["hand"]
    if hand is None:
        assert all(row.get("cards") is None for row in state["seats"])
        return
    for row in state["seats"]:
        seat = row["seat"]
        may = may_see(hand, row, you)
        assert (row["cards"] is not None) == may, (you, seat, hand["actions"])
        assert (row["category"] is not None) == may
    assert "seed" not in hand
    if state["status"] != "finished":
        assert hand["secret"] is None
    if you is None:
        assert state["legal"] == []
    total = sum(row["chips"] for row in state["seats"]) + hand["pot"]
    assert total == state["settings"]["rules"]["starting_chips"] * len(state["seats"])


RULES = [
    {"preset": "limited", "hands": 4},
    {"preset": "classic", "hands": 3, "rules": {"sideshow": "any_seen"}},
    {"preset": "club", "hands": 3},
    {"preset": "nepal", "hands": 10, "rules": {"variant": "muflis"}},
    {"preset": "limited", "hands": 3, "rules": {"variant": "jokers"}},
    {"preset": "limited", "hands": 3, "rules": {"variant": "wild_rank"}},
    {"preset": "nepal", "hands": 10, "rules": {"variant": "ak47", "show_tie": "split"}},
]


@pytest.mark.parametrize("seed", range(len(RULES)))
def test_random_games_replay_to_the_same_state_and_never_leak(seed: int) -> None:
    rng = random.Random(seed)
    settings = {**RULES[seed], "seats": 3 + seed % 4, "turn_seconds": None}
    log = Log(settings)
    table = log.table
    for i in range(1, 2 + seed % 3):
        log.commit(table.join_event(f"P{i}", f"t{i}"))
    log.commit(table.start_event(0, rng.randbytes(32)))
    viewers: list[int | None] = [None, *range(len(table.seats))]
    # every few moves the live table (whose states reuse the parts that did not change since the
    # last one) must equal a table rebuilt from the log, which renders every part afresh
    checkpoints = set(range(rng.randrange(1, 6), 5000, 5))
    steps = 0
    while table.status != "finished" or (table.games_played < 2 and steps < 3000):
        steps += 1
        assert steps < 5000
        if table.status == "finished":
            log.commit(*table.again_event(0, rng.randbytes(32)))
            continue
        if not table.hand_in_play:
            log.commit(table.hand_event(rng.randbytes(32)))
            continue
        states = {v: as_sent.state(table, v) for v in viewers}
        for viewer, state in states.items():
            check_cards(state, viewer)
        movers = [v for v in viewers if v is not None and states[v]["legal"]]
        seat = rng.choice(movers)
        move = rng.choice(states[seat]["legal"])
        raw: dict[str, Any] = {"do": move["do"]}
        if move["do"] == "chaal" and move["max"] > move["cost"]:
            raw["amount"] = rng.randint(move["cost"], move["max"])
        if move["do"] == "sideshow" and move["targets"]:
            raw["with"] = rng.choice(move["targets"])
        log.commit(table.act_event(seat, read(Move, raw, "action")))
        if steps in checkpoints:
            again = log.rebuilt()
            assert all(as_sent.state(again, v) == as_sent.state(table, v) for v in viewers)
    for viewer in viewers:
        check_cards(as_sent.state(table, viewer), viewer)
    # The same events, replayed, give the same table to the last card, for every viewer.
    again = log.rebuilt()
    assert again.version == table.version == len(log.events)
    for viewer in viewers:
        assert as_sent.state(again, viewer) == as_sent.state(table, viewer)
    assert again.game is not None and table.game is not None
    assert again.game.histories == table.game.histories


# ---------------------------------------------------------------------- the service
SLOW = Timing(bot_delay=(60.0, 60.0), result_pause=60.0, first_deal=0.0, reconnect_grace=60.0)


def test_two_services_on_one_file_the_stale_one_catches_up(tmp_path: Path) -> None:
    """Two servers on one data file (as several processes share one database): the one that
    did not see the other's move loses the compare-and-set, catches up from the log, and checks
    the move again: a repeat is refused with the engine's reason, and nothing forks the log."""
    path = tmp_path / "shared.sqlite3"

    async def body() -> None:
        first = TableService(SqliteStore(path), SLOW)
        await first.start()
        code, host, _ = await first.create(
            read_request({"name": "A", "seats": 2, "preset": "limited", "turn_seconds": None})
        )
        guest, _ = await first.join(code, "B")
        await first.command(code, 0, convert({"type": "start"}))
        live = first.get(code)
        await until(first, lambda: live.table.hand_in_play, "the first deal")
        second = TableService(SqliteStore(path), SLOW)
        await second.start()
        other = await second.find(code)
        assert other.table.version == live.table.version
        assert as_sent.state(other.table, 0) == as_sent.state(live.table, 0)
        actor = live.table.game.hand.actor  # type: ignore[union-attr]
        await first.command(code, actor, convert({"type": "act", "action": {"do": "see"}}))
        version = live.table.version
        with pytest.raises(Refusal) as conflict:
            await second.command(code, actor, convert({"type": "act", "action": {"do": "see"}}))
        assert conflict.value.code == "see/already_seen"
        assert other.table.version == version  # caught up by reading the log
        assert as_sent.state(other.table, None) == as_sent.state(live.table, None)
        # Now the first is the stale one.
        await second.command(code, actor, convert({"type": "act", "action": {"do": "pack"}}))
        with pytest.raises(Refusal) as conflict:
            await first.command(code, actor, convert({"type": "act", "action": {"do": "pack"}}))
        assert conflict.value.code in ("hand/over", "seat/out")
        assert live.table.version == other.table.version == version + 1
        events = await first.store.load(live.table.table_id)
        assert [e.version for e in events] == list(range(1, version + 2))
        assert second.seat_for(other, host) == 0 and second.seat_for(other, guest) == 1
        for service in (first, second):
            await service.stop()
            await service.store.close()

    run(body())


def test_seat_for_refuses_bad_tokens(tmp_path: Path) -> None:
    async def body() -> None:
        service = TableService(SqliteStore(tmp_path / "s.sqlite3"), SLOW)
        code, token, _ = await service.create(read_request({"name": "A"}))
        live = service.get(code)
        assert service.seat_for(live, token) == 0
        assert service.seat_for(live, None) is None
        for bad in ("", "x", token[:-1], token + "x", token * 3, "é" + token[1:], "\ud800", 5):
            with pytest.raises(TableError) as refused:
                service.seat_for(live, bad)
            assert refused.value.code == "token/invalid"
        with pytest.raises(TableError) as unknown:
            service.get("NOPE42")
        assert unknown.value.code == "table/unknown"
        assert service.get(f" {code.lower()} ") is live
        await service.stop()
        await service.store.close()

    run(body())


def test_computer_table_starts_at_once_and_restarts_from_its_log(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite3"
    fast = Timing(bot_delay=(0.0, 0.0), result_pause=0.0, first_deal=0.0, reconnect_grace=60.0)

    async def body() -> None:
        service = TableService(SqliteStore(path), fast)
        code, token, seat = await service.create(
            read_request({"name": "Asha", "seats": 3, "computer": True, "turn_seconds": None})
        )
        live = service.get(code)
        assert seat == 0 and live.table.status == "playing"
        assert [s.name for s in live.table.seats] == ["Asha", "Bikash", "Chandra"]

        def persons_turn() -> bool:
            hand = live.table.game.hand if live.table.game else None
            return hand is not None and not hand.finished and hand.actor == 0

        # The computer deals and plays until the person is to act.
        await until(service, persons_turn, "the computer never got to the person's turn")
        states = {v: as_sent.state(live.table, v) for v in (None, 0, 1, 2)}
        await service.stop()
        await service.store.close()
        reborn = TableService(SqliteStore(path), fast)
        await reborn.start()
        back = await reborn.find(code)
        assert {v: as_sent.state(back.table, v) for v in (None, 0, 1, 2)} == states
        assert reborn.seat_for(back, token) == 0
        await reborn.stop()
        await reborn.store.close()

    run(body())


@pytest.mark.parametrize("name", ["Asha\u200b", "\u202eahsA", "x\u2066y\u2069", "\ufeffAsha"])
def test_invisible_and_direction_characters_are_refused(name: str) -> None:
    with pytest.raises(TableError) as info:
        clean_name(name)
    assert info.value.code == "name/invalid"


@pytest.mark.parametrize(
    "name",
    ["As\u00a0ha", "As ha", "Asha\u0301", "Ashá", "A\u0307sha", "ＡＳＨＡ", "Аsha", "ASHA\u2009"],
)
def test_a_name_that_looks_like_one_at_the_table_is_taken(name: str) -> None:
    table = Log({"seats": 4}).table
    table.apply(table.join_event("Asha", "t1"))
    with pytest.raises(TableError) as taken:
        table.join_event(name, "t2")
    assert taken.value.code == "name/taken", name
    assert table.join_event("Usha", "t2").name == "Usha"
    assert name_key("सुनिता") != name_key("सनिता")  # a vowel sign makes another name


def test_joiners_stay_but_do_not_make_a_name_new() -> None:
    assert clean_name("क्\u200dष") == "क्\u200dष"
    assert name_key("क्\u200dष") == name_key("क्ष") == name_key("क्\u200cष")
    assert name_key("ASHA") == name_key("asha")


def test_unknown_settings_are_refused_and_rules_at_the_top_level_are_taken() -> None:
    with pytest.raises(TableError) as info:
        Settings.from_json({"seats": 4, "colour_scheme": "red"})
    assert info.value.code == "settings/unknown" and "colour_scheme" in info.value.reason
    assert Settings.from_json({"starting_chips": 500}).rules["starting_chips"] == 500


def test_a_timeout_and_chips_handed_back_are_in_the_state() -> None:
    # Two seats of 30 chips: the timer packs the first player of hand 1; in hand 2 the richer
    # player raises and the other can only go all in for less: the raise's top goes back.
    log = Log({"seats": 2, "rules": {"preset": "nepal", "starting_chips": 30}})
    table = log.table
    log.commit(table.join_event("B", "t1"))
    log.commit(table.start_event(0, SEED))
    log.commit(table.hand_event(NEXT_SEED))
    assert table.game is not None and table.game.hand is not None
    first = table.game.hand.actor
    log.commit(table.act_event(first, read(Move, {"do": "pack"}, "action"), by="timer"))
    packed = as_sent.state(table, None)["hand"]["actions"]
    assert packed == [{"seat": first, "do": "pack", "paid": 0, "stake": 10, "timeout": True}]
    assert as_sent.state(log.rebuilt(), None)["hand"]["actions"] == packed  # it is in the log
    log.commit(table.hand_event(SEED))
    assert as_sent.state(table, None)["hand"]["actions"] == []  # a new hand starts clean
    rich = table.game.hand.actor
    assert rich == 1 - first
    log.commit(table.act_event(rich, read(Move, {"do": "raise"}, "action")))
    log.commit(table.act_event(first, read(Move, {"do": "allin"}, "action")))
    hand = as_sent.state(table, None)["hand"]
    assert "timeout" not in hand["actions"][0]
    assert hand["finished"]
    main, back = hand["pots"]
    assert (main["amount"], main["returned"]) == (40, False)
    assert back == {"amount": 10, "winners": [rich], "returned": True}


def test_past_hands_credit_the_seat_holder_of_the_time_and_show_timeouts() -> None:
    # A computer plays seat 2 in hand 1; Dipa arrives late and takes it from hand 2. Hand 1's
    # history still names the computer, as a computer, hand 2's names Dipa; the timer's move
    # reads as a timeout. Bina leaves after hand 2: hand 3's seat 1 is the computer's.
    log = Log({"seats": 3, "preset": "nepal", "hands": 10})
    table = log.table
    log.commit(table.join_event("Bina", "t1"))
    log.commit(table.start_event(0, SEED))
    log.commit(table.hand_event(NEXT_SEED))
    computer = table.seats[2].name
    log.commit(table.join_event("Dipa", "t2"))  # during hand 1: the computer plays it on
    assert table.game is not None and table.game.hand is not None
    first = table.game.hand.actor
    log.commit(table.act_event(first, read(Move, {"do": "pack"}, "action"), by="timer"))
    while table.hand_in_play:
        actor = table.game.hand.actor
        log.commit(table.act_event(actor, read(Move, {"do": "pack"}, "action")))
    log.commit(table.hand_event(SEED))
    assert table.seats[2].name == "Dipa"
    while table.hand_in_play:
        log.commit(table.act_event(table.game.hand.actor, read(Move, {"do": "pack"}, "action")))
    log.commit(table.leave_event(1))
    log.commit(table.hand_event(NEXT_SEED))
    while table.hand_in_play:
        log.commit(table.act_event(table.game.hand.actor, read(Move, {"do": "pack"}, "action")))
    for built in (table, log.rebuilt()):
        one, two, three = built.histories(0)
        assert [s["name"] for s in one["seats"]] == ["Host", "Bina", computer]
        assert [s["name"] for s in two["seats"]] == ["Host", "Bina", "Dipa"]
        assert [s["name"] for s in three["seats"]] == ["Host", "Bina", "Dipa"]
        assert [[s.get("computer", False) for s in h["seats"]] for h in (one, two, three)] == [
            [False, False, True],
            [False, False, False],
            [False, True, False],
        ]
        assert one["actions"][0] == {**one["actions"][0], "seat": first, "timeout": True}
        assert not any("timeout" in a for a in one["actions"][1:] + two["actions"])


def test_a_removal_holds_until_the_host_lets_back_or_the_next_game() -> None:
    log = Log({"seats": 3, "preset": "limited", "hands": 1})
    table = log.table
    log.commit(table.join_event("Bina", "t1"))
    log.commit(table.start_event(0, SEED))
    log.commit(table.remove_event(0, 1))
    for name, was in (("Bina", None), ("bina", None), ("Other", "t1")):
        with pytest.raises(TableError) as refused:
            table.join_event(name, "t2", was)
        assert refused.value.code == "seat/removed"
    assert as_sent.state(table, None)["removed"] == ["Bina"]
    with pytest.raises(TableError) as refused:
        table.readmit_event(1, "Bina")  # the seat is the computer's now: not the host
    assert refused.value.code == "table/not_host"
    log.commit(table.hand_event(NEXT_SEED))
    while table.hand_in_play:
        assert table.game is not None and table.game.hand is not None
        log.commit(table.act_event(table.game.hand.actor, read(Move, {"do": "pack"}, "action")))
    assert table.status == "finished"
    assert log.rebuilt().barred == table.barred != {}
    log.commit(*table.again_event(0, SEED))  # a new game: the removal is over
    assert table.barred == {} and "removed" not in as_sent.state(table, None)
    assert isinstance(table.join_event("Bina", "t2", "t1"), Seated)


def _bust_seat_two(until: int) -> Log:
    """A three-seat table of 10 chips a player (boot 5) where everyone packs: after hand 2, seat
    2 is out of chips and the others still have some."""
    log = Log(
        {
            "seats": 3,
            "preset": "nepal",
            "boot": 5,
            "starting_chips": 10,
            "hands": 10,
            "rebuy_chips": 50,
            "rebuy_until_hand": until,
        }
    )
    table = log.table
    log.commit(table.join_event("Bina", "t1"))
    log.commit(table.join_event("Chandra", "t2"))
    log.commit(table.start_event(0, SEED))
    for n in (1, 2):
        log.commit(table.hand_event(hashlib.sha256(b"%d" % n).digest()))
        while table.hand_in_play:
            assert table.game is not None and table.game.hand is not None
            log.commit(table.act_event(table.game.hand.actor, read(Move, {"do": "pack"}, "action")))
    assert table.game is not None and table.game.chips == [15, 15, 0]
    return log


def test_a_player_out_of_chips_is_told_and_may_buy_back_in() -> None:
    log = _bust_seat_two(until=4)
    table = log.table
    assert as_sent.state(table, 2)["out"] is True
    assert as_sent.state(table, 2)["rebuy"] == {"chips": 50, "left": 1, "until": 4}
    assert "rebuy" not in as_sent.state(table, 0) and "out" not in as_sent.state(table, 0)
    assert "rebuy" not in as_sent.state(table, None) and "rebuys" not in as_sent.state(table, None)
    # A client that lies: a rebuy with chips in hand, or from a spectator, changes nothing.
    for seat, code in ((0, "rebuy/has_chips"), (None, "table/not_seated")):
        with pytest.raises(Refusal) as refused:
            table.rebuy_event(seat)
        assert refused.value.code == code
    log.commit(table.rebuy_event(2))
    assert table.game is not None and table.game.chips == [15, 15, 50]
    assert "out" not in as_sent.state(table, 2) and as_sent.state(table, None)["rebuys"] == [
        0,
        0,
        1,
    ]
    with pytest.raises(Refusal) as twice:
        table.rebuy_event(2)
    assert twice.value.code == "rebuy/has_chips"
    rebuilt = log.rebuilt()
    assert rebuilt.game is not None and rebuilt.game.chips == [15, 15, 50]
    assert as_sent.state(rebuilt, 2) == as_sent.state(table, 2)


def test_a_rebuy_during_a_hand_is_no_longer_out() -> None:
    log = _bust_seat_two(until=4)
    table = log.table
    log.commit(table.hand_event(hashlib.sha256(b"3").digest()))  # hand 3: seat 2 sits it out
    assert table.hand_in_play and as_sent.state(table, 2)["out"] is True
    log.commit(table.rebuy_event(2))
    assert "out" not in as_sent.state(table, 2) and "rebuy" not in as_sent.state(table, 2)
    assert as_sent.state(log.rebuilt(), 2) == as_sent.state(table, 2)


def test_no_rebuy_after_the_last_hand_for_rebuys() -> None:
    log = _bust_seat_two(until=2)  # hand 3 is next: past the last hand a rebuy may play
    table = log.table
    state = as_sent.state(table, 2)
    assert state["out"] is True and "rebuy" not in state
    with pytest.raises(Refusal) as late:
        table.rebuy_event(2)
    assert late.value.code == "rebuy/over"
