"""``invasion report``: the full report of every game (see :mod:`invasion_oracle.reports.report`).

``--out DIR`` writes ``DIR/report.md`` (pictures beside it in ``DIR/pictures/``),
``DIR/report.html`` (one self-contained page, pictures inline) and the witnesses the searches
found (``DIR/witnesses/``), and with ``--json`` also ``DIR/report.json``; ``--json`` alone prints
the report as diffable JSON (the envelope); with neither, the Markdown goes to standard output.

How long: the first run of the whole report takes about 3.5 minutes on two cores (docs/performance.md);
every job's result is cached (``reports/cache.py``), so a re-run with nothing changed takes
seconds, and after a change only the jobs of the game it touches run again. Ctrl-C stops the
whole command at once, writes what has finished (marked partial) and exits 130.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.reports.ambiguity.cli import add_batch_options, add_fixture_options
from invasion_oracle.reports.options import output_folder, positive_int, positive_seconds
from invasion_oracle.reports.run_data import add_run_data_option

DEFAULT_EXAMPLES = 200


def register_report(parser: argparse.ArgumentParser) -> None:
    parser.description = REPORT_DESCRIPTION
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
        default=None,
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
    add_run_data_option(parser, "every section, search and witness")
    add_fixture_options(parser)
    add_batch_options(parser)
    parser.set_defaults(run=run_report)


REPORT_DESCRIPTION = (
    "The full report of every game: the sections and searches, the rule-ambiguity register with "
    "every witness, the divergence and well-formedness searches, pictures. The first run takes about "
    "3.5 minutes on two cores (see docs/performance.md); each job's result is cached under a key of "
    "the code, data, rulings, scenario and budget it depends on (--cache-dir, --no-cache), so a "
    "re-run with nothing changed takes seconds and only jobs whose game changed run again; the "
    "answers are the same either way. Progress goes to stderr. Ctrl-C stops everything within a "
    "second, writes what has finished (marked partial) and exits 130."
)


def without_cache_options(argv: list[str]) -> list[str]:
    """The command line without ``--no-cache`` and ``--cache-dir DIR`` (they never change an answer,
    so the report's bytes do not depend on them).

    >>> without_cache_options(["report", "--cache-dir", "c", "--no-cache", "--cache-dir=d", "--json"])
    ['report', '--json']
    """
    out: list[str] = []
    skip = False
    for word in argv:
        if skip:
            skip = False
        elif word == "--cache-dir":
            skip = True
        elif word != "--no-cache" and not word.startswith("--cache-dir="):
            out.append(word)
    return out


def run_report(args: argparse.Namespace) -> int:
    import sys

    from invasion_oracle.model.core.canonical import canonical_json, write_atomic
    from invasion_oracle.reports.ambiguity.cli import cache_summary, fixtures_folder, runner_of
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.options import OptionError
    from invasion_oracle.reports.output import command_line, emit
    from invasion_oracle.reports.report import ReportOptions, build

    if args.no_search:  # the searches are what these bound: with none, they would do nothing
        for value, option in ((args.examples, "--examples"), (args.time_limit, "--time-limit")):
            if value is not None:
                raise OptionError(option, "bounds the searches, which --no-search skips; drop one of them")
    games = tuple(registry.spec(g).name for g in args.game) if args.game else registry.names()
    out = Path(args.out) if args.out else None
    options = ReportOptions(
        games,
        command_line(["invasion", *without_cache_options(args.argv)]),
        search=not args.no_search,
        long_sections=not args.no_long,
        examples=args.examples or DEFAULT_EXAMPLES,
        time_limit=args.time_limit,
        fixtures=fixtures_folder(args),
        runner=runner_of(args),
        witnesses=out / "witnesses" if out else None,
    )
    report = build(options)
    cache_summary(options.runner.cache)
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
                "",
                "report",
                options.command,
                answer,
                status="interrupted" if status else ("best-found" if options.search else "done"),
            ),
            kind="raw",
        )
    elif out is not None:
        emit(f"wrote {out / 'report.md'}, {out / 'report.html'} and {out / 'pictures'}/", kind="plain")
    else:
        emit(report.markdown())
    if status:
        print("invasion: interrupted: the report is partial (marked so at its top)", file=sys.stderr)
    return status
