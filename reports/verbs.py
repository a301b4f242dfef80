"""The verbs every game gets from the contract, written once over :class:`GameSpec`.

``invasion simulate FILE`` / ``invasion replay FILE`` dispatch on the file's ``game``;
``invasion GAME simulate|replay|data|schema|examples`` are the same verbs bound to one game (a
file of another game is refused with the verb it belongs to). ``rulings``,
``ambiguities``, ``schema``, ``games``, ``examples``, ``run``, ``report``, ``fixtures`` and
``conform`` cover every game at once (``ambiguities`` also as ``invasion GAME ambiguities``).

Handlers import what they need when they run, so building the parser stays cheap.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.reports import report_cli
from invasion_oracle.reports.ambiguity import cli as ambiguity_cli
from invasion_oracle.reports.options import (
    add_output_options,
    add_rules_options,
    input_folder,
    name_list,
    non_negative_int,
    output_file,
    output_folder,
    positive_int,
)
from invasion_oracle.reports.run_data import add_run_data_option

GENERIC_GAME_VERBS = ("simulate", "replay", "data", "schema", "examples", "ambiguities")


# -- parsers -----------------------------------------------------------------------------------


def register_shared(sub: Any) -> None:
    """Verbs about every game, or dispatching on the file's game."""
    simulate = sub.add_parser(
        "simulate", help="run any game's scenario (its 'game' field says which): trace and outcome"
    )
    _simulate_arguments(simulate, "")
    replay = sub.add_parser("replay", help="re-run any game's trace and check every step matches")
    replay.add_argument("trace", help="a trace (or the --json output of simulate); - for stdin")
    add_output_options(replay)
    replay.set_defaults(run=_replay, game=None)

    ambiguity_cli.register_rulings(sub)
    ambiguities = sub.add_parser(
        "ambiguities",
        help="where readings of open rules change outcomes, for every game: witnesses, differences side "
        "by side, searches, and --check for a designer's CI",
    )
    ambiguity_cli.register_ambiguities(ambiguities)

    schema = sub.add_parser("schema", help="print a published JSON Schema (list them: invasion schema)")
    schema.add_argument("name", nargs="?", help="e.g. trace, envelope, stonespine-scenario")
    schema.set_defaults(run=_schema, game=None)

    games = sub.add_parser("games", help="the games this oracle knows")
    add_output_options(games)
    games.set_defaults(run=_games)

    examples = sub.add_parser("examples", help="the bundled example scenarios (use them as example:NAME)")
    examples.add_argument("--game", choices=registry.names(), help="only this game's examples")
    add_output_options(examples)
    examples.set_defaults(run=_examples)

    run = sub.add_parser("run", help="the main job: every game's report on bundled data")
    run.add_argument("--out", type=output_file(), metavar="FILE", help="also write the report here")
    run.set_defaults(run=_run)

    report = sub.add_parser(
        "report",
        help="the full report of every game: report.md and report.html (pictures inline), or --json",
    )
    report_cli.register_report(report)

    _fixtures_parser(sub)
    _conform_parser(sub)
    from invasion_oracle.reports.changes import add_parser as changes_parser

    changes_parser(sub)


