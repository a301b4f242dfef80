"""A faster ``__init__`` for frozen, slotted dataclasses on the oracles' hot paths.

A frozen dataclass's generated ``__init__`` sets each field with ``object.__setattr__(self,
name, value)``, which looks the attribute up by name every time; building a five-field value
(a Spirit Island land) cost about 0.9 us, and the game builds several per Invader Action (issue
22's profile). :func:`quick_init` replaces that ``__init__`` with one that stores each field
through its slot's descriptor directly (about half the time). Nothing else changes: the class is
still frozen (assignment still raises ``FrozenInstanceError``), equality, hashing, ``repr``,
``dataclasses.replace`` and pickling are the dataclass's own, and the signature (field names,
order, defaults) is the same.

>>> from dataclasses import FrozenInstanceError, dataclass
>>> @quick_init
... @dataclass(frozen=True, slots=True)
... class Point:
...     x: int
...     y: int = 0
>>> p = Point(1)
>>> p, p == Point(1, 0), p.y
(Point(x=1, y=0), True, 0)
>>> try:
...     p.x = 2
... except FrozenInstanceError:
...     print("frozen")
frozen
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """Give the frozen, slotted dataclass ``cls`` an ``__init__`` that sets its slots directly.

    Only for plain classes: every field in ``__init__``, simple defaults (no factories), no
    ``__post_init__``; anything else is refused, so the new ``__init__`` can do exactly what the
    generated one did.
    """
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: quick_init is for frozen dataclasses with slots=True")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: quick_init cannot run a __post_init__")
    namespace: dict[str, Any] = {}
    arguments: list[str] = []
    body: list[str] = []
    for i, field in enumerate(dataclasses.fields(cls)):  # type: ignore[arg-type]
        if not field.init or field.kw_only is True or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{field.name}: quick_init needs init fields with plain defaults")
        namespace[f"_set{i}"] = getattr(cls, field.name).__set__  # the slot's member descriptor
        if field.default is dataclasses.MISSING:
            arguments.append(field.name)
        else:
            namespace[f"_default{i}"] = field.default
            arguments.append(f"{field.name}=_default{i}")
        body.append(f"    _set{i}(self, {field.name})")
    source = f"def __init__(self, {', '.join(arguments)}):\n" + ("\n".join(body) or "    pass") + "\n"
    exec(source, namespace)  # the source is built above from the field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
