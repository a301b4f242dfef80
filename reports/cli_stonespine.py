"""``invasion stonespine ...``: simulate, replay, data."""

from __future__ import annotations

import argparse
import shlex
from typing import Any

from model.core.canonical import canonical_json
from model.core.jsonio import read_json_file
from model.stonespine.data import build_game_data
from model.stonespine.scenario import load_scenario
from model.stonespine.simulate import replay_trace, run, trace_json
from reports.cli_common import emit, parse_data_file
from reports.stonespine_tables import simulation_report
from reports.tables import table


def register(sub: Any) -> None:
    game = sub.add_parser("stonespine", help="Stonespine Architects: Invasion")
    commands = game.add_subparsers(dest="stonespine_command", metavar="COMMAND", required=True)

    simulate = commands.add_parser("simulate", help="run a scenario and print its trace and outcome")
    simulate.add_argument("scenario", help="scenario JSON file (see docs/scenarios.md)")
    add_rules_arguments(simulate)
    simulate.add_argument("--json", action="store_true", help="print the canonical JSON trace (a fixture)")
    simulate.add_argument("--out", help="also write the output to this file (atomically)")
    simulate.set_defaults(run=_simulate)

    replay = commands.add_parser("replay", help="re-run a JSON trace and check every step matches")
    replay.add_argument("trace", help="a trace written by `simulate --json`")
    replay.set_defaults(run=_replay)

    ambiguities = commands.add_parser(
        "ambiguities",
        help="which open rules change the outcome: each ruling's witness, or one scenario under every reading",
    )
    ambiguities.add_argument(
        "scenario", nargs="?", help="a scenario; without it, every ruling's witness scenario"
    )
    ambiguities.add_argument("--only", action="append", metavar="ID", help="only these rulings")
    ambiguities.add_argument("--out", help="also write the Markdown report to this file")
    ambiguities.set_defaults(run=_ambiguities)

    from reports import cli_stonespine_solve

    cli_stonespine_solve.register(commands)

    data = commands.add_parser("data", help="list hero cards, guardian boards and values with provenance")
    add_rules_arguments(data)
    data.add_argument("--json", action="store_true")
    data.set_defaults(run=_data)


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="ID=READING",
        help="read an open rule another way (see `invasion rulings`); repeatable",
    )
    parser.add_argument(
        "--data", metavar="FILE", help="data overrides (JSON, see `invasion schema stonespine-data`)"
    )


def command_line(argv: list[str]) -> str:
    """The command as typed, to print beside its output so it can be reproduced."""
    return shlex.join(["invasion", *argv])


def _simulate(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario, args.ruling, parse_data_file(args.data), args.data or "data")
    playthrough = run(scenario)
    if args.json:
        emit(trace_json(scenario, playthrough), args.out)
    else:
        emit(simulation_report(scenario, playthrough, command_line(args.argv)), args.out)
    return 0


def _ambiguities(args: argparse.Namespace) -> int:
    from reports.stonespine_ambiguity import scenario_report, witness_report
    from reports.tables import section

    command = command_line(args.argv)
    if args.scenario is None:
        body = witness_report()
        emit(
            section(
                "Stonespine rulings: outcome under each reading (witness scenarios)", body, command=command
            ),
            args.out,
        )
        return 0
    load_scenario(args.scenario)  # report bad input before running every reading
    body, changed = scenario_report(args.scenario, args.only)
    title = f"Rulings that change the outcome of {args.scenario}: {changed}"
    emit(section(title, body, command=command), args.out)
    return 0


def _replay(args: argparse.Namespace) -> int:
    report = replay_trace(read_json_file(args.trace), args.trace)
    if report.identical:
        print(f"{args.trace}: replay identical")
        return 0
    print(f"{args.trace}: replay differs: {report.first_difference}")
    return 1


def _data(args: argparse.Namespace) -> int:
    from model.core.rulings import Rulings

    rulings = Rulings.defaults("stonespine").with_choices(args.ruling)
    data = build_game_data(rulings, parse_data_file(args.data), args.data or "data")
    if args.json:
        print(canonical_json(data.to_json(), indent=1))
        return 0
    heroes = [
        (
            h.name,
            h.color.value,
            h.health,
            h.ability.describe(),
            h.provenance_of("health").value,
            h.provenance_of("ability").value,
        )
        for h in data.heroes
    ]
    print(table(heroes, ["hero", "colour", "health", "ability", "health from", "ability from"]))
    print()
    boards = [
        (
            g.name,
            g.figures,
            g.minions,
            " / ".join(" ".join(str(s) for s in t) for t in g.tracks),
            ", ".join(sorted(g.ongoing)) or "-",
            g.instant or "-",
            ", ".join(f"{k}={v}" for k, v in g.unlockables) or "-",
            f"{g.bonus[0]}/{g.bonus[1]}",
            dict(g.provenance).get("abilities", "assumed"),
        )
        for g in data.guardians
    ]
    print(
        table(
            boards,
            [
                "guardian",
                "figures",
                "minions",
                "tracks (left / right)",
                "ongoing",
                "instant",
                "unlockable",
                "bonus",
                "abilities from",
            ],
        )
    )
    print()
    values = [(k, v.value, v.provenance.value, v.source) for k, v in data.values]
    values += [
        (f"dice.{d.name}", " ".join(d.labels), d.provenance.value, "ruling SS-DICE-FACES") for d in data.dice
    ]
    values += [("trophies", data.trophies.value, data.trophies.provenance.value, data.trophies.source)]
    values += [("demerits", data.demerits.value, data.demerits.provenance.value, data.demerits.source)]
    print(table(values, ["value", "setting", "provenance", "source"]))
    return 0