def _fixtures_parser(sub: Any) -> None:
    fixtures = sub.add_parser(
        "fixtures", help="the conformance suite in fixtures/: generate, check, coverage, schema"
    )
    actions = fixtures.add_subparsers(dest="fixtures_action", metavar="ACTION", required=True)
    folder_help = "the fixtures folder (default: fixtures)"
    generate = actions.add_parser(
        "generate", help="write the suite and traces; a changed expectation is shown, not written"
    )
    generate.add_argument("--dir", default="fixtures", type=output_folder("--dir"), help=folder_help)
    how = generate.add_mutually_exclusive_group()
    how.add_argument("--update", action="store_true", help="rewrite changed files and remove stale ones")
    how.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 when anything would change (CI)"
    )
    generate.add_argument("--jobs", type=positive_int, help="worker processes (default: the cores)")
    add_run_data_option(generate, "the suite is generated (into --dir, never the checkout's fixtures/)")
    generate.set_defaults(run=_fixtures_generate)
    check = actions.add_parser(
        "check", help="validate every case file and replay every case through the oracle"
    )
    check.add_argument(
        "--dir", type=input_folder, help="the fixtures folder (default: ./fixtures, else the installed suite)"
    )
    check.add_argument("--game", choices=registry.names(), help="only this game's cases")
    check.set_defaults(run=_fixtures_check)
    coverage = actions.add_parser(
        "coverage", help="cases per rule section and per ruling reading; exit 1 when one has none"
    )
    coverage.add_argument("--dir", default="fixtures", type=input_folder, help=folder_help)
    coverage.add_argument("--game", choices=registry.names(), help="only this game")
    add_output_options(coverage)
    coverage.set_defaults(run=_fixtures_coverage)
    schema = actions.add_parser("schema", help="print the fixtures file, index or protocol JSON Schema")
    schema.add_argument(
        "name", choices=("fixtures", "fixtures-index", "conform-protocol"), nargs="?", default="fixtures"
    )
    schema.set_defaults(run=_fixtures_schema)


def _conform_parser(sub: Any) -> None:
    from invasion_oracle.reports.conform import SMOKE_PER_GAME, timeout_seconds

    conform = sub.add_parser(
        "conform", help="run another implementation against the suite over a line protocol"
    )
    conform.add_argument(
        "--cmd",
        required=True,
        action="append",
        metavar="[NAME=]COMMAND",
        help="the implementation's command (split like a shell, run without one); repeat with "
        "NAME=COMMAND to run several side by side",
    )
    conform.add_argument(
        "--game", action="append", choices=registry.names(), help="only this game (repeatable)"
    )
    conform.add_argument(
        "--features",
        type=name_list,
        metavar="TAG,...",
        help="the features it implements; other cases are skipped",
    )
    conform.add_argument(
        "--ruling",
        action="append",
        default=[],
        metavar="ID=READING",
        help="the reading it follows (default: every default reading); repeatable",
    )
    conform.add_argument(
        "--case", action="append", metavar="PREFIX", help="only cases whose id starts with PREFIX"
    )
    conform.add_argument(
        "--dir", help="the fixtures folder (default: ./fixtures, else the suite installed with the package)"
    )
    conform.add_argument(
        "--timeout", type=timeout_seconds, default=10.0, metavar="SECONDS", help="per case (default 10)"
    )
    conform.add_argument(
        "--min-graded",
        type=non_negative_int,
        metavar="N",
        help="fail (exit 1) unless each game asked has at least N graded cases (default 1)",
    )
    conform.add_argument(
        "--smoke",
        action="store_true",
        help=f"a quick deterministic subset: about {SMOKE_PER_GAME} cases a game, graded variant only",
    )
    conform.add_argument(
        "--start-timeout",
        type=timeout_seconds,
        default=60.0,
        metavar="SECONDS",
        help="for the implementation to start and answer hello (default 60)",
    )
    conform.add_argument(
        "--graded-only",
        action="store_true",
        help="send only the variant of the readings asked for (no compliance statement)",
    )
    conform.add_argument(
        "--max-failures",
        type=positive_int,
        default=None,
        metavar="N",
        help="failures listed in full (default 20; the text and Markdown report)",
    )
    fuzzing = conform.add_argument_group(
        "fuzzing (--fuzz: cases generated and shrunk, instead of the suite; docs/conformance.md, Fuzzing)"
    )
    fuzzing.add_argument(
        "--fuzz",
        action="store_true",
        help="generate cases from each game's strategies within what the implementation declares, "
        "grade them against the oracle, shrink each disagreement",
    )
    fuzzing.add_argument(
        "--seed", type=non_negative_int, metavar="N", help="with --fuzz: the seed (default 0)"
    )
    limit = fuzzing.add_mutually_exclusive_group()
    limit.add_argument(
        "--examples", type=positive_int, metavar="N", help="with --fuzz: cases generated a game (default 200)"
    )
    limit.add_argument(
        "--budget",
        type=timeout_seconds,
        metavar="SECONDS",
        help="with --fuzz: generate until this much time is spent (the report says the count reached)",
    )
    fuzzing.add_argument(
        "--save",
        type=output_folder("--save"),
        metavar="DIR",
        help="with --fuzz: write each distinct failure, shrunk, as a suite case file "
        "(DIR/GAME/fuzz.cases.json) that conform --dir DIR runs again",
    )
    fuzzing.add_argument(
        "--jobs", type=positive_int, metavar="N", help="with --fuzz: implementation processes (default 1)"
    )
    add_run_data_option(
        conform, "the oracle's expectations are recomputed, and each case's scenario carries the data, so"
    )
    add_output_options(conform, formats=("text", "md", "json", "junit", "jsonl"))
    conform.set_defaults(run=_conform)


