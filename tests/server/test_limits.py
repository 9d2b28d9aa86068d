"""The lobby's limits and a socket's budget, on their own (the server tests drive them through
real sockets; these pin down the arithmetic)."""

from __future__ import annotations

import pytest

from teenpatti.web.edge import Budget, address_key
from teenpatti.web.limits import Lobby, Refused


def test_a_table_polled_again_within_a_second_is_not_counted_again() -> None:
    lobby = Lobby(rate=(0.001, 10.0), misses=(0.001, 10.0))
    for _ in range(10):
        lobby.check("203.0.113.1", "K7WQ3M", read=True)  # one charge: the same answer
    for code in ("K7WQ3N", "K7WQ3P", "K7WQ3Q", "K7WQ3R", "K7WQ3S", "K7WQ3T", "K7WQ3V", "K7WQ3W"):
        lobby.check("203.0.113.1", code, read=True)
    lobby.check("203.0.113.1", "K7WQ3X")  # a join is always counted: the tenth
    with pytest.raises(Refused) as refused:
        lobby.check("203.0.113.1", "K7WQ3Y", read=True)
    assert refused.value.code == "rate/limited" and refused.value.retry_after > 0
    lobby.check("203.0.113.2")  # another address has its own allowance


def test_one_table_is_capped_however_its_look_ups_are_counted() -> None:
    lobby = Lobby(rate=(0.001, 20.0), misses=(0.001, 10.0))
    results = []
    for _ in range(40):
        try:
            lobby.check("203.0.113.1", "K7WQ3M", read=True)
            results.append(True)
        except Refused:
            results.append(False)
    assert results == [True] * 20 + [False] * 20


def test_misses_refuse_every_look_up_until_they_refill() -> None:
    lobby = Lobby(rate=(100.0, 100.0), misses=(0.001, 3.0))
    for _ in range(3):
        lobby.check("2001:db8::1", "ZZZZZZ")
        lobby.missed("2001:db8::1")
    with pytest.raises(Refused) as refused:
        lobby.check("2001:db8::2", "K7WQ3M")  # the same /64, and a real code
    assert refused.value.code == "rate/lookups" and refused.value.retry_after > 100
    lobby.check("2001:db8:0:1::1", "K7WQ3M")  # another /64


def test_a_seat_token_has_its_own_allowance() -> None:
    lobby = Lobby(rate=(0.001, 100.0))
    for _ in range(20):
        lobby.check("203.0.113.1", token="t1")
    with pytest.raises(Refused):
        lobby.check("203.0.113.1", token="t1")
    lobby.check("203.0.113.1", token="t2")


def test_a_budget_forgives_refusals_but_not_a_flood() -> None:
    budget = Budget(0.001, 2.0, refusals=5)
    assert [budget.take() for _ in range(3)] == [True, True, False]
    assert [budget.refuse() for _ in range(5)] == [False] * 4 + [True]


@pytest.mark.parametrize(
    ("host", "key"),
    [
        ("198.51.100.7", "198.51.100.7"),
        ("::ffff:198.51.100.7", "198.51.100.7"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("not an address", "not an address"),
    ],
)
def test_addresses_are_counted_by_ipv4_address_or_ipv6_64(host: str, key: str) -> None:
    assert address_key(host) == key
