"""Which values of the game data a piece of work reads (``invasion changes`` caches a job's result
under them, so a one-value change recomputes only the jobs that read that value).

**What is recorded.** Inside :func:`recording`, every read of a field of a game's ``GameData``
(the object the rules take every number and card from) is noted as a :class:`Read`:

* a field of the data in force alone (the object :func:`tracked` registered: a game's
  ``default_data``, built once per data): ``Read(game, choices, field)``, where ``choices`` are
  the rulings it was built under (Stonespine picks dice, trophies and demerits by ruling);
* any other ``GameData`` (a scenario's own data layered on the data in force, a copy made with
  ``dataclasses.replace``): the whole data in force of its game, ``Read(game, None, WHOLE)``;
* any direct look at the data in force (:func:`invasion_oracle.model.core.overrides.in_force`)
  other than the one ``default_data`` makes: the same whole-game read; a look at every game's
  (``all_in_force``, which sends the data to worker processes): ``Read("", None, EVERY)``.

So the reads are a sound over-approximation: a value reaches the rules only through a recorded
read. :func:`digest` gives a read's value under the data in force (a hash of the field's
content, or of the whole data text); a result may be reused under other data exactly when every
read has the same digest there.

**Derived caches.** A cache of something computed from the data, filled by an earlier job of the
same process, would hand a later job a value without a read; :func:`recording` therefore empties
every ``functools`` cache of the project's modules before the job, except the few listed in
:data:`KEPT` (the bundled files, schemas and the tracked data themselves: nothing derived from
the data in force).

The hook is installed on the ``GameData`` classes only while recording (no cost otherwise), and
records from any thread: jobs run one at a time in a process.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import functools
import hashlib
import json
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

WHOLE = "*"
"""The field of a read of a game's whole data in force."""
EVERY = "**"
"""The field of a read of every game's data in force."""

Choices = tuple[tuple[str, str], ...]
T = TypeVar("T")


@dataclass(frozen=True, slots=True, order=True)
class Read:
    """One value a job read: at ``path`` of ``game``'s data in force built under the rulings
    ``choices`` (None for a whole-data read). ``path`` is a ``GameData`` field, then list
    positions and record fields (``heroes/3/health``); ``FIELD/#shape`` is a list field's
    structure (its length, the plain values in it, each record's class)."""

    game: str
    choices: Choices | None
    path: str

    def to_json(self) -> list[Any]:
        return [self.game, None if self.choices is None else [list(c) for c in self.choices], self.path]

    @staticmethod
    def from_json(raw: Any) -> Read:
        """A read as :meth:`to_json` wrote it; ``ValueError`` for anything else (data only)."""
        if not (
            isinstance(raw, list) and len(raw) == 3 and isinstance(raw[0], str) and isinstance(raw[2], str)
        ):
            raise ValueError("a read is [game, choices, path]")
        choices = raw[1]
        if choices is None:
            return Read(raw[0], None, raw[2])
        if not (
            isinstance(choices, list)
            and all(
                isinstance(c, list) and len(c) == 2 and all(isinstance(p, str) for p in c) for c in choices
            )
        ):
            raise ValueError("a read's choices are [ruling, reading] pairs")
        return Read(raw[0], tuple((c[0], c[1]) for c in choices), raw[2])


SHAPE = "#shape"


@dataclass(frozen=True, slots=True)
class GameDataHooks:
    """How a game's data is tracked: its ``GameData`` class, and its data in force alone under
    some rulings (``build(choices)``, the game's ``default_data``)."""

    game: str
    kind: type
    build: Callable[[Choices], Any]


@dataclass(frozen=True, slots=True)
class _Place:
    """Where a record of a tracked ``GameData`` sits (every place it was seen: reads of it are
    recorded at each, an over-approximation that stays sound when records are shared)."""

    record: Any  # kept alive, so its id is not reused
    places: set[tuple[str, Choices, str]]


_GAMES: dict[str, GameDataHooks] = {}
_BY_CLASS: dict[type, GameDataHooks] = {}
_FIELDS: dict[type, frozenset[str]] = {}  # every hooked class: its fields
_TRACKED: dict[int, tuple[Any, str, Choices]] = {}  # id -> (the object, kept alive; game; rulings)
_RECORDS: dict[int, _Place] = {}
Key = tuple[str, Choices | None, str]
"""A read as the hook notes it (a plain tuple: hashed and compared in C, a :class:`Read` made
once per distinct read when the recording ends)."""
_ACTIVE: list[set[Key]] = []
_HOOKED: set[type] = set()  # the classes the hook is on while recording
_DONE: set[tuple[int, type, str]] = set()
"""(object's id, its class, attribute name) that needs no noting again while recording: a field
noted already, or a name that is not a field, or a field of an object that is neither tracked
data nor one of its records. The class is in the key, so an id reused by an object of another
class is looked at afresh; a record that becomes tracked (:func:`_register`) has its entries
dropped."""
_LOCK = threading.Lock()
_PAUSED = threading.local()  # this thread builds a tracked object (:func:`untracked`)

