"""Reading JSON input: syntax errors, schema errors and semantic errors all name the field.

Every error is a :class:`~invasion_oracle.model.core.errors.MalformedInputError` whose text is
``file:json.path: reason``, where the path is a JSONPath such as ``$.players[0].xp``.
Schemas are JSON Schema draft 2020-12 files shipped beside the code and published in ``docs/``.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shlex
import stat
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jsonschema

from invasion_oracle.model.core.arguments import digits_limit, path_text, shown, text_problem, too_many_digits
from invasion_oracle.model.core.bundled import ExampleRef, is_example
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.suggest import game_names


@dataclass(frozen=True, slots=True)
class InputLimits:
    """How much input the oracle reads: bytes per file and JSON nesting depth.

    The defaults take every real scenario, trace and data file with room to spare and stop a
    hostile one (a device, an endless stream, a file nested thousands deep) at once.
    """

    max_bytes: int = 16 * 1024 * 1024
    max_depth: int = 64


DEFAULT_LIMITS = InputLimits()
_limits: ContextVar[InputLimits] = ContextVar("input_limits", default=DEFAULT_LIMITS)


def set_input_limits(limits: InputLimits) -> None:
    """Use ``limits`` for every later read in this context (the command line's ``--max-input``)."""
    _limits.set(limits)


def input_limits() -> InputLimits:
    return _limits.get()


def read_json_file(path: str | Path) -> Any:
    """Parse a UTF-8 JSON file (``-`` is standard input, ``example:GAME/NAME`` a bundled one).

    Only regular files are read: a directory, a device or a FIFO is refused before it is opened,
    so ``/dev/zero`` or a pipe with no writer can neither fill memory nor hang the command.
    """
    source = _path_source(path)
    limits = input_limits()
    if source == "-":
        raw = sys.stdin.buffer.read(limits.max_bytes + 1)
        _check_size(len(raw), limits.max_bytes, "<stdin>")
        return parse_json_bytes(raw, "<stdin>")
    if is_example(source):
        return parse_json_bytes(ExampleRef.parse(source).read_bytes(), source)
    raw = read_regular_file(path, source, limits.max_bytes)
    return parse_json_bytes(raw, source)


def read_text_file(path: str | Path) -> str:
    """A UTF-8 text file read back (a committed fixture compared with what the oracle writes),
    through the guard of every input file; newlines read as :meth:`Path.read_text` reads them."""
    source = str(path)
    raw = read_regular_file(path, source, input_limits().max_bytes)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise MalformedInputError(source, "$", f"not UTF-8 (byte {err.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


_NOT_REGULAR = "not a regular file (a device, FIFO or socket)"
_INPUT_ADVICE = "; give a JSON file or - for stdin"


def read_regular_file(
    path: str | Path,
    source: str,
    max_bytes: int,
    *,
    follow_symlinks: bool = True,
    dir_fd: int | None = None,
    advice: bool = True,
) -> bytes:
    """The bytes of ``path``, a regular file of at most ``max_bytes``; anything else is a
    :class:`MalformedInputError` naming ``source``.

    The one guard of every file the oracle reads back (inputs, baselines, suites, traces and the
    result cache): a directory, a device, a FIFO or a socket is refused before it is read (and
    checked again on the open handle, opened without blocking), so ``/dev/zero`` or a pipe with no
    writer can neither fill memory nor hang the command. ``follow_symlinks=False`` refuses a
    symbolic link as the last part of the path (the cache's entries); ``dir_fd`` reads ``path``
    relative to an open folder; ``advice=False`` leaves out the command line's advice (what to give
    instead, the option that raises the limit) from the reasons.
    """
    try:
        info = os.stat(path, dir_fd=dir_fd, follow_symlinks=follow_symlinks)
    except FileNotFoundError:
        raise MalformedInputError(source, "$", "no such file") from None
    except NotADirectoryError:
        raise MalformedInputError(source, "$", "no such file (a part of the path is not a folder)") from None
    except OSError as err:
        raise MalformedInputError(source, "$", f"cannot read: {err.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        raise MalformedInputError(source, "$", "a symbolic link, not a regular file")
    if stat.S_ISDIR(info.st_mode):
        raise MalformedInputError(source, "$", "is a directory, expected a JSON file")
    if not stat.S_ISREG(info.st_mode):
        raise MalformedInputError(source, "$", _NOT_REGULAR + (_INPUT_ADVICE if advice else ""))
    _check_size(info.st_size, max_bytes, source, advice)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= os.O_NOFOLLOW
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as err:
        if err.errno == errno.ELOOP and not follow_symlinks:
            raise MalformedInputError(source, "$", "a symbolic link, not a regular file") from None
        raise MalformedInputError(source, "$", f"cannot read: {err.strerror}") from None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):  # swapped since the stat
                raise MalformedInputError(source, "$", _NOT_REGULAR + (_INPUT_ADVICE if advice else ""))
            raw = handle.read(max_bytes + 1)
    except OSError as err:
        raise MalformedInputError(source, "$", f"cannot read: {err.strerror}") from None
    _check_size(len(raw), max_bytes, source, advice)
    return raw


def _path_source(path: object) -> str:
    """``path`` as text, refused as one located error when no file can have it as its name: not a
    string or path, a NUL in it, or longer than the file system allows.

    >>> read_json_file("a\\x00b.json")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: 'a\\x00b.json':$: a NUL character (\\x00) is not allowed in a path
    """
    try:
        return path_text(path, "path")
    except MalformedInputError as err:
        text = path if isinstance(path, str) and path.isprintable() and len(path) <= 32 else shown(path)
        raise MalformedInputError(text, "$", err.reason) from None


def _check_size(size: int, max_bytes: int, source: str, advice: bool = True) -> None:
    if size > max_bytes:
        if advice:
            reason = f"larger than the input limit of {max_bytes} bytes; raise it with --max-input-size"
        else:
            reason = f"larger than the limit of {max_bytes} bytes"
        raise MalformedInputError(source, "$", reason)


class _Float:
    """A number with a fraction or exponent, kept as its text until the document is checked."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def parse_json_bytes(raw: bytes, source: str) -> Any:
    """Parse JSON text; every number must be an integer and nesting stays within the limit.

    >>> parse_json_bytes(b'{"year": 3}', "s.json")
    {'year': 3}
    >>> parse_json_bytes(b'{"players": [{"xp": 2.0}]}', "s.json")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: s.json:$.players[0].xp: 2.0 is not an integer; numbers in this format are integers (exact fractions are "n/d" strings)
    """
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]  # tolerated on input; never written on output
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise MalformedInputError(source, "$", f"not UTF-8 (byte {err.start})") from None
    floats: list[_Float] = []

    def keep_float(text: str) -> _Float:
        floats.append(_Float(text))
        return floats[-1]

    try:
        document = json.loads(text, parse_constant=_reject_constant, parse_float=keep_float)
    except json.JSONDecodeError as err:
        raise MalformedInputError(
            source, "$", f"invalid JSON at line {err.lineno} column {err.colno}: {err.msg}"
        ) from None
    except RecursionError:
        raise MalformedInputError(
            source, "$", f"nested deeper than the limit of {input_limits().max_depth} levels"
        ) from None
    except ValueError as err:
        reason = str(err)
        if "integer string conversion" in reason:  # Python's own limit; its advice is for programmers
            reason = f"an integer with more than {sys.get_int_max_str_digits()} digits"
        raise MalformedInputError(source, "$", reason) from None
    max_depth = input_limits().max_depth
    if floats or _depth_exceeds(raw, max_depth):
        _locate_problem(document, source, max_depth)  # the slow walk only names the first bad place
    if "\\u" in text:  # only an escape can make a lone surrogate (\ud800), which no output can write
        _no_lone_surrogates(document, source)
    return document


def _no_lone_surrogates(document: Any, source: str) -> None:
    r"""Refuse a string (or key) holding half of a UTF-16 pair, such as ``"\ud800"``, or a NUL.

    >>> parse_json_bytes(b'{"name": "\\ud800"}', "s.json")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: s.json:$.name: a lone surrogate (\ud800) is not a character; UTF-8 cannot hold it
    >>> parse_json_bytes(b'{"players": [{"name": "A\\u0000"}]}', "s.json")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: s.json:$.players[0].name: a NUL character (\x00) is not allowed in text
    """
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            reason = text_problem(value)
            if reason:
                raise MalformedInputError(source, json_path(where), reason)
        elif isinstance(value, dict):
            for key, item in reversed(list(value.items())):
                reason = text_problem(key)
                if reason:
                    raise MalformedInputError(source, json_path(where), f"a key: {reason}")
                stack.append((item, (*where, key)))
        elif isinstance(value, list):
            stack.extend((item, (*where, i)) for i, item in reversed(list(enumerate(value))))


# Bytes kept to measure nesting: quotes and brackets (every other byte, UTF-8 included, goes).
_NOT_A_MARK = bytes(c for c in range(256) if c not in b'"[]{}')
_CURLY_TO_SQUARE = bytes.maketrans(b"{}", b"[]")
_QUOTED = re.compile(rb'"[^"]*"')


def _depth_exceeds(raw: bytes, max_depth: int) -> bool:
    r"""Whether containers in valid JSON ``raw`` nest deeper than ``max_depth``.

    Works on the bytes with C-speed primitives: escaped backslashes and quotes dropped, every
    byte but quotes and brackets deleted, strings dropped, then innermost bracket pairs peeled
    once per level. The text is valid JSON (it parsed), so brackets match and the kind of bracket
    does not matter. A walk over the parsed document, and regular expressions over the text, took
    most of the time of reading a large fixture file.

    >>> doc = rb'{"a": [[1], "]]]\"[", "\\"]}'
    >>> _depth_exceeds(doc, 3), _depth_exceeds(doc, 2)
    (False, True)
    """
    marks = raw.replace(b"\\\\", b"").replace(b'\\"', b"").translate(_CURLY_TO_SQUARE, _NOT_A_MARK)
    # two adjacent quotes are an empty string or two strings side by side: either way nothing
    # outside a string lies between them (a fast first pass; most strings hold no bracket)
    brackets = _QUOTED.sub(b"", marks.replace(b'""', b""))
    for _ in range(max_depth):
        if not brackets:
            return False
        brackets = brackets.replace(b"[]", b"")
    return bool(brackets)


def _locate_problem(document: Any, source: str, max_depth: int) -> None:
    """Refuse the first non-integer number or too-deep container, with its path (iteratively)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, ())]
    while stack:
        value, path = stack.pop()
        if isinstance(value, _Float):
            raise MalformedInputError(source, json_path(path), _not_an_integer(value.text))
        if isinstance(value, dict | list):
            if len(path) >= max_depth:
                raise MalformedInputError(
                    source, json_path(path), f"nested deeper than the limit of {max_depth} levels"
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((item, (*path, key)) for key, item in reversed(list(items)))


def _not_an_integer(text: str) -> str:
    return (
        f'{text} is not an integer; numbers in this format are integers (exact fractions are "n/d" strings)'
    )


def integers_only(document: Any, source: str, path: tuple[str | int, ...] = ()) -> None:
    """Give an already-parsed document (one built in Python rather than read by
    :func:`read_json_file`) exactly the checks a file gets as it is parsed, with the same messages:
    plain JSON values only, no float, no integer beyond the digits limit, no NUL or lone surrogate in
    a string or key, and nesting within the input limit. It walks iteratively and stops at the first
    problem, so a document nested 100,000 deep is refused at once, before any schema sees it.

    JSON Schema's ``integer`` lets ``2.0`` through; the rules count with integers, so it stops here.

    >>> integers_only({"values": {"fear_per_player": 2.0}}, "d.json")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: d.json:$.values.fear_per_player: 2.0 is not an integer; numbers in this format are integers (exact fractions are "n/d" strings)
    >>> integers_only({"seed": 10**5000}, "<document>")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: <document>:$.seed: an integer with more than 4300 digits
    """
    max_depth = input_limits().max_depth
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(document, path)]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            reason = text_problem(value)
            if reason:
                raise MalformedInputError(source, json_path(where), reason)
        elif value is None or isinstance(value, bool):
            continue
        elif isinstance(value, int):
            if too_many_digits(value):
                raise MalformedInputError(
                    source, json_path(where), f"an integer with more than {digits_limit()} digits"
                )
        elif isinstance(value, float):
            raise MalformedInputError(source, json_path(where), _not_an_integer(repr(value)))
        elif isinstance(value, dict | list | tuple):
            if len(where) - len(path) >= max_depth:
                raise MalformedInputError(
                    source, json_path(where), f"nested deeper than the limit of {max_depth} levels"
                )
            if isinstance(value, dict):
                for key in value:
                    if not isinstance(key, str):
                        raise MalformedInputError(
                            source,
                            json_path(where),
                            f"a key {shown(key)} is not a string; JSON keys are strings",
                        )
                    reason = text_problem(key)
                    if reason:
                        raise MalformedInputError(source, json_path(where), f"a key: {reason}")
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((item, (*where, key)) for key, item in reversed(list(items)))
        else:
            raise MalformedInputError(
                source,
                json_path(where),
                f"{shown(value)} (a {type(value).__name__}) is not a JSON value; expected an object, "
                "array, string, whole number, true, false or null",
            )


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


