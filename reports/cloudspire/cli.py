"""``invasion cloudspire engagement|survive|spires``: the verbs only Cloudspire has (its searches).

Argument parsing only; each handler imports its solver when called, so ``invasion --help`` stays
fast. Every answer printed has been replayed through the oracle; ``--format json`` prints the
shared envelope.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from invasion_oracle.reports.options import (
    add_output_options,
    add_rules_options,
    add_search_options,
    int_range,
    interruptible,
    non_negative_int,
)

ROUNDS = int_range(1, 1000)  # as the scenario's own "rounds" (scenario.schema.json)

# The shared --engine words (reports.options.ENGINE_WORDS); `auto` picks by the measurements of
# tests/bench/bench_cloudspire.py, written down in each solver's docstring.
ENGAGEMENT_ENGINES = ("auto", "z3", "cpsat", "baseline", "both")
ENGAGEMENT_HELP = (
    "auto (default): z3, measured faster in a fresh process; cpsat: the same model with OR-Tools "
    "CP-SAT; baseline: every plan through the oracle; both: all three, checked equal"
)
SURVIVAL_ENGINES = ("auto", "grouped", "per-die", "baseline", "both")
SURVIVAL_HELP = (
    "auto (default): grouped; grouped: dice rolls grouped by what they do; per-die (also baseline): "
    "one chance node per die; both: both, checked equal"
)
SPIRES_ENGINES = ("auto", "z3", "cpsat", "baseline", "both")
SPIRES_HELP = (
    "auto (default): z3, measured faster; cpsat: the same counterexample-guided loop with OR-Tools "
    "CP-SAT proposing; baseline: every placement by size; both: all three, checked equal"
)


def register(commands: Any) -> None:
    engagement = commands.add_parser(
        "engagement",
        help="with the dice rolled: the loading and targeting that defeats the most enemies, and the one losing the least Health",
    )
    engagement.add_argument("scenario", help="a scenario starting at load or fire (dice rolled)")
    add_rules_options(engagement, "cloudspire")
    add_search_options(engagement, ENGAGEMENT_ENGINES, "auto", engine_help=ENGAGEMENT_HELP)
    add_output_options(engagement)
    engagement.set_defaults(run=interruptible(_engagement))

    survive = commands.add_parser(
        "survive", help="the exact probability of surviving the next rounds under optimal play"
    )
    survive.add_argument("scenario", help="a scenario with its Deployment Stack in a known order")
    survive.add_argument("--rounds", type=ROUNDS, help="rounds to survive, 1-1000 (default: the scenario's)")
    add_rules_options(survive, "cloudspire")
    add_search_options(survive, SURVIVAL_ENGINES, "auto", engine_help=SURVIVAL_HELP)
    add_output_options(survive)
    survive.set_defaults(run=interruptible(_survive))

    spires = commands.add_parser(
        "spires",
        help="the fewest inventory spires, and where, keeping Health above a bound whatever the dice show",
    )
    spires.add_argument("scenario", help="a scenario whose inventory holds the candidate spires")
    spires.add_argument("--bound", type=non_negative_int, required=True, help="Health must stay above this")
    spires.add_argument("--rounds", type=ROUNDS, help="rounds, 1-1000 (default: the scenario's)")
    add_rules_options(spires, "cloudspire")
    add_search_options(spires, SPIRES_ENGINES, "auto", engine_help=SPIRES_HELP)
    add_output_options(spires)
    spires.set_defaults(run=interruptible(_spires))


def _load(args: argparse.Namespace) -> Any:
    from invasion_oracle.model.cloudspire.scenario import load
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.model.core.spec import ScenarioOptions
    from invasion_oracle.reports.cli_common import parse_data_file

    options = ScenarioOptions(tuple(args.ruling), parse_data_file(args.data), args.data or "data")
    return load(read_json_file(args.scenario), args.scenario, options)


def _deadline(args: argparse.Namespace) -> Any:
    from invasion_oracle.reports.options import command_deadline

    return command_deadline(args)


def _finish(
    args: argparse.Namespace,
    query: str,
    title: str,
    body: Callable[[], str],
    answer: Any,
    status: str,
    replayed: bool,
) -> int:
    """Print the answer: the JSON envelope, or ``body()`` (the Markdown; not built for JSON, whose
    output has no use for its tables)."""
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import command_line, emit
    from invasion_oracle.reports.tables import section

    command = command_line(["invasion", *args.argv])
    if getattr(args, "format", None) == "json":
        emit(
            envelope_json("cloudspire", query, command, answer.to_json(), status=status, replayed=replayed),
            args.out,
        )
    else:
        from invasion_oracle.solver.common import recorded_engines

        text = body()
        runs = recorded_engines()
        if runs is not None:  # --engine both: which engines finished (and agree), which were stopped
            text += f"\n\nEngines: {runs.words()}; status {runs.status(status)}."
        emit(section(title, text, command=command), args.out)
    return 0


def _engagement(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.cloudspire.tables import engagement_body
    from invasion_oracle.solver.cloudspire.engagement import best_engagement

    scenario = _load(args)
    answer = best_engagement(scenario, args.engine, _deadline(args))
    title = f"Cloudspire engagement: {args.scenario}"
    return _finish(
        args,
        "engagement",
        title,
        lambda: engagement_body(scenario, answer),
        answer,
        answer.status,
        answer.replayed,
    )


def _survive(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.cloudspire.tables import survival_body
    from invasion_oracle.solver.cloudspire.survival import survival_probability

    scenario = _load(args)
    answer = survival_probability(
        scenario, args.rounds, args.engine, _deadline(args), max_states=args.memory_limit * 256
    )
    title = f"Cloudspire survival: {args.scenario}"
    return _finish(
        args,
        "survive",
        title,
        lambda: survival_body(scenario, answer),
        answer,
        answer.status,
        answer.replayed,
    )


def _spires(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.cloudspire.tables import spires_body
    from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires

    scenario = _load(args)
    answer = fewest_spires(scenario, args.bound, args.rounds, args.engine, _deadline(args))
    title = f"Cloudspire fewest spires: {args.scenario}"
    return _finish(
        args,
        "spires",
        title,
        lambda: spires_body(scenario, answer),
        answer,
        answer.status,
        answer.replayed,
    )
