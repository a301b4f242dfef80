"""Writing output safely: escaped text, shell-quoted commands, checked and atomic files.

Everything the command line prints goes through :func:`emit`, which makes control characters
visible (a scenario's player name cannot move the terminal's cursor or change its title), and
every reproduce command is built by :func:`command_line` (``shlex``-quoted, so a file named
``x;touch P;.json`` stays one argument).
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import tempfile
from collections.abc import Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Literal

from invasion_oracle.model.core.arguments import check_name_length  # shared with the library's path checks
from invasion_oracle.model.core.canonical import write_atomic
from invasion_oracle.model.core.errors import MalformedInputError

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    r"""``text`` with control characters (escape sequences, bidi overrides) shown as escapes.

    Newlines and tabs stay.

    >>> visible("Ann\x1b[2J")
    'Ann\\x1b[2J'
    >>> visible("two\nlines")
    'two\nlines'
    """
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>|#])")


def md_escape(text: str) -> str:
    r"""Free text for a Markdown cell or line: special characters escaped, controls visible.

    >>> md_escape("Ann|<b>*bold*</b>")
    'Ann\\|\\<b\\>\\*bold\\*\\</b\\>'
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", visible(text))


def md_code(text: str) -> str:
    """Inline Markdown code showing ``text`` exactly (controls visible), even with backticks in it.

    >>> md_code("invasion simulate x.json")
    '`invasion simulate x.json`'
    >>> md_code("invasion simulate 'a`b.json'")
    "`` invasion simulate 'a`b.json' ``"
    """
    text = visible(text)
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if longest else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def command_line(words: Sequence[str]) -> str:
    """A command as a user would type it, each word shell-quoted.

    >>> command_line(["invasion", "stonespine", "simulate", "x;touch P;.json"])
    "invasion stonespine simulate 'x;touch P;.json'"
    """
    return shlex.join([str(w) for w in words])


_terminal: ContextVar[int | None] = ContextVar("terminal_width", default=None)


def set_terminal(width: int | None) -> None:
    """From now on in this context, :func:`emit` draws its Markdown for a terminal ``width``
    columns wide (rich), or with None writes the Markdown itself (a pipe, ``--format md``, ``--out``)."""
    _terminal.set(width)


def emit(
    text: str, out: str | None = None, *, kind: Literal["markdown", "plain", "raw"] = "markdown"
) -> None:
    """Print ``text`` (controls made visible); with ``out``, also write it to that file atomically.

    On a terminal (:func:`set_terminal`) what is printed is drawn for it: ``markdown`` through
    :mod:`invasion_oracle.reports.terminal` (no Markdown syntax shown), ``plain`` lines wrapped to
    the width, ``raw`` (JSON, XML) as it is. Elsewhere every kind is written as it is.
    """
    text = visible(text if text.endswith("\n") else text + "\n")
    width = _terminal.get()
    if width is None or kind == "raw":
        sys.stdout.write(text)
    else:
        from invasion_oracle.reports import terminal

        if kind == "plain":
            sys.stdout.write(terminal.wrap_plain(text, width))
        else:
            sys.stdout.flush()
            terminal.show(text, terminal.console(sys.stdout, width))
    if out:
        write_atomic(out, text)


def check_output_file(path: str, option: str = "--out") -> str:
    """Refuse, before any work, a path where a file cannot be written.

    An existing folder, a missing parent, a parent that is a file, or a place that cannot be
    written (a read-only or virtual file system such as ``/proc``) is an error naming the option.
    """
    target = Path(path)
    if path == "":
        raise MalformedInputError(option, path, "expected a file name, got an empty path")
    check_name_length(path, option)
    if path.endswith(("/", os.sep)):
        raise MalformedInputError(option, path, "expected a file name, got a folder path")
    if target.is_dir():
        raise MalformedInputError(option, path, "is a folder; give a file name inside it")
    if target.exists() and not target.is_file():  # a device or FIFO (/dev/null): written through
        if not os.access(target, os.W_OK):
            raise MalformedInputError(option, path, "cannot write to it: permission denied")
        return path
    _check_writable_folder(target.parent if str(target.parent) else Path("."), option, path)
    return path


def check_distinct_outputs(paths: dict[str, str | None]) -> None:
    """Refuse two options naming the same output file (one would silently overwrite the other).

    Devices such as ``/dev/null`` may be named more than once.
    """
    seen: dict[str, str] = {}
    for option, path in paths.items():
        if not path or (Path(path).exists() and not Path(path).is_file()):
            continue
        key = os.path.realpath(path)
        if key in seen:
            raise MalformedInputError(
                option, path, f"the same file as {seen[key]}; give each output its own file"
            )
        seen[key] = option


def check_output_folder(path: str, option: str = "--out") -> str:
    """A folder to write files into: an existing folder, or a new one in an existing folder."""
    target = Path(path)
    if path == "":
        raise MalformedInputError(option, path, "expected a folder name, got an empty path")
    check_name_length(path, option)
    if target.exists() and not target.is_dir():
        raise MalformedInputError(option, path, "exists and is not a folder")
    _check_writable_folder(target if target.is_dir() else target.parent, option, path)
    return path


def _check_writable_folder(folder: Path, option: str, path: str) -> None:
    if not folder.exists():
        raise MalformedInputError(option, path, f"folder {str(folder)!r} does not exist; create it first")
    if not folder.is_dir():
        raise MalformedInputError(option, path, f"{str(folder)!r} is not a folder")
    try:  # the only sure test of writability is writing (root passes os.access everywhere)
        fd, probe = tempfile.mkstemp(prefix=".invasion-probe.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:
        raise MalformedInputError(option, path, f"cannot write in {str(folder)!r}: {err.strerror}") from None


def one_line(text: str) -> str:
    r"""An error message as one line: newlines and control characters shown as escapes.

    >>> one_line("bad name 'a\nb\x1b'")
    "bad name 'a\\nb\\x1b'"
    """
    return visible(text.replace("\n", "\\n").replace("\t", "\\t"))
