"""Patches: what changed between two states, as a short list of operations on known paths.

A patch turns the state a client holds into the next one, equal as data to the whole state the
server would send (docs/protocol.md, "patch"). An operation is a JSON list:

- ``["s", path, value]``: set the key (or list index) at ``path`` to ``value``;
- ``["d", path]``: delete the key at ``path``;
- ``["a", path, values]``: append ``values`` to the list at ``path``.

A path is a list of object keys and list indexes from the top of the state. :func:`diff` makes
the operations (:class:`~teenpatti.tables.wire.messages.Set`, ``Delete``, ``Append``: the
wire's types of them), from states as JSON data or as the wire's structs (the server diffs the
:class:`~teenpatti.tables.wire.messages.State` values it renders, field by field, as their JSON
would be); :func:`apply` applies them to JSON data without changing its input (copy on write),
as the page's ``versions.js`` does.

>>> old = {"version": 3, "hand": {"pot": 20, "actions": [{"do": "see"}]}, "late": True}
>>> new = {"version": 4, "hand": {"pot": 40, "actions": [{"do": "see"}, {"do": "chaal"}]}}
>>> for op in msgspec.to_builtins(diff(old, new)):  # each a messages.Set, Append or Delete
...     print(op)
['s', ['version'], 4]
['s', ['hand', 'pot'], 40]
['a', ['hand', 'actions'], [{'do': 'chaal'}]]
['d', ['late']]
>>> ops = msgspec.to_builtins(diff(old, new))  # as a client reads them
>>> apply(old, ops) == new
True
>>> old["hand"]["pot"]  # unchanged
20
"""

from __future__ import annotations

from itertools import compress
from operator import is_not
from typing import Any

import msgspec
from msgspec import UNSET
from msgspec.structs import astuple

from .messages import Append, Delete, Op, Set

__all__ = ["Op", "PatchError", "apply", "diff", "names"]

Path = list[str | int]
_encode = msgspec.json.Encoder().encode


class PatchError(ValueError):
    """An operation that does not fit the state it is applied to."""


def diff(old: Any, new: Any, path: Path | None = None) -> list[Op]:
    """The operations that turn ``old`` into ``new`` (both JSON data, or both the wire's
    :mod:`~teenpatti.tables.wire.messages` types; objects at the top).

    Objects are compared key by key (one inside the state is set whole when that is shorter
    than three or more operations on its keys); a list that only grew gets an append; a list of
    objects of the same length is compared item by item (the seat rows); anything else that
    differs is set.

    >>> diff({"seats": [{"chips": 5}, {"chips": 9}]}, {"seats": [{"chips": 5}, {"chips": 7}]})
    [Set(path=['seats', 1, 'chips'], value=7)]
    >>> ops = diff({"cards": None}, {"cards": ["Kh", "Kd", "5s"]})
    >>> msgspec.json.encode(ops)  # as it is sent
    b'[["s",["cards"],["Kh","Kd","5s"]]]'
    >>> diff({"a": [1, 2]}, {"a": [2]})
    [Set(path=['a'], value=[2])]
    >>> diff({"row": {"a": 1, "b": 2, "c": 3, "d": 4}}, {"row": {"a": 0, "b": 0, "c": 0, "d": 4}})
    [Set(path=['row'], value={'a': 0, 'b': 0, 'c': 0, 'd': 4})]

    A struct is an object whose keys are its fields' names in JSON (``with`` for
    ``LoggedMove.target``), a field ``UNSET`` being absent: the operations are those of the
    same states as JSON data, but for the values they carry, which are the structs' own (they
    encode as the same JSON):

    >>> from teenpatti.tables.wire.messages import LoggedMove
    >>> chaal = LoggedMove(seat=1, do="chaal", paid=20, stake=10)
    >>> diff(chaal, msgspec.structs.replace(chaal, target=2, timeout=True))
    [Set(path=['with'], value=2), Set(path=['timeout'], value=True)]
    >>> diff(msgspec.structs.replace(chaal, amount=40), chaal)
    [Delete(path=['amount'])]
    """
    out: list[Op] = []
    _diff(old, new, path or [], out)
    return out


def _diff(old: Any, new: Any, path: Path, out: list[Op]) -> None:
    kind = type(old)
    if kind is type(new) and (kind is dict or kind in _FIELDS or isinstance(old, msgspec.Struct)):
        keys = _keys if kind is dict else _fields
        if path:  # an object inside the state: set it whole when most of it changed
            inner: list[Op] = []
            keys(old, new, path, inner)
            whole = len(inner) > 2 and len(_encode(inner)) > len(_encode(new))
            out += [Set(path, new)] if whole else inner
            return
        keys(old, new, path, out)
        return
    if type(old) is list and type(new) is list:
        n = len(old)
        if len(new) > n and new[:n] == old:
            out.append(Append(path, new[n:]))
            return
        if len(new) == n and _objects(new) and _objects(old):
            for i in compress(range(n), map(is_not, old, new)):  # (items not the same object)
                before, value = old[i], new[i]
                if before != value:
                    _diff(before, value, [*path, i], out)
            return
    out.append(Set(path, new))