@cache
def load_schema(package: str, name: str) -> dict[str, Any]:
    """A schema shipped as package data (for example ``invasion_oracle.model.stonespine``, ``scenario.schema.json``).

    Not checked against the metaschema here (that takes half a second per schema, on every
    command): ``tests/cli/test_schemas_valid.py`` checks every shipped schema instead."""
    text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@contextlib.contextmanager
def located_inside(source: str, at: str) -> Iterator[str]:
    """Read a document embedded at JSON path ``at`` of ``source`` under the name this yields;
    its errors are then located in ``source`` itself (``t.json:$.answer.steps[0]``, not
    ``t.json:$.answer:$.steps[0]``).

    >>> with located_inside("t.json", "$.answer") as inner:
    ...     raise MalformedInputError(inner, "$.steps[0]", "'answer' is required")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: t.json:$.answer.steps[0]: 'answer' is required
    """
    inner = f"{source}:{at}"
    try:
        yield inner
    except MalformedInputError as err:
        if err.source != inner:
            raise
        raise type(err)(source, at + err.path[1:], err.reason) from None


def json_path(parts: tuple[str | int, ...] | list[str | int]) -> str:
    """``("players", 0, "xp")`` -> ``$.players[0].xp``.

    >>> json_path(("players", 0, "xp"))
    '$.players[0].xp'
    """
    out = "$"
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def validate(document: Any, schema: dict[str, Any], source: str, *, remember: bool = True) -> None:
    """Check ``document`` against ``schema``; raise the most relevant error with its path.

    A plain JSON document (what :func:`parse_json_bytes` returns) is first checked by the compiled
    validator of ``jsonschema_rs`` when it is installed (:func:`fast_is_valid`); whatever it does
    not call valid, and every document holding other Python values, goes to ``jsonschema``, which
    decides and words the error, so every message is the same with or without the fast check.

    Without the fast check, a plain JSON document found valid is remembered by its text (a few
    hundred, per schema object): a run of generated scenarios meets the same small data documents
    again and again. Only valid ones are kept, so every error names its file. ``remember=False``
    for a large document read once (a whole case file): its text would cost a quarter of the check
    and never be met again. With the fast check the memo is not used: the check costs less than
    writing the text."""
    fast = _fast_validator(schema)
    if fast is not None and _fast_valid(fast, document):
        return
    text = None
    if remember and fast is None and plain_json(document):
        # plain JSON only: a tuple's text is its list's, an IntEnum's its number's
        text = json.dumps(document, sort_keys=True)
    if text is not None and _VALID.get((id(schema), text)) is schema:
        return
    error = schema_error(_validator(schema), document)
    if error is None:
        if text is not None:
            if len(_VALID) >= _VALID_KEPT:
                _VALID.clear()
            _VALID[(id(schema), text)] = schema
        return
    refuse_other_game(document, schema, source)
    raise MalformedInputError(source, json_path(list(error.absolute_path)), _reason(error))


