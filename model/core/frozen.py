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

Two more for the hottest paths (issue 38), for the same plain classes:

* :func:`replace` is ``dataclasses.replace`` with a copier generated per class: no field list walked,
  no keyword dictionary built for the constructor (about a quarter of the time on a nine-field
  value; Vul'Keth's game state, changed by ``replace`` at every task, spent two thirds of a public
  step there). Other classes go to ``dataclasses.replace``.
* :func:`direct_constructor` gives a positional constructor that fills the slots without calling
  ``__init__`` (less than half the time of even a :func:`quick_init` ``__init__`` at nine fields).

Both build the new value as an instance of a mutable twin class with the same slots, store the
fields with plain attribute stores (no descriptor called by name, no frozen ``__setattr__``), and
then give it the frozen class (``__class__`` assignment, which Python allows between classes of
identical layout). The value returned is an ordinary instance of the frozen class, equal to the
one ``__init__`` would have built; the twin never leaves the function.

>>> q = replace(p, y=5)
>>> q, type(q) is Point, p
(Point(x=1, y=5), True, Point(x=1, y=0))
>>> make_point = direct_constructor(Point)
>>> make_point(3, 4) == Point(3, 4)
True
>>> replace(p, z=1)
Traceback (most recent call last):
...
TypeError: Point.replace() got an unexpected keyword argument 'z'
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

from invasion_oracle.model.core.reads import derived_cache

T = TypeVar("T")
R = TypeVar("R")


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


_UNCHANGED = object()  # a keyword not given to a generated replace


def _plain_fields(cls: type) -> tuple[str, ...] | None:
    """The field names of ``cls`` when :func:`replace` and :func:`direct_constructor` can build
    it themselves: a frozen dataclass with slots=True straight on ``object``, every field set by
    ``__init__`` and nothing else run there (no ``__post_init__``, no init-only variables), its
    slots exactly its fields. ``None`` otherwise."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init or cls.__bases__ != (object,):
        return None
    if hasattr(cls, "__post_init__") or "__slots__" not in cls.__dict__:
        return None
    every = cls.__dict__.get("__dataclass_fields__", {})
    names = tuple(field.name for field in dataclasses.fields(cls))
    if len(every) != len(names) or any(not f.init for f in dataclasses.fields(cls)):
        return None  # init-only variables or fields __init__ does not set
    if tuple(cls.__dict__["__slots__"]) != names:
        return None
    if any(name.startswith("_frozen_") for name in names):
        return None  # the generated functions' own names (below) must not meet a field's
    return names


def _twin(cls: type, names: tuple[str, ...]) -> type | None:
    """A mutable class with ``cls``'s slots, whose instances may become ``cls`` instances."""
    twin = type(f"_{cls.__name__}Draft", (), {"__slots__": names, "__module__": cls.__module__})
    probe: Any = object.__new__(twin)
    try:
        probe.__class__ = cls
    except TypeError:  # a layout Python does not consider identical
        return None
    return twin


def _generate(source: str, name: str, namespace: dict[str, Any]) -> Any:
    exec(source, namespace)  # the source is built from the class's own field names only
    return namespace[name]


def direct_constructor(cls: type[T]) -> Callable[..., T]:
    """A function ``make(*fields)`` that builds ``cls`` from every field, in order, without
    calling ``__init__`` (for hot paths whose values are already checked). ``cls`` itself
    when it is not a plain frozen slotted dataclass (see :func:`_plain_fields`)."""
    names = _plain_fields(cls)
    twin = _twin(cls, names) if names is not None else None
    if names is None or twin is None:
        return cls
    # Every name of the function's own starts with ``_frozen_`` (no field does): a field called
    # ``value`` or ``new`` is just an argument.
    lines = [f"def make({', '.join(names)}):", "    _frozen_built_ = _frozen_new_(_frozen_twin_)"]
    lines += [f"    _frozen_built_.{name} = {name}" for name in names]
    lines += ["    _frozen_built_.__class__ = _frozen_class_", "    return _frozen_built_"]
    namespace = {"_frozen_new_": object.__new__, "_frozen_twin_": twin, "_frozen_class_": cls}
    make: Callable[..., T] = _generate("\n".join(lines) + "\n", "make", namespace)
    make.__qualname__ = f"{cls.__qualname__}.make"
    return make


