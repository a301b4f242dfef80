"""Command-line options every game shares, defined once, and values typed at parse time.

A bad value is an argparse usage error (one line, exit status 2) before any work starts:
time limits are finite and positive, counts are non-negative integers, lists have no empty
items, output paths can be written.

>>> positive_seconds("2.5")
2.5
>>> positive_seconds("nan")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: expected a finite number of seconds above 0, got 'nan'
>>> name_list("red,,red")
Traceback (most recent call last):
...
argparse.ArgumentTypeError: item 2 of 'red,,red' is empty; separate names with single commas
"""

from __future__ import annotations

import argparse
import contextvars
import math
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeVar

from invasion_oracle.model.core import arguments
from invasion_oracle.model.core.errors import MalformedInputError

if TYPE_CHECKING:
    from invasion_oracle.solver.common import Deadline

T = TypeVar("T")

DEFAULT_MEMORY_MIB = 2048
INTERRUPTED = 130
"""The exit status of a command stopped by Ctrl-C (after printing what it had), as a shell's."""

RUNNING: contextvars.ContextVar[Deadline | None] = contextvars.ContextVar("running", default=None)
"""The deadline of the search command running now (set by :func:`interruptible`): the envelope
reads why it stopped, so every search's JSON says ``stopped`` the same way."""


def stopped_words() -> str:
    """Why the running search stopped, in words for a report (``the time limit was reached``)."""
    return {
        "time-limit": "the time limit was reached",
        "memory-limit": "the memory limit was reached",
        "interrupted": "interrupted (Ctrl-C)",
    }.get(stopped_reason() or "", "stopped before an answer")


def stopped_reason() -> str | None:
    """Why the running search command stopped early: ``time-limit``, ``memory-limit``,
    ``interrupted``, or None (it finished, or no search is running)."""
    deadline = RUNNING.get()
    if deadline is None:
        return None
    if deadline.stopped():
        return "interrupted"
    return {"time": "time-limit", "memory": "memory-limit", "interrupted": "interrupted"}.get(
        deadline.tripped or ""
    )


class OptionError(MalformedInputError):
    """An option that cannot take effect with the others given: ``--search: does nothing with ...``
    (exit status 2 on the command line, like every bad value).

    >>> str(OptionError("--write", "writes what --search finds; give --search"))
    '--write: writes what --search finds; give --search'
    """

    def __init__(self, option: str, reason: str) -> None:
        super().__init__(option, "", reason)
        self.args = (f"{option}: {reason}",)

    def __str__(self) -> str:
        return str(self.args[0])


def _typed(check: Callable[[], T]) -> T:
    """The shared check's value, or its reason as an argparse usage error (argparse names the option)."""
    try:
        return check()
    except MalformedInputError as err:
        raise argparse.ArgumentTypeError(err.reason) from None


def _number(text: str, convert: Callable[[str], T], fallback: object) -> T | object:
    """``text`` converted, or ``fallback`` (which the shared check then refuses with the text shown)."""
    try:
        return convert(text)
    except ValueError:  # not a number, or more digits than Python converts
        return fallback


def positive_seconds(text: str) -> float:
    value = _number(text, float, math.nan)
    return _typed(lambda: arguments.seconds(value, "--time-limit", given=repr(text)))


def non_negative_int(text: str) -> int:
    value = _number(text, lambda t: int(t, 10), None)
    return _typed(lambda: arguments.whole_number(value, "value", 0, given=repr(text)))


def positive_int(text: str) -> int:
    """A count of at least one (``--workers``, ``--jobs``): ``0``, ``-5`` and ``1.5`` are refused alike.

    >>> positive_int("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number 1 or more, got '-5'
    """
    value = _number(text, lambda t: int(t, 10), None)
    return _typed(lambda: arguments.whole_number(value, "value", 1, given=repr(text)))


def int_range(low: int, high: int) -> Callable[[str], int]:
    """A whole number from ``low`` to ``high`` (``--rounds``: as many as a scenario may hold).

    >>> int_range(1, 1000)("1001")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number from 1 to 1000, got '1001'
    """

    def parse(text: str) -> int:
        value = _number(text, lambda t: int(t, 10), None)
        return _typed(lambda: arguments.whole_number(value, "value", low, high, given=repr(text)))

    parse.__name__ = f"whole number {low}-{high}"
    return parse