_VALID: dict[tuple[int, str], dict[str, Any]] = {}  # (schema's id, text) -> that schema
_VALID_KEPT = 512
_VALIDATORS: dict[int, tuple[dict[str, Any], jsonschema.Draft202012Validator]] = {}


def schema_error(validator: Any, document: Any) -> jsonschema.ValidationError | None:
    """``document``'s most relevant error under ``validator`` (jsonschema's ``best_match``), or
    None for a valid one; ``jsonschema.exceptions`` is imported only for an invalid document."""
    if validator.is_valid(document):
        return None
    from jsonschema.exceptions import best_match

    error: jsonschema.ValidationError | None = best_match(validator.iter_errors(document))
    return error


def _validator(schema: dict[str, Any]) -> jsonschema.Draft202012Validator:
    """One validator per schema object (its references resolved once, not per document).

    ``jsonschema`` is imported here, on the first document the compiled check does not pass: a
    command or an adapter whose documents are all valid never pays its import (about 0.09 s)."""
    import jsonschema

    found = _VALIDATORS.get(id(schema))
    if found is None or found[0] is not schema:
        if len(_VALIDATORS) >= 64:
            _VALIDATORS.clear()
        found = _VALIDATORS[id(schema)] = (schema, jsonschema.Draft202012Validator(schema))
    return found[1]


