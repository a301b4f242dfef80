"""Partial data overrides, the same in every game, and the data in force for a whole run.

**The override form.** A data document with ``"extends": "bundled"`` changes the bundled data
record by record: each collection the game declares (:class:`Collection`) is an object keyed by
the record's id, holding only the fields that change::

    {"extends": "bundled", "heroes": {"Barbarian": {"health": 5}}}

* a record under a bundled id is **merged** into the bundled record: an object merges field by
  field (at any depth), any other value (a number, a string, a list) replaces the bundled one;
* a record under a new id is **added**: it is given whole (every required field);
* ``"remove": {"COLLECTION": [ID, ...]}`` **removes** records, in the collections the game's
  rules read as a whole (:attr:`Collection.removable`); elsewhere a removal is refused, naming
  the collections that allow it;
* everything else (values, dice, ...) is given as in a full data document, key by key;
* ``"game"`` (optional) names the game the file is for (the commands that run every game read it).

:func:`expand` turns such a document into the game's full data document (every changed record
whole), which the game then checks exactly as it checks a full one. Errors name the override
file's own place (``d.json:$.heroes.Barbarian.health: ...``); an id or a field that does not
exist suggests the closest names. A document without ``extends`` is a full data document and
passes through unchanged, so full records keep working.

**The data in force.** :func:`data_in_force` sets, for the code run inside it, a data document
that every load of that game's data starts from (under a scenario's own data and ``--data``):
running anything "under data D" is one ``with`` block. :func:`in_force` reads it.
"""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeVar

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import json_path, plain_json
from invasion_oracle.model.core.reads import derived_cache, note_every, note_whole
from invasion_oracle.model.core.rulings import name_hint

Path = tuple[str | int, ...]
T = TypeVar("T")
EXTENDS = "bundled"
"""The one value ``extends`` takes: the data the game ships with."""
FORM_KEYS = ("$schema", "extends", "game", "remove")
"""Keys of the override form that are not data."""


@dataclass(frozen=True, slots=True)
class Collection:
    """A collection of records a data document names by id.

    ``path`` is where it sits in a data document (``("heroes",)``, ``("dice", "colours")``) and
    ``bundled`` where the bundled file keeps it (default: the same place). With ``id_field`` the
    full form is a list of records named by that field; without it, an object keyed by id.
    ``merge``: a record given under a bundled id is merged into the bundled one (False: its entry
    is taken as given, as a value is). ``whole``: the full form lists every record (the game reads
    the collection as a whole), so records can be removed. ``drop``: the bundled file's own
    bookkeeping fields, not part of a data document's record.
    """

    path: tuple[str, ...]
    id_field: str | None = None
    bundled: tuple[str, ...] = ()
    merge: bool = True
    whole: bool = False
    drop: tuple[str, ...] = ("provenance",)
    what: str = "record"

    @property
    def name(self) -> str:
        return ".".join(self.path)

    @property
    def removable(self) -> bool:
        return self.whole


@dataclass(frozen=True, slots=True)
class OverrideSpec:
    """A game's collections: what an override may name by id."""

    game: str
    collections: tuple[Collection, ...]


@dataclass(frozen=True, slots=True)
class Expanded:
    """A full data document made from an override, and where its records came from.

    ``renames`` maps a path prefix in :attr:`document` (``$.heroes[0]``) to the override's own
    (``$.heroes.Barbarian``), so an error the game's checks find is located in the file written."""

    document: dict[str, Any]
    renames: tuple[tuple[str, str], ...] = ()

    def locate(self, path: str) -> str:
        for inner, outer in sorted(self.renames, key=lambda r: -len(r[0])):
            if path == inner or path.startswith((inner + ".", inner + "[")):
                return outer + path[len(inner) :]
        return path


def is_override(document: Any) -> bool:
    """Whether ``document`` is in the override form (has ``extends``)."""
    return isinstance(document, Mapping) and "extends" in document