def register_game(commands: Any, game: str) -> None:
    """The generic verbs bound to ``game``."""
    simulate = commands.add_parser("simulate", help="run a scenario: trace, decisions, pictures, outcome")
    _simulate_arguments(simulate, game)
    replay = commands.add_parser("replay", help="re-run a trace and check every step matches")
    replay.add_argument("trace", help="a trace written by `simulate --json`; - for stdin")
    add_output_options(replay)
    replay.set_defaults(run=_replay, game=game)
    data = commands.add_parser("data", help="cards and values with their provenance (seed, derived, assumed)")
    add_rules_options(data, game)
    add_output_options(data)
    data.set_defaults(run=_data, game=game)
    schema = commands.add_parser("schema", help="print this game's scenario or data JSON Schema")
    schema.add_argument("name", choices=("scenario", "data"), nargs="?", default="scenario")
    schema.set_defaults(run=_schema, game=game)
    examples = commands.add_parser("examples", help="this game's bundled example scenarios")
    add_output_options(examples)
    examples.set_defaults(run=_examples, game=game)
    ambiguities = commands.add_parser(
        "ambiguities",
        help="where readings of this game's open rules change outcomes (see invasion ambiguities)",
    )
    ambiguity_cli.register_ambiguities(ambiguities, game)


def _simulate_arguments(parser: argparse.ArgumentParser, game: str) -> None:
    parser.add_argument(
        "scenario", help="scenario JSON file, example:GAME/NAME for a bundled one, or - for stdin"
    )
    add_rules_options(parser, game)
    add_output_options(parser)
    parser.add_argument(
        "--trace", type=output_file("--trace"), metavar="FILE", help="also write the trace (a fixture) here"
    )
    parser.add_argument(
        "--svg", type=output_file("--svg"), metavar="FILE", help="also write an SVG picture of the end"
    )
    parser.set_defaults(run=_simulate, game=game or None)


# -- handlers ----------------------------------------------------------------------------------


def _command(args: argparse.Namespace) -> str:
    from invasion_oracle.reports.output import command_line

    return command_line(["invasion", *args.argv])


def _json(args: argparse.Namespace) -> bool:
    return bool(getattr(args, "format", None) == "json")


def _spec_for(args: argparse.Namespace, document: Any, source: str, verb: str, file: str = "") -> Any:
    """The game of ``document``; a game's own verb refuses another game's file.

    With a game's verb the game's loader checks the document (its schema names the problem);
    without one the document's ``game`` field decides.
    """
    if not args.game:
        return registry.spec_for_document(document, source)
    spec = registry.spec(args.game)
    other = document.get("game") if isinstance(document, dict) else None
    if isinstance(other, str) and other != spec.name and other in registry.names():
        from invasion_oracle.model.core.errors import MalformedInputError
        from invasion_oracle.reports.output import command_line

        raise MalformedInputError(
            source,
            "$.game",
            f"this is a {other} {'trace' if verb == 'replay' else 'scenario'}, not a {spec.name} one: use "
            f"`{command_line(['invasion', other, verb, file or source])}` "
            f"or `{command_line(['invasion', verb, file or source])}`",
        )
    return spec


def _data_overrides(args: argparse.Namespace) -> Any:
    from invasion_oracle.reports.cli_common import parse_data_file

    return parse_data_file(args.data)