def _replacer(cls: type) -> Callable[..., Any]:
    names = _plain_fields(cls)
    twin = _twin(cls, names) if names is not None else None
    if names is None or twin is None:
        return dataclasses.replace
    keywords = ", ".join(f"{name}=_frozen_unchanged_" for name in names)
    lines = [
        f"def replace(_frozen_old_, /, *, {keywords}):",
        "    _frozen_built_ = _frozen_new_(_frozen_twin_)",
    ]
    lines += [
        f"    _frozen_built_.{n} = _frozen_old_.{n} if {n} is _frozen_unchanged_ else {n}" for n in names
    ]
    lines += ["    _frozen_built_.__class__ = _frozen_class_", "    return _frozen_built_"]
    namespace = {
        "_frozen_new_": object.__new__,
        "_frozen_twin_": twin,
        "_frozen_class_": cls,
        "_frozen_unchanged_": _UNCHANGED,
    }
    copier: Callable[..., Any] = _generate("\n".join(lines) + "\n", "replace", namespace)
    copier.__qualname__ = f"{cls.__qualname__}.replace"
    return copier


_REPLACERS: dict[type, Callable[..., Any]] = {}


def replace(value: T, /, **changes: Any) -> T:
    """``dataclasses.replace(value, **changes)``, the same answers and errors (an unknown field:
    ``TypeError``), generated per class (see the module notes)."""
    copier = _REPLACERS.get(type(value))
    if copier is None:
        if not dataclasses.is_dataclass(value) or isinstance(value, type):
            return dataclasses.replace(value, **changes)  # type: ignore[type-var]  # its own error
        copier = _REPLACERS[type(value)] = _replacer(type(value))
    result: T = copier(value, **changes)
    return result


def hash_by_identity(cls: type[T], size: int = 256) -> type[T]:
    """Give the hashable frozen class ``cls`` a ``__hash__`` that remembers, by identity, the
    hash of its recent instances: the same answers as its own ``__hash__`` (which it calls for
    a new instance), computed once per instance while remembered. A frozen dataclass's hash is
    recomputed at every use, through every field, and a game's states share their large parts
    from step to step (a Stonespine state hashed for a search's memo walked its whole dungeon
    and guardian board each time: most of the hash). The instances are kept while remembered,
    so their identities stay theirs; at ``size`` entries the memory starts over.

    >>> from dataclasses import dataclass
    >>> @hash_by_identity
    ... @dataclass(frozen=True)
    ... class Grid:
    ...     cells: tuple[int, ...]
    >>> g = Grid((1, 2))
    >>> hash(g) == hash(g) == hash(Grid((1, 2))) == hash(((1, 2),))
    True
    """
    computed = cls.__dict__.get("__hash__")
    if computed is None:
        raise TypeError(f"{cls.__name__}: hash_by_identity needs the class's own __hash__")
    __hash__ = once_per_object(computed, size)
    __hash__.__qualname__ = f"{cls.__qualname__}.__hash__"
    cls.__hash__ = __hash__  # type: ignore[method-assign,assignment]
    return cls


def once_per_object(
    function: Callable[[Any], R], size: int = 256, *, derived: bool = True
) -> Callable[[Any], R]:
    """``function(value)`` (pure, of an immutable value) remembered by the identity of ``value``:
    computed once per object while remembered. The objects are kept while remembered, so their
    identities stay theirs; at ``size`` entries the memory starts over. The memory is emptied with
    the derived caches before a job whose data reads are recorded (an earlier job's reads are then
    made again), unless ``derived`` is false: a value that reads no game data.

    >>> calls = []
    >>> def total(a):
    ...     calls.append(a)
    ...     return sum(a)
    >>> quick = once_per_object(total)
    >>> x = (1, 2)
    >>> quick(x), quick(x), quick((1, 2)), len(calls)
    (3, 3, 3, 2)
    """
    remembered: dict[int, tuple[Any, R]] = derived_cache({}) if derived else {}

    def remembered_function(value: Any) -> R:
        hit = remembered.get(id(value))
        if hit is not None and hit[0] is value:
            return hit[1]
        result = function(value)
        if len(remembered) >= size:
            remembered.clear()
        remembered[id(value)] = (value, result)
        return result

    remembered_function.__wrapped__ = function  # type: ignore[attr-defined]
    remembered_function.__doc__ = function.__doc__
    return remembered_function


