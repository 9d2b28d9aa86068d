"""Games: a run of hands from one seed, the deal moving round, the end, and the standings."""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest

from teenpatti.engine import (
    Action,
    ActionKind,
    Game,
    IllegalAction,
    LegalAction,
    Rules,
    RulesError,
    replay,
)

K = ActionKind
SEED = hashlib.sha256(b"a game").digest()
NAMES = ["Asha", "Bikash", "Chandra", "Dipa"]


def choose(rnd: random.Random, seat: int, legal: list[LegalAction]) -> Action:
    weighted = [a for a in legal for _ in range(1 if a.kind is K.PACK else 3)]
    option = rnd.choice(weighted)
    amount = None
    if option.kind is K.CHAAL and option.max_cost > option.cost:
        amount = rnd.randint(option.cost, option.max_cost)
    target = rnd.choice(option.targets) if option.kind is K.SIDESHOW else None
    return Action(seat, option.kind, amount, target)


def play_hand(game: Game, rnd: random.Random) -> None:
    hand = game.hand
    assert hand is not None
    while not hand.finished:
        seat = hand.to_act if hand.waiting_for is None else hand.waiting_for
        assert seat is not None
        game.apply(choose(rnd, seat, hand.legal_actions(seat)))


def play_game(rules: Rules, names: list[str], seed: bytes, policy: int = 7) -> Game:
    game = Game(rules, names, seed)
    rnd = random.Random(policy)
    while not game.finished:
        game.start_hand()
        play_hand(game, rnd)
    return game


def test_a_game_with_a_seed_is_deterministic() -> None:
    rules = Rules.from_options({"hands": 10})
    first = play_game(rules, NAMES, SEED)
    second = play_game(rules, NAMES, SEED)
    assert first.histories == second.histories
    assert first.chips == second.chips
    assert first.hands_played == 10
    other = play_game(rules, NAMES, hashlib.sha256(b"another game").digest())
    assert [h["seats"] for h in other.histories] != [h["seats"] for h in first.histories]


def test_hand_seeds_come_from_the_game_seed() -> None:
    game = Game(Rules(), NAMES[:3], SEED)
    hand = game.start_hand()
    assert hand.seed == game.hand_seed(1)
    assert game.hand_seed(1) != game.hand_seed(2)
    assert Game(Rules(), NAMES[:3], SEED).hand_seed(2) == game.hand_seed(2)
    own = bytes(range(32))
    game2 = Game(Rules(), NAMES[:3], SEED)
    assert game2.start_hand(own).seed == own


def test_histories_replay_to_the_same_results() -> None:
    rules = Rules.from_options({"preset": "classic", "hands": 6, "boot": 5})
    game = play_game(rules, NAMES, SEED, policy=3)
    assert len(game.histories) == game.hands_played > 0
    for history in game.histories:
        assert history["format"] == "teenpatti-hand/1"
        assert [s["name"] for s in history["seats"]] == NAMES
        assert replay(history).to_json() == history["result"]
        assert history["result"]["finished"] is True
    assert game.histories[-1]["result"]["chips"] == game.chips
    assert sum(game.chips) == 4 * rules.starting_chips


def test_chips_carry_from_hand_to_hand() -> None:
    rules = Rules.from_options({"preset": "limited", "hands": 5})
    game = Game(rules, NAMES[:3], SEED)
    rnd = random.Random(1)
    before = list(game.chips)
    while not game.finished:
        hand = game.start_hand()
        assert hand.start_chips == before
        play_hand(game, rnd)
        before = list(hand.chips)
        assert game.chips == before


def test_the_deal_moves_in_the_direction_of_play() -> None:
    for direction, dealers in (("anticlockwise", [0, 3, 2, 1, 0]), ("clockwise", [0, 1, 2, 3, 0])):
        rules = Rules.from_options(
            {"preset": "club", "boot": 1, "hands": 5, "direction": direction}
        )
        game = Game(rules, NAMES, SEED)
        rnd = random.Random(5)
        seen = []
        while not game.finished:
            hand = game.start_hand()
            seen.append(hand.dealer)
            play_hand(game, rnd)
        assert all(c > 0 for c in game.chips)  # nobody went out with this seed
        assert seen == dealers


