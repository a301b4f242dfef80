"""``invasion conform``: the command line over the runner and its report."""

from __future__ import annotations

import argparse
from pathlib import Path

from model import registry
from model.core.errors import MalformedInputError
from model.core.rulings import REGISTRY, Rulings
from reports.conform.report import render, render_json
from reports.conform.runner import Options, load_cases, run_cases
from reports.output import emit


def run_from_args(args: argparse.Namespace) -> int:
    from reports.conform.process import split_command

    split_command(args.cmd)  # a command that cannot be split is refused before any case is read
    registry.load_all()
    options = Options(
        command=args.cmd,
        games=tuple(args.game or ()),
        features=tuple(args.features) if args.features is not None else None,
        rulings=tuple(args.ruling),
        cases=tuple(args.case or ()),
        folder=Path(args.dir),
        timeout=args.timeout,
        graded_only=args.graded_only,
        start_timeout=args.start_timeout,
    )
    for spec in options.rulings:
        rid, sep, reading = spec.partition("=")
        if not sep or not rid or not reading:
            raise MalformedInputError("--ruling", spec, "expected ID=READING, e.g. SS-EXIT-Y13=ignored")
        games = [g for g in registry.names() if any(r.id.startswith(rid.strip()) for r in REGISTRY.all(g))]
        if not games:
            raise MalformedInputError(
                "--ruling", spec, "no game has this ruling; list them: invasion rulings"
            )
        Rulings.defaults(games[0]).with_choices([spec])
    cases = load_cases(options.folder, options.games)
    run = run_cases(cases, options)
    if getattr(args, "format", None) == "json":
        emit(render_json(run, args.argv), args.out)
    else:
        emit(render(run, args.argv, args.max_failures), args.out)
    return 0 if run.passed else 1
