"""Type-exact equality of the oracles' values: what ``repr(a) == repr(b)`` checks, without writing
both values out.

Tests that compare two ways of playing (a quick path and the general one, an agenda given and one
queued) compared the reprs, because ``==`` takes ``1``, ``True`` and ``1.0`` for one another and a
value of another type would write other JSON. Writing out a whole island state and its events
for every action of every visited state was most of those tests' time; two ways share most of a
state (the lands an action did not touch are the same objects), and :func:`identical` skips what
is shared and compares the rest piece by piece, types included.

>>> identical((1, "a", [2.0]), (1, "a", [2.0])), identical((1,), (True,)), identical([1], [1.0])
(True, False, False)
>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Spot:
...     count: int
>>> identical(Spot(1), Spot(1)), identical(Spot(1), Spot(True)), identical({"a": Spot(2)}, {"a": Spot(2)})
(True, False, True)
"""

from __future__ import annotations

import dataclasses
from typing import Any

_PLAIN = frozenset((int, str, bool, bytes, type(None)))
"""Types whose equality is already type-exact once both types are the same (``repr`` equal
exactly when ``==``); floats are not among them (``0.0 == -0.0``, ``nan != nan``)."""


_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def identical(a: Any, b: Any) -> bool:
    """``repr(a) == repr(b)`` for the plain values, tuples (named ones too), lists, dicts and
    dataclasses the games are made of, every field compared (anything else: by its repr)."""
    if a is b:
        return True
    kind = type(a)
    if kind is not type(b):
        return False
    if kind in _PLAIN:
        return bool(a == b)
    if isinstance(a, tuple | list):  # a named tuple's class fixes its fields
        return len(a) == len(b) and all(x is y or identical(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return identical(list(a), list(b)) and all(identical(a[key], b[key]) for key in a)
    if dataclasses.is_dataclass(a):
        names = _FIELD_NAMES.get(kind)
        if names is None:
            names = _FIELD_NAMES[kind] = tuple(f.name for f in dataclasses.fields(a))
        return all(identical(getattr(a, name), getattr(b, name)) for name in names)
    return repr(a) == repr(b)


def difference(a: Any, b: Any) -> str:
    """Both values written out, for an assertion's message (only when they differ)."""
    return f"{a!r}\n!=\n{b!r}"