def expand(
    document: Mapping[str, Any],
    bundled: Mapping[str, Any],
    spec: OverrideSpec,
    schema: Mapping[str, Any],
    source: str,
    at: Path = (),
) -> Expanded:
    """The full data document an override document stands for (see the module's docstring).

    ``bundled`` is the game's bundled file, ``schema`` its data schema (whose full form names the
    fields a record may have), ``at`` where the document sits in ``source``."""
    if not is_override(document):
        return Expanded(dict(document))
    _check_form(document, spec, schema, source, at)
    full: dict[str, Any] = {k: copy.deepcopy(v) for k, v in document.items() if k not in FORM_KEYS}
    renames: list[tuple[str, str]] = []
    removals = _removals(document, spec, bundled, source, at)
    for collection in spec.collections:
        given = _get(document, collection.path)
        removed = removals.get(collection.name, ())
        if given is None and not removed:
            continue
        if collection.id_field is not None and isinstance(given, list):
            if removed:  # a full list is every record already: a removal beside it is a contradiction
                raise MalformedInputError(
                    source,
                    json_path((*at, "remove", collection.name)),
                    f"{collection.name} is given as a full list; leave out of it what to remove",
                )
            continue  # full records, as in a full data document
        if given is None:
            given = {}
        if not isinstance(given, dict):
            raise MalformedInputError(
                source,
                json_path((*at, *collection.path)),
                f"in an override, {collection.name} is an object keyed by "
                f"{collection.id_field or 'id'}, holding the fields that change",
            )
        out, moved = _expand_collection(collection, given, removed, bundled, schema, source, at)
        _put(full, collection.path, out)
        renames += moved
    return Expanded(full, tuple(renames))


@contextlib.contextmanager
def located(expanded: Expanded, source: str) -> Iterator[None]:
    """Errors the game's checks raise about ``expanded``'s records, located in the override file."""
    try:
        yield
    except MalformedInputError as err:
        if err.source != source or not expanded.renames:
            raise
        moved = expanded.locate(err.path)
        if moved == err.path:
            raise
        raise type(err)(source, moved, err.reason) from None


def combine(lower: Mapping[str, Any], upper: Mapping[str, Any], spec: OverrideSpec) -> dict[str, Any]:
    """Two full data documents as one, ``upper`` winning: record by record in each collection
    (a whole collection given in ``upper`` replaces ``lower``'s), key by key elsewhere."""
    out: dict[str, Any] = copy.deepcopy(dict(lower))
    for key, value in upper.items():
        out[key] = copy.deepcopy(value)
    for collection in spec.collections:
        low, up = _get(lower, collection.path), _get(upper, collection.path)
        if low is None or up is None or collection.whole:
            continue
        if collection.id_field is not None and isinstance(low, list) and isinstance(up, list):
            names = {r.get(collection.id_field) for r in up if isinstance(r, dict)}
            kept = [r for r in low if not (isinstance(r, dict) and r.get(collection.id_field) in names)]
            _put(out, collection.path, [*copy.deepcopy(kept), *copy.deepcopy(up)])
        elif isinstance(low, dict) and isinstance(up, dict):
            merged = copy.deepcopy(low)
            for key, value in up.items():
                merged[key] = (
                    _merged(merged[key], value)
                    if collection.merge and isinstance(merged.get(key), dict) and isinstance(value, dict)
                    else copy.deepcopy(value)
                )
            _put(out, collection.path, merged)
    for path in {c.path[:-1] for c in spec.collections if len(c.path) > 1}:
        # a collection nested in an object (dice.colours): the object's other keys merge too
        low, up = _get(lower, path), _get(upper, path)
        if isinstance(low, dict) and isinstance(up, dict):
            _put(out, path, {**copy.deepcopy(low), **_get(out, path)})
    return out


