"""``invasion report``: the full report of every game (see :mod:`reports.report`).

``--out DIR`` writes ``DIR/report.md`` (pictures beside it in ``DIR/pictures/``),
``DIR/report.html`` (one self-contained page, pictures inline) and the witnesses the searches
found (``DIR/witnesses/``), and with ``--json`` also ``DIR/report.json``; ``--json`` alone prints
the report as diffable JSON (the envelope); with neither, the Markdown goes to standard output.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from model import registry
from reports.ambiguity.cli import add_batch_options, add_fixture_options
from reports.options import output_folder, positive_int, positive_seconds

DEFAULT_EXAMPLES = 200


def register_report(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", type=output_folder(), metavar="DIR", help="write report.md, report.html and pictures/ here"
    )
    parser.add_argument("--json", action="store_true", help="print the report as canonical JSON (diffable)")
    parser.add_argument(
        "--game", action="append", choices=registry.names(), help="only these games (repeatable)"
    )
    parser.add_argument(
        "--examples",
        type=positive_int,
        default=DEFAULT_EXAMPLES,
        metavar="N",
        help=f"scenarios each divergence and well-formedness search draws (default {DEFAULT_EXAMPLES})",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="cap on the searches in all",
    )
    parser.add_argument(
        "--no-search", action="store_true", help="skip the divergence and well-formedness searches"
    )
    parser.add_argument("--no-long", action="store_true", help="skip the games' long sections")
    add_fixture_options(parser)
    add_batch_options(parser)
    parser.set_defaults(run=run_report)


def run_report(args: argparse.Namespace) -> int:
    from model.core.canonical import canonical_json, write_atomic
    from reports.ambiguity.cli import fixtures_folder
    from reports.batch import Runner
    from reports.envelope import envelope_json
    from reports.output import command_line, emit
    from reports.report import ReportOptions, build

    games = tuple(registry.spec(g).name for g in args.game) if args.game else registry.names()
    out = Path(args.out) if args.out else None
    options = ReportOptions(
        games,
        command_line(["invasion", *args.argv]),
        search=not args.no_search,
        long_sections=not args.no_long,
        examples=args.examples,
        time_limit=args.time_limit,
        fixtures=fixtures_folder(args),
        runner=Runner(args.workers, args.scheduler),
        witnesses=out / "witnesses" if out else None,
    )
    report = build(options)
    status = 130 if report.analysis.interrupted else 0
    answer: Any = report.to_json()
    if out is not None:
        for picture in report.all_pictures():
            write_atomic(out / "pictures" / picture.name, picture.svg)
        write_atomic(out / "report.md", report.markdown())
        write_atomic(out / "report.html", report.html())
        if args.json:
            write_atomic(out / "report.json", canonical_json(answer, indent=1) + "\n")
    if args.json:
        emit(
            envelope_json(
                "", "report", options.command, answer, status="best-found" if options.search else "done"
            )
        )
    elif out is not None:
        emit(f"wrote {out / 'report.md'}, {out / 'report.html'} and {out / 'pictures'}/")
    else:
        emit(report.markdown())
    return status