def test_game_ends_early_when_one_seat_holds_every_chip() -> None:
    # Everyone's chips are one boot: every hand is all in at the boot.
    rules = Rules.from_options({"preset": "club", "boot": 5, "starting_chips": 5, "hands": 30})
    game = Game(rules, NAMES[:3], SEED)
    while not game.finished:
        hand = game.start_hand()
        assert hand.finished and hand.ended_by == "all_in"
    assert game.hands_played < 30
    assert sorted(game.chips) == [0, 0, 15]
    assert game.standings()[0].chips == 15
    assert [s.place for s in game.standings()] == [1, 2, 2]
    with pytest.raises(IllegalAction) as info:
        game.start_hand()
    assert info.value.code == "game/over"


def test_a_seat_with_no_chips_is_not_dealt() -> None:
    rules = Rules.from_options({"preset": "club", "boot": 5, "starting_chips": 20, "hands": 30})
    checked = 0
    for n in range(20):
        game = Game(rules, NAMES, hashlib.sha256(b"%d" % n).digest())
        rnd = random.Random(n)
        while not game.finished:
            out = [s for s, c in enumerate(game.chips) if c == 0]
            hand = game.start_hand()
            for seat in out:
                assert not hand.dealt[seat]
                assert hand.cards[seat] is None
                assert hand.contributed[seat] == 0
                assert seat not in hand.players_in
                checked += 1
            play_hand(game, rnd)
            for seat in out:
                assert hand.chips[seat] == 0
                assert all(a.seat != seat for a in hand.log)
    assert checked > 0


def test_standings_share_places_on_equal_chips() -> None:
    game = Game(Rules(), NAMES, SEED)
    assert [(s.place, s.seat, s.chips) for s in game.standings()] == [
        (1, 0, 1000),
        (1, 1, 1000),
        (1, 2, 1000),
        (1, 3, 1000),
    ]
    game.chips = [500, 1500, 500, 1500]
    assert [(s.place, s.seat, s.name, s.chips) for s in game.standings()] == [
        (1, 1, "Bikash", 1500),
        (1, 3, "Dipa", 1500),
        (3, 0, "Asha", 500),
        (3, 2, "Chandra", 500),
    ]
    game.chips = [0, 3000, 500, 500]
    assert [(s.place, s.seat) for s in game.standings()] == [(1, 1), (2, 2), (2, 3), (4, 0)]


def test_duo_first_player_alternates() -> None:
    game = Game(Rules.from_options({"preset": "duo"}), NAMES[:2], SEED)
    rnd = random.Random(2)
    firsts = []
    while not game.finished:
        hand = game.start_hand()
        firsts.append(hand.first)
        play_hand(game, rnd)
    assert len(firsts) == 10
    assert firsts == [(1 + k) % 2 for k in range(len(firsts))]


def test_the_game_ends_after_its_hands() -> None:
    rules = Rules.from_options({"preset": "club", "hands": 3})
    game = play_game(rules, NAMES, SEED)
    assert game.finished
    assert game.hands_played <= 3
    if game.hands_played < 3:
        assert sum(1 for c in game.chips if c > 0) == 1


def test_start_hand_and_apply_errors() -> None:
    game = Game(Rules(), NAMES[:3], SEED)
    with pytest.raises(IllegalAction) as info:
        game.apply(Action(2, K.CHAAL))
    assert info.value.code == "hand/over"
    hand = game.start_hand()
    assert game.hand_number == 1
    with pytest.raises(IllegalAction) as info:
        game.start_hand()
    assert info.value.code == "game/hand_in_play"
    assert game.hand is hand
    with pytest.raises(IllegalAction) as info:
        game.apply(Action(0, K.CHAAL))  # not seat 0's turn
    assert info.value.code == "turn/not_yours"
    assert hand.log == []
    game.apply(Action(2, K.PACK))
    game.apply(Action(1, K.PACK))
    assert hand.finished and game.hands_played == 1
    with pytest.raises(IllegalAction) as info:
        game.apply(Action(0, K.CHAAL))
    assert info.value.code == "hand/over"
    assert game.chips == [1020, 990, 990]
    assert game.dealer == 2


@pytest.mark.parametrize(
    ("options", "names", "kwargs", "error"),
    [
        ({"preset": "classic"}, NAMES[:2], {}, IllegalAction),
        ({"preset": "duo"}, NAMES[:3], {}, IllegalAction),
        ({}, NAMES[:1], {}, IllegalAction),
        ({}, NAMES[:3], {"dealer": 3}, IllegalAction),
        ({}, NAMES[:3], {"seed": b"short"}, ValueError),
    ],
)
def test_game_set_up_errors(
    options: dict[str, Any], names: list[str], kwargs: dict[str, Any], error: type[Exception]
) -> None:
    seed = kwargs.pop("seed", SEED)
    with pytest.raises(error):
        Game(Rules.from_options(options), names, seed, **kwargs)


