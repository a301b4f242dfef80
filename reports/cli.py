"""The ``invasion`` command. Each game adds its subcommands from its own ``cli_<game>`` module.

Exit status: 0 on success, 2 on bad input or an illegal decision (one line on stderr, never a
traceback), 130 when interrupted.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from model.core.errors import InvasionError
from reports import cli_common, cli_spirit_island, cli_stonespine

COMMAND_MODULES = (cli_common, cli_stonespine, cli_spirit_island)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="invasion",
        description="Rules oracle, solvers and reports for four board games' invasion rules.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMAND_MODULES:
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = list(argv) if argv is not None else sys.argv[1:]
    try:
        status: int = args.run(args)
        return status
    except InvasionError as err:
        print(f"invasion: error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("invasion: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