def fast_is_valid(document: Any, schema: dict[str, Any]) -> bool:
    """True only if ``document`` is certainly valid against ``schema`` (JSON Schema 2020-12, as
    ``jsonschema`` reads it); False means "not known": ask ``jsonschema``, which also words the error.

    The check is ``jsonschema_rs``'s compiled validator, used only where it cannot differ from
    ``jsonschema``: on a plain JSON document (:func:`plain_json`: no tuple, float, enum member,
    ``Decimal`` or subclass, which it would convert and could let through) and a schema whose
    patterns mean the same in both regular-expression dialects (:func:`_patterns_agree`). Without
    ``jsonschema_rs`` (not installed, or no wheel for the platform) it is always False.
    """
    fast = _fast_validator(schema)
    return fast is not None and _fast_valid(fast, document)


def _fast_valid(fast: Any, document: Any) -> bool:
    if not plain_json(document):
        return False
    try:
        return bool(fast.is_valid(document))
    except Exception:  # anything it cannot take is left to jsonschema, which decides
        return False


_LEAVES = frozenset((str, int, bool, type(None)))
# Deeper documents go to jsonschema: the compiled validator recurses on the thread's stack and
# crashes the process (no exception) somewhere past 10,000 levels. Files stop at 64 by default.
_FAST_DEPTH = 256


