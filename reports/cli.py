"""The ``invasion`` command: the shared verbs, then one group of verbs per game.

Exit status: 0 on success; 1 when a check finds a difference (``replay``, ``fixtures check``, ``conform``);
2 on bad input, a bad option value or an illegal decision (one line on stderr, never a
traceback); 3 on an internal error (one line asking for a bug report); 130 when interrupted.

Building the parser imports no game: a game's own verbs are added only when the command line
names that game, so ``invasion --help`` stays fast.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
import time
from collections.abc import Sequence
from functools import cache
from typing import Any, NoReturn

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.reports import verbs
from invasion_oracle.reports.options import byte_size
from invasion_oracle.reports.output import one_line

_BAD_NAME_ERRORS = (errno.ENAMETOOLONG, errno.ELOOP)
DEBUG_ENV = "INVASION_DEBUG"
"""Set (the tests do) to let an internal error raise instead of becoming exit status 3."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``invasion stonespine place: error: ...``, exit 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")


class _Version(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        sys.stdout.write(f"invasion-oracle {version()}\n")  # stdout, as argparse's own action
        parser.exit(0)


def version() -> str:
    from importlib import metadata  # only for --version: importing it costs every command 40 ms

    try:
        return metadata.version("invasion-oracle")
    except metadata.PackageNotFoundError:  # running from a checkout that was never installed
        return "unknown (not installed)"


def build_parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The parser for ``argv``: every shared verb, and the verbs of the games ``argv`` names.

    Built once per process for each set of games (a program or a test calling :func:`main` many
    times pays for it once); parsing never changes a parser, so it is shared.
    """
    names = registry.names()
    return _parser(frozenset(set(argv) & set(names)), names)


@cache
def _parser(named: frozenset[str], names: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = Parser(
        prog="invasion",
        description="Rules oracle, solvers and reports for four board games' invasion rules. "
        "Files may be given as example:GAME/NAME (a bundled example; list them with "
        "`invasion examples`) or - (standard input).",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument(
        "--max-input-size",
        type=byte_size,
        default=None,
        metavar="SIZE",
        help="largest input file read, e.g. 64M (default 16M)",
    )
    parser.add_argument(
        "--print-completion",
        choices=COMPLETION_SHELLS,
        metavar="{bash,zsh}",
        help="print a shell completion script for every game's verbs and options, e.g. "
        "`invasion --print-completion bash > ~/.local/share/bash-completion/completions/invasion`",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    verbs.register_shared(sub)
    for name in names:
        group = sub.add_parser(name, help=registry.title(name))
        commands = group.add_subparsers(dest="game_command", metavar="COMMAND", required=True)
        if name in named:  # only the game on the command line is imported
            verbs.register_game(commands, name)
            from invasion_oracle.reports.games import part

            own = part(name, "cli")
            if own is not None:
                own.register(commands)
            for choice in commands.choices.values():
                choice.set_defaults(game=name)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    # A time limit counts from here (command_deadline); run as the command, from the process's start.
    started = time.perf_counter() - (process_age() if argv is None else 0.0)
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["--print-completion"] or (words[:1] and words[0].startswith("--print-completion=")):
        return print_completion(words)
    parser = build_parser(words)
    args = parser.parse_args(words)
    if getattr(args, "json_format", None):  # --json is --format json; with another --format, refused
        if args.format not in (None, "json"):
            parser.error(f"argument --json: contradicts --format {args.format}; give one of them")
        args.format = "json"
    args.argv = words
    args.started = started
    _configure(args)
    try:
        if getattr(args, "run_data", None):  # --data on a command that runs every game
            from invasion_oracle.reports.run_data import run_data_in_force

            with run_data_in_force(args):
                status: int = args.run(args)
            return status
        status = args.run(args)
        return status
    except InvasionError as err:
        print(f"invasion: error: {one_line(str(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("invasion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        _quiet_broken_pipe()
        return 0
    except MemoryError:
        print(
            "invasion: error: out of memory; give a smaller input or a lower --memory-limit", file=sys.stderr
        )
        return 3
    except Exception as err:  # the last line of defence: never a traceback for a user
        if isinstance(err, OSError) and err.errno in _BAD_NAME_ERRORS:
            # a path the system cannot name, met after the options were checked: a bad value
            print(f"invasion: error: {one_line(str(err.filename))}: {err.strerror}", file=sys.stderr)
            return 2
        if os.environ.get(DEBUG_ENV):
            raise
        command = " ".join(words[:2])
        print(
            f"invasion: internal error in `invasion {one_line(command)}`: {type(err).__name__}: "
            f"{one_line(str(err))}; "
            "this is a bug: please report it with the command and its input files",
            file=sys.stderr,
        )
        return 3


def process_age() -> float:
    """Seconds since this process started (Linux ``/proc``; 0 elsewhere), so that ``--time-limit``
    covers the interpreter's start and the imports before :func:`main` too."""
    try:
        with open("/proc/self/stat", encoding="ascii") as stat:
            fields = stat.read().rpartition(")")[2].split()
        since_boot = int(fields[19]) / os.sysconf("SC_CLK_TCK")
        age = time.clock_gettime(time.CLOCK_BOOTTIME) - since_boot
    except (OSError, ValueError, IndexError, AttributeError):
        return 0.0
    return min(max(age, 0.0), 5.0)


COMPLETION_SHELLS = ("bash", "zsh")


def print_completion(words: Sequence[str]) -> int:
    """``invasion --print-completion SHELL``: the completion script (shtab) of the parser with
    every game's verbs, so a completion never lacks a game the command line did not name."""
    shell = words[0].partition("=")[2] or (words[1] if len(words) > 1 else "")
    if shell not in COMPLETION_SHELLS or len(words) > (1 if "=" in words[0] else 2):
        print(
            f"invasion: error: --print-completion takes one shell, {' or '.join(COMPLETION_SHELLS)}, "
            "and nothing else",
            file=sys.stderr,
        )
        return 2
    import shtab

    names = registry.names()
    script: str = shtab.complete(_parser(frozenset(names), names), shell=shell)
    sys.stdout.write(script if script.endswith("\n") else script + "\n")
    return 0


def _configure(args: argparse.Namespace) -> None:
    """Input limits and the table style, from the options and the terminal."""
    from invasion_oracle.model.core.jsonio import DEFAULT_LIMITS, InputLimits, set_input_limits
    from invasion_oracle.reports.tables import TableStyle, set_table_style

    if args.max_input_size is not None:
        set_input_limits(InputLimits(args.max_input_size, DEFAULT_LIMITS.max_depth))
    chosen = getattr(args, "format", None)
    if chosen is None:  # files are files: with --out, Markdown whatever the terminal
        chosen = "text" if sys.stdout.isatty() and not getattr(args, "out", None) else "md"
        if hasattr(args, "format"):
            args.format = chosen
    if chosen == "text":
        width = min(100, os.get_terminal_size().columns if sys.stdout.isatty() else 100)
        set_table_style(TableStyle.TEXT, width)
    else:
        set_table_style(TableStyle.MARKDOWN)


def _quiet_broken_pipe() -> None:
    # The reader went away (`invasion ... | head`): stop writing without a second error at exit.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
