"""The page's "Check this deal" (static/js/fair.js, WebCrypto under Node) agrees with
``teenpatti verify`` on whole games under several rules, on the histories a player is given
during the game, and on every kind of tampering: the same hands pass, the same hands fail."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from teenpatti.engine import Action, Rules
from teenpatti.engine.deck import Shuffle
from teenpatti.engine.game import Game
from teenpatti.engine.history import verify_deal

ROOT = Path(__file__).resolve().parents[2]
JS = ROOT / "teenpatti" / "web" / "static" / "js"
GAMES = [
    {"preset": "classic", "hands": 4},
    {"preset": "nepal", "hands": 10},
    {"preset": "limited", "hands": 3, "variant": "wild_rank"},
    {"preset": "limited", "hands": 3, "variant": "jokers"},
]


def play(options: dict[str, Any], seats: int = 4) -> Game:
    """A whole game dealt with teenpatti-deck/2: seats 0 and 2 send parts, the others do not."""
    rules = Rules.from_options(options)
    game = Game(rules, [f"P{i}" for i in range(seats)], bytes(32))
    k = 0
    while not game.finished:
        k += 1
        parts = tuple(
            hashlib.sha256(b"part %d %d" % (k, s)).digest() if s % 2 == 0 else None
            for s in range(seats)
        )
        hand = game.start_hand(Shuffle(hashlib.sha256(b"s %d" % k).digest(), parts))
        moves = 0
        while not hand.finished:
            seat = hand.actor
            assert seat is not None
            if not hand.seen[seat] and moves % 2 == 0:
                hand.see(seat)
            legal = [a for a in hand.legal_actions(seat) if a.kind.value != "see"]
            choice = legal[(moves * 5 + k) % len(legal)]
            target = choice.targets[0] if choice.kind.value == "sideshow" else None
            game.apply(Action(seat, choice.kind, None, target))
            moves += 1
    return game


def flip(text: str) -> str:
    return ("1" if text[0] == "0" else "0") + text[1:]


def tampered(history: dict[str, Any]) -> list[dict[str, Any]]:
    """The same hand changed each way a cheat might: the secret, a part, the root, a card."""
    out = []
    for change in ("secret", "part", "root", "card", "dropped"):
        bad = copy.deepcopy(history)
        if change == "secret":
            bad["secret"] = flip(bad["secret"])
        elif change == "part":
            bad["contributions"][0] = flip(bad["contributions"][0])
        elif change == "dropped":
            bad["contributions"][0] = None
        elif change == "root":
            bad["cards_root"] = flip(bad["cards_root"])
        else:
            a, b = bad["seats"][0], bad["seats"][1]
            a["cards"], b["cards"] = b["cards"], a["cards"]
        out.append(bad)
    return out


def test_the_page_and_teenpatti_verify_agree(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node is not installed (scripts/test installs it)")
        pytest.skip("Node is not installed")
    cases: list[dict[str, Any]] = []
    for options in GAMES:
        game = play(options)
        rules = game.rules.options()
        for k, history in enumerate(game.histories):
            cases.append({"rules": rules, "history": history})
            if k == 0:
                cases += [{"rules": rules, "history": bad} for bad in tampered(history)]
        for seat in (0, 1, None):  # what a player (or anyone) is given during the game
            for history in game.histories_for(seat, reveal=False)[:3]:
                cases.append({"rules": rules, "history": history})
        during = game.histories_for(0, reveal=False)[0]
        mine = during["seats"][0]["cards"].split()
        mine[0] = "As" if mine[0] != "As" else "Ks"
        cases.append(
            {
                "rules": rules,
                "history": {
                    **during,
                    "seats": [
                        {**during["seats"][0], "cards": " ".join(mine)},
                        *during["seats"][1:],
                    ],
                },
            }
        )
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    out = subprocess.run(
        [node, str(Path(__file__).with_name("fair.mjs")), str(JS), str(path)],
        capture_output=True,
        check=True,
        timeout=120,
    )
    page = json.loads(out.stdout)
    python = [verify_deal(case["history"]).to_json() for case in cases]
    assert len(page) == len(python)
    for case, ours, theirs in zip(cases, page, python, strict=True):
        assert ours["verified"] == theirs["verified"], (case["history"].get("hand"), ours, theirs)
        assert ours.get("complete") == theirs.get("complete")
        if not theirs["verified"] and "dealt" in theirs["reason"]:
            assert ours["reason"] == theirs["reason"]
    verdicts = [r["verified"] for r in python]
    assert verdicts.count(False) == 5 * len(GAMES) + len(GAMES)  # every tampering caught
