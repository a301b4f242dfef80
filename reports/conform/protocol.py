"""The line protocol between the runner and an implementation (``docs/conformance.md``).

Every message is one line of JSON (UTF-8, one object, no newline inside). The runner writes
``hello``, then ``case`` messages, then ``bye``; the implementation answers ``hello`` with its own
``hello`` and each ``case`` with one ``reply``. The schema ``conform-protocol.schema.json`` holds
every message (``invasion fixtures schema conform-protocol``).

>>> decode(b'{"type": "reply", "id": "x/y/z", "variant": 0, "status": "ok", "events": [], '
...        b'"requests": [], "pending": null, "state": 1}', "reply")["status"]
'ok'
>>> decode(b"hello?", "reply")
Traceback (most recent call last):
...
invasion_oracle.reports.conform.protocol.ProtocolError: not JSON the protocol allows: $: invalid JSON at line 1 column 1: Expecting value; the line starts 'hello?'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import fast_is_valid, load_schema, parse_json_bytes
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.suite.cases import SUITE_VERSION, Case

if TYPE_CHECKING:
    import jsonschema

PROTOCOL = "invasion-oracle/conform"
VERSION = 2
VERSIONS = (1, 2)  # version 1 implementations keep working: v2 only adds optional fields
LEVELS = ("state", "requests", "events")
SCHEMA = ("invasion_oracle.reports", "schemas/conform-protocol.schema.json")


PAIRED_SURROGATES = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")
LONE_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


class ProtocolError(ValueError):
    """A line the implementation wrote that is not a valid message (the reply is garbled)."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line (canonical JSON, no newline inside, ``\\n`` at the end)."""
    return canonical_json(message).encode("utf-8") + b"\n"


def hello() -> dict[str, Any]:
    return {
        "type": "hello",
        "protocol": PROTOCOL,
        "version": VERSION,
        "versions": list(VERSIONS),
        "suite_version": SUITE_VERSION,
    }


def bye() -> dict[str, Any]:
    return {"type": "bye"}


def readings_for(
    case: Case, variant_readings: Mapping[str, str], requested: Mapping[str, str]
) -> dict[str, str]:
    """Every ruling of the case's game: the requested readings, then the variant's own."""
    full = {r.id: r.default for r in REGISTRY.all(case.game)}
    full.update({k: v for k, v in requested.items() if k in full})
    full.update(variant_readings)
    return full


def message(case: Case, index: int, requested: Mapping[str, str] | None = None) -> dict[str, Any]:
    """The protocol's ``case`` message for variant ``index`` (``docs/conformance.md``)."""
    variant = case.variants[index]
    out: dict[str, Any] = {
        "type": "case",
        "id": case.id,
        "variant": index,
        "game": case.game,
        "scenario": case.scenario,
        "rulings": readings_for(case, variant.readings_map, requested or {}),
        "answers": [a.to_json() for a in variant.answers],
        "from": variant.start,
        "projection": case.projection,
    }
    if variant.result == "ok" and variant.one_of:
        out["stops_at"] = stops_at(variant.one_of[0].pending)
    return out


def stops_at(pending: Any) -> dict[str, str] | None:
    """Where a case stops: the request left open after its last answer, as ``{"request", "kind"}``
    (``null``: the run is over). A case may stop mid-action (a Ravage at its fight-back): an
    implementation graded at the state level stops there too, or answers ``unsupported``.

    >>> stops_at({"request": "decision", "kind": "fight-back", "player": "players", "options": ["T0+2"]})
    {'request': 'decision', 'kind': 'fight-back'}
    >>> stops_at(None) is None
    True
    """
    if not isinstance(pending, dict):
        return None
    return {"request": str(pending.get("request", "")), "kind": str(pending.get("kind", ""))}


def _schema(kind: str) -> dict[str, Any]:
    """The protocol schema narrowed to one message kind (one object per kind, kept)."""
    if kind not in _SCHEMAS:
        schema = {k: v for k, v in load_schema(*SCHEMA).items() if k != "oneOf"}
        _SCHEMAS[kind] = {**schema, "$ref": f"#/$defs/{kind}"}
    return _SCHEMAS[kind]


def _errors(value: Any, kind: str) -> list[jsonschema.ValidationError]:
    """What is wrong with ``value`` as a ``kind`` message, path order; none for a valid one.

    The compiled check answers for a valid message (:func:`fast_is_valid`); ``jsonschema`` (imported
    on the first message that check does not pass) decides the rest and words the error."""
    schema = _schema(kind)
    if fast_is_valid(value, schema):
        return []
    import jsonschema

    if kind not in _VALIDATORS:
        _VALIDATORS[kind] = jsonschema.Draft202012Validator(schema)
    return sorted(_VALIDATORS[kind].iter_errors(value), key=lambda e: list(e.absolute_path))


_SCHEMAS: dict[str, dict[str, Any]] = {}
_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def decode(line: bytes, kind: str) -> dict[str, Any]:
    """A line as a message of ``kind`` (``hello_reply``, ``reply``, ``hello``, ``case``).

    The line is read as every input is (:func:`invasion_oracle.model.core.jsonio.parse_json_bytes`): integers
    only, no NaN or Infinity, nesting within the limit; a string that is not valid Unicode (a
    lone surrogate) is refused too. Every such line is a :class:`ProtocolError` (a bad reply).
    """
    # Only a line with a surrogate escape that is not one of a pair can hold a string that is not
    # valid Unicode: the exact (slower) check runs on those alone.
    suspect = b"\\u" in line and LONE_SURROGATE.search(PAIRED_SURROGATES.sub(b"", line)) is not None
    try:
        value = parse_json_bytes(line, "reply")
        if suspect:
            canonical_json(value).encode("utf-8")
    except MalformedInputError as err:
        start = line[:40].decode("utf-8", "replace")
        raise ProtocolError(
            f"not JSON the protocol allows: {err.path}: {err.reason}; the line starts {start!r}"[:300]
        ) from None
    except (UnicodeEncodeError, RecursionError, ValueError, TypeError) as err:
        raise ProtocolError(f"not JSON the protocol allows: {type(err).__name__}"[:300]) from None
    if kind == "reply" and isinstance(value, dict):
        # Validate the envelope only: a long events list would make the schema check slow (one
        # reply's handling stays within --timeout); the items are checked as they are compared.
        shallow = {k: (v[:1] if isinstance(v, list) else v) for k, v in value.items()}
        errors = _errors(shallow, kind)
        if not errors:
            for field in ("events", "requests"):
                items = value.get(field, [])
                if isinstance(items, list) and not all(isinstance(i, dict) for i in items):
                    raise ProtocolError(f"not a valid reply message: ${field}: every item is an object")
    else:
        errors = _errors(value, kind)
    if errors:
        from jsonschema.exceptions import best_match

        error = best_match(errors)
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise ProtocolError(f"not a valid {kind} message: ${where}: {error.message}"[:300])
    message: dict[str, Any] = value
    return message