def build_in_force(
    spec: OverrideSpec,
    bundled: Mapping[str, Any],
    schema: Mapping[str, Any],
    overrides: Any,
    source: str,
    build: Callable[[Any, str], T],
) -> T:
    """``build(document, source)`` (a game's loader of a full data document) over the data in
    force for ``spec.game`` and ``overrides``, either in the override form or the full one.

    The data in force is built alone first, so an error in it is located in its own file; a
    scenario's data or ``--data`` then goes on top of it (:func:`combine`). Without user data
    the result is built once per game, loader and data in force: every scenario without a
    ``data`` object shares it (``source`` only names user data, in errors and provenance), so a
    run that loads thousands of scenarios (``invasion conform --fuzz``) builds it once."""
    if overrides is None or (isinstance(overrides, Mapping) and not overrides):
        ambient = in_force(spec.game)
        key = (spec.game, build, ambient.key if ambient else None)
        if key not in _WITHOUT_USER_DATA:
            _WITHOUT_USER_DATA[key] = _built_in_force(spec, bundled, schema, overrides, source, build)
        return _WITHOUT_USER_DATA[key]  # type: ignore[no-any-return]
    # a scenario's own data: the same scenario is loaded under each reading of every ruling
    # (``fixtures generate``, ``invasion changes``), its data built once
    ambient = in_force(spec.game)
    if not plain_json(overrides):  # its text would not tell it apart (a tuple, a float): built each time
        return _built_in_force(spec, bundled, schema, overrides, source, build)
    mine = (spec.game, build, ambient.key if ambient else None, source, json.dumps(overrides))
    if mine not in _WITH_USER_DATA:
        if len(_WITH_USER_DATA) >= 64:
            _WITH_USER_DATA.clear()
        _WITH_USER_DATA[mine] = _built_in_force(spec, bundled, schema, overrides, source, build)
    return _WITH_USER_DATA[mine]  # type: ignore[no-any-return]


_WITHOUT_USER_DATA: dict[tuple[str, Callable[..., Any], tuple[str, str] | None], Any] = {}
""":func:`build_in_force`'s results without user data (a handful: one per game and data in force)."""

UserDataKey = tuple[str, Callable[..., Any], tuple[str, str] | None, str, str]
_WITH_USER_DATA: dict[UserDataKey, Any] = derived_cache({})
""":func:`build_in_force`'s results with user data, by its text: emptied before each job whose
reads are recorded, like any cache of values built from the data in force."""


def _built_in_force(
    spec: OverrideSpec,
    bundled: Mapping[str, Any],
    schema: Mapping[str, Any],
    overrides: Any,
    source: str,
    build: Callable[[Any, str], T],
) -> T:
    upper = (
        expand(overrides, bundled, spec, schema, source)
        if overrides and isinstance(overrides, Mapping)
        else None
    )
    ambient = in_force(spec.game)
    if ambient is None:
        if upper is None:
            return build(overrides, source)
        with located(upper, source):
            return build(upper.document, source)
    if upper is None:
        lower = expand(ambient.document, bundled, spec, schema, ambient.source)
        with located(lower, ambient.source):
            return build(lower.document, ambient.source)
    # the data in force built alone first (once per data: an error in it is located in its file)
    build_in_force(spec, bundled, schema, None, ambient.source, build)
    lower = expand(ambient.document, bundled, spec, schema, ambient.source)
    with located(upper, source):
        return build(combine(lower.document, upper.document, spec), source)


# -- the data in force -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DataInForce:
    """One game's data document in force: the game, the file it came from, its canonical text."""

    game: str
    source: str
    text: str

    @property
    def document(self) -> dict[str, Any]:
        return _parsed(self.text)

    @property
    def key(self) -> tuple[str, str]:
        """What a result computed under it depends on (a cache key part)."""
        return (self.source, self.text)


@cache
def _parsed(text: str) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(text)
    return document


_IN_FORCE: ContextVar[tuple[DataInForce, ...]] = ContextVar("invasion_data_in_force", default=())


def canonical_text(document: Mapping[str, Any]) -> str:
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


@contextlib.contextmanager
def data_in_force(entries: Sequence[DataInForce]) -> Iterator[None]:
    """Run the body with ``entries`` as the data in force of their games (replacing any earlier
    entry of the same game)."""
    games = {e.game for e in entries}
    current = tuple(e for e in _IN_FORCE.get() if e.game not in games)
    token = _IN_FORCE.set((*current, *entries))
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


@contextlib.contextmanager
def no_data_in_force() -> Iterator[None]:
    """Run the body on the bundled data (a document that carries its own data, for example)."""
    token = _IN_FORCE.set(())
    try:
        yield
    finally:
        _IN_FORCE.reset(token)