KEPT = frozenset(
    {
        # the data in force alone, tracked read by read (:func:`tracked`)
        "_default_data",
        # the bundled files and schemas: part of the code version, not of the data in force
        "_bundled",
        "_bundled_heroes",
        "_bundled_boards",
        "bundled_library",
        "bundled_document",
        "_validated_bundle",
        "load_schema",
        "_parsed",
        "outline_schema",
        # the machinery: no game value in them
        "suite_for",
        "version",
        "_hints",
        "answer_table",
        "_result_types",
        "_parser",
    }
)
"""The names of the ``functools`` caches :func:`recording` keeps; every other is emptied."""


def register_game_data(game: str, kind: type, build: Callable[[Choices], Any]) -> None:
    """Called once by each game's data module: its ``GameData`` class and its ``default_data``."""
    hooks = GameDataHooks(game, kind, build)
    _GAMES[game] = hooks
    _BY_CLASS[kind] = hooks
    _FIELDS[kind] = _field_names(kind)


def _field_names(kind: type) -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(kind))


def tracked(data: T, game: str, choices: Choices = ()) -> T:
    """``data``, the data in force of ``game`` alone under the rulings ``choices``: its reads are
    recorded one by one, down to each field of each record in its lists (any other object of
    the class counts as a read of the whole data in force)."""
    with _LOCK:
        _TRACKED[id(data)] = (data, game, choices)
        for name in _field_names(type(data)):
            _register(object.__getattribute__(data, name), game, choices, name)
    return data


def _is_record(value: Any) -> bool:
    """A dataclass whose reads the hook can see (not one with its own ``__getattribute__``)."""
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return False
    kind = type(value)
    return kind in _HOOKED or "__getattribute__" not in vars(kind)


def _register(value: Any, game: str, choices: Choices, path: str) -> None:
    """Each record (a dataclass) in ``value`` (a record itself, or lists of them) at its place."""
    if _is_record(value):
        kind = type(value)
        if kind not in _FIELDS:
            _FIELDS[kind] = _field_names(kind)
        if _ACTIVE and kind not in _HOOKED:  # a class first met while recording: hooked now
            _hook(kind)
        place = _RECORDS.get(id(value))
        if place is None or place.record is not value:
            place = _RECORDS[id(value)] = _Place(value, set())
        if (game, choices, path) not in place.places:
            place.places.add((game, choices, path))
            for name in _FIELDS[kind]:  # a new place: its next read is noted there too
                _DONE.discard((id(value), kind, name))
    elif isinstance(value, tuple | list):
        for i, item in enumerate(value):
            _register(item, game, choices, f"{path}/{i}")


def note_whole(game: str) -> None:
    """A read of ``game``'s whole data in force (when recording)."""
    if _ACTIVE:
        _note((game, None, WHOLE))


def note_every() -> None:
    """A read of every game's data in force (when recording)."""
    if _ACTIVE:
        _note(("", None, EVERY))


def _note(read: Key) -> None:
    if getattr(_PAUSED, "on", False):
        return
    for reads in _ACTIVE:  # one set at most; a set's add is atomic, from any thread
        reads.add(read)


_get = object.__getattribute__


def _getattribute(self: Any, name: str) -> Any:
    value = _get(self, name)
    if _ACTIVE:
        # the hook runs on every attribute of a hooked class: after the first look at an
        # (object, name) in a recording, one set lookup
        done = (id(self), type(self), name)
        if done not in _DONE and _note_field(self, name, value):
            _DONE.add(done)
    return value


def _hook(kind: type) -> None:
    type.__setattr__(kind, "__getattribute__", _getattribute)
    _HOOKED.add(kind)


def _note_field(owner: Any, name: str, value: Any) -> bool:
    """Note the read, if ``name`` is a field of ``owner``'s data; whether the same look needs no
    noting again in this recording (False only while this thread builds tracked data)."""
    if name not in _FIELDS.get(type(owner), ()):
        return True  # a method or property: its own field reads are noted
    if getattr(_PAUSED, "on", False):
        return False
    hooks = _BY_CLASS.get(type(owner))
    if hooks is not None:  # a GameData: tracked, or any other (a whole-data read)
        known = _TRACKED.get(id(owner))
        if known is None or known[0] is not owner:
            _note((hooks.game, None, WHOLE))
            return True
        holds_records = _has_records(value)
        _note((known[1], known[2], f"{name}/{SHAPE}" if holds_records else name))
        return True
    place = _RECORDS.get(id(owner))
    if place is None or place.record is not owner:
        return True  # a record not from any tracked data (bundled code, a scenario's own: not in force)
    for game, choices, path in list(place.places):
        _note((game, choices, f"{path}/{name}"))
    return True