Z3_MIN_MEMORY_MIB = 64
"""The least memory cap z3 is given: with less it cannot start a solver (the process crashed)."""

MAX_MEMORY_MIB = 1024 * 1024
"""The largest ``--memory-limit`` (1 TiB): z3 takes its limit as a 32-bit count of megabytes."""


def memory_mib(text: str) -> int:
    """A memory limit in MiB, from 1 to :data:`MAX_MEMORY_MIB`.

    >>> memory_mib("99999999999999999999")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a whole number of MiB from 1 to 1048576, got '99999999999999999999'
    """
    value = _number(text, lambda t: int(t, 10), None)
    return _typed(
        lambda: arguments.whole_number(
            value, "--memory-limit", 1, MAX_MEMORY_MIB, unit="MiB", given=repr(text)
        )
    )


def name_list(text: str) -> tuple[str, ...]:
    """Comma-separated names, none empty (``red,red,purple``)."""
    items = [item.strip() for item in text.split(",")]
    for i, item in enumerate(items, 1):
        if not item:
            raise argparse.ArgumentTypeError(
                f"item {i} of {text!r} is empty; separate names with single commas"
            )
    return tuple(items)


MAX_BYTE_SIZE = 64 * 1024**3


def byte_size(text: str) -> int:
    """A size such as ``16M``, ``512K`` or ``1G`` (binary units) or a plain number of bytes."""
    units = {"K": 1024, "M": 1024**2, "G": 1024**3}
    number, unit = (text[:-1], units[text[-1].upper()]) if text[-1:].upper() in units else (text, 1)
    try:
        value = int(number, 10) * unit
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 16M or 1G, got {text!r}") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"expected a size above 0, got {text!r}")
    if value > MAX_BYTE_SIZE:
        # Beyond this a read cannot fit in memory anyway; refuse rather than overflow later.
        raise argparse.ArgumentTypeError(f"expected a size of at most 64G, got {text!r}")
    return value


def checked(check: Callable[[str, str], str], option: str) -> Callable[[str], str]:
    """An argparse type from a path check that raises MalformedInputError."""

    def parse(text: str) -> str:
        try:
            return check(text, option)
        except MalformedInputError as err:
            raise argparse.ArgumentTypeError(err.reason) from None

    parse.__name__ = option.lstrip("-")
    return parse


def output_file(option: str = "--out") -> Callable[[str], str]:
    from invasion_oracle.reports.output import check_output_file

    return checked(check_output_file, option)


def input_folder(text: str) -> str:
    """An existing folder to read (``fixtures check --dir``): refused at once when missing.

    >>> input_folder("/nonexistent/fixtures")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no such folder: '/nonexistent/fixtures'
    """
    from pathlib import Path

    from invasion_oracle.model.core.arguments import check_name_length

    try:
        check_name_length(text, "--dir")
        is_dir = Path(text).is_dir()
    except MalformedInputError as err:
        raise argparse.ArgumentTypeError(err.reason) from None
    except OSError as err:
        raise argparse.ArgumentTypeError(f"cannot read {text!r}: {err.strerror}") from None
    if not is_dir:
        reason = "is a file, not a folder" if Path(text).exists() else "no such folder"
        raise argparse.ArgumentTypeError(f"{reason}: {text!r}")
    return text


def output_folder(option: str = "--out") -> Callable[[str], str]:
    from invasion_oracle.reports.output import check_output_folder

    return checked(check_output_folder, option)


# -- the shared options ------------------------------------------------------------------------


def add_rules_options(parser: argparse.ArgumentParser, game: str = "") -> None:
    """``--ruling ID=READING`` (repeatable) and ``--data FILE``."""
    where = f" --game {game}" if game else ""
    parser.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="ID=READING",
        help=f"read an open rule another way (list them: `invasion rulings{where}`); repeatable; "
        "ids and readings may be unique prefixes",
    )
    parser.add_argument(
        "--data",
        metavar="FILE",
        help=f"data overrides, JSON (`invasion schema {game or 'GAME'}-data`); wins over the scenario's data",
    )