def in_force(game: str) -> DataInForce | None:
    """The data in force for ``game`` (None: the bundled data); a read of all of it, for the
    reads recorded (:mod:`invasion_oracle.model.core.reads`)."""
    note_whole(game)
    return in_force_untracked(game)


def in_force_untracked(game: str) -> DataInForce | None:
    """:func:`in_force` not recorded as a read: only for a game's ``default_data``, whose own
    fields are recorded one by one (:func:`invasion_oracle.model.core.reads.tracked`)."""
    return next((e for e in _IN_FORCE.get() if e.game == game), None)


def data_in_force_of(game: str, kind: type[T], build: Callable[[], T]) -> Callable[[], T]:
    """A game's ``default_data``: the data in force (the bundled data unless a run set other
    data), built by ``build`` once per data in force, its fields recorded as they are read
    (:mod:`invasion_oracle.model.core.reads`) and registered for the digests of those reads."""
    from invasion_oracle.model.core.reads import register_game_data, tracked, untracked

    @cache
    def _default_data(key: tuple[str, str] | None) -> T:  # the name reads.KEPT keeps
        with untracked():
            built = build()
        return tracked(built, game)

    def default_data() -> T:
        ambient = in_force_untracked(game)
        return _default_data(ambient.key if ambient else None)

    register_game_data(game, kind, lambda choices: default_data())
    return default_data


def all_in_force() -> tuple[DataInForce, ...]:
    """Every game's data in force (a read of all of it, for the reads recorded)."""
    note_every()
    return _IN_FORCE.get()


def all_in_force_untracked() -> tuple[DataInForce, ...]:
    return _IN_FORCE.get()


def run_under(entries: tuple[DataInForce, ...], job: Any, *arguments: Any) -> Any:
    """``job(*arguments)`` with ``entries`` in force (a module-level function, so a worker process
    or a Dask cluster can run it: the data travels with the job)."""
    if not entries:
        return job(*arguments)
    with data_in_force(entries):
        return job(*arguments)


# -- expansion ---------------------------------------------------------------------------------


def _check_form(
    document: Mapping[str, Any], spec: OverrideSpec, schema: Mapping[str, Any], source: str, at: Path
) -> None:
    if document["extends"] != EXTENDS:
        raise MalformedInputError(
            source, json_path((*at, "extends")), f'extends is "{EXTENDS}" (the data the game ships with)'
        )
    game = document.get("game")
    if game is not None and game != spec.game:
        raise MalformedInputError(
            source, json_path((*at, "game")), f"this is {spec.game}'s data, not {game!r}"
        )
    known = sorted({*_node(schema, schema).get("properties", {}), *FORM_KEYS} - {"$schema"})
    for key in document:
        if key not in known and key != "$schema":
            raise MalformedInputError(
                source, json_path((*at, key)), f"unknown key {key!r}{name_hint(key, known)}"
            )


def _removals(
    document: Mapping[str, Any], spec: OverrideSpec, bundled: Mapping[str, Any], source: str, at: Path
) -> dict[str, tuple[str, ...]]:
    raw = document.get("remove")
    if raw is None:
        return {}
    where: Path = (*at, "remove")
    removable = [c.name for c in spec.collections if c.removable]
    if not isinstance(raw, dict):
        raise MalformedInputError(
            source, json_path(where), "remove is an object: a collection's name -> the ids to remove"
        )
    out: dict[str, tuple[str, ...]] = {}
    by_name = {c.name: c for c in spec.collections}
    for name, ids in raw.items():
        collection = by_name.get(name)
        if collection is None or not collection.removable:
            allowed = ", ".join(removable) or "none"
            raise MalformedInputError(
                source,
                json_path((*where, name)),
                f"records of {name!r} cannot be removed (the rules read each one by name); "
                f"removable in {spec.game}: {allowed}",
            )
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise MalformedInputError(source, json_path((*where, name)), "a list of ids")
        known = list(_bundled_records(collection, bundled))
        for i, rid in enumerate(ids):
            if rid not in known:
                raise MalformedInputError(
                    source,
                    json_path((*where, name, i)),
                    f"no bundled {collection.what} {rid!r}{name_hint(rid, known)}",
                )
        out[name] = tuple(ids)
    return out