def plain_json(document: Any) -> bool:
    """Whether ``document`` holds only ``dict`` (``str`` keys), ``list``, ``str``, ``int``,
    ``bool`` and ``None``, by exact type, nested at most ``_FAST_DEPTH`` deep: the values both
    validators read the same way.

    >>> plain_json({"a": [1, "b", None, True, {"c": []}]}), plain_json({"a": (1,)}), plain_json([1.0])
    (True, False, False)
    """
    kind = type(document)
    if kind is not dict and kind is not list:
        return kind in _LEAVES
    stack: list[tuple[Any, int]] = [(document, 1)]
    while stack:
        container, depth = stack.pop()
        if depth > _FAST_DEPTH:
            return False
        if type(container) is dict:
            for key in container:
                if type(key) is not str:
                    return False
            container = container.values()
        for item in container:
            kind = type(item)
            if kind is dict or kind is list:
                stack.append((item, depth + 1))
            elif kind not in _LEAVES:
                return False
    return True


# Compiled validators by the schema's top-level items (key, id of value): a schema built per call
# as ``{**schema["$defs"][name], "$defs": schema["$defs"]}`` is then compiled once, not per call.
# Each entry keeps its schema, and so the values whose ids make the key, alive.
_FAST: dict[tuple[tuple[str, int], ...], tuple[dict[str, Any], Any]] = {}
_FAST_KEPT = 256