def _warn_unused(leftover: Exception) -> None:
    """A scenario's script longer than its run: said on stderr, since under a reading its author
    did not have in mind a witness's script rightly goes unused."""
    from invasion_oracle.reports.output import one_line

    print(f"invasion: warning: {one_line(str(leftover))}", file=sys.stderr)


def _simulate(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.canonical import write_atomic
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.model.core.play import run, trace_document, trace_json
    from invasion_oracle.model.core.spec import ScenarioOptions
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import check_distinct_outputs, emit
    from invasion_oracle.reports.simulation import simulation_report

    check_distinct_outputs({"--out": args.out, "--trace": args.trace, "--svg": args.svg})
    document = read_json_file(args.scenario)
    spec = _spec_for(args, document, args.scenario, "simulate")
    options = ScenarioOptions(tuple(args.ruling), _data_overrides(args), args.data or "data")
    scenario = spec.load(document, args.scenario, options)
    playthrough = run(scenario, on_unused=_warn_unused)
    if args.svg:
        svg = spec.render_svg(scenario, playthrough.final)
        if svg is None:
            raise MalformedInputError("--svg", args.svg, f"{spec.name} has no SVG picture")
        write_atomic(args.svg, svg)
    if args.trace:
        write_atomic(args.trace, trace_json(spec, scenario, playthrough))
    command = _command(args)
    if _json(args):
        trace = trace_document(spec, scenario, playthrough)
        emit(envelope_json(spec.name, "simulate", command, trace), args.out)
    else:
        emit(simulation_report(spec, scenario, playthrough, command), args.out)
    return 0


def _replay(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.core.jsonio import located_inside, read_json_file
    from invasion_oracle.model.core.play import replay_trace
    from invasion_oracle.model.core.trace import check_trace_format
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit

    document = read_json_file(args.trace)
    name = "<stdin>" if args.trace == "-" else args.trace
    at = "$"
    if isinstance(document, dict) and "query" in document and "answer" in document:
        outer = document.get("game")
        inner = document["answer"].get("game") if isinstance(document["answer"], dict) else None
        if isinstance(outer, str) and outer and inner is not None and outer != inner:
            raise MalformedInputError(
                name, "$.game", f"the envelope says {outer!r} but its trace is for {inner!r}"
            )
        document, at = document["answer"], "$.answer"  # simulate --json's envelope
    with located_inside(name, at) if at != "$" else contextlib.nullcontext(name) as source:
        check_trace_format(document, source)
        spec = _spec_for(args, document, source, "replay", file=args.trace)
        report = replay_trace(spec, document, source)
    if _json(args):
        difference = report.first_difference or None
        answer = {"trace": name, "identical": report.identical, "first_difference": difference}
        emit(envelope_json(spec.name, "replay", _command(args), answer, replayed=report.identical), args.out)
    elif report.identical:
        emit(f"{name}: replay identical", args.out, kind="plain")
    else:
        emit(f"{name}: replay differs: {report.first_difference}", args.out, kind="plain")
    return 0 if report.identical else 1


def _data(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.simulation import data_report

    spec = registry.spec(args.game)
    rulings = Rulings.defaults(spec.name).with_choices(args.ruling)
    data = spec.build_data(rulings, _data_overrides(args), args.data or "data")
    if _json(args):
        answer = data.to_json() if data is not None else None
        emit(envelope_json(spec.name, "data", _command(args), answer), args.out)
    else:
        emit(data_report(spec, data), args.out)
    return 0


def schema_names() -> dict[str, tuple[str, str]]:
    """Every published schema: its name and its package resource (``answer-GAME-QUERY``: the
    ``answer`` of that query's envelope)."""
    from importlib.resources import files

    names = {
        "trace": ("invasion_oracle.model.core", "schemas/trace.schema.json"),
        "envelope": ("invasion_oracle.reports", "schemas/envelope.schema.json"),
        # the conformance suite's case files (reports/suite/cases/GAME/TOPIC.toml)
        "suite-cases": ("invasion_oracle.reports", "schemas/suite-cases.schema.json"),
        # a game's suite file (reports/suite/cases/PKG.toml)
        "suite-game": ("invasion_oracle.reports", "schemas/suite-game.schema.json"),
        # the answers of verbs with a published shape (the envelope's ``answer``)
    }
    for resource in sorted(files("invasion_oracle.reports").joinpath("schemas").iterdir(), key=str):
        if resource.name.startswith("answer-") and resource.name.endswith(".schema.json"):
            names[resource.name.removesuffix(".schema.json")] = (
                "invasion_oracle.reports",
                f"schemas/{resource.name}",
            )
    for spec in registry.specs():
        names.update(spec.schemas)
        names[f"events-{spec.name}"] = (
            "invasion_oracle.reports",
            f"schemas/events-{spec.name}.schema.json",
        )  # the suite's events
    return names


def _schema(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.canonical import canonical_json
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.core.jsonio import load_schema
    from invasion_oracle.model.core.rulings import resolve_name
    from invasion_oracle.reports.output import emit

    known = schema_names()
    if args.game:
        name = f"{registry.spec(args.game).name}-{args.name}"
        if name not in known:
            raise MalformedInputError("schema", args.name, f"{args.game} publishes no {args.name} schema")
    elif args.name is None:
        emit("\n".join(sorted(known)), kind="plain")
        return 0
    else:
        name = resolve_name(args.name, sorted(known), "schema", "schema", args.name)
    emit(canonical_json(load_schema(*known[name]), indent=2), kind="raw")
    return 0


def _games(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.bundled import examples
    from invasion_oracle.model.core.rulings import REGISTRY
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import table

    rows = []
    for spec in registry.specs():
        count = len(examples(spec.examples)) if spec.examples else 0
        book = spec.rulebook or spec.title
        rows.append((spec.name, spec.title, book, spec.edition, len(REGISTRY.all(spec.name)), count))
    headers = ["game", "title", "rulebook", "edition", "rulings", "bundled files"]
    if _json(args):
        answer = [dict(zip(headers, row, strict=True)) for row in rows]
        emit(envelope_json("", "games", _command(args), answer), args.out)
    else:
        emit(table(rows, headers), args.out)
    return 0


def _examples(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.bundled import examples
    from invasion_oracle.model.core.jsonio import parse_json_bytes
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit, md_escape
    from invasion_oracle.reports.tables import table

    rows = []
    for spec in [registry.spec(args.game)] if args.game else registry.specs():
        if not spec.examples:
            continue
        for ref in examples(spec.examples):
            document = parse_json_bytes(ref.read_bytes(), str(ref))
            kind = "scenario" if isinstance(document, dict) and document.get("game") else "other"
            text = document.get("description", "") if isinstance(document, dict) else ""
            rows.append((str(ref), spec.name, kind, str(text)))
    if _json(args):
        answer = [{"example": r[0], "game": r[1], "kind": r[2], "description": r[3]} for r in rows]
        emit(envelope_json(args.game or "", "examples", _command(args), answer), args.out)
    else:
        short = [(r[0], r[1], r[2], md_escape(r[3][:90] + ("..." if len(r[3]) > 90 else ""))) for r in rows]
        emit(table(short, ["example", "game", "kind", "description"]), args.out)
    return 0


def _run(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.main_job import main_job
    from invasion_oracle.reports.output import emit

    emit(main_job(), args.out)
    return 0


def _fixtures_generate(args: argparse.Namespace) -> int:
    from pathlib import Path

    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.reports import fixtures
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.suite.build import CaseError
    from invasion_oracle.reports.suite.files import apply, plan

    folder = Path(args.dir)
    # The human-readable suite and the event schemas live in the source tree: written (and checked)
    # when the folder is the checkout's own fixtures/.
    root = Path(fixtures.__file__).resolve().parents[1]
    beside = folder.resolve() == root / "fixtures" and (root / "docs").is_dir()
    if beside and args.run_data:
        raise MalformedInputError(
            "--dir",
            str(folder),
            "the checkout's fixtures/ hold the bundled data's expectations; with --data, give another "
            "--dir (the suite under your data is written there)",
        )
    try:
        expected, published = fixtures.suite_outputs(jobs=args.jobs)
    except CaseError as err:
        if not args.run_data:
            raise
        # a bundled case the designer's data makes unplayable: said as the data's problem
        raise MalformedInputError(
            ",".join(args.run_data), "$", f"the suite cannot be generated under this data: {err}"
        ) from None
    result = plan(folder, expected)
    extra = plan(root, published if beside else {}, stale=False)  # files of the tree, not a folder
    lines = [f"{folder}/{name}: new" for name in result.new] + [f"{name}: new" for name in extra.new]
    lines += [f"{folder}/{name}: no longer generated" for name in result.stale]
    for name, change in sorted(result.changed.items()):
        lines += [f"{folder}/{name}: expectation changed", change]
    for name, change in sorted(extra.changed.items()):
        lines += [f"{name}: changed", change]
    if args.check:
        clean = result.clean and extra.clean
        lines.append(
            "fixtures up to date"
            if clean
            else f"fixtures out of date ({len(result.new) + len(extra.new)} new, "
            f"{len(result.changed) + len(extra.changed)} changed, "
            f"{len(result.stale)} stale): run `invasion fixtures generate --update` and review the diff"
        )
        emit("\n".join(lines), kind="plain")
        return 0 if clean else 1
    written = apply(folder, expected, result, update=args.update)
    written += apply(root, published, extra, update=args.update)
    refused = [] if args.update else sorted(result.changed) + result.stale + sorted(extra.changed)
    lines.append(f"{len(written)} file(s) written to {folder}, {result.same + extra.same} unchanged")
    if refused:
        lines.append(
            f"{len(refused)} file(s) not rewritten: their expectations changed (diff above); review them "
            "and run `invasion fixtures generate --update` to accept"
        )
    emit("\n".join(lines), kind="plain")
    return 1 if refused else 0


def _fixtures_check(args: argparse.Namespace) -> int:
    import sys

    from invasion_oracle.reports import fixtures
    from invasion_oracle.reports.conform.cli import default_folder
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.suite.files import check_folder

    folder, chosen = default_folder(args.dir)
    if chosen not in ("--dir", "./fixtures"):
        print(f"fixtures check: the suite in {folder} ({chosen})", file=sys.stderr)
    checked, problems = check_folder(folder, [args.game] if args.game else None)
    if not args.game:
        problems += [f"{name}" for name in fixtures.check(folder)]
    lines = [f"{folder}/{p}" for p in problems]
    lines.append(
        f"{checked} case variant(s) valid and replayed identically"
        if not problems
        else f"{len(problems)} problem(s); {checked} case variant(s) checked"
    )
    emit("\n".join(lines), kind="plain")
    return 1 if problems else 0


def _fixtures_coverage(args: argparse.Namespace) -> int:
    from pathlib import Path

    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.suite.coverage import coverage, report
    from invasion_oracle.reports.suite.files import case_files, read_cases

    folder = Path(args.dir)
    registry.load_all()
    games = [args.game] if args.game else list(registry.names())
    by_game: dict[str, list[Any]] = {g: [] for g in games}
    for path in case_files(folder, games):
        game, cases = read_cases(path)
        by_game.setdefault(game, []).extend(cases)
    results = {game: coverage(game, cases) for game, cases in by_game.items()}
    incomplete = any(r.problems for r in results.values())
    if _json(args):
        answer = [r.to_json() for r in results.values()]
        emit(envelope_json(args.game or "", "fixtures-coverage", _command(args), answer), args.out)
    else:
        emit(report(results), args.out)
    return 1 if incomplete else 0


def _fixtures_schema(args: argparse.Namespace) -> int:
    from invasion_oracle.model.core.canonical import canonical_json
    from invasion_oracle.model.core.jsonio import load_schema
    from invasion_oracle.reports.output import emit

    emit(
        canonical_json(load_schema("invasion_oracle.reports", f"schemas/{args.name}.schema.json"), indent=2),
        kind="raw",
    )
    return 0


def _conform(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.conform.cli import run_from_args

    return run_from_args(args)
