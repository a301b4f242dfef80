"""Reading JSON input: syntax errors, schema errors and semantic errors all name the field.

Every error is a :class:`~model.core.errors.MalformedInputError` whose text is
``file:json.path: reason``, where the path is a JSONPath such as ``$.players[0].xp``.
Schemas are JSON Schema draft 2020-12 files shipped beside the code and published in ``docs/``.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match

from model.core.errors import MalformedInputError


def read_json_file(path: str | Path) -> Any:
    """Parse a UTF-8 JSON file; report unreadable files, encodings and syntax precisely."""
    source = str(path)
    try:
        raw = Path(path).read_bytes()
    except FileNotFoundError:
        raise MalformedInputError(source, "$", "no such file") from None
    except IsADirectoryError:
        raise MalformedInputError(source, "$", "is a directory, expected a JSON file") from None
    except OSError as err:
        raise MalformedInputError(source, "$", f"cannot read: {err.strerror}") from None
    return parse_json_bytes(raw, source)


def parse_json_bytes(raw: bytes, source: str) -> Any:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # tolerated on input; never written on output
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise MalformedInputError(source, "$", f"not UTF-8 (byte {err.start})") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as err:
        raise MalformedInputError(
            source, "$", f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}"
        ) from None
    except ValueError as err:
        raise MalformedInputError(source, "$", str(err)) from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


@cache
def load_schema(package: str, name: str) -> dict[str, Any]:
    """A schema shipped as package data (for example ``model.stonespine``, ``scenario.schema.json``)."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    jsonschema.Draft202012Validator.check_schema(schema)
    return schema


def json_path(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """``("players", 0, "xp")`` -> ``$.players[0].xp``.

    >>> json_path(("players", 0, "xp"))
    '$.players[0].xp'
    """
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate(document: Any, schema: dict[str, Any], source: str) -> None:
    """Check ``document`` against ``schema``; raise the most relevant error with its path."""
    validator = jsonschema.Draft202012Validator(schema)
    error = best_match(validator.iter_errors(document))
    if error is None:
        return
    raise MalformedInputError(source, json_path(list(error.absolute_path)), _reason(error))


def _reason(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        return f"{error.message}; see the schema for the allowed fields"
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    return error.message
