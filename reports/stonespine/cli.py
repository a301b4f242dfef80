"""``invasion stonespine ...``: the verbs only Stonespine has (the searches, the ambiguity table).

Argument parsing only; the work happens in handlers that import the solvers when called, so
building the parser stays cheap.
"""

from __future__ import annotations

import argparse
from typing import Any

from reports.options import add_output_options


def register(commands: Any) -> None:
    ambiguities = commands.add_parser(
        "ambiguities",
        help="which open rules change the outcome: each ruling's witness, or one scenario under every reading",
    )
    ambiguities.add_argument(
        "scenario", nargs="?", help="a scenario; without it, every ruling's witness scenario"
    )
    ambiguities.add_argument("--only", action="append", metavar="ID", help="only these rulings")
    add_output_options(ambiguities, formats=("text", "md"))
    ambiguities.set_defaults(run=_ambiguities)

    from reports import cli_stonespine_solve

    cli_stonespine_solve.register(commands)


def _ambiguities(args: argparse.Namespace) -> int:
    from model.stonespine.scenario import load_scenario
    from reports.output import command_line, emit
    from reports.stonespine.ambiguity import scenario_report, witness_report
    from reports.tables import section

    command = command_line(["invasion", *args.argv])
    if args.scenario is None:
        title = "Stonespine rulings: outcome under each reading (witness scenarios)"
        emit(section(title, witness_report(), command=command), args.out)
        return 0
    load_scenario(args.scenario)  # report bad input before running every reading
    body, changed = scenario_report(args.scenario, args.only)
    title = f"Rulings that change the outcome of {args.scenario}: {changed}"
    emit(section(title, body, command=command), args.out)
    return 0
