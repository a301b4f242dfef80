"""Commands every game shares: ``rulings``, ``run`` (the main job) and ``schema``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from model.core.canonical import canonical_json, write_atomic
from model.core.errors import MalformedInputError
from model.core.jsonio import load_schema
from model.core.rulings import REGISTRY
from model.games import GAMES, load_all
from reports.tables import table

SCHEMAS = {
    "stonespine-scenario": ("model.stonespine", "scenario.schema.json"),
    "stonespine-data": ("model.stonespine", "data.schema.json"),
    "spirit-island-scenario": ("model.spirit_island", "scenario.schema.json"),
    "spirit-island-data": ("model.spirit_island", "data.schema.json"),
}


def register(sub: Any) -> None:
    rulings = sub.add_parser("rulings", help="list the named rulings and their readings")
    rulings.add_argument("--game", choices=sorted(GAMES), help="only this game's rulings")
    rulings.add_argument("--json", action="store_true", help="canonical JSON instead of a table")
    rulings.set_defaults(run=_rulings)

    run = sub.add_parser("run", help="the main job: every game's default report on bundled data")
    run.add_argument("--out", help="also write the report to this Markdown file")
    run.set_defaults(run=_run)

    fixtures = sub.add_parser(
        "fixtures", help="write (or --check) the regression fixtures: one trace per example"
    )
    fixtures.add_argument("--out", default="fixtures", help="folder (default: fixtures)")
    fixtures.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if any fixture would change"
    )
    fixtures.set_defaults(run=_fixtures)

    report = sub.add_parser("report", help="the full report: the main job plus the long searches")
    report.add_argument("--out", help="also write the report to this Markdown file")
    report.set_defaults(run=_report)

    schema = sub.add_parser("schema", help="print a published JSON Schema")
    schema.add_argument("name", choices=sorted(SCHEMAS))
    schema.set_defaults(run=_schema)


def emit(text: str, out: str | None) -> None:
    """Print ``text``; with ``out``, write it atomically to that file as well."""
    sys.stdout.write(text if text.endswith("\n") else text + "\n")
    if out:
        write_atomic(out, text if text.endswith("\n") else text + "\n")


def _rulings(args: argparse.Namespace) -> int:
    load_all()
    rulings = REGISTRY.all(args.game)
    if args.json:
        print(canonical_json([r.to_json() for r in rulings], indent=1))
        return 0
    rows = []
    for r in rulings:
        readings = "; ".join(
            f"{x.name}{' (default)' if x.name == r.default else ''}: {x.meaning}" for x in r.readings
        )
        rows.append((r.id, r.question, readings, r.citation))
    print(table(rows, ["id", "question", "readings", "citation"]))
    return 0


def _run(args: argparse.Namespace) -> int:
    from reports.main_job import main_job

    emit(main_job(), args.out)
    return 0


def _fixtures(args: argparse.Namespace) -> int:
    from pathlib import Path

    from reports import fixtures

    out = Path(args.out)
    if args.check:
        problems = fixtures.check(out)
        for line in problems:
            print(f"{out}/{line}")
        print(
            "fixtures up to date"
            if not problems
            else f"{len(problems)} fixture(s) out of date: run `make fixtures` and review the diff"
        )
        return 1 if problems else 0
    written = fixtures.write(out)
    print(f"{len(written)} file(s) written to {out}" + ("" if written else " (all up to date)"))
    return 0


def _report(args: argparse.Namespace) -> int:
    from reports.main_job import full_report

    emit(full_report(), args.out)
    return 0


def _schema(args: argparse.Namespace) -> int:
    package, name = SCHEMAS[args.name]
    print(canonical_json(load_schema(package, name), indent=2))
    return 0


def parse_data_file(path: str | None) -> dict[str, Any] | None:
    if path is None:
        return None
    from model.core.jsonio import read_json_file

    data = read_json_file(path)
    if not isinstance(data, dict):
        raise MalformedInputError(path, "$", "a data file is a JSON object")
    return data