def evolving(cls: type[T]) -> type[T]:
    """Make the class's ``evolve`` method :func:`replace`'s generated copier itself.

    ``cls.evolve`` must be written as ``return replace(self, **changes)`` (what it stays for a
    class the copier cannot build); a call ``state.evolve(stage=...)`` then skips the generic
    function's keyword dictionary and look-up, about two fifths of a change on a state of twenty
    fields (a Stonespine step makes a dozen).

    >>> from dataclasses import dataclass
    >>> @evolving
    ... @dataclass(frozen=True, slots=True)
    ... class Point:
    ...     x: int
    ...     y: int = 0
    ...
    ...     def evolve(self, **changes: int) -> "Point":
    ...         return replace(self, **changes)
    >>> Point(1).evolve(y=2), Point.evolve.__qualname__
    (Point(x=1, y=2), 'Point.replace')
    """
    if "evolve" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: evolving needs an evolve method to replace")
    copier = _REPLACERS.get(cls) or _REPLACERS.setdefault(cls, _replacer(cls))
    if copier is not dataclasses.replace:
        cls.evolve = copier  # type: ignore[attr-defined]
    return cls


def by_identity(function: Callable[[Any, Any], R], size: int = 64) -> Callable[[Any, Any], R]:
    """``function(a, b)`` (pure, of immutable values, usually an ``lru_cache``) remembered first by
    the identity of its two arguments: a call with the very objects of a recent call returns its
    result without hashing them. A frozen value's hash is recomputed at every lookup, through
    every field (a Stonespine dungeon: its chambers, their guardians, their abilities), while a
    game passes the same dungeon and guardian board from step to step. The arguments are kept
    while remembered, so their identities stay theirs; at ``size`` entries the memory starts over.

    >>> calls = []
    >>> def total(a, b):
    ...     calls.append((a, b))
    ...     return sum(a) + sum(b)
    >>> quick = by_identity(total)
    >>> x, y = (1, 2), (3,)
    >>> quick(x, y), quick(x, y), quick((1, 2), (3,)), len(calls)
    (6, 6, 6, 2)
    """
    remembered: dict[tuple[int, int], tuple[Any, Any, R]] = {}
    if not inspect.ismethod(function):
        # a memory made at import: emptied with the derived caches before a job whose data reads
        # are recorded, with the cache it fronts (a hit would hand the job a value without the
        # reads that made it); one made per object (Cloudspire's, per game) goes with its object
        derived_cache(_Fronting(remembered, function))

    def remembered_function(a: Any, b: Any) -> R:
        hit = remembered.get((id(a), id(b)))
        if hit is not None and hit[0] is a and hit[1] is b:
            return hit[2]
        result = function(a, b)
        if len(remembered) >= size:
            remembered.clear()
        remembered[(id(a), id(b))] = (a, b, result)
        return result

    remembered_function.__wrapped__ = function  # type: ignore[attr-defined]
    remembered_function.__doc__ = function.__doc__
    remembered_function.__name__ = getattr(function, "__name__", "remembered_function")
    return remembered_function


class _Fronting(dict[Any, Any]):
    """A :func:`by_identity` memory as a derived cache: emptying it empties the memory and the
    ``functools`` cache behind it (found under no module name of its own)."""

    def __init__(self, memory: dict[Any, Any], fronted: Any) -> None:
        super().__init__()
        self.memory = memory
        self.fronted = fronted

    def clear(self) -> None:
        self.memory.clear()
        cache_clear = getattr(self.fronted, "cache_clear", None)
        if cache_clear is not None:
            cache_clear()
