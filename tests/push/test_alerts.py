"""Which alerts a change of a table makes (``teenpatti.push.alerts``, pure): each kind, to whom,
and the keys that name them for good."""

from __future__ import annotations

from teenpatti.push.alerts import Facts, alerts_between

PEOPLE = (("h0", "Asha"), ("h1", "Bikash"))


def facts(
    status: str = "playing", games: int = 1, turn: tuple[int, ...] | None = None, **kw: object
) -> Facts:
    base: dict[str, object] = {
        "anytime": True,
        "status": status,
        "games": games,
        "turn": None if turn is None else (*turn[:4], f"h{turn[3]}"),
        "people": PEOPLE,
    }
    base.update(kw)
    return Facts(**base)  # type: ignore[arg-type]


def summary(before: Facts, after: Facts) -> list[tuple[str, str, tuple[str, ...]]]:
    return [(a.kind, a.key, a.holders) for a in alerts_between(before, after)]


def test_a_turn_goes_to_its_holder_once_per_turn() -> None:
    before, after = facts(turn=(1, 1, 0, 1)), facts(turn=(1, 1, 1, 0))
    assert summary(before, after) == [("turn", "turn:1:1:1:0", ("h0",))]
    assert summary(after, after) == []  # a chat message, a vote: the same turn
    assert summary(after, facts(turn=None)) == []  # the computer to act


def test_a_game_starts_and_ends_for_everyone() -> None:
    waiting = facts(status="waiting", games=0)
    assert summary(waiting, facts()) == [("start", "start:1", ("h0", "h1"))]
    assert summary(facts(), facts(status="finished")) == [("end", "end:1", ("h0", "h1"))]
    again = facts(games=2)
    assert summary(facts(status="finished"), again) == [("start", "start:2", ("h0", "h1"))]


def test_someone_joins_and_the_others_are_told() -> None:
    alone = facts(status="waiting", games=0, people=PEOPLE[:1])
    assert summary(alone, facts(status="waiting", games=0)) == [("join", "join:h1", ("h0",))]
    # someone leaving tells nobody
    assert summary(facts(status="waiting", games=0), alone) == []


def test_a_live_table_alerts_nobody() -> None:
    assert (
        summary(facts(anytime=False, turn=(1, 1, 0, 1)), facts(anytime=False, turn=(1, 1, 1, 0)))
        == []
    )
