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
reports.conform.protocol.ProtocolError: not JSON: Expecting value: line 1 column 1 (char 0); the line starts 'hello?'
"""

from __future__ import annotations

import json
from typing import Any

import jsonschema

from model.core.canonical import canonical_json
from model.core.jsonio import load_schema
from reports.suite.cases import SUITE_VERSION

PROTOCOL = "invasion-oracle/conform"
VERSION = 1
SCHEMA = ("reports", "schemas/conform-protocol.schema.json")


class ProtocolError(ValueError):
    """A line the implementation wrote that is not a valid message (the reply is garbled)."""


def encode(message: dict[str, Any]) -> bytes:
    """One message as one line (canonical JSON, no newline inside, ``\\n`` at the end)."""
    return canonical_json(message).encode("utf-8") + b"\n"


def hello() -> dict[str, Any]:
    return {"type": "hello", "protocol": PROTOCOL, "version": VERSION, "suite_version": SUITE_VERSION}


def bye() -> dict[str, Any]:
    return {"type": "bye"}


def _validator(kind: str) -> jsonschema.Draft202012Validator:
    schema = {k: v for k, v in load_schema(*SCHEMA).items() if k != "oneOf"}
    return jsonschema.Draft202012Validator({**schema, "$ref": f"#/$defs/{kind}"})


_VALIDATORS: dict[str, jsonschema.Draft202012Validator] = {}


def decode(line: bytes, kind: str) -> dict[str, Any]:
    """A line as a message of ``kind`` (``hello_reply``, ``reply``, ``hello``, ``case``)."""
    try:
        text = line.decode("utf-8")
        value = json.loads(text)
    except (UnicodeDecodeError, ValueError) as err:
        start = line[:40].decode("utf-8", "replace")
        raise ProtocolError(f"not JSON: {err}; the line starts {start!r}") from None
    if kind not in _VALIDATORS:
        _VALIDATORS[kind] = _validator(kind)
    errors = sorted(_VALIDATORS[kind].iter_errors(value), key=lambda e: list(e.absolute_path))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
        raise ProtocolError(f"not a valid {kind} message: ${where}: {error.message}"[:300])
    message: dict[str, Any] = value
    return message
