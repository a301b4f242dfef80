"""Canonical JSON: the one byte form every output and fixture uses.

Rules: UTF-8 without a byte-order mark, keys sorted, integers only (no floats, so no ``-0`` or
``1e-07`` surprises), exact fractions written as ``"n/d"`` strings, tuples and lists as arrays,
enums by value, dataclasses through their ``to_json`` method or their fields. Output files are
written atomically: a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any, cast

from invasion_oracle.model.core.errors import OutputError

JSONValue = Any  # a value json.dumps accepts; kept loose because JSON is recursive


def to_jsonable(value: object) -> JSONValue:
    """Turn oracle values into plain JSON data.

    >>> from fractions import Fraction
    >>> to_jsonable({"b": (1, 2), "a": Fraction(3, 8)})
    {'b': [1, 2], 'a': '3/8'}
    >>> to_jsonable(0.5)
    Traceback (most recent call last):
    ...
    TypeError: floats are not canonical; use int or Fraction: 0.5
    """
    # Plain JSON data first, by exact type: most values written (events, outcomes, digests) are
    # already plain, and the checks below (a ``to_json`` lookup, an ABC test) cost far more.
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is list or kind is tuple:
        return [to_jsonable(v) for v in cast("list[object]", value)]
    if kind is dict:
        return _object(cast("dict[Any, object]", value))
    return _other_to_jsonable(value)


def _object(value: Mapping[Any, object]) -> dict[str, JSONValue]:
    out = {}
    for key, item in value.items():
        if not isinstance(key, str):
            raise TypeError(f"JSON object keys must be strings, got {key!r}")
        out[key] = to_jsonable(item)
    return out


def _other_to_jsonable(value: object) -> JSONValue:
    if isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        raise TypeError(f"floats are not canonical; use int or Fraction: {value!r}")
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if isinstance(value, enum.Enum):
        return to_jsonable(value.value)
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return to_jsonable(to_json())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return _object(value)
    if isinstance(value, frozenset | set):
        return sorted((to_jsonable(v) for v in value), key=canonical_json)
    if isinstance(value, tuple | list):
        return [to_jsonable(v) for v in value]
    raise TypeError(f"cannot write {type(value).__name__} as JSON: {value!r}")


def canonical_json(value: object, *, indent: int | None = None) -> str:
    """The canonical text of ``value``: sorted keys, no floats, non-ASCII kept as UTF-8.

    >>> canonical_json({"b": 1, "a": [True, None]})
    '{"a":[true,null],"b":1}'
    """
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(
        to_jsonable(value),
        sort_keys=True,
        ensure_ascii=False,
        separators=separators,
        indent=indent,
        allow_nan=False,
    )


def write_atomic(path: str | Path, text: str) -> None:
    """Write ``text`` as UTF-8 to ``path`` so a reader never sees a partial file.

    A device or FIFO already at ``path`` (``/dev/null``, ``/dev/stdout``) is written through:
    renaming a new file over it would replace the device itself. A write that fails (a full disk,
    a FIFO nobody reads) is an :class:`~invasion_oracle.model.core.errors.OutputError`.
    """
    target = Path(path)
    try:
        mode = os.stat(target).st_mode
    except OSError:
        mode = None
    try:
        if mode is not None and not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
            _write_through(target, text)
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        try:
            # mkstemp makes the file 0600; a new file gets the user's umask (0644 under 022), a
            # replaced one keeps its mode, as if written in place
            os.fchmod(fd, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
            with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as err:
        raise OutputError(str(path), f"cannot write: {err.strerror or err}") from None


def _umask() -> int:
    current = os.umask(0o022)  # reading the umask means setting it: put it straight back
    os.umask(current)
    return current


def _write_through(target: Path, text: str) -> None:
    # Non-blocking open: a FIFO without a reader fails at once (ENXIO) instead of hanging.
    fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    os.set_blocking(fd, True)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(text)