def add_output_options(
    parser: argparse.ArgumentParser, *, formats: tuple[str, ...] = ("text", "md", "json")
) -> None:
    """``--format``, ``--json`` (short for ``--format json``) and ``--out FILE``."""
    parser.add_argument(
        "--format",
        choices=formats,
        default=None,
        help="text: drawn for the terminal, tables and emphasis, no Markdown syntax (the default on a "
        "terminal without --out; text tables in a pipe); md: Markdown (the default otherwise: --out "
        "writes Markdown whatever the terminal); json: canonical JSON",
    )
    if "json" in formats:  # its own dest: `--format md --json` is a contradiction, refused in main
        parser.add_argument(
            "--json", dest="json_format", action="store_const", const="json", help="same as --format json"
        )
    parser.add_argument(
        "--out", type=output_file(), metavar="FILE", help="also write the output to FILE (atomically)"
    )


def command_deadline(args: argparse.Namespace, *, memory: bool = False) -> Deadline:
    """The one deadline of a search command, counted from when ``invasion`` started parsing, so the
    time limit covers reading the scenario, the search and the oracle replay alike; ``memory``
    adds ``--memory-limit`` as the bound :meth:`Deadline.check` measures."""
    from invasion_oracle.solver.common import Deadline

    if getattr(args, "deadline", None) is not None:  # made by @interruptible for this command
        made: Deadline = args.deadline
        return made
    started = getattr(args, "started", None)
    bound = args.memory_limit * 2**20 if memory else None
    if started is None:
        return Deadline(args.time_limit, memory_bytes=bound)
    return Deadline(args.time_limit, started=started, memory_bytes=bound)


def interruptible(
    handler: Callable[[argparse.Namespace], int], *, memory: bool = False
) -> Callable[[argparse.Namespace], int]:
    """A search verb's handler under one command deadline (``args.deadline``; ``memory``: with
    ``--memory-limit`` as its bound) that Ctrl-C stops: the search then answers with what it has
    (``unknown`` or its best so far, the envelope's ``stopped`` saying ``interrupted``) instead of
    dying, and the command exits 130 (:data:`INTERRUPTED`)."""

    def run(args: argparse.Namespace) -> int:
        from invasion_oracle.solver.common import ENGINE_RUNS, stop_on_interrupt

        args.deadline = command_deadline(args, memory=memory)
        token = RUNNING.set(args.deadline)
        runs = ENGINE_RUNS.set([])  # what each engine of a `both` did, for the envelope
        try:
            with stop_on_interrupt(args.deadline):
                status = handler(args)
        finally:
            ENGINE_RUNS.reset(runs)
            RUNNING.reset(token)
        # Ctrl-C: the answer (unknown or the best so far) is printed, and the exit says so.
        return INTERRUPTED if args.deadline.stopped() and status == 0 else status

    run.__name__ = handler.__name__
    run.__doc__ = handler.__doc__
    return run


# -- the engine vocabulary (issue 22) ---------------------------------------------------------

ENGINE_WORDS = ("auto", "z3", "cpsat", "baseline", "both")
"""The ``--engine`` words every game shares. ``auto`` (the default everywhere) picks by measured
crossovers written down in the game's solver, each with a comment naming the ``make bench`` table
it comes from; ``z3`` and ``cpsat`` are the two exact engines (z3, OR-Tools CP-SAT); ``baseline`` is
the exhaustive search every exact engine is tested equal to; ``both`` runs every engine the search
has and checks that their answers agree. A game may add engines of its own (Stonespine's fast
``search``, Cloudspire's ``grouped`` survival), documented in its ``--help``.

JSON answers name the engine that answered in a field ``engine`` (a string): the engine ``auto``
picked, never ``auto``; with ``both``, the engines that finished, joined by ``+``
(``z3+cpsat+baseline``), or, when none finished, the one whose partial answer is shown. An engine
of ``both`` that a limit or Ctrl-C stopped (or that never started) is named in the envelope's
``engines`` (:class:`invasion_oracle.solver.common.EngineRuns`), and the status is then never
``proven`` (:func:`invasion_oracle.solver.common.run_engines`)."""


