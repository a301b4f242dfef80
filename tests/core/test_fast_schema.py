"""The fast schema check (``jsonschema_rs``, issue 38) agrees with jsonschema where it is used.

:func:`invasion_oracle.model.core.jsonio.validate` asks the compiled validator first and takes
its "valid" as final; anything else goes to jsonschema, which decides and words the error. So the
one thing that must never happen is the fast check calling valid what jsonschema refuses: these
tests draw documents from every shipped schema (valid ones, ones broken in one place, and ones
holding Python values that are not plain JSON: tuples, floats, enum members, ``Decimal``, non-text
keys, huge numbers) and check that, and that :func:`validate` answers each of them exactly as it
does without ``jsonschema_rs`` (the same error text, byte for byte).
"""

from __future__ import annotations

import copy
import decimal
import enum
import fractions
import json
import re
import sys
from collections import OrderedDict
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invasion_oracle.model import registry
from invasion_oracle.model.core import jsonio
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import fast_is_valid, parse_json_bytes, validate
from invasion_oracle.model.stonespine.inputs import check_document
from invasion_oracle.properties.schemas import from_schema, mutated

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_FILES = sorted([*ROOT.glob("model/**/*.schema.json"), *ROOT.glob("reports/schemas/*.schema.json")])
# A recursive schema (a case's steps hold cases) that ``from_schema`` cannot draw from: real
# case files stand in for drawn documents.
RECURSIVE = "fixtures.schema.json"
# A few documents per schema in `make test`; many in the slow run.
EXAMPLES = pytest.mark.parametrize("count", [4, pytest.param(200, marks=pytest.mark.slow)])