def _expand_collection(
    collection: Collection,
    given: dict[str, Any],
    removed: tuple[str, ...],
    bundled: Mapping[str, Any],
    schema: Mapping[str, Any],
    source: str,
    at: Path,
) -> tuple[Any, list[tuple[str, str]]]:
    base = _bundled_records(collection, bundled)
    record_schema = _record_schema(schema, collection)
    required = [str(r) for r in record_schema.get("required", ())]
    fixed = _fixed_names(schema, collection)
    records: dict[str, Any] = {}
    for rid, patch in given.items():
        where: Path = (*at, *collection.path, rid)
        _check_record_name(collection, rid, patch, base, removed, fixed, required, source, where)
        if not collection.merge:
            records[rid] = copy.deepcopy(patch)
            continue
        records[rid] = _merged_record(collection, rid, patch, base, record_schema, schema, source, where)
    if collection.id_field is None:
        return records, []
    return _ordered_records(collection, records, base, removed, at)


def _check_record_name(
    collection: Collection,
    rid: str,
    patch: Any,
    base: Mapping[str, Any],
    removed: tuple[str, ...],
    fixed: list[str],
    required: list[str],
    source: str,
    where: Path,
) -> None:
    """A changed record is not also removed, and one not bundled may be added (given whole)."""
    if rid in removed:
        raise MalformedInputError(source, json_path(where), f"{rid!r} is both changed and removed")
    if rid not in base and fixed:
        raise MalformedInputError(
            source, json_path(where), f"unknown {collection.what} {rid!r}{name_hint(rid, fixed)}"
        )
    if rid in base:
        return
    missing = [
        r for r in required if r != collection.id_field and not (isinstance(patch, dict) and r in patch)
    ]
    if not collection.merge:
        raise MalformedInputError(
            source,
            json_path(where),
            f"unknown {collection.what} {rid!r}{name_hint(rid, list(base))}",
        )
    if missing:
        raise MalformedInputError(
            source,
            json_path(where),
            f"no bundled {collection.what} {rid!r}{name_hint(rid, list(base))} "
            f"(to add one, give it whole: {', '.join(repr(m) for m in missing)} "
            f"{'is' if len(missing) == 1 else 'are'} missing)",
        )


def _merged_record(
    collection: Collection,
    rid: str,
    patch: Any,
    base: Mapping[str, Any],
    record_schema: Mapping[str, Any],
    schema: Mapping[str, Any],
    source: str,
    where: Path,
) -> Any:
    """The record ``rid`` after its patch: checked field by field, merged over the bundled one
    (its dropped fields left out), its id field first."""
    if not isinstance(patch, dict):
        raise MalformedInputError(
            source, json_path(where), f"a {collection.what}'s changed fields, as an object"
        )
    _check_fields(patch, record_schema or _entry_schema(schema, collection, rid), schema, source, where)
    if collection.id_field is not None:
        named = patch.get(collection.id_field, rid)
        if named != rid:
            raise MalformedInputError(
                source,
                json_path((*where, collection.id_field)),
                f"the {collection.id_field} is the key, {rid!r}; to rename, remove it and add one",
            )
    record = (
        _merged({k: v for k, v in base[rid].items() if k not in collection.drop}, patch)
        if rid in base
        else copy.deepcopy(patch)
    )
    if collection.id_field is not None:
        record = {
            collection.id_field: rid,
            **{k: v for k, v in record.items() if k != collection.id_field},
        }
    return record


def _ordered_records(
    collection: Collection,
    records: dict[str, Any],
    base: Mapping[str, Any],
    removed: tuple[str, ...],
    at: Path,
) -> tuple[list[Any], list[tuple[str, str]]]:
    """A list collection's records in order (a whole one: the bundled kept, then the added), and
    each changed record's list path renamed to its id path."""
    if collection.whole:
        order = [r for r in base if r not in removed] + [r for r in records if r not in base]
        out = [
            records.get(r) or {k: v for k, v in base[r].items() if k not in collection.drop} for r in order
        ]
    else:
        order = list(records)
        out = [records[r] for r in order]
    renames: list[tuple[str, str]] = []
    for i, rid in enumerate(order):
        if rid in records:
            renames.append((json_path((*at, *collection.path, i)), json_path((*at, *collection.path, rid))))
    return out, renames