def _objects(values: list[Any]) -> bool:
    """Whether every item of ``values`` is a JSON object (a dict, or a struct): their types
    are looked at once each (the rows of a state are all of one type)."""
    kinds = set(map(type, values))
    if kinds <= _OBJECTS:
        return True
    if all(kind is dict or issubclass(kind, msgspec.Struct) for kind in kinds):
        _OBJECTS.update(kinds)
        return True
    return False


_OBJECTS: set[type] = {dict}
"""The types known to be JSON objects."""


def _keys(old: dict[str, Any], new: dict[str, Any], path: Path, out: list[Op]) -> None:
    """The operations from ``old`` to ``new``, key by key."""
    for key, value in new.items():
        if key not in old:
            out.append(Set([*path, key], value))
            continue
        before = old[key]
        if before is not value and before != value:
            _diff(before, value, [*path, key], out)
    for key in old:
        if key not in new:
            out.append(Delete([*path, key]))


_PLAIN = frozenset({int, str, float, bool, type(None)})
"""The types of JSON's plain values: one that differs is set."""

_FIELDS: dict[type, tuple[str, ...]] = {}
"""Each struct type's fields' names in JSON, in order (as ``astuple`` gives their values)."""


def names(kind: type[msgspec.Struct]) -> tuple[tuple[str, str], ...]:
    """``kind``'s fields as ``(attribute, name in JSON)`` pairs, in the order they are encoded.

    >>> from teenpatti.tables.wire.messages import LoggedMove
    >>> names(LoggedMove)[2:4]
    (('amount', 'amount'), ('target', 'with'))
    """
    return tuple(zip(kind.__struct_fields__, kind.__struct_encode_fields__, strict=True))


def _fields(old: msgspec.Struct, new: msgspec.Struct, path: Path, out: list[Op]) -> None:
    """The operations from ``old`` to ``new`` (structs of one type), field by field: a field
    ``UNSET`` is absent from the JSON (the wire's types have no other default)."""
    kind = type(new)
    keys = _FIELDS.get(kind)
    if keys is None:
        keys = _FIELDS[kind] = kind.__struct_encode_fields__
    olds, news = astuple(old), astuple(new)
    gone: list[str] = []
    # Only the fields that are not the same object are looked at (found without a Python loop).
    for k in compress(range(len(keys)), map(is_not, olds, news)):
        before, value = olds[k], news[k]
        if value is UNSET:
            gone.append(keys[k])
        elif before is UNSET:
            out.append(Set([*path, keys[k]], value))
        elif before != value:
            if type(value) in _PLAIN:  # (what ``_diff`` would do, without the call)
                out.append(Set([*path, keys[k]], value))
            else:
                _diff(before, value, [*path, keys[k]], out)
    for key in gone:
        out.append(Delete([*path, key]))


def apply(state: Any, ops: Any) -> Any:
    """``state`` with ``ops`` applied, as a new value (``state`` and what it holds are left as
    they are; what no operation touches is shared). Raises :class:`PatchError` for an operation
    that does not fit.

    >>> apply({"a": {"b": 1}}, [["s", ["a", "c"], 2], ["d", ["a", "b"]]])
    {'a': {'c': 2}}
    >>> apply({"a": [1]}, [["a", ["a"], [2, 3]]])
    {'a': [1, 2, 3]}
    >>> apply({"a": 1}, [["d", ["b"]]])
    Traceback (most recent call last):
    ...
    teenpatti.tables.wire.patch.PatchError: no 'b' to delete
    """
    if not isinstance(ops, list):
        raise PatchError("a patch is a list of operations")
    for op in ops:
        if not isinstance(op, list) or len(op) < 2 or not isinstance(op[1], list) or not op[1]:
            raise PatchError(f"not an operation: {op!r}"[:80])
        state = _apply(state, op, op[1], 0)
    return state


def _apply(node: Any, op: list[Any], path: Path, depth: int) -> Any:
    key = path[depth]
    if type(node) is dict and isinstance(key, str):
        copy: Any = dict(node)
        present = key in node
    elif type(node) is list and type(key) is int and 0 <= key <= len(node):
        copy = list(node)
        present = key < len(node)
    else:
        raise PatchError(f"no place for {key!r}")
    if depth < len(path) - 1:
        if not present:
            raise PatchError(f"no {key!r} on the way")
        copy[key] = _apply(node[key], op, path, depth + 1)
        return copy
    kind = op[0]
    if kind == "s" and len(op) == 3:
        if type(copy) is list and key == len(copy):
            copy.append(op[2])
        else:
            copy[key] = op[2]
    elif kind == "d" and len(op) == 2 and type(copy) is dict:
        if not present:
            raise PatchError(f"no {key!r} to delete")
        del copy[key]
    elif kind == "a" and len(op) == 3 and present and type(copy[key]) is list:
        if type(op[2]) is not list:
            raise PatchError("append a list")
        copy[key] = [*copy[key], *op[2]]
    else:
        raise PatchError(f"not an operation: {op!r}"[:80])
    return copy