def _name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@cache
def _schema(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((ROOT / name).read_text(encoding="utf-8"))
    return schema


@cache
def _reference(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(_schema(name))


def _outcome(
    document: Any, schema: dict[str, Any], check: Callable[[Any, dict[str, Any], str], None] = validate
) -> str | None:
    """What ``check`` (:func:`validate`, or Stonespine's own) answers: None, or the error's text."""
    try:
        check(document, schema, "doc.json")
    except MalformedInputError as err:
        return str(err)
    return None


@pytest.fixture
def without_rust(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``validate`` as it runs where ``jsonschema_rs`` is not installed."""
    monkeypatch.setattr(jsonio, "_rust", lambda: None)
    monkeypatch.setattr(jsonio, "_FAST", {})
    yield


def _agree(document: Any, name: str) -> None:
    """The fast check never calls valid what jsonschema refuses, and ``validate`` answers as it
    does without it (where the fast check says "not known", both run the same jsonschema path:
    the outcomes are compared, memo of valid texts included)."""
    schema = _schema(name)
    outcome = _outcome(document, schema)
    if fast_is_valid(document, schema):
        assert _reference(name).is_valid(document), (name, document)
        assert outcome is None, name
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(jsonio, "_rust", lambda: None)
            assert _outcome(document, schema) == outcome, name
    if name.startswith("model/stonespine/"):  # its own check, which also refuses floats
        outcome = _outcome(document, schema, check_document)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(jsonio, "_rust", lambda: None)
            assert _outcome(document, schema, check_document) == outcome, name


class Colour(enum.Enum):
    RED = "red"


class Count(enum.IntEnum):
    ONE = 1


class Word(enum.StrEnum):
    WORD = "word"


class Text(str):
    pass


def _look_alikes(value: Any) -> list[Any]:
    """Python values that are not plain JSON but that a converter might read as ``value``."""
    kind = type(value)
    if kind is list:
        return [tuple(value)]
    if kind is dict:
        return [OrderedDict(value), {**value, 1: "x"}, {**value, ("a",): 1}]
    if kind is str:
        return [Colour.RED, Word.WORD, Text(value), value.encode()]
    if kind is bool:
        return [int(value), decimal.Decimal(int(value))]
    if kind is int:
        return [float(value), decimal.Decimal(value), fractions.Fraction(value), Count.ONE, 10**40, -(10**40)]
    return [float("nan"), float("inf"), 1.5]


@st.composite
def _pythonised(draw: st.DrawFn, document: Any) -> Any:
    """``document`` with one value replaced by a look-alike that is not plain JSON."""
    doc = copy.deepcopy(document)
    paths: list[tuple[Any, ...]] = [()]
    stack: list[tuple[Any, tuple[Any, ...]]] = [(doc, ())]
    while stack:
        value, path = stack.pop()
        items = (
            value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else []
        )
        for key, item in items:
            paths.append((*path, key))
            stack.append((item, (*path, key)))
    path = draw(st.sampled_from(paths))
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    here = parent[path[-1]] if path else doc
    new = draw(st.sampled_from(_look_alikes(here)))
    if not path:
        return new
    parent[path[-1]] = new
    return doc


def _drawable() -> list[str]:
    return [_name(p) for p in SCHEMA_FILES if p.name != RECURSIVE]


@EXAMPLES
@pytest.mark.parametrize("name", _drawable())
def test_the_fast_check_agrees_on_drawn_documents(name: str, count: int) -> None:
    documents = from_schema(_schema(name))  # (built once: a large schema's strategy takes a while)

    @settings(max_examples=count)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        document = data.draw(documents, label="valid")
        _agree(document, name)
        _what, broken = data.draw(mutated(document), label="broken")
        _agree(broken, name)
        _agree(data.draw(_pythonised(document), label="not plain JSON"), name)

    run()


def _small_case_files() -> list[Path]:
    return sorted(ROOT.glob("fixtures/*/*.cases.json"), key=lambda p: p.stat().st_size)[:4]


@EXAMPLES
@pytest.mark.parametrize("path", _small_case_files(), ids=lambda p: p.name)
def test_the_fast_check_agrees_on_case_files(path: Path, count: int) -> None:
    name = f"reports/schemas/{RECURSIVE}"
    document = parse_json_bytes(path.read_bytes(), str(path))
    assert fast_is_valid(document, _schema(name))

    @settings(max_examples=count)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        _what, broken = data.draw(mutated(document), label="broken")
        _agree(broken, name)
        _agree(data.draw(_pythonised(document), label="not plain JSON"), name)

    run()


def test_every_shipped_schema_has_the_fast_check() -> None:
    """The fast path is real: every shipped schema compiles (the Stonespine scenario's ``\\s``
    spelled out as Python reads it)."""
    slow = [_name(p) for p in SCHEMA_FILES if jsonio._fast_validator(_schema(_name(p))) is None]
    assert slow == []
    assert len(SCHEMA_FILES) > 30


def test_the_spelled_out_spaces_are_pythons() -> None:
    """``_PYTHON_SPACES`` is Python's ``\\s``, and the spelled-out pattern accepts in the compiled
    check exactly the texts Python's pattern accepts."""
    every = "".join(map(chr, [*range(0xD800), *range(0xE000, sys.maxunicode + 1)]))
    assert "".join(filter(str.isspace, every)) == jsonio._PYTHON_SPACES
    assert "".join(re.findall(r"\s", every)) == jsonio._PYTHON_SPACES
    for pattern in (r"^[^\s]", r"^a\sb$", r"^[a\s]+$"):
        fast = jsonio._rust().Draft202012Validator({"pattern": jsonio._rust_pattern(pattern)})
        texts = [t for c in every[:0x3100] + jsonio._PYTHON_SPACES for t in (c + "x", "a" + c + "b")]
        assert [fast.is_valid(t) for t in texts] == [bool(re.search(pattern, t)) for t in texts], pattern


def test_bundled_examples_pass_the_fast_check() -> None:
    """Every bundled scenario is valid by the fast check alone (the everyday path)."""
    checked = 0
    for spec in registry.specs():
        schema_name = f"model/{spec.examples}/scenario.schema.json"
        if not spec.package:
            continue
        game = spec.name
        for ref in examples(spec.examples):
            document = parse_json_bytes(ref.read_bytes(), str(ref))
            if (
                isinstance(document, dict)
                and document.get("game") == game
                and "/rulings/" not in ref.relative
            ):
                assert fast_is_valid(document, _schema(schema_name)), ref.relative
                checked += 1
    assert checked >= 6


@pytest.mark.parametrize(
    ("document", "schema"),
    [
        ((1, 2), {"type": "array"}),  # jsonschema_rs reads a tuple as an array
        (Colour.RED, {"type": "string"}),  # and an enum member as its value
        (decimal.Decimal(3), {"type": "integer"}),
        ({1: 2}, {"type": "object"}),  # jsonschema: an object; jsonschema_rs: refused
        (float("nan"), {"type": "number"}),
        ("\x1cname", {"type": "string", "pattern": "^[^\\s]"}),  # Python's \s takes \x1c
    ],
)
def test_values_the_converters_read_differently_go_to_jsonschema(
    document: Any, schema: dict[str, Any]
) -> None:
    assert not fast_is_valid(document, schema)


def test_a_document_nested_past_the_fast_depth_is_not_given_to_the_compiled_check() -> None:
    """The compiled check recurses on the thread's stack and crashes the process, with no
    exception, somewhere past 10,000 levels: such a document goes to jsonschema."""
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    assert not fast_is_valid(deep, {"type": "array"})
    shallow: Any = []
    for _ in range(jsonio._FAST_DEPTH - 1):
        shallow = [shallow]
    assert fast_is_valid(shallow, {"type": "array"})


def test_a_schema_built_per_call_from_the_same_parts_is_compiled_once() -> None:
    """``{**defs[name], "$defs": defs}``, built afresh on every call (an event of a trace), finds
    the validator compiled the first time."""
    schema = _schema("reports/schemas/events-vulketh.schema.json")
    name = sorted(schema["$defs"])[0]
    first = jsonio._fast_validator({**schema["$defs"][name], "$defs": schema["$defs"]})
    again = jsonio._fast_validator({**schema["$defs"][name], "$defs": schema["$defs"]})
    assert first is not None and again is first


def test_without_jsonschema_rs_valid_texts_are_remembered(without_rust: None) -> None:
    """Where ``jsonschema_rs`` is missing every check goes to jsonschema, and the memo of valid
    texts spares the check of a document met again."""
    schema = {"type": "object", "properties": {"year": {"type": "integer"}}}
    validate({"year": 3}, schema, "a.json")
    assert (id(schema), '{"year": 3}') in jsonio._VALID
    with pytest.raises(MalformedInputError, match=r"^b\.json:\$\.year: 'x' is not of type 'integer'$"):
        validate({"year": "x"}, schema, "b.json")