def _fast_validator(schema: dict[str, Any]) -> Any:
    """The compiled ``jsonschema_rs`` validator of ``schema``, or None where it is not used."""
    if _rust() is None:
        return None
    key = tuple((name, id(value)) for name, value in schema.items())
    found = _FAST.get(key)
    if found is None:
        if len(_FAST) >= _FAST_KEPT:
            _FAST.clear()
        found = _FAST[key] = (schema, _compile_fast(schema))
    return found[1]


def _compile_fast(schema: dict[str, Any]) -> Any:
    try:
        spelled = _spelled_out(schema)
    except _DialectsDiffer:
        return None
    if not _patterns_agree(spelled):
        return None
    try:
        return _rust().Draft202012Validator(spelled, retriever=_no_retrieval)
    except Exception:  # a schema it cannot compile is checked by jsonschema alone
        return None


def _no_retrieval(uri: str) -> Any:
    """Never fetch a schema from the network (ours hold only local references)."""
    raise ValueError(f"not retrieved: {uri}")


# Python's \s in a text pattern: every character for which str.isspace() holds (a test checks the
# list). The Rust dialect's \s leaves out \x1c-\x1f and \x85, so it is given this class spelled out.
_PYTHON_SPACES = "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
# Keywords whose values are data, not schemas: a "pattern" key inside them is not a pattern.
_DATA_KEYWORDS = frozenset(("const", "enum", "default", "examples"))


class _DialectsDiffer(ValueError):
    """A pattern the two regular-expression dialects may read differently."""


