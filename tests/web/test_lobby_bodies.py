"""The lobby's bodies are types, decoded once where they arrive: a body that does not fit is
refused with its field's stable code (the codes the page has sentences for) and the engine's own
sentence for a house rule; the schema in docs/schema is the one the types make; the request to
open a table names every house-rule option the engine has, each of its type."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from teenpatti.engine.rules import OPTION_NAMES, catalogue
from teenpatti.push.subscription import PushHosts, parse_subscription
from teenpatti.tables.play.errors import Refusal
from teenpatti.tables.play.house_rules import OPTIONS, HouseRules
from teenpatti.tables.play.settings import Settings, read_request
from teenpatti.tables.wire.schema import FOLDER, render
from teenpatti.web import schema
from teenpatti.web.bodies import read_forget, read_join
from teenpatti.web.lobby import rules_served

KEY = "BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"


def test_the_schema_in_docs_is_up_to_date() -> None:
    path = FOLDER / schema.NAME
    assert path.is_file(), f"{path} is missing: run python -m teenpatti.web.schema"
    assert path.read_text(encoding="utf-8") == render(schema.schema()), (
        f"{path} is out of date: run python -m teenpatti.web.schema"
    )


def test_the_request_names_every_house_rule_of_the_engine_by_its_kind() -> None:
    assert OPTIONS == OPTION_NAMES
    kinds = catalogue()["options"]
    made = msgspec.json.schema(HouseRules)["$defs"]
    for name, kind in kinds.items():
        spelled = str(made["HouseRules"]["properties"][name])
        spelled += "".join(str(made[ref]) for ref in made if f"/{ref}'" in spelled)
        wanted = {"int": ["integer"], "bool": ["boolean"], "choice": ["enum", "string"]}
        assert any(word in spelled for word in wanted[kind["kind"]]), (name, spelled)
        assert ("'null'" in spelled) == bool(kind.get("null")), (name, spelled)


@pytest.mark.parametrize(
    ("data", "code", "says"),
    [
        ({"seats": 10**30}, "settings/seats", "seats 2 to 6"),
        ({"seats": -(10**30)}, "settings/seats", "seats 2 to 6"),
        ({"turn_seconds": 10**30}, "settings/timer", "5 to 600"),
        ({"boot": 10.0}, "rules/boot", "boot must be a whole number, not 10.0"),
        ({"rules": {"boot": [10]}}, "rules/boot", "boot must be a whole number, not [10]"),
        ({"rules": {"see_anytime": 1}}, "rules/see_anytime", "true or false, not 1"),
        ({"fixed_rank": True}, "rules/fixed_rank", "not True"),
        ({"rules": {"preset": 5}}, "rules/preset", "unknown preset 5"),
        ({"rules": {"rules": {}}}, "rules/rules", "unknown house-rule option 'rules'"),
        ({"late": "yes"}, "settings/late", "late must be true or false"),
        ({"voice": None}, "settings/voice", "voice must be true or false"),
        ({"computer": 1}, "settings/computer", "computer must be true or false"),
        ({"colour": "red"}, "settings/unknown", "unknown table setting 'colour'"),
        ({"name": {"first": "Asha"}}, "name/invalid", "a name must be text"),
    ],
)
def test_a_table_request_that_does_not_fit_is_refused_with_its_code(
    data: dict[str, Any], code: str, says: str
) -> None:
    with pytest.raises(Refusal) as refused:
        Settings.of(read_request(data))
    assert refused.value.code == code
    assert says in refused.value.reason


def test_what_the_engine_takes_loosely_the_request_takes_too() -> None:
    asked = read_request({"variant": "fixed_rank", "fixed_rank": "t", "rules": {"boot": 20}})
    assert Settings.of(asked).rules["fixed_rank"] == "10"
    assert Settings.of(read_request({"variant": "muflis"})).rules["muflis"] is True


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "name/invalid"),
        ({}, "name/invalid"),
        ({"name": 5}, "name/invalid"),
        ({"name": None}, "name/invalid"),
    ],
)
def test_a_join_that_does_not_fit_is_refused_with_its_code(data: Any, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        read_join(data)
    assert refused.value.code == code


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ([], "push/invalid"),
        ({"keys": {"p256dh": KEY, "auth": "A" * 22}}, "push/invalid"),
        ({"endpoint": 5, "keys": {}}, "push/invalid"),
        ({"endpoint": "https://fcm.googleapis.com/x" * 200, "keys": {}}, "push/invalid"),
        ({"endpoint": "https://fcm.googleapis.com/x", "keys": []}, "push/invalid"),
        ({"endpoint": "https://fcm.googleapis.com/x", "keys": {"auth": "A" * 22}}, "push/keys"),
        ({"endpoint": "https://fcm.googleapis.com/x", "keys": {"p256dh": 5}}, "push/keys"),
    ],
)
def test_a_subscription_that_does_not_fit_is_refused_with_its_code(data: Any, code: str) -> None:
    with pytest.raises(Refusal) as refused:
        parse_subscription(data, PushHosts.default())
    assert refused.value.code == code


@pytest.mark.parametrize("data", [[], {}, {"endpoint": ""}, {"endpoint": 5}, {"endpoint": None}])
def test_an_unsubscribe_that_does_not_fit_is_refused(data: Any) -> None:
    with pytest.raises(Refusal) as refused:
        read_forget(data)
    assert refused.value.code == "push/invalid"


def test_the_rules_served_are_the_engines_catalogue_typed() -> None:
    served = msgspec.to_builtins(rules_served())
    engine = catalogue()
    engine["options"]["hands"]["max"] = 100
    assert {k: v for k, v in served.items() if k != "chat"} == engine
