"""Checking Stonespine input documents: schema first, with whole numbers only.

Every number in a Stonespine scenario or data file is a whole number. JSON Schema counts ``2.0``
as an integer, and a float that reaches the rules crashes them (a list index, a range) or makes a
trace that is not canonical; so ``2.0`` is refused wherever it appears, with the path of the
field: ``file:$.players[0].xp: 2.0 is not an integer; numbers in this format are integers``. The same holds inside a
scenario's embedded ``data`` object, whose paths start at the file (``$.data.values...``).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, cast

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import fast_is_valid, json_path, refuse_other_game, schema_error

if TYPE_CHECKING:
    from jsonschema import ValidationError

Path = tuple[str | int, ...]


@cache
def strict_validator() -> Any:
    """Draft 2020-12 with ``integer`` meaning a Python ``int`` (not ``2.0``, not ``True``).

    Built on first use: a document the compiled check passes never imports ``jsonschema``."""
    from jsonschema import Draft202012Validator, validators

    types = Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, value: isinstance(value, int) and not isinstance(value, bool)
    )
    # ``validators.extend`` has no type annotations; the result is a validator class.
    return cast(Any, validators.extend)(Draft202012Validator, type_checker=types)


def first_float(document: Any, path: Path = ()) -> tuple[Path, float] | None:
    """The first float in ``document`` (depth first, keys in file order), with its path.

    >>> first_float({"a": [1, {"b": 2.0}]})
    (('a', 1, 'b'), 2.0)
    """
    stack: list[tuple[Path, Any]] = [(path, document)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, float):
            return where, value
        if isinstance(value, dict):
            stack.extend(reversed([((*where, k), v) for k, v in value.items()]))
        elif isinstance(value, list):
            stack.extend(reversed([((*where, i), v) for i, v in enumerate(value)]))
    return None


def _float_reason(value: float) -> str:
    # The same words as the core JSON reader, which refuses such numbers in files it parses.
    hint = f" (write {int(value)})" if value.is_integer() else ""
    return f"{value!r} is not an integer; numbers in this format are integers{hint}"


_VALIDATORS: dict[int, Any] = {}


def _validator(schema: dict[str, Any]) -> Any:
    # Schemas are loaded once and kept (``load_schema`` caches them), so their id is stable.
    key = id(schema)
    if key not in _VALIDATORS:
        _VALIDATORS[key] = strict_validator()(_inline(schema, schema.get("$defs", {})))
    return _VALIDATORS[key]


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with its local ``#/$defs/...`` references replaced by their content (the
    Stonespine schemas are not recursive); validating then needs no reference lookups, which
    are most of jsonschema's time."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        rest = {k: _inline(v, defs) for k, v in node.items() if k not in ("$defs", "$ref")}
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = _inline(defs[ref.removeprefix("#/$defs/")], defs)
            if set(target) & set(rest) - {"description", "title"}:
                return {"allOf": [target, rest]}
            return {**target, **rest}
        return rest if ref is None else {**rest, "$ref": ref}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def check_document(document: Any, schema: dict[str, Any], source: str, prefix: Path = ()) -> None:
    """Validate ``document`` against ``schema``, refusing floats; paths start with ``prefix``."""
    if fast_is_valid(document, schema):  # (only plain JSON gets through: it holds no float)
        return
    error = schema_error(_validator(schema), document)
    if error is not None:
        if not prefix:  # a whole document: another game's is named by its game
            refuse_other_game(document, schema, source)
        where = (*prefix, *error.absolute_path)
        raise MalformedInputError(source, json_path(where), _reason(error))
    found = first_float(document, prefix)
    if found is not None:
        raise MalformedInputError(source, json_path(found[0]), _float_reason(found[1]))


def _reason(error: ValidationError) -> str:
    expected = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
    if error.validator == "type" and isinstance(error.instance, float) and "integer" in expected:
        return _float_reason(error.instance)
    if error.validator == "additionalProperties":
        return f"{error.message}; see the schema for the allowed fields"
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    return error.message
