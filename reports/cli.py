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
import gc
import os
import sys
import time
from collections.abc import Sequence
from functools import cache
from typing import Any, NoReturn

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.suggest import did_you_mean
from invasion_oracle.reports import verbs
from invasion_oracle.reports.options import byte_size
from invasion_oracle.reports.output import one_line

_BAD_NAME_ERRORS = (errno.ENAMETOOLONG, errno.ELOOP)
DEBUG_ENV = "INVASION_DEBUG"
"""Set (the tests do) to let an internal error raise instead of becoming exit status 3."""


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``invasion stonespine place: error: ...``, exit 2.

    An unknown game, command, choice or option gets the close names (:mod:`~invasion_oracle.model.core.suggest`)
    instead of argparse's own message. Options are never abbreviated (``allow_abbrev=False``): a
    prefix that is unique today would silently change meaning when an option is added, and a
    typo is answered with the option meant.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {one_line(message)} (see {self.prog} --help)\n")

    def _check_value(self, action: argparse.Action, value: Any) -> None:
        # argparse's own check, with a suggestion and a name for what is unknown
        if action.choices is not None and value not in action.choices:
            raise argparse.ArgumentError(None, unknown_choice(action, value))

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            innermost = _innermost_parser(self, parsed)
            innermost.error(unrecognized(innermost, extras))
        return parsed


def unknown_choice(action: argparse.Action, value: object) -> str:
    """The message for a value outside an argument's choices: a command, a game, an option's value.

    >>> parser = Parser(prog="invasion")
    >>> _ = parser.add_argument("--game", choices=("stonespine", "vulketh"))
    >>> unknown_choice(parser._option_string_actions["--game"], "stonspine")
    "argument --game: invalid choice: 'stonspine' (did you mean 'stonespine'?) (choose from stonespine, vulketh)"
    """
    choices = [str(c) for c in action.choices or ()]
    shown = repr(value)
    hint = did_you_mean(str(value), choices)
    if isinstance(action, argparse._SubParsersAction):
        games = [c for c in choices if c in registry.names()]
        if not games:
            return f"unknown command {shown}{hint or '; commands: ' + ', '.join(choices)}"
        commands = ", ".join(c for c in choices if c not in games)
        return (
            f"unknown command or game {shown}{hint or f'; commands: {commands}; games: ' + ', '.join(games)}"
        )
    # argparse's wording, as for a choice an option's type checks (model.core.arguments.choice)
    name = "/".join(action.option_strings) or action.metavar or action.dest
    return f"argument {name}: invalid choice: {shown}{hint} (choose from {', '.join(choices)})"


def unrecognized(parser: argparse.ArgumentParser, extras: Sequence[str]) -> str:
    """The message for words no argument took: the first unknown option and the one meant."""
    for word in extras:
        if word.startswith("-") and len(word) > 1 and not _is_number(word):
            option = word.partition("=")[0]
            known = [o for action in parser._actions for o in action.option_strings]
            longer = [o for o in known if o.startswith(option) and option.startswith("--")]
            if longer:  # an abbreviation: say which options it starts, and that none is guessed
                listed = " or ".join(repr(o) for o in longer)
                return f"unknown option {option!r} (did you mean {listed}?; options are never abbreviated)"
            return f"unknown option {option!r}{did_you_mean(option, known)}"
    return f"unrecognized arguments: {' '.join(extras)}"


def _is_number(word: str) -> bool:
    try:
        float(word)
    except ValueError:
        return False
    return True


def _innermost_parser(parser: argparse.ArgumentParser, parsed: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the deepest command ``parsed`` reached (``invasion stonespine place``)."""
    while True:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                chosen = getattr(parsed, action.dest, None)
                if chosen in action.choices:
                    parser = action.choices[chosen]
                    break
        else:
            return parser


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
    args.main = main  # a verb that runs others in this process (changes: the README searches) calls back
    _configure(args)
    try:
        if getattr(args, "engine", None) == "cpsat":  # an extra: refused before any work when absent
            from invasion_oracle.solver.common import require_cpsat

            require_cpsat()
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
    finally:
        if argv is None:
            # The command's process ends next: its collections at exit need not walk the games and
            # data it loaded (11 to 26 ms of a short command), as the conformance adapters do.
            gc.freeze()


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
    every game's verbs, so a completion never lacks a game the command line did not name, with the
    bundled example names and the rulings (:mod:`invasion_oracle.reports.completion`)."""
    shell = words[0].partition("=")[2] or (words[1] if len(words) > 1 else "")
    if shell not in COMPLETION_SHELLS or len(words) > (1 if "=" in words[0] else 2):
        print(
            f"invasion: error: --print-completion takes one shell, {' or '.join(COMPLETION_SHELLS)}, "
            "and nothing else",
            file=sys.stderr,
        )
        return 2
    from invasion_oracle.reports.completion import completion_script

    names = registry.names()
    sys.stdout.write(completion_script(_parser(frozenset(names), names), shell))
    return 0


def _configure(args: argparse.Namespace) -> None:
    """Input limits and the table style, from the options and the terminal."""
    from invasion_oracle.reports.output import set_terminal
    from invasion_oracle.reports.tables import TableStyle, set_table_style

    if args.max_input_size is not None:
        # only here: jsonio brings jsonschema, which a command that reads no file never needs
        from invasion_oracle.model.core.jsonio import DEFAULT_LIMITS, InputLimits, set_input_limits

        set_input_limits(InputLimits(args.max_input_size, DEFAULT_LIMITS.max_depth))
    terminal = sys.stdout.isatty() and not getattr(args, "out", None)
    chosen = getattr(args, "format", None)
    if chosen is None:  # files are files: with --out, Markdown whatever the terminal
        chosen = "text" if terminal else "md"
        if hasattr(args, "format"):
            args.format = chosen
    drawn = chosen == "text" and terminal
    # On a terminal the verbs write Markdown and emit draws it (rich); `--format text` elsewhere
    # (a pipe, --out) keeps the plain-text grid tables.
    set_terminal(terminal_width() if drawn else None)
    if chosen == "text" and not drawn:
        set_table_style(TableStyle.TEXT, 100)
    else:
        set_table_style(TableStyle.MARKDOWN)


def terminal_width() -> int:
    """The terminal's columns: its own size, else ``$COLUMNS`` (a pseudo-terminal may have none),
    else 100; at least 40."""
    import shutil

    try:
        columns = os.get_terminal_size(sys.stdout.fileno()).columns
    except (OSError, ValueError):
        columns = 0
    return max(40, columns or shutil.get_terminal_size((100, 24)).columns)


def _quiet_broken_pipe() -> None:
    # The reader went away (`invasion ... | head`): stop writing without a second error at exit.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
