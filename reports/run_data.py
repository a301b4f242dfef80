"""``--data FILE`` on the commands that run every game (``ambiguities``, ``report``, ``rulings``,
``fixtures generate``, ``conform``): the data in force for the whole run.

A file names its game with ``"game"`` (the override form, ``"extends": "bundled"``), or the
command is asked about one game (``--game``); one file per game. Each is checked as the game's
data before anything runs (the same checks and messages as ``invasion GAME data --data FILE``),
then the command runs inside :func:`invasion_oracle.model.core.overrides.data_in_force`: every
load of that game's data (bundled examples, witnesses, cases, searches) starts from it, jobs on a
process pool or a Dask cluster carry it, and the result cache keys on it.
"""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError

if TYPE_CHECKING:  # imported when a command runs, not for --help (jsonschema is slow to import)
    from invasion_oracle.model.core.overrides import DataInForce

OPTION = "--data"


def add_run_data_option(parser: argparse.ArgumentParser, what: str = "everything this command runs") -> None:
    parser.add_argument(
        OPTION,
        dest="run_data",
        action="append",
        default=[],
        metavar="FILE",
        help=f"a game's data, full or partial (`invasion schema GAME-data`): {what} runs under it; the "
        'file names its game ("game": "stonespine") unless one --game is given; one file a game, '
        "repeatable",
    )


def games_asked(args: argparse.Namespace) -> tuple[str, ...]:
    """The games the command is asked about: ``--game``, else the game of a scenario it runs."""
    game = getattr(args, "game", None)
    if game is None:
        scenario = getattr(args, "scenario", None)
        if isinstance(scenario, str) and scenario != "-":  # standard input is read once, by the command
            from invasion_oracle.model.core.jsonio import read_json_file

            document = read_json_file(scenario)
            named = document.get("game") if isinstance(document, dict) else None
            return (named,) if isinstance(named, str) and named in registry.names() else ()
        return ()
    return (game,) if isinstance(game, str) else tuple(game)


def load_run_data(paths: Sequence[str], asked: Sequence[str]) -> tuple[DataInForce, ...]:
    """The data files given, each checked as its game's data; a located error otherwise."""
    from invasion_oracle.model.core.overrides import DataInForce, canonical_text
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.reports.cli_common import parse_data_file

    entries: list[DataInForce] = []
    for path in paths:
        document = parse_data_file(path)
        assert document is not None
        game = _game_of(document, path, asked)
        if asked and game not in asked:
            raise MalformedInputError(
                path, "$.game", f"data for {game}, but the command runs only {', '.join(asked)}"
            )
        if any(e.game == game for e in entries):
            raise MalformedInputError(OPTION, path, f"two data files for {game}; give one file a game")
        spec = registry.spec(game)
        spec.build_data(Rulings.defaults(game), document, path)  # the game's own checks, located
        entries.append(DataInForce(game, path, canonical_text(document)))
    return tuple(entries)


def _game_of(document: dict[str, Any], path: str, asked: Sequence[str]) -> str:
    game = document.get("game")
    names = registry.names()
    if game is not None:
        if game not in names:
            from invasion_oracle.model.core.rulings import name_hint

            raise MalformedInputError(
                path, "$.game", f"unknown game {game!r}{name_hint(str(game), list(names))}"
            )
        return str(game)
    if len(asked) == 1:
        return asked[0]
    raise MalformedInputError(
        path,
        "$",
        'which game is this data for? give "game" in the file (with "extends": "bundled") or one --game',
    )


@contextlib.contextmanager
def run_data_in_force(args: argparse.Namespace) -> Iterator[tuple[DataInForce, ...]]:
    """The command's ``--data`` files in force while it runs (nothing without the option)."""
    paths = getattr(args, "run_data", None) or []
    if not paths:
        yield ()
        return
    from invasion_oracle.model.core.overrides import data_in_force

    entries = load_run_data(paths, games_asked(args))
    with data_in_force(entries):
        yield entries
