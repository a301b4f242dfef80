r"""The checks of every search's and public function's arguments, defined once.

The command line (``reports/options.py`` turns its text into a value, then checks it here) and
the library (``invasion_oracle/*.py`` checks what a caller passed) share these checks, so a value
one refuses the other refuses too, with the same reason. A refusal is a
:class:`~invasion_oracle.model.core.errors.MalformedInputError` whose source is the argument's
name (``time_limit``, ``--time-limit``) and whose reason says what is expected and what was given:

>>> seconds(2)
2.0
>>> seconds(float("nan"))
Traceback (most recent call last):
...
invasion_oracle.model.core.errors.MalformedInputError: time_limit:$: expected a finite number of seconds above 0, got nan
>>> whole_number(-1, "members")
Traceback (most recent call last):
...
invasion_oracle.model.core.errors.MalformedInputError: members:$: expected a whole number 0 or more, got -1
>>> text("Ann\x00", "player")
Traceback (most recent call last):
...
invasion_oracle.model.core.errors.MalformedInputError: player:$: a NUL character (\x00) is not allowed in text
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import PurePath
from typing import Any, TypeVar

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.suggest import did_you_mean

T = TypeVar("T")

NAME_MAX = 255
"""Bytes in one file name on Linux, macOS and Windows file systems."""
PATH_MAX = 4096
"""Bytes in a whole path (Linux)."""
MAX_TEXT = 10_000
"""Characters in a name or a notation argument: far above any real one, far below a slow one."""


def refusal(name: str, reason: str) -> MalformedInputError:
    """The error for a bad argument: ``name:$: reason``."""
    return MalformedInputError(name, "$", reason)


def shown(value: object, width: int | None = 32) -> str:
    """A bad value as a message shows it: its repr, cut short (a huge number or text stays one line).

    >>> shown(10**50)
    '1000000000000000000000000000...'
    """
    try:
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 200:
            return f"an integer of about {int(value.bit_length() * math.log10(2))} digits"
        text = repr(value)
    except Exception:  # a caller's object whose repr fails: name its type instead
        text = f"a {type(value).__name__}"
    return text if width is None or len(text) <= width else text[: width - 4] + "..."


def seconds(value: object, name: str = "time_limit", *, given: str | None = None) -> float:
    """A time limit: a finite number of seconds above 0 (``given``: the value as the user typed it).

    >>> seconds(True)
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: time_limit:$: expected a finite number of seconds above 0, got True
    """
    number = math.nan
    if isinstance(value, int | float) and not isinstance(value, bool):
        try:
            number = float(value)
        except OverflowError:  # an int too large for a float is no sane limit either
            number = math.inf
    if not math.isfinite(number) or number <= 0:
        raise refusal(name, f"expected a finite number of seconds above 0, got {given or shown(value)}")
    return number


def optional_seconds(value: object, name: str = "time_limit") -> float | None:
    """A time limit or ``None`` (no limit), as the searches take it."""
    return None if value is None else seconds(value, name)


def whole_number(
    value: object,
    name: str,
    low: int = 0,
    high: int | None = None,
    *,
    unit: str = "",
    given: str | None = None,
) -> int:
    """A whole number from ``low`` (to ``high``, if given); ``unit`` names what it counts (``MiB``).

    >>> whole_number(1001, "rounds", 1, 1000)
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: rounds:$: expected a whole number from 1 to 1000, got 1001
    >>> whole_number(2.0, "bound")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: bound:$: expected a whole number 0 or more, got 2.0
    """
    of = f" of {unit}" if unit else ""
    expected = (
        f"a whole number{of} {low} or more" if high is None else f"a whole number{of} from {low} to {high}"
    )
    if (
        not isinstance(value, int)
        or isinstance(value, bool)
        or value < low
        or (high is not None and value > high)
    ):
        raise refusal(name, f"expected {expected}, got {given or shown(value)}")
    return int(value)


def optional_whole_number(value: object, name: str, low: int = 0, high: int | None = None) -> int | None:
    """A whole number, or ``None`` (the default the function documents)."""
    return None if value is None else whole_number(value, name, low, high)


def flag(value: object, name: str) -> bool:
    """True or False (not a truthy string, which would read ``"no"`` as yes)."""
    if not isinstance(value, bool):
        raise refusal(name, f"expected True or False, got {shown(value)}")
    return value


def _bad_character(value: str) -> str | None:
    if "\x00" in value:
        return "a NUL character (\\x00) is not allowed in text"
    for ch in value:
        if 0xD800 <= ord(ch) <= 0xDFFF:
            return f"a lone surrogate (\\u{ord(ch):04x}) is not a character; UTF-8 cannot hold it"
    return None


def text_problem(value: str) -> str | None:
    r"""Why a string cannot be used as text (a NUL, half of a UTF-16 pair), or None.

    >>> text_problem("ok"), text_problem("\ud800")
    (None, 'a lone surrogate (\\ud800) is not a character; UTF-8 cannot hold it')
    """
    if value.isascii():
        return "a NUL character (\\x00) is not allowed in text" if "\x00" in value else None
    return _bad_character(value)


def text(value: object, name: str, *, what: str = "text", max_length: int = MAX_TEXT) -> str:
    """A string holding only characters (no NUL, no lone surrogate), at most ``max_length`` long."""
    if not isinstance(value, str):
        raise refusal(name, f"expected {what} (a string), got {shown(value)}")
    if len(value) > max_length:
        raise refusal(name, f"{len(value)} characters is longer than the most, {max_length}")
    problem = text_problem(value)
    if problem:
        raise refusal(name, problem)
    return value


def choice(
    value: object,
    name: str,
    choices: Collection[str],
    aliases: Mapping[str, str] | None = None,
    *,
    given: str | None = None,
) -> str:
    """One of ``choices`` (or an old name in ``aliases``), exactly.

    >>> choice("cpsat", "engine", ("auto", "z3"))
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: engine:$: invalid choice: 'cpsat' (choose from auto, z3)
    """
    renamed = dict(aliases or {})
    if isinstance(value, str) and renamed.get(value, value) in choices:
        return renamed.get(value, value)
    also = ", ".join(f"{old} = {new}" for old, new in renamed.items())
    hint = did_you_mean(value, choices) if isinstance(value, str) else ""
    raise refusal(
        name,
        f"invalid choice: {given or shown(value)}{hint} (choose from {', '.join(choices)}"
        + (f"; {also})" if also else ")"),
    )


def optional_choice(value: object, name: str, choices: Collection[str]) -> str | None:
    return None if value is None else choice(value, name, choices)


def sequence_of(
    value: object, name: str, item: Callable[[object, str], T], *, what: str = "names"
) -> tuple[T, ...]:
    """A list or tuple (not a single string) whose items each pass ``item``, named ``name[i]``.

    >>> sequence_of("red", "heroes", text)
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: heroes:$: expected a list of names, got 'red'
    """
    if not isinstance(value, list | tuple):
        raise refusal(name, f"expected a list of {what}, got {shown(value)}")
    if len(value) > MAX_TEXT:
        raise refusal(name, f"{len(value)} items is more than the most, {MAX_TEXT}")
    return tuple(item(v, f"{name}[{i}]") for i, v in enumerate(value))


def callable_value(value: object, name: str, what: str) -> Callable[..., Any]:
    """A function (a policy's choice, for example)."""
    if not callable(value):
        raise refusal(name, f"expected {what} (a callable), got {shown(value)}")
    return value


def answerer(value: object, name: str, method: str) -> Any:
    """An object with the method ``method`` (``decide`` for a decider, ``outcome`` for a chance
    source), such as ``First()`` or ``SeededRandom(seed)``; ``None`` is the scenario's own."""
    if value is not None and not callable(getattr(value, method, None)):
        raise refusal(
            name,
            f"expected an answerer with a {method}() method (First(), SeededRandom(seed), "
            f"Scripted(answers), Policy(function)) or None, got {shown(value)}",
        )
    return value


def path_text(value: object, name: str) -> str:
    """A file path as text: a string or ``os.PathLike``, without NUL, within the file system's lengths.

    >>> path_text("a\\x00b.json", "path")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: path:$: a NUL character (\\x00) is not allowed in a path
    """
    if isinstance(value, PurePath):
        value = str(value)
    elif not isinstance(value, str) and isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise refusal(name, f"expected a path (a string or pathlib.Path), got {shown(value)}")
    if "\x00" in value:
        raise refusal(name, "a NUL character (\\x00) is not allowed in a path")
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in value) and not _encodable(value):
        raise refusal(name, "the path holds a lone surrogate, which no file name can")
    check_name_length(value, name)
    return value


