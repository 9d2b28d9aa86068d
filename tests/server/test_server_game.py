"""Games through a real ``teenpatti serve`` process on loopback, with real WebSocket clients: a
whole 10-hand game at a 6-seat table (four clients, two computer players), a reconnect in the
middle of a hand, two copies of one move at the same instant, the computer table, spectators, and
playing again. Every message every client gets is checked by the ``ws`` fixture (no card a seat
may not see); the full game also checks the cards clients saw against the hand histories, and
runs ``teenpatti verify`` and ``teenpatti replay`` on them."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from support.server import NO_MESSAGE_LIMIT, steady

if TYPE_CHECKING:
    from support.server import Api, Client, Server

Run = Callable[..., Any]
MakeClient = Callable[..., "Client"]
Cli = Callable[..., subprocess.CompletedProcess[str]]

NAMES = ["<b>x</b>", 'Bikash & "Co"', "दीपा 🂡", "<i>Hari</i>&amp;"]
"""The people of the full game: HTML and non-ASCII, kept and echoed as typed."""
MOVE = ("seat", "do", "amount", "with")
"""The keys of a move as played (the rest of a log entry is what it did)."""


def finished(state: dict[str, Any]) -> bool:
    return bool(state["status"] == "finished")


def newer(version: int) -> Callable[[dict[str, Any]], bool]:
    return lambda state: bool(state["version"] > version)


# ---------------------------------------------------------------------- the full game
def test_full_game_four_clients_two_computers(
    server: Server, api: Api, ws: MakeClient, arun: Run, cli: Cli, tmp_path: Path
) -> None:
    clients, spectator, hands, info = arun(_full_game(server, api, ws), 80)
    code = info["code"]
    # The people's names come back byte-identical, in the lobby, in states and in histories.
    assert [s["name"] for s in info["seats"][:4]] == NAMES
    assert [h["seats"][i]["name"] for h in hands[:1] for i in range(4)] == NAMES
    for name in NAMES:  # as JSON text, not escaped for HTML
        assert json.dumps(name, ensure_ascii=False) in clients[0].raw[0]
    assert [s["bot"] for s in info["seats"]] == [False] * 4 + [True] * 2

    # Every client was sent every version, in order: nothing missed.
    for client in [*clients, spectator]:
        versions = [m["version"] for m in client.states()]
        assert versions == sorted(versions), client.label
        assert set(versions) == set(range(versions[0], versions[-1] + 1)), client.label

    # The cards clients saw were the real ones; commitments came before the deal and match.
    seen_cards = 0
    for client in [*clients, spectator]:
        for state in client.states():
            hand = state["hand"]
            number = hand["number"] if hand else 0
            if state["status"] == "waiting":
                assert "next_commitment" not in state  # nothing is dealt before the start
            elif number < len(hands):
                assert state["next_commitment"] == hands[number]["commitment"], state["version"]
            if hand is None:
                continue
            history = hands[number - 1]
            assert hand["commitment"] == history["commitment"]
            assert hand["secret"] in (None, history["secret"])
            assert hand["cards_root"] == history["cards_root"]
            for row in state["seats"]:
                if row["cards"] is not None:
                    seen_cards += 1
                    assert " ".join(row["cards"]) == history["seats"][row["seat"]]["cards"], (
                        client.label,
                        state["version"],
                        row["seat"],
                    )
    assert seen_cards > 0

    # The checkers that ran on every message and history catch what they are there for.
    _check_the_checker(clients[1], spectator)
    leaks = spectator.check_histories(hands, 0, finished=False)
    assert any("secret" in p for p in leaks) and any("were not shown" in p for p in leaks)

    # The public action list and the result of each hand, as the spectator last saw it.
    last_of: dict[int, dict[str, Any]] = {}
    for state in spectator.states():
        if state["hand"] is not None:
            last_of[state["hand"]["number"]] = state
    assert sorted(last_of) == list(range(1, len(hands) + 1))
    for number, state in last_of.items():
        history = hands[number - 1]
        assert state["hand"]["finished"]
        assert state["hand"]["actions"] == history["actions"]
        assert [r["chips"] for r in state["seats"]] == history["result"]["chips"]
        assert state["hand"]["ended_by"] == history["result"]["ended_by"]

    # The standings: the same for everyone, by chips, and the chips of the last hand.
    final = spectator.latest
    assert final is not None and finished(final)
    standings = final["standings"]
    for client in clients:
        assert client.latest is not None and client.latest["standings"] == standings
    assert sorted(s["seat"] for s in standings) == list(range(6))
    chips = hands[-1]["result"]["chips"]
    assert [s["chips"] for s in standings] == sorted(chips, reverse=True)
    assert sum(chips) == 6 * 1000
    assert len(hands) == 10 or max(chips) == 6 * 1000
    for s in standings:
        assert s["chips"] == chips[s["seat"]]
        assert s["place"] == 1 + sum(1 for c in chips if c > s["chips"])

    # The histories verify (the deal came from the committed seed) and replay to their results.
    path = tmp_path / f"{code}.json"
    path.write_text(json.dumps(hands, ensure_ascii=False), encoding="utf-8")
    verified = cli("verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr
    lines = [json.loads(line) for line in verified.stdout.splitlines()]
    assert len(lines) == len(hands) and all(r["verified"] for r in lines)
    replayed = cli("replay", str(path))
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert [json.loads(line) for line in replayed.stdout.splitlines()] == [
        h["result"] for h in hands
    ]

    # A tampered copy does not verify: one card changed, or another seed.
    for tamper in (_swap_a_card, _other_seed):
        copy = json.loads(json.dumps(hands))
        tamper(copy[-1])
        bad = tmp_path / f"{code}-{tamper.__name__}.json"
        bad.write_text(json.dumps(copy), encoding="utf-8")
        result = cli("verify", str(bad))
        assert result.returncode == 1, (tamper.__name__, result.stdout)
        assert json.loads(result.stdout.splitlines()[-1])["verified"] is False


def _check_the_checker(player: Client, spectator: Client) -> None:
    """Break real states the way a leaky server would: the checker must notice each time."""
    mid = [
        s
        for s in player.states()
        if s["hand"] and not s["hand"]["finished"] and s["seats"][player.seat]["seen"]
    ]
    assert mid, "the player never saw its cards in play"
    state = json.loads(json.dumps(mid[-1]))
    assert player.check(state, player.seat) == []
    other = next(r for r in state["seats"] if r["cards"] is None and r["dealt"])
    other["cards"], other["category"] = ["2c", "3c", "4c"], "pure_sequence"
    assert player.check(state, player.seat)  # another seat's hidden cards
    state = json.loads(json.dumps(mid[-1]))
    state["seats"][player.seat]["cards"] = state["seats"][player.seat]["category"] = None
    assert player.check(state, player.seat)  # its own seen cards withheld
    state = json.loads(json.dumps(mid[-1]))
    mine = state["seats"][player.seat]["cards"]
    mine[0] = next(r + "s" for r in "23456789TJQKA" if r + "s" not in mine)
    assert player.check(state, player.seat)  # a card that its proof does not prove
    assert player.check(mid[-1], None)  # a seat's view sent to a spectator
    watched = json.loads(json.dumps(next(s for s in spectator.states() if s["hand"])))
    watched["seats"][0]["cards"], watched["seats"][0]["category"] = ["Ah", "Kh", "Qh"], "colour"
    watched["hand"]["finished"] = False
    assert spectator.check(watched, None)


def _swap_a_card(hand: dict[str, Any]) -> None:
    """Give a seat another card (one nobody holds), as a cheat editing the file would."""
    held = {c for seat in hand["seats"] for c in seat["cards"].split()}
    seat = next(s for s in hand["seats"] if s["cards"])
    cards = seat["cards"].split()
    cards[0] = next(r + s for r in "23456789TJQKA" for s in "cdhs" if r + s not in held)
    seat["cards"] = " ".join(cards)


def _other_seed(hand: dict[str, Any]) -> None:
    seed = hand["secret"]
    hand["secret"] = ("0" if seed[0] != "0" else "1") + seed[1:]


async def _full_game(
    server: Server, api: Api, ws: MakeClient
) -> tuple[list[Client], Client, list[dict[str, Any]], dict[str, Any]]:
    host = await api.create(name=NAMES[0], seats=6, hands=10, turn_seconds=None)
    code = host["code"]
    seats = [host] + [await api.join(code, name) for name in NAMES[1:]]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    clients = [ws(server, code, i, f"player {i}") for i in range(4)]
    for client, seat in zip(clients, seats, strict=True):
        first = await client.hello(seat["token"])
        assert first["type"] == "state" and first["status"] == "waiting"
    spectator = ws(server, code, None, "spectator")
    await spectator.hello(None)
    await clients[0].send({"type": "start"})
    rngs = [random.Random(7919 * i + 1) for i in range(4)]
    auditor = ws(server, code, None, "auditor")
    await auditor.hello(None)
    tokens = [s["token"] for s in seats]
    *_, audited, _ = await asyncio.gather(
        *(
            c.play(rng, finished, timeout=70, contribute=True)
            for c, rng in zip(clients, rngs, strict=True)
        ),
        _audit_histories(api, code, tokens, auditor),
        spectator.state(finished, timeout=70),
    )
    assert audited > 0, "no history was given out during the game"
    hands = await api.hands(code)
    info = await api.info(code)
    assert info["status"] == "finished"
    # After the game every history is complete, for everyone (a seat token or none).
    for token in [*tokens, None]:
        got = await api.hands(code, token)
        assert got == hands and spectator.check_histories(got, None, finished=True) == []
    for client in [*clients, spectator]:
        await client.close()
    return clients, spectator, hands, info


async def _audit_histories(api: Api, code: str, tokens: list[str], auditor: Client) -> int:
    """Each time a hand ends during the game, ask every seat's hand histories and check that
    they hold only what the rules showed that seat (no secret, no packed hand, no unseen
    winner's, no side show it was not in). Returns how many histories were checked."""
    checked = 0
    done = 0
    while True:
        state = await auditor.state(
            lambda s: finished(s) or bool(s["hand"] and s["hand"]["finished"]), timeout=70
        )
        if finished(state):
            return checked
        if state["hand"]["number"] <= done:
            continue
        done = state["hand"]["number"]
        for seat, token in enumerate(tokens):
            histories = await api.hands(code, token)
            if (await api.info(code))["status"] != "playing":
                return checked  # the game ended meanwhile: these may be complete
            assert auditor.check_histories(histories, seat, finished=False) == []
            checked += len(histories)


# ---------------------------------------------------------------------- reconnect
def test_reconnect_mid_hand_gets_full_state_and_plays_on(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    arun(_reconnect(server, api, ws), 40)


async def _reconnect(server: Server, api: Api, ws: MakeClient) -> None:
    host = await api.create(name="Host", seats=3, preset="limited", hands=2, turn_seconds=None)
    code = host["code"]
    guest = await api.join(code, "Guest")
    a = ws(server, code, 0, "host")
    b = ws(server, code, 1, "guest")
    await a.hello(host["token"])
    await b.hello(guest["token"])
    await a.send({"type": "start"})
    guest_plays = asyncio.create_task(
        b.play(random.Random(5), finished, chooser=steady(b), timeout=15)
    )

    def mid_hand(state: dict[str, Any]) -> bool:
        hand = state["hand"]
        return bool(
            hand is not None
            and not hand["finished"]
            and hand["actor"] == 0
            and state["seats"][0]["seen"]
            and len(hand["actions"]) >= 3
        )

    before = await a.play(random.Random(1), mid_hand, chooser=steady(a), timeout=15)
    version = before["version"]
    assert before["seats"][0]["cards"] is not None and before["legal"]
    watcher = ws(server, code, None, "watcher")
    await watcher.hello(None)
    await a.close()
    # Everyone is told the host has gone, and nothing else happens: the table waits for the host
    # (it is the host's turn and there is no turn timer).
    gone = await watcher.state(lambda s: s["seats"][0]["connected"] is False)
    assert gone["version"] == version and gone["hand"]["actor"] == 0
    assert (await api.info(code))["version"] == version
    await watcher.close()

    again = ws(server, code, 0, "host again")
    first = await again.hello(host["token"])
    assert first["type"] == "state" and first["version"] == version
    assert again.public(first) == again.public(before)  # the whole state: cards, moves, chips
    assert first["seats"][0]["connected"] is True

    # ... and it plays on, from where it was, to the end of the game.
    await again.play(random.Random(2), finished, chooser=steady(again), timeout=15)
    await asyncio.wait_for(guest_plays, 10)
    hands = await api.hands(code)
    assert len(hands) == 2
    first_hand_actions = hands[before["hand"]["number"] - 1]["actions"]
    assert first_hand_actions[: len(before["hand"]["actions"])] == before["hand"]["actions"]
    assert not [e for c in (a, b, again) for e in c.errors()]
    for client in (b, again):
        await client.close()


# ---------------------------------------------------------------------- the same move twice
def test_same_move_at_the_same_instant_applies_once(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    arun(_same_instant(server, api, ws), 40)


async def _same_instant(server: Server, api: Api, ws: MakeClient) -> None:
    # Two people and no computer: after the host's move the table waits for the guest, so the
    # only thing that can change the table between the two copies is the first copy.
    host = await api.create(name="Host", seats=2, preset="limited", hands=1, turn_seconds=None)
    code = host["code"]
    guest = await api.join(code, "Guest")
    a1 = ws(server, code, 0, "host socket 1")
    a2 = ws(server, code, 0, "host socket 2")
    b = ws(server, code, 1, "guest")
    for client, token in ((a1, host["token"]), (a2, host["token"]), (b, guest["token"])):
        await client.hello(token)
    await a1.send({"type": "start"})

    async def host_turn() -> dict[str, Any]:
        """Let the guest move (see, then chaal) until the host is to act; the host's state."""
        while True:
            state = await b.sync()
            hand = state["hand"]
            if hand is not None and hand["actor"] == 0:
                return await a1.sync()
            if state["legal"]:
                do = "chaal" if state["seats"][1]["seen"] else "see"
                await b.send({"type": "act", "action": {"do": do}, "version": state["version"]})
            await b.state(newer(state["version"]))

    async def race(senders: list[Client], action: dict[str, Any], versioned: bool) -> str:
        """Send one move from each sender at once; exactly one applies: the code of the
        refusal the other got."""
        state = await host_turn()
        await a2.sync()
        version, actions = state["version"], state["hand"]["actions"]
        message: dict[str, Any] = {"type": "act", "action": action}
        if versioned:
            message["version"] = version
        marks = {c: len(c.messages) for c in (a1, a2)}
        await asyncio.gather(*(c.send(message) for c in senders))
        after = await a1.state(lambda s: s["version"] > version)
        assert after["version"] == version + 1
        moves = [{k: v for k, v in a.items() if k in MOVE} for a in after["hand"]["actions"]]
        assert moves == [{k: v for k, v in a.items() if k in MOVE} for a in actions] + [
            {"seat": 0, **action}
        ]
        for client in (a1, a2):
            await client.ping()  # answered after any reply to the two moves
        assert await b.ping() == version + 1  # the second copy changed nothing
        errors = [m for c in (a1, a2) for m in c.messages[marks[c] :] if m["type"] == "error"]
        assert len(errors) == 1, errors
        return str(errors[0]["code"])

    see, chaal = {"do": "see"}, {"do": "chaal"}
    assert await race([a1, a2], chaal, versioned=True) == "state/stale"
    assert await race([a1, a2], chaal, versioned=False) == "turn/not_yours"
    assert await race([a1, a2], see, versioned=False) == "see/already_seen"
    assert await race([a1, a1], chaal, versioned=True) == "state/stale"  # a racing duplicate
    assert await race([a2, a1], chaal, versioned=False) == "turn/not_yours"
    for client in (a1, a2, b):
        await client.close()


# ---------------------------------------------------------------------- the computer table
def test_play_against_the_computer_starts_at_once(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        host = await api.create(name="Asha", seats=4, computer=True, turn_seconds=None)
        code = host["code"]
        info = await api.info(code)
        assert info["status"] == "playing"
        assert [s["name"] for s in info["seats"]] == ["Asha", "Bikash", "Chandra", "Deepa"]
        assert [s["bot"] for s in info["seats"]] == [False, True, True, True]
        assert [s["person"] for s in info["seats"]] == [True, False, False, False]
        client = ws(server, code, 0, "host")
        first = await client.hello(host["token"])
        assert first["status"] == "playing"
        # No start: the computer deals and plays until the host has a move.
        state = first
        if not state["legal"]:
            state = await client.state(
                lambda s: bool(s["legal"]) or (s["hand"] is not None and s["hand"]["number"] > 1)
            )
        assert state["hand"] is not None
        refused = await client.request({"type": "start"})
        assert refused["code"] == "table/started"
        # A friend arriving late takes the first computer seat (the computer plays it until the
        # next hand is dealt).
        joined = await api.request("POST", f"/api/tables/{code}/join", json_body={"name": "Zed"})
        assert joined.status_code == 200 and joined.json()["seat"] == 1
        seat = (await client.state(lambda s: s["seats"][1]["name"] == "Zed"))["seats"][1]
        assert seat["person"] and (seat.get("late") or not seat["bot"])
        await client.close()

    arun(body(), 20)


# ---------------------------------------------------------------------- spectators
def test_spectator_sees_the_public_view_and_cannot_act(
    server: Server, api: Api, ws: MakeClient, arun: Run
) -> None:
    async def body() -> None:
        host = await api.create(name="Host", seats=2, preset="limited", hands=1, turn_seconds=None)
        code = host["code"]
        guest = await api.join(code, "Guest")
        spectator = ws(server, code, None, "spectator")
        first = await spectator.hello(None)
        assert first["you"] is None and first["legal"] == [] and first["status"] == "waiting"

        async def refusals() -> None:
            version = await spectator.ping()
            for message, code_ in (
                ({"type": "start"}, "table/not_host"),
                ({"type": "act", "action": {"do": "pack"}}, "table/not_seated"),
                ({"type": "act", "action": {"do": "see", "seat": 0}}, "table/not_seated"),
                ({"type": "again"}, "table/not_seated"),
            ):
                assert (await spectator.request(message))["code"] == code_
            assert await spectator.ping() == version

        await refusals()
        a = ws(server, code, 0, "host")
        b = ws(server, code, 1, "guest")
        await a.hello(host["token"])
        await b.hello(guest["token"])
        await a.send({"type": "start"})
        await spectator.state(lambda s: s["hand"] is not None)
        await refusals()
        # Both look and chaal, then one asks for a show: the spectator sees both hands turned
        # over (and, before, no card at all: the ws fixture checks every state).
        await asyncio.gather(
            a.play(random.Random(1), finished, chooser=steady(a), timeout=15),
            b.play(random.Random(2), finished, chooser=steady(b), timeout=15),
        )
        last = await spectator.state(finished)
        assert last["hand"]["ended_by"] == "show"
        assert all(row["cards"] is not None for row in last["seats"])
        hands = await api.hands(code)
        for row in last["seats"]:
            assert " ".join(row["cards"]) == hands[0]["seats"][row["seat"]]["cards"]
        assert not any(
            row["cards"] for s in spectator.states()[:-1] for row in s["seats"] if "cards" in row
        )
        for client in (a, b, spectator):
            await client.close()

    arun(body(), 30)


# ---------------------------------------------------------------------- again
def test_again_after_the_game_ends(server: Server, api: Api, ws: MakeClient, arun: Run) -> None:
    async def body() -> None:
        host = await api.create(
            name="Host", seats=2, preset="limited", hands=1, computer=True, turn_seconds=None
        )
        code = host["code"]
        a = ws(server, code, 0, "host")
        spectator = ws(server, code, None, "spectator")
        await a.hello(host["token"])
        await spectator.hello(None)

        def pack(state: dict[str, Any]) -> dict[str, Any]:
            return {"type": "act", "action": {"do": "pack"}, "version": state["version"]}

        over = await a.play(random.Random(1), finished, chooser=pack, timeout=15)
        assert [s["place"] for s in over["standings"]] in ([1, 2], [1, 1])
        assert len(await api.hands(code)) == 1
        assert (await spectator.request({"type": "again"}))["code"] == "table/not_seated"
        assert (await a.request({"type": "start"}))["code"] == "table/started"

        await a.send({"type": "again"})
        fresh = await a.state(lambda s: s["status"] == "playing")
        assert fresh["version"] == over["version"] + 1 and "standings" not in fresh
        assert fresh["hand"] is None or fresh["hand"]["number"] == 1
        assert (await a.request({"type": "again"}))["code"] == "table/in_play"
        dealt = await a.sync()
        if dealt["hand"] is None:
            dealt = await a.state(lambda s: s["hand"] is not None)
        starting = dealt["settings"]["rules"]["starting_chips"]
        assert sum(r["chips"] for r in dealt["seats"]) + dealt["hand"]["pot"] == 2 * starting
        assert (await api.info(code))["status"] == "playing"
        await a.play(random.Random(2), finished, chooser=pack, timeout=15)
        assert len(await api.hands(code)) == 1  # the histories of the current game
        for client in (a, spectator):
            await client.close()

    arun(body(), 30)


# ---------------------------------------------------------------------- the rules catalogue
def test_rules_catalogue_is_what_the_server_plays(server: Server, api: Api, arun: Run) -> None:
    """GET /api/rules serves the engine's catalogue with this server's limit on hands and the
    chat's phrases, reactions and longest text, and a table opened with any preset's options as
    the catalogue gives them plays exactly those options; a value a preset does not allow, or past
    the limit, is refused with the option's code."""
    from teenpatti.engine.rules import catalogue
    from teenpatti.tables.play.chat import EMOJI, PHRASES, TEXT_MAX
    from teenpatti.tables.play.table import HANDS_MAX

    async def body() -> None:
        response = await api.request("GET", "/api/rules")
        assert response.status_code == 200
        served = response.json()
        expected = json.loads(json.dumps(catalogue()))
        expected["options"]["hands"]["max"] = HANDS_MAX
        expected["chat"] = {"phrases": list(PHRASES), "emoji": list(EMOJI), "text_max": TEXT_MAX}
        assert served == expected
        assert set(served["presets"]) >= {"nepal", "classic", "club", "duo", "limited"}
        for name, preset in served["presets"].items():
            seats = min(6, preset["seats"]["max"])
            host = await api.create(
                name="Asha", seats=seats, rules={"preset": name, **preset["options"]}
            )
            rules = (await api.info(host["code"]))["settings"]["rules"]
            assert {k: rules[k] for k in preset["options"]} == preset["options"], name
        boots = served["presets"]["nepal"]["only"]["boot"]
        refused = await api.request(
            "POST", "/api/tables", json_body={"name": "Asha", "rules": {"boot": max(boots) + 1}}
        )
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "rules/boot"
        rules = {"preset": "club", "hands": served["options"]["hands"]["max"] + 1}
        refused = await api.request("POST", "/api/tables", json_body={"name": "A", "rules": rules})
        assert refused.status_code == 400
        assert refused.json()["error"]["code"] == "rules/hands"

    arun(body(), 20)


# ---------------------------------------------------------------------- the players' parts
PAUSED = (
    "--bot-delay",
    "0",
    "--result-pause",
    "3",
    "--lobby-rate",
    "1000,1000",
    "--lookup-misses",
    "1000,1000",
    *NO_MESSAGE_LIMIT,
)
"""A server that pauses between hands, as in production: the phones' parts come in the pause."""


def test_phones_parts_go_into_the_deals_and_a_late_one_is_refused(
    server_factory: Callable[..., Server],
    lobby_from: Callable[[Server, str], Api],
    ws: MakeClient,
    arun: Run,
    cli: Cli,
    tmp_path: Path,
) -> None:
    srv = server_factory(PAUSED)
    api = lobby_from(srv, "127.0.0.1")
    clients, hands, lates = arun(_parts_game(srv, api, ws), 60)
    accepted = 0
    for client, late in zip(clients, lates, strict=True):
        missing = 0
        for commitment, part in client.parts.items():
            dealt = [h for h in hands if h["commitment"] == commitment]
            assert len(dealt) == 1, commitment  # every part answered a hand that was dealt
            got = dealt[0]["contributions"][client.seat]
            assert got in (part, None)  # its own part, or the server's where it came late
            accepted += got == part
            missing += got is None
        assert missing == late, client.label
    assert accepted > 0, "no part came in time"
    assert all(h["contributions"][2] is None for h in hands)  # the computer's: the server's part
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(hands), encoding="utf-8")
    verified = cli("verify", str(path))
    assert verified.returncode == 0, verified.stdout + verified.stderr


async def _parts_game(
    srv: Server, api: Api, ws: MakeClient
) -> tuple[list[Client], list[dict[str, Any]], list[int]]:
    host = await api.create(name="Host", seats=3, preset="limited", hands=2, turn_seconds=None)
    code = host["code"]
    guest = await api.join(code, "Guest")
    clients = [ws(srv, code, 0, "host"), ws(srv, code, 1, "guest")]
    await clients[0].hello(host["token"])
    await clients[1].hello(guest["token"])
    await clients[0].send({"type": "start"})
    await asyncio.gather(
        *(
            c.play(random.Random(c.seat), finished, chooser=steady(c), contribute=True, timeout=50)
            for c in clients
        )
    )
    hands = await api.hands(code)
    lates = [sum(1 for e in c.errors() if e["code"] == "deal/late") for c in clients]
    # A part for a hand dealt already is refused with a code of its own, and changes nothing.
    version = await clients[1].ping()
    answer = await clients[1].request(
        {"type": "part", "for": hands[-1]["commitment"], "part": "ab" * 32}
    )
    assert answer["code"] == "deal/late"
    assert await clients[1].ping() == version
    for client in clients:
        await client.close()
    return clients, hands, lates