def test_a_history_may_list_cards_one_by_one() -> None:
    from teenpatti.engine import replay

    as_text = {
        "format": "teenpatti-hand/1",
        "rules": {"preset": "nepal"},
        "dealer": 1,
        "seats": [
            {"name": "A", "chips": 1000, "cards": "Ah 2d 3c"},
            {"name": "B", "chips": 1000, "cards": "Kh Qh Jd"},
        ],
        "actions": [{"seat": 0, "do": "chaal"}, {"seat": 1, "do": "pack"}],
    }
    as_lists = {**as_text, "seats": [{**s, "cards": s["cards"].split()} for s in as_text["seats"]]}
    assert replay(as_lists) == replay(as_text)
    assert replay(as_lists).to_json()["chips"] == [1010, 990]
    broken = {
        **as_text,
        "seats": [{**as_text["seats"][0], "cards": ["Ah", 2, "3c"]}, as_text["seats"][1]],
    }
    assert replay(broken).to_json()["error"]["code"] == "history/format"


def test_rebuys_are_checked_counted_and_ranked_net() -> None:
    with pytest.raises(IllegalAction) as off:
        Game(Rules(), NAMES, SEED).rebuy(0)
    assert off.value.code == "rebuy/off"
    rules = Rules.from_options({"rebuy_chips": 300, "rebuy_until_hand": 10})
    game = Game(rules, NAMES, SEED)
    for seat, code in ((0, "rebuy/has_chips"), (7, "seat/unknown"), (-1, "seat/unknown")):
        with pytest.raises(IllegalAction) as refused:
            game.check_rebuy(seat)
        assert refused.value.code == code
    game.chips = [0, 1400, 1300, 1300]
    assert game.rebuy(0) == 300 and game.chips[0] == 300 and game.rebuys == [1, 0, 0, 0]
    game.chips[0] = 0
    with pytest.raises(IllegalAction) as used:  # one rebuy a game (rebuys_max 1)
        game.rebuy(0)
    assert used.value.code == "rebuy/used"
    # During a hand, the chips bought play from the next hand.
    game.chips = [0, 1000, 1000, 2000]
    game.rebuys = [1, 0, 0, 0]
    game.start_hand()
    game.chips[1] = 0  # (what the table holds between hands; the hand keeps its own)
    assert game.hand is not None and not game.hand.dealt[0]
    with pytest.raises(IllegalAction) as still:  # seat 1 still has chips in the hand
        game.rebuy(1)
    assert still.value.code == "rebuy/has_chips"
    # Standings rank by chips less those bought: 1,300 with a rebuy of 300 is 1,000.
    game = Game(rules, NAMES, SEED)
    game.chips = [1300, 1100, 1000, 600]
    game.rebuys = [1, 0, 0, 0]
    rows = [(s.place, s.seat, s.chips, s.rebuys, s.net) for s in game.standings()]
    assert rows == [
        (1, 1, 1100, 0, None),
        (2, 0, 1300, 1, 1000),
        (2, 2, 1000, 0, None),
        (4, 3, 600, 0, None),
    ]
    # The last hand a rebuy may play from has been dealt: rebuys are over.
    game.hands_played = 10
    game.chips[3] = 0
    with pytest.raises(IllegalAction) as late:
        game.rebuy(3)
    assert late.value.code == "rebuy/over"


def test_rebuy_options_are_checked() -> None:
    for options, key in (
        ({"rebuys_max": 2}, "rebuys_max"),
        ({"rebuy_until_hand": 3}, "rebuy_until_hand"),
        ({"rebuy_chips": 0}, "rebuy_chips"),
        ({"rebuy_chips": 100, "rebuys_max": 0}, "rebuys_max"),
        ({"rebuy_chips": 100, "rebuy_until_hand": 21}, "rebuy_until_hand"),
        ({"rebuy_chips": "lots"}, "rebuy_chips"),
    ):
        with pytest.raises(RulesError) as refused:
            Rules.from_options(options)
        assert refused.value.code == f"rules/{key}", options