def _spelled_out(node: Any) -> Any:
    r"""``node`` (a schema) with ``\s`` in its patterns spelled out as Python reads it."""
    if isinstance(node, list):
        return [_spelled_out(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in _DATA_KEYWORDS:
            out[key] = value
        elif key == "pattern" and isinstance(value, str):
            out[key] = _rust_pattern(value)
        elif key == "patternProperties" and isinstance(value, dict):
            out[key] = {_rust_pattern(name): _spelled_out(sub) for name, sub in value.items()}
        else:
            out[key] = _spelled_out(value)
    return out


def _rust_pattern(pattern: str) -> str:
    r"""``pattern`` for the Rust dialect, with ``\s`` spelled out; refused where a class holds
    ``[``, ``&&``, ``--`` or ``~~`` (set operations in Rust, plain characters in Python).

    >>> _rust_pattern(r"^[a-z0-9][a-z0-9-]*$")
    '^[a-z0-9][a-z0-9-]*$'
    >>> _rust_pattern(r"^[^\s]") == "^[^" + _PYTHON_SPACES + "]"
    True
    >>> try:
    ...     _rust_pattern("[a&&b]")
    ... except _DialectsDiffer as refused:
    ...     print("refused:", refused)
    refused: [a&&b]
    """
    out: list[str] = []
    in_class = False
    at = 0
    while at < len(pattern):
        char, pair = pattern[at], pattern[at : at + 2]
        if pair == "\\s":
            out.append(_PYTHON_SPACES if in_class else f"[{_PYTHON_SPACES}]")
        elif char == "\\":
            out.append(pair)  # any other escape: judged by _patterns_agree
        elif in_class and (char == "[" or pair in ("&&", "--", "~~")):
            raise _DialectsDiffer(pattern)
        else:
            in_class = (in_class or char == "[") and char != "]"
            out.append(char)
            at += 1
            continue
        at += 2
    return "".join(out)


# A backslash before a letter or digit: a class (\s, \d, \w), a boundary or a property, whose
# meaning differs between Python's ``re`` and the Rust dialect (\s takes \x1c-\x1f in Python).
_DIALECT_ESCAPE = re.compile(r"\\[A-Za-z0-9]")


def _patterns_agree(schema: Any) -> bool:
    """Whether no string in ``schema`` (``pattern`` values and ``patternProperties`` keys among
    them) holds a backslash-letter escape. Both dialects then agree on every string a pattern
    accepts in Rust; where they differ (``$`` before a final newline, ``.`` at ``\\r``) the Rust one
    refuses and jsonschema decides."""
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if "\\" in value and _DIALECT_ESCAPE.search(value):
                return False
        elif isinstance(value, dict):
            stack.extend(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return True


@cache
def _rust() -> Any:
    """The ``jsonschema_rs`` module, or None: then every check goes to jsonschema. Imported at the
    first check, not with this module (a command that reads no JSON does not pay for it)."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    return jsonschema_rs


def refuse_other_game(document: Any, schema: dict[str, Any], source: str) -> None:
    """Refuse a file of another known game by its game, before a schema error about its fields.

    A Vul'Keth scenario given to a Stonespine search would otherwise be refused for its unexpected
    fields; this names its game and the command that reads it. Only a schema whose ``game`` is a
    constant (a game's scenario) is concerned; an unknown ``game`` is left to the schema's message.
    """
    properties = schema.get("properties")
    game_rule = properties.get("game") if isinstance(properties, dict) else None
    expected = game_rule.get("const") if isinstance(game_rule, dict) else None
    other = document.get("game") if isinstance(document, dict) else None
    if not isinstance(expected, str) or not isinstance(other, str) or other == expected:
        return
    if other not in game_names() or ":$" in source:
        # an unknown game is left to the schema's message; so is a document embedded in a file
        # (located_inside names it FILE:$.PATH), which belongs to that file's own game
        return
    kind = str(schema.get("$id", "")).rpartition("/")[2].removesuffix(".json").removeprefix(f"{expected}-")
    kind = kind if kind.isalpha() else "file"
    raise MalformedInputError(
        source,
        "$.game",
        f"this is a {other} {kind}, not a {expected} one: use `invasion {other} COMMAND {shlex.quote(source)}` "
        f"(`invasion {other} --help` lists its commands)",
    )


def _reason(error: jsonschema.ValidationError) -> str:
    if error.validator == "additionalProperties":
        return f"{error.message}; see the schema for the allowed fields"
    if error.validator == "required":
        return error.message.replace("is a required property", "is required")
    if error.validator in ("oneOf", "anyOf") and error.context:
        allowed = _allowed_values(error.context)
        if allowed:  # name what is valid, not only that nothing matched
            return f"{error.instance!r} is not valid here; expected one of {', '.join(allowed)}"
    return error.message


def _allowed_values(errors: Any) -> list[str]:
    """The values and types the alternatives of a ``oneOf`` accept (``'miss'``, ``null``, ...)."""
    allowed: list[str] = []
    for sub in errors:
        if sub.validator == "enum":
            allowed += [json.dumps(v) for v in sub.validator_value]
        elif sub.validator == "const":
            allowed.append(json.dumps(sub.validator_value))
        elif sub.validator == "type" and isinstance(sub.validator_value, str):
            kind = sub.validator_value
            allowed.append("null" if kind == "null" else f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}")
        else:
            return []  # an alternative that is not a plain value: the generic message says more
    return list(dict.fromkeys(allowed))