def _check_fields(
    patch: Mapping[str, Any], node: Mapping[str, Any], schema: Mapping[str, Any], source: str, where: Path
) -> None:
    """Every field named in ``patch`` exists where the schema says what a record holds."""
    node = _node(schema, node)
    properties = node.get("properties")
    extra = node.get("additionalProperties")
    for key, value in patch.items():
        if isinstance(properties, dict) and key in properties:
            inner: Any = properties[key]
        elif isinstance(extra, dict):
            inner = extra
        elif isinstance(properties, dict) and extra is False:
            known = sorted(properties)
            raise MalformedInputError(
                source, json_path((*where, key)), f"unknown field {key!r}{name_hint(key, known)}"
            )
        else:
            continue
        if isinstance(value, dict):
            _check_fields(value, inner, schema, source, (*where, key))


def _record_schema(schema: Mapping[str, Any], collection: Collection) -> Mapping[str, Any]:
    node = _node(schema, schema)
    for part in collection.path:
        node = _node(schema, node.get("properties", {}).get(part, {}))
    if collection.id_field is not None:
        return _node(schema, node.get("items", {}))
    extra = node.get("additionalProperties")
    if isinstance(extra, dict):
        return _node(schema, extra)
    return {}  # entries of fixed names (dice colours, pieces): each checked under its own name


def _fixed_names(schema: Mapping[str, Any], collection: Collection) -> list[str]:
    """The names a collection's entries may have when the schema lists them (dice colours,
    pieces); empty when any id may be added."""
    node = _node(schema, schema)
    for part in collection.path:
        node = _node(schema, node.get("properties", {}).get(part, {}))
    if collection.id_field is None and node.get("additionalProperties") is False:
        return sorted(node.get("properties", {}))
    return []


def _entry_schema(schema: Mapping[str, Any], collection: Collection, rid: str) -> Mapping[str, Any]:
    """The schema of the entry named ``rid`` of a collection whose entries have fixed names."""
    node = _node(schema, schema)
    for part in collection.path:
        node = _node(schema, node.get("properties", {}).get(part, {}))
    return _node(schema, node.get("properties", {}).get(rid, {}))


def _node(schema: Mapping[str, Any], node: Any) -> Mapping[str, Any]:
    """``node`` with its ``$ref`` (``#/$defs/hero``) followed; the top-level ``else`` of a data
    schema (the full form) stands for the schema itself."""
    seen = 0
    while isinstance(node, Mapping) and "$ref" in node and seen < 20:
        target: Any = schema
        for part in str(node["$ref"]).removeprefix("#/").split("/"):
            target = target.get(part, {}) if isinstance(target, Mapping) else {}
        node, seen = target, seen + 1
    if isinstance(node, Mapping) and "else" in node and "properties" not in node:
        return _node(schema, node["else"])
    return node if isinstance(node, Mapping) else {}


def _bundled_records(collection: Collection, bundled: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    raw = _get(bundled, collection.bundled or collection.path)
    if collection.id_field is not None:
        return {r[collection.id_field]: r for r in raw or []}
    return dict(raw or {})


def _merged(base: Any, patch: Any) -> Any:
    """``patch`` over ``base``: objects field by field, anything else replaced."""
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for key, value in patch.items():
            out[key] = _merged(base.get(key), value) if key in base else copy.deepcopy(value)
        return out
    return copy.deepcopy(patch)


def _get(document: Mapping[str, Any], path: Sequence[str]) -> Any:
    node: Any = document
    for part in path:
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def _put(document: dict[str, Any], path: Sequence[str], value: Any) -> None:
    node = document
    for part in path[:-1]:
        node = node.setdefault(part, {})
    node[path[-1]] = value


__all__ = [
    "Collection",
    "DataInForce",
    "Expanded",
    "OverrideSpec",
    "all_in_force",
    "all_in_force_untracked",
    "build_in_force",
    "canonical_text",
    "combine",
    "data_in_force",
    "expand",
    "in_force",
    "in_force_untracked",
    "is_override",
    "located",
    "no_data_in_force",
    "run_under",
]