def engine_choice(engines: Sequence[str], aliases: Mapping[str, str] | None = None) -> Callable[[str], str]:
    """An argparse type for ``--engine``: the vocabulary, the game's own engines, and old names kept
    as aliases (Stonespine's ``oracle`` is the ``baseline``).

    >>> parse = engine_choice(("search", "z3", "baseline"), {"oracle": "baseline"})
    >>> parse("oracle"), parse("auto"), parse("both")
    ('baseline', 'auto', 'both')
    >>> parse("cpsat")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: invalid choice: 'cpsat' (choose from auto, search, z3, baseline, both; oracle = baseline)
    """
    names = engine_names(engines)
    renamed = dict(aliases or {})

    def parse(text: str) -> str:
        return _typed(lambda: arguments.choice(text, "--engine", names, renamed, given=repr(text)))

    parse.__name__ = "engine"
    return parse


def engine_names(engines: Sequence[str]) -> tuple[str, ...]:
    """Every word ``--engine`` takes for a search with these engines: ``auto``, the engines, ``both``.

    >>> engine_names(("z3", "cpsat", "baseline"))
    ('auto', 'z3', 'cpsat', 'baseline', 'both')
    """
    return ("auto", *(e for e in engines if e not in ("auto", "both")), "both")


def add_engine_option(
    parser: argparse.ArgumentParser,
    engines: Sequence[str],
    *,
    aliases: Mapping[str, str] | None = None,
    default: str = "auto",
    help: str = "",
) -> None:
    """``--engine`` for a search whose engines are ``engines`` (``auto`` and ``both`` are added; see
    :data:`ENGINE_WORDS`); ``aliases`` keeps old names working. The value is always a canonical name."""
    names = engine_names(engines)
    renamed = dict(aliases or {})
    also = "; " + ", ".join(f"{old} is {new}" for old, new in renamed.items()) if renamed else ""
    parser.add_argument(
        "--engine",
        type=engine_choice(engines, renamed),
        choices=names,
        default=default,
        metavar="{" + ",".join(names) + "}",
        help=help
        or f"auto (default): the engine measured fastest for the instance; both: every engine, "
        f"checked to agree{also}",
    )


def engines_to_run(choice: str, engines: Sequence[str], pick: Callable[[], str]) -> tuple[str, ...]:
    """The engines a ``--engine`` value runs: ``both`` every engine (in the order given, the baseline
    last by convention), ``auto`` the one ``pick`` chooses, otherwise the one named.

    >>> engines_to_run("both", ("z3", "cpsat", "baseline"), lambda: "z3")
    ('z3', 'cpsat', 'baseline')
    >>> engines_to_run("auto", ("z3", "baseline"), lambda: "baseline")
    ('baseline',)
    """
    if choice == "both":
        return tuple(engines)
    if choice == "auto":
        return (pick(),)
    return (choice,)


def engine_label(ran: Sequence[str]) -> str:
    """The JSON ``engine`` field for the engines that finished: ``z3``, or ``z3+baseline`` for ``both``."""
    return "+".join(ran)


def add_search_options(
    parser: argparse.ArgumentParser,
    engines: tuple[str, ...] = (),
    default_engine: str | None = None,
    *,
    engine_help: str = "",
    memory: bool = True,
) -> None:
    """``--engine``, ``--time-limit SECONDS`` and (``memory``) ``--memory-limit MIB`` for searches."""
    if engines:
        chosen = default_engine or engines[0]
        parser.add_argument(
            "--engine",
            choices=engines,
            default=chosen,
            help=engine_help or f"search engine (default: {chosen})",
        )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="stop after this long in all (set-up, search and the oracle replay) and answer with "
        "the best found so far, or unknown",
    )
    if not memory:
        return
    parser.add_argument(
        "--memory-limit",
        type=memory_mib,
        default=DEFAULT_MEMORY_MIB,
        metavar="MIB",
        help=f"stop a search that would hold more than this many MiB (default {DEFAULT_MEMORY_MIB})",
    )