def _has_records(value: Any) -> bool:
    if _is_record(value):
        return True
    return isinstance(value, tuple | list) and any(_has_records(v) for v in value)


@contextlib.contextmanager
def untracked() -> Iterator[None]:
    """No read of this thread recorded in the body: a game's ``default_data`` being built, whose
    result is :func:`tracked` (each of its fields read later is recorded, and its digest is the
    field built from the data in force)."""
    was = getattr(_PAUSED, "on", False)
    _PAUSED.on = True
    try:
        yield
    finally:
        _PAUSED.on = was


@contextlib.contextmanager
def recording() -> Iterator[set[Read]]:
    """Record the reads of the body (the set is filled when the body ends, also by an
    exception); derived caches are emptied first, so nothing computed by earlier work reaches
    the body without a read."""
    if _ACTIVE:
        raise RuntimeError("reads are already being recorded (jobs run one at a time)")
    clear_derived_caches()
    reads: set[Read] = set()
    noted: set[Key] = set()
    _DONE.clear()
    _ACTIVE.append(noted)
    for kind in [k for k in _FIELDS if "__getattribute__" not in vars(k)]:
        _hook(kind)
    try:
        yield reads
    finally:
        _ACTIVE.clear()
        _DONE.clear()
        for kind in list(_HOOKED):
            _HOOKED.discard(kind)
            with contextlib.suppress(AttributeError):
                del kind.__getattribute__
        reads.update(Read(game, choices, path) for game, choices, path in noted)


_DERIVED: list[dict[Any, Any]] = []


def derived_cache(store: dict[Any, Any]) -> dict[Any, Any]:
    """Register a hand-written cache (a dict) of values computed from game data, so that
    :func:`clear_derived_caches` empties it like a ``functools`` cache: a hit would hand a job a
    value without the reads that made it.

    >>> store: dict[int, str] = {}
    >>> derived_cache(store) is store
    True
    """
    _DERIVED.append(store)
    return store


_FUNCTOOLS_CACHE = type(functools.cache(len))
"""The class of every ``functools.cache`` / ``lru_cache`` function."""


@dataclass(frozen=True, slots=True)
class _Caches:
    """The ``functools`` caches :func:`clear_derived_caches` empties, found for one count of
    loaded modules and of names in each project module (a cache defined since is found by a new
    look), each with the namespace and name it was found under (a name rebound since, by a
    reload or a test's patch, is found by a new look too)."""

    modules: int
    namespaces: tuple[tuple[dict[str, Any], int], ...]
    functions: tuple[tuple[dict[str, Any], str, Any], ...]

    def current(self) -> bool:
        return (
            self.modules == len(sys.modules)
            and all(len(namespace) == size for namespace, size in self.namespaces)
            and all(namespace.get(name) is function for namespace, name, function in self.functions)
        )


_CLEARED: list[_Caches] = []


def clear_derived_caches() -> None:
    """Empty every ``functools`` cache of the project's modules not named in :data:`KEPT`, and
    every cache registered with :func:`derived_cache`."""
    for store in _DERIVED:
        store.clear()
    # the caches are looked for only when the modules changed: the look cost about 1.5 ms, and it
    # comes before every case ``invasion changes`` builds
    if not (_CLEARED and _CLEARED[0].current()):
        _CLEARED[:] = [_functools_caches()]
    for _, _, function in _CLEARED[0].functions:
        function.cache_clear()


def _functools_caches() -> _Caches:
    modules = len(sys.modules)
    namespaces = []
    found = []
    for name, module in list(sys.modules.items()):
        if not name.startswith("invasion_oracle") or module is None:
            continue
        namespace = vars(module)
        namespaces.append((namespace, len(namespace)))
        # known by its class: asking each of a module's names for ``cache_clear`` cost about 4 ms
        for attribute, value in list(namespace.items()):
            if type(value) is _FUNCTOOLS_CACHE and value.__module__ == name and value.__name__ not in KEPT:
                found.append((namespace, attribute, value))
    return _Caches(modules, tuple(namespaces), tuple(found))


# -- digests ---------------------------------------------------------------------------------


