"""Hypothesis strategies from the published JSON Schemas: valid documents and mutated ones.

:func:`from_schema` draws documents that validate against a schema (draft 2020-12, the subset
this project's schemas use: types, ``const``/``enum``, ``properties``/``required``/
``additionalProperties``, ``items`` with sizes, ``minimum``/``maximum``, string lengths and
``pattern``, ``$ref``, ``oneOf``/``anyOf``/``allOf``, ``propertyNames``, ``uniqueItems``). Every
draw is checked by the real validator, so a keyword this module reads loosely never yields an
invalid "valid" document. :func:`mutated` breaks a valid document in one place (a wrong type,
a missing field, an unknown field, a float, a negative number, a huge number, deep nesting,
control characters), as hostile or careless input would.

(``hypothesis-jsonschema`` does the first job in general but does not run on the Hypothesis
version this project pins; the subset here is small and exact.)

>>> from hypothesis import find
>>> schema = {"type": "object", "required": ["year"], "additionalProperties": False,
...           "properties": {"year": {"type": "integer", "minimum": 1, "maximum": 4}}}
>>> find(from_schema(schema), lambda d: d["year"] == 4)
{'year': 4}
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import jsonschema
from hypothesis import strategies as st

Schema = dict[str, Any]
_CHARACTERS = st.characters(codec="utf-8", exclude_categories=["Cs"])
_TEXT = st.text(_CHARACTERS, max_size=12)


def from_schema(schema: Schema) -> st.SearchStrategy[Any]:
    """Documents valid against ``schema``."""
    validator = jsonschema.Draft202012Validator(schema)
    return _strategy(schema, schema, 0).filter(validator.is_valid)


def _resolve(root: Schema, node: Schema) -> Schema:
    while "$ref" in node:
        ref = node["$ref"]
        if not ref.startswith("#/"):
            raise ValueError(f"only local references are supported, got {ref!r}")
        target: Any = root
        for part in ref[2:].split("/"):
            target = target[part]
        rest = {k: v for k, v in node.items() if k != "$ref"}
        node = {**target, **rest}
    return node


def _strategy(root: Schema, node: Any, depth: int) -> st.SearchStrategy[Any]:
    if node is True or node == {}:
        return _any_json(depth)
    if node is False:
        return st.nothing()
    node = _resolve(root, node)
    if "const" in node:
        return st.just(copy.deepcopy(node["const"]))
    if "enum" in node:
        return st.sampled_from([copy.deepcopy(v) for v in node["enum"]])
    for key in ("oneOf", "anyOf"):
        if key in node:
            base = {k: v for k, v in node.items() if k != key}
            return st.one_of([_strategy(root, {**base, **_resolve(root, b)}, depth) for b in node[key]])
    if "allOf" in node:
        merged: Schema = {k: v for k, v in node.items() if k != "allOf"}
        for part in node["allOf"]:
            merged.update(_resolve(root, part))
        return _strategy(root, merged, depth)
    kind = node.get("type")
    if isinstance(kind, list):
        return st.one_of([_strategy(root, {**node, "type": k}, depth) for k in kind])
    if kind is None:
        kind = _guess_type(node)
    makers: dict[str, Callable[[], st.SearchStrategy[Any]]] = {
        "object": lambda: _object(root, node, depth),
        "array": lambda: _array(root, node, depth),
        "string": lambda: _string(node),
        "integer": lambda: st.integers(node.get("minimum", -(2**20)), node.get("maximum", 2**20)),
        "number": lambda: st.integers(node.get("minimum", -(2**20)), node.get("maximum", 2**20)),
        "boolean": st.booleans,
        "null": st.none,
        "any": lambda: _any_json(depth),
    }
    return makers[kind]()


def _guess_type(node: Schema) -> str:
    if "properties" in node or "required" in node or "additionalProperties" in node:
        return "object"
    if "items" in node:
        return "array"
    if "pattern" in node or "minLength" in node:
        return "string"
    if "minimum" in node or "maximum" in node:
        return "integer"
    return "any"


def _string(node: Schema) -> st.SearchStrategy[str]:
    low, high = node.get("minLength", 0), node.get("maxLength", 30)
    if "pattern" in node:
        pattern: str = node["pattern"]
        return st.from_regex(pattern, fullmatch=True).filter(lambda s: low <= len(s) <= high)
    return st.text(_CHARACTERS, min_size=low, max_size=high)


def _array(root: Schema, node: Schema, depth: int) -> st.SearchStrategy[list[Any]]:
    low = node.get("minItems", 0)
    high = min(node.get("maxItems", low + 4), low + 4)
    items = _strategy(root, node.get("items", True), depth + 1)
    unique = node.get("uniqueItems", False)
    return st.lists(items, min_size=low, max_size=high, unique_by=_canon if unique else None)


def _canon(value: Any) -> str:
    import json

    return json.dumps(value, sort_keys=True)


def _object(root: Schema, node: Schema, depth: int) -> st.SearchStrategy[dict[str, Any]]:
    properties: dict[str, Any] = node.get("properties", {})
    required = [
        k for k in node.get("required", []) if k in properties or node.get("additionalProperties", True)
    ]
    optional = [k for k in properties if k not in required]
    extra = node.get("additionalProperties", True)
    names = node.get("propertyNames", {})
    return _build_object(
        _ObjectParts(
            fixed={k: _strategy(root, properties.get(k, True), depth + 1) for k in required},
            optional=optional if depth < 6 else [],
            # built at their first draw (a recursive schema's would never end), then kept: a new
            # strategy per draw was validated afresh each time, most of a draw's cost
            later=_Later(
                {k: (lambda k=k: _strategy(root, properties[k], depth + 1)) for k in optional}
                | {"": lambda: _strategy(root, extra if isinstance(extra, dict) else True, depth + 1)}
            ),
            extra=extra is not False and depth < 3,
            keys=_string(_resolve(root, names)) if names else _TEXT,
            known=frozenset(properties),
        )
    )


class _Later:
    """Strategies made when first asked for, by name, and kept."""

    def __init__(self, makers: dict[str, Callable[[], st.SearchStrategy[Any]]]) -> None:
        self._makers = makers
        self._made: dict[str, st.SearchStrategy[Any]] = {}

    def __getitem__(self, name: str) -> st.SearchStrategy[Any]:
        made = self._made.get(name)
        if made is None:
            made = self._made[name] = self._makers[name]()
        return made


@dataclass(frozen=True, slots=True)
class _ObjectParts:
    fixed: dict[str, st.SearchStrategy[Any]]  # the required properties
    optional: list[str]  # each drawn or left out
    later: _Later  # the optional properties' strategies, and "" for an extra property's value
    extra: bool  # whether an extra property may be drawn
    keys: st.SearchStrategy[str]  # an extra property's name
    known: frozenset[str]  # the properties named by the schema


@st.composite  # once, here: a composite made per object node read its function's source each time
def _build_object(draw: st.DrawFn, parts: _ObjectParts) -> dict[str, Any]:
    out = {k: draw(s) for k, s in parts.fixed.items()}
    for key in parts.optional:
        if draw(st.booleans()):
            out[key] = draw(parts.later[key])
    if parts.extra and draw(st.integers(0, 3)) == 0:
        key = draw(parts.keys)
        if key not in parts.known:
            out[key] = draw(parts.later[""])
    return out


def _any_json(depth: int) -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | _TEXT
    if depth > 3:
        return scalars
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_TEXT, inner, max_size=3),
        max_leaves=6,
    )


# -- breaking a document in one place --------------------------------------------------------------

HOSTILE_STRINGS = (
    "",
    " ",
    "\x1b[2J\x1b]0;title\x07",
    "x" * 300,
    "A0",
    "Z99",
    "../../etc/passwd",
    "é\u202e",
    "null",
)
HOSTILE_NUMBERS = (-1, 0, 2**31, 10**12, -(10**12))


def _paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*path, i))
    return out


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def _set(document: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    parent = _get(document, path[:-1])
    parent[path[-1]] = new
    return document


@st.composite
def mutated(draw: st.DrawFn, document: Any) -> tuple[str, Any]:
    """``document`` broken in one place: returns (what was done, the broken document).

    The result is plain JSON data except for the ``float`` mutation, which writes a float
    (JSON allows it; this project's formats do not).
    """
    doc = copy.deepcopy(document)
    path = draw(st.sampled_from(_paths(doc)))
    here = _get(doc, path)
    kinds = ["wrong-type", "string", "number", "float", "nest", "null"]
    if isinstance(here, dict) and here:
        kinds += ["drop-key", "add-key"]
    if isinstance(here, list):
        kinds += ["empty-list", "long-list"]
    kind = draw(st.sampled_from(kinds))
    where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    if kind == "drop-key":
        key = draw(st.sampled_from(sorted(here)))
        del here[key]
        return f"drop {where}.{key}", doc
    if kind == "add-key":
        here[draw(st.sampled_from(["zzz", "", "\x1b"]))] = draw(st.sampled_from([1, "x", None, []]))
        return f"add a key at {where}", doc
    if kind == "empty-list":
        here.clear()
        return f"empty {where}", doc
    if kind == "long-list":
        here.extend([copy.deepcopy(here[0]) if here else 0] * 200)
        return f"lengthen {where}", doc
    replacements: dict[str, st.SearchStrategy[Any]] = {
        "wrong-type": st.sampled_from([{}, [], "x", 1, True]),
        "string": st.sampled_from(HOSTILE_STRINGS),
        "number": st.sampled_from(HOSTILE_NUMBERS),
        "float": st.sampled_from([1.5, 2.0, -0.0, 1e300]),
        "nest": st.just([[[[[[[[[[0]]]]]]]]]]),
        "null": st.none(),
    }
    new = draw(replacements[kind])
    return f"{kind} at {where}", _set(doc, path, new)