def _encodable(value: str) -> bool:
    try:
        os.fsencode(value)
    except UnicodeError:
        return False
    return True


def check_name_length(path: str, option: str) -> None:
    """Refuse a path the file system cannot name (``File name too long``), as a bad value.

    >>> check_name_length("out/" + "x" * 300 + ".json", "--out")
    Traceback (most recent call last):
    ...
    invasion_oracle.model.core.errors.MalformedInputError: --out:out/xxxxxxxxxxxxxxxxxxxxxxxx...: a file name in it is 305 bytes long; the most is 255
    """
    encoded = os.fsencode(path)
    if len(encoded) > PATH_MAX:
        raise MalformedInputError(
            option, _short(path), f"the path is {len(encoded)} bytes long; the most is {PATH_MAX}"
        )
    for part in encoded.split(b"/"):
        if len(part) > NAME_MAX:
            raise MalformedInputError(
                option, _short(path), f"a file name in it is {len(part)} bytes long; the most is {NAME_MAX}"
            )


def _short(path: str) -> str:
    return path if len(path) <= 32 else path[:28] + "..."


def digits_limit() -> int:
    """The most digits an integer in input may have: Python's int-string conversion limit."""
    limit = sys.get_int_max_str_digits()
    return limit or 4300


def too_many_digits(value: int) -> bool:
    """Whether ``value`` has more digits than :func:`digits_limit` (checked without converting it).

    >>> too_many_digits(10**5000), too_many_digits(-(10**100))
    (True, False)
    """
    # bit_length bounds the digits from both sides: at most bits*log10(2)+1, at least that minus 1
    return value.bit_length() * math.log10(2) > digits_limit()


def one_of_types(value: object, name: str, types: Sequence[type], what: str) -> Any:
    """``value`` when it is an instance of one of ``types``; else a refusal saying ``what`` is expected."""
    if not isinstance(value, tuple(types)):
        raise refusal(name, f"expected {what}, got {shown(value)}")
    return value