def digest(read: Read, in_force: tuple[Any, ...]) -> str:
    """The value ``read`` names under the data in force now (``in_force``: every game's entry of
    it, ``overrides.all_in_force_untracked()``), hashed; a value that cannot be written out
    stably, or a place that is not there, has a digest of its own that matches nothing (its job
    is recomputed)."""
    return digests([read], in_force)[0]


def digests(reads: Iterable[Read], in_force: tuple[Any, ...]) -> list[str]:
    """:func:`digest` of each of ``reads`` (the same strings), the work shared between them: a
    game's data is built once per rulings, and a value reached at the same path of the data built
    under other rulings (the records are shared between those objects, :class:`_Place`) is
    written out and hashed once."""
    built: dict[tuple[str, Choices], Any] = {}
    hashed: dict[tuple[str, str, int], str] = {}
    kept: list[Any] = []  # each hashed value alive while its id is a key
    out: list[str] = []
    for read in reads:
        if read.path == EVERY or read.path == WHOLE or read.choices is None:
            out.append(_whole_digest(read, in_force))
            continue
        hooks = _GAMES.get(read.game)
        if hooks is None:
            out.append(_never())
            continue
        try:
            root = built.get((read.game, read.choices), _UNBUILT)
            if root is _UNBUILT:
                root = built[(read.game, read.choices)] = hooks.build(read.choices)
            parts = read.path.split("/")
            shape = parts[-1] == SHAPE
            node = _at(root, parts[:-1] if shape else parts)
            if node is _UNBUILT:
                out.append(_never())
                continue
            key = (read.game, read.path, id(node))
            found = hashed.get(key)
            if found is None:
                written = _shape(node) if shape else _stable(node)
                found = hashed[key] = _hash([read.game, read.path, written])
                kept.append(node)
            out.append(found)
        except Exception:  # a stored read that does not build (rulings since changed): never equal
            out.append(_never())
    return out


_UNBUILT = object()


def _at(node: Any, parts: Sequence[str]) -> Any:
    """The value at ``parts`` (list positions and record fields) of ``node``; ``_UNBUILT`` when
    the place is not there."""
    for part in parts:
        if isinstance(node, tuple | list):
            node = node[int(part)]
        elif dataclasses.is_dataclass(node) and part in _fields_of(type(node)):
            node = object.__getattribute__(node, part)
        else:
            return _UNBUILT
    return node


_FIELDS_OF: dict[type, frozenset[str]] = {}  # a class's field names (code, not data)


def _fields_of(kind: type) -> frozenset[str]:
    names = _FIELDS_OF.get(kind)
    if names is None:
        names = _FIELDS_OF[kind] = _field_names(kind)
    return names


def _whole_digest(read: Read, in_force: tuple[Any, ...]) -> str:
    # a whole-data read holds the file's name too: a message may name it
    if read.path == EVERY:
        texts = sorted([e.game, e.source, e.text] for e in in_force)
        return _hash(["every", texts])
    entry = next((e for e in in_force if e.game == read.game), None)
    return _hash(["whole", read.game, [entry.source, entry.text] if entry else None])


def _shape(value: Any) -> Any:
    """A list field's structure: records by class name, plain values as they are."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return ["record", type(value).__module__, type(value).__qualname__]
    if isinstance(value, tuple | list):
        return ["seq", [_shape(v) for v in value]]
    return _stable(value)


def _hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_NEVER = [0]


def _never() -> str:
    _NEVER[0] += 1
    return f"never-{id(_NEVER)}-{_NEVER[0]}"


class Unstable(TypeError):
    """A value with no stable written form."""


def _stable(value: Any) -> Any:
    """``value`` as JSON data that two equal values (in any process) write the same way."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return ["float", repr(value)]
    if isinstance(value, Fraction):
        return ["fraction", str(value)]
    if isinstance(value, enum.Enum):
        return ["enum", type(value).__module__, type(value).__qualname__, _stable(value.value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _stable(object.__getattribute__(value, f.name)) for f in dataclasses.fields(value)}
        return ["dc", type(value).__module__, type(value).__qualname__, fields]
    if isinstance(value, tuple | list):
        return ["seq", [_stable(v) for v in value]]
    if isinstance(value, frozenset | set):
        items = [_stable(v) for v in value]
        return ["set", sorted(items, key=lambda v: json.dumps(v, sort_keys=True))]
    if isinstance(value, dict):
        pairs = [[_stable(k), _stable(v)] for k, v in value.items()]
        return ["map", sorted(pairs, key=lambda p: json.dumps(p, sort_keys=True))]
    raise Unstable(type(value).__qualname__)
