"""Where a value msgspec refused went wrong: the path of the field at fault, as a tuple of names,
read from the error's text (msgspec says it as ``... - at `$.rules.boot` ``).

A socket's commands and the lobby's request bodies are decoded into their types at once; when one
does not fit, its refusal is the stable code of the field at fault (clients know them), so the
decoders ask here which field that was.

>>> import msgspec
>>> Rules = msgspec.defstruct("Rules", [("boot", int, 10)], frozen=True)
>>> Deal = msgspec.defstruct(
...     "Deal", [("seats", int), ("rules", Rules, Rules())], forbid_unknown_fields=True)
>>> def fault(data):
...     try:
...         msgspec.convert(data, Deal)
...     except msgspec.ValidationError as error:
...         return fault_of(error)
>>> fault({"seats": "4"})
Fault(path=('seats',), unknown=False, expected='int')
>>> fault({})
Fault(path=('seats',), unknown=False, expected=None)
>>> fault({"seats": 4, "colour": "red"})
Fault(path=('colour',), unknown=True, expected=None)
>>> fault({"seats": 4, "rules": {"boot": "ten"}}).path, fault([]).path
(('rules', 'boot'), ())
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import msgspec

__all__ = ["Fault", "fault_of", "typed", "value_at"]

T = TypeVar("T")

_AT = re.compile(r" - at `\$\.?([^`]*)`$")
_NAMED = re.compile(r"(missing required|contains unknown) field `((?:[^`]|`(?! - at))*)`")
_EXPECTED = re.compile(r"^Expected `([^`]+)`")
_STEP = re.compile(r"[^.\[\]]+")


@dataclass(frozen=True, slots=True)
class Fault:
    """The field at fault: its ``path`` (``()``: the value itself), whether it is a field the
    type does not have (``unknown``), and the type msgspec expected there, if it said one."""

    path: tuple[str, ...]
    unknown: bool
    expected: str | None


def fault_of(error: msgspec.ValidationError) -> Fault:
    """The field ``error`` is about: a missing or unknown field is named by its own path."""
    message = str(error)
    where = _AT.search(message)
    path = _steps(where.group(1)) if where else ()
    named = _NAMED.search(message)
    if named:
        path = (*path, named.group(2))
    expected = _EXPECTED.search(message)
    return Fault(
        path,
        unknown=named is not None and named.group(1) == "contains unknown",
        expected=expected.group(1) if expected else None,
    )


def typed(data: Any, kind: type[T], refuse: Callable[[Fault, Any], Exception]) -> T:
    """``data`` (parsed JSON) as a ``kind``; if it does not fit, what ``refuse`` makes of the
    field at fault and ``data``, raised.

    >>> def refuse(fault, data):
    ...     return ValueError(f"{fault.path}: {value_at(data, fault.path)!r}")
    >>> typed([4, 5], list[int], refuse)
    [4, 5]
    >>> typed([4, "5"], list[int], refuse)
    Traceback (most recent call last):
    ...
    ValueError: ('1',): '5'
    """
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise refuse(fault_of(error), data) from None
    except UnicodeEncodeError:  # a key msgspec cannot match: no field has it
        raise refuse(Fault(_surrogate_key(data), unknown=True, expected=None), data) from None


def value_at(data: Any, path: tuple[str, ...]) -> Any:
    """What ``data`` (a parsed body) holds at ``path``; ``None`` where it holds nothing.

    >>> value_at({"rules": {"boot": "ten"}}, ("rules", "boot")), value_at([], ("name",))
    ('ten', None)
    """
    for step in path:
        if isinstance(data, dict):
            data = data.get(step)
        elif isinstance(data, list) and step.isdigit() and int(step) < len(data):
            data = data[int(step)]  # a list's item, at [n]
        else:
            return None
    return data


def _surrogate_key(data: Any) -> tuple[str, ...]:
    """The path of the first key in ``data`` that is no text in UTF-8 (JSON as Python reads it
    may hold a lone surrogate, ``"\\ud800"``).

    >>> _surrogate_key({"rules": {"boot": 1, "\\ud800": 1}})
    ('rules', '\\ud800')
    """
    if isinstance(data, dict):
        for key, value in data.items():
            if not key.isascii():
                try:
                    key.encode()
                except UnicodeEncodeError:
                    return (key,)
            found = _surrogate_key(value)
            if found:
                return (key, *found)
    return ()


def _steps(text: str) -> tuple[str, ...]:
    """``rules.boot`` or ``seats[2].name`` as its steps (a dict's key, which msgspec writes as
    ``[...]``, is left out)."""
    return tuple(step for step in _STEP.findall(text) if step != "...")
