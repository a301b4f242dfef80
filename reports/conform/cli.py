"""``invasion conform``: the command line over the runner and its report."""

from __future__ import annotations

import argparse
import gc
import re
import sys
from pathlib import Path

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.overrides import all_in_force
from invasion_oracle.model.core.rulings import REGISTRY, Rulings
from invasion_oracle.reports.conform import MAX_TIMEOUT, timeout_seconds  # noqa: F401 - re-exported
from invasion_oracle.reports.conform.report import render, render_json, render_jsonl_line, render_junit
from invasion_oracle.reports.conform.runner import (
    Options,
    Result,
    Run,
    games_to_load,
    load_cases,
    run_all,
    suite_files,
)
from invasion_oracle.reports.output import emit
from invasion_oracle.reports.suite.cases import Case

LABEL = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}")


def labelled(spec: str) -> tuple[str, str]:
    """``NAME=COMMAND`` -> (NAME, COMMAND); a plain COMMAND -> ("", COMMAND).

    >>> labelled("ours=python3 examples/adapters/oracle.py")
    ('ours', 'python3 examples/adapters/oracle.py')
    >>> labelled("python3 adapter.py --mode=fast")
    ('', 'python3 adapter.py --mode=fast')
    """
    name, sep, command = spec.partition("=")
    if sep and LABEL.fullmatch(name) and command.strip():
        return name, command
    return "", spec


def default_folder(given: str | None) -> tuple[Path, str]:
    """The fixtures folder and how it was chosen: --dir, else ./fixtures, else the bundled suite."""
    from invasion_oracle.reports.fixtures import bundled_suite

    if given:
        return Path(given), "--dir"
    if Path("fixtures/index.json").is_file():
        return Path("fixtures"), "./fixtures"
    bundled = bundled_suite()
    if bundled is None:
        raise MalformedInputError(
            "--dir", "$", "no ./fixtures here and no suite installed with the package; give --dir"
        )
    return bundled, "the suite installed with the package"


def check_feature_names_early(options: Options, games: list[str]) -> None:
    """A ``--features`` name no game's suite declares is refused before the suite is read (which
    takes seconds); :func:`check_names` then checks the cases asked for."""
    from invasion_oracle.reports.suite.plugins import suite_for

    declared = {f for game in games if (suite := suite_for(game)) for f in suite.features}
    if declared:
        _refuse_unknown_features(options, declared)


def check_names(cases: list[Case], options: Options) -> None:
    """Every ``--features`` name is one some case asked for has: a misspelt one would skip every
    case that needs it and say nothing (exit 2 with the nearest names). (``--case`` prefixes that
    match nothing are refused by the runner.)"""
    _refuse_unknown_features(options, {feature for case in cases for feature in case.features})


def _refuse_unknown_features(options: Options, known: set[str]) -> None:
    from invasion_oracle.model.core.suggest import did_you_mean

    for name in options.features or ():
        if name not in known:
            raise MalformedInputError(
                "--features",
                name,
                f"no case asked for has this feature ({len(known)} features in them)"
                + did_you_mean(name, sorted(known)),
            )


DEFAULT_MAX_FAILURES = 20


def check_combination(args: argparse.Namespace) -> None:
    """Options that would do nothing with the others given are refused, naming them."""
    from invasion_oracle.reports.options import OptionError

    if args.smoke and args.graded_only:
        raise OptionError("--graded-only", "--smoke already sends only the graded variant; drop one")
    if args.max_failures is not None and getattr(args, "format", None) not in (None, "text", "md"):
        raise OptionError(
            "--max-failures",
            f"limits the text and Markdown report; --format {args.format} lists every failure",
        )


FUZZ_ONLY = ("seed", "examples", "budget", "save", "jobs")
NOT_WITH_FUZZ = {
    "dir": "--dir: the fuzzer generates its cases; run a saved folder without --fuzz (conform --dir DIR)",
    "case": "--case: selects suite cases; --fuzz generates its own (narrow it with --game)",
    "smoke": "--smoke: a subset of the suite; with --fuzz give --examples N",
    "graded_only": "--graded-only: --fuzz sends only the readings asked already",
    "min_graded": "--min-graded: counts suite cases; the --fuzz report gives the graded count per game",
    "features": "--features: generated cases carry no feature tags; declare capabilities in hello",
}


def check_fuzz_combination(args: argparse.Namespace) -> None:
    """The --fuzz options only with --fuzz; the suite's selection options not with it."""
    from invasion_oracle.reports.options import OptionError

    fuzz = bool(getattr(args, "fuzz", False))
    if not fuzz:
        for name in FUZZ_ONLY:
            if getattr(args, name, None) is not None:
                flag = "--" + name.replace("_", "-")
                raise OptionError(flag, "works with --fuzz only; give --fuzz or drop it")
        return
    for name, reason in NOT_WITH_FUZZ.items():
        value = getattr(args, name, None)
        if value not in (None, False):
            option, _, why = reason.partition(": ")
            raise OptionError(option, f"not with --fuzz: {why}")
    if len(args.cmd) > 1:
        raise OptionError("--cmd", "--fuzz runs one implementation at a time; give one --cmd")
    if getattr(args, "format", None) == "jsonl":
        raise OptionError("--format", "jsonl streams suite results; with --fuzz use json, junit, md or text")


def run_fuzz(args: argparse.Namespace) -> int:
    from pathlib import Path

    from invasion_oracle.reports.conform.fuzz import DEFAULT_EXAMPLES, FuzzOptions, fuzz
    from invasion_oracle.reports.conform.fuzz_report import render as render_fuzz
    from invasion_oracle.reports.conform.fuzz_report import render_json as fuzz_json
    from invasion_oracle.reports.conform.fuzz_report import render_junit as fuzz_junit
    from invasion_oracle.reports.conform.process import require_program, split_command

    _, command = labelled(args.cmd[0])
    split_command(command)
    for game in registry.names() if args.ruling else args.game or registry.names():
        registry.spec(game)
    for spec in args.ruling:
        rid, sep, reading = spec.partition("=")
        if not sep or not rid or not reading:
            raise MalformedInputError("--ruling", spec, "expected ID=READING, e.g. SS-EXIT-Y13=ignored")
        games = [g for g in registry.names() if any(r.id.startswith(rid.strip()) for r in REGISTRY.all(g))]
        if not games:
            raise MalformedInputError(
                "--ruling", spec, "no game has this ruling; list them: invasion rulings"
            )
        Rulings.defaults(games[0]).with_choices([spec])
    require_program(command)
    if args.save:
        Path(args.save).mkdir(exist_ok=True)
    options = FuzzOptions(
        command=command,
        games=tuple(dict.fromkeys(args.game or ())),
        rulings=tuple(args.ruling),
        seed=args.seed or 0,
        examples=None if args.budget is not None else (args.examples or DEFAULT_EXAMPLES),
        budget=args.budget,
        save=Path(args.save) if args.save else None,
        jobs=args.jobs or 1,
        timeout=args.timeout,
        start_timeout=args.start_timeout,
    )
    out = fuzz(options)
    fmt = getattr(args, "format", None)
    if fmt == "json":
        emit(fuzz_json(out, args.argv), args.out)
    elif fmt == "junit":
        emit(fuzz_junit(out), args.out)
    else:
        emit(render_fuzz(out, args.argv, args.max_failures or DEFAULT_MAX_FAILURES), args.out)
    return 0 if out.passed else 1


def run_from_args(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.conform.process import require_program

    check_fuzz_combination(args)
    if getattr(args, "fuzz", False):
        check_combination(args)
        return run_fuzz(args)
    check_combination(args)

    commands = _implementations(args.cmd)
    folder, chosen = default_folder(args.dir)
    options = Options(
        command=commands[0][1],
        games=tuple(args.game or ()),
        features=tuple(args.features) if args.features is not None else None,
        rulings=tuple(args.ruling),
        cases=tuple(args.case or ()),
        folder=folder,
        timeout=args.timeout,
        graded_only=args.graded_only,
        start_timeout=args.start_timeout,
        min_graded=args.min_graded,
        smoke=args.smoke,
    )
    # the games graded load (their rulings register); every game when a --ruling is to be found
    to_load = games_to_load(options)
    for game in registry.names() if options.rulings else to_load or registry.names():
        registry.spec(game)
    for spec in options.rulings:
        _check_ruling(spec)
    if chosen != "--dir" and chosen != "./fixtures":
        print(f"conform: the suite in {folder} ({chosen})", file=sys.stderr)
    check_feature_names_early(options, list(to_load or registry.names()))
    suite_files(options.folder, to_load)
    for _, command in commands:  # a program that is not there is named before the suite is read
        require_program(command)
    cases = load_cases(options.folder, to_load, options.cases)
    in_force = all_in_force()
    if in_force:  # --data: the oracle's expectations under the designer's data
        from invasion_oracle.reports.conform.under_data import cases_under_data

        cases, left_out = cases_under_data(cases, in_force)
        if left_out:
            print(
                f"conform: {left_out} case(s) whose engine may choose left out under --data "
                "(their acceptable outcomes come from the generator's search)",
                file=sys.stderr,
            )
    check_names(cases, options)
    gc.freeze()  # the cases live to the end of the run: keep the collector from walking them again
    fmt = getattr(args, "format", None)
    stream = fmt == "jsonl" and not args.out

    def streamed(run: Run, result: Result) -> None:
        sys.stdout.write(render_jsonl_line(run, result) + "\n")
        sys.stdout.flush()

    runs = run_all(cases, options, commands, streamed if stream else None)
    _emit_runs(args, fmt, runs)
    return 0 if all(run.passed for run in runs) else 1


def _implementations(specs: list[str]) -> list[tuple[str, str]]:
    """``--cmd [NAME=]COMMAND`` as ``(name, command)``: each command splits, names are unique,
    and with more than one implementation each has a name (``impl1``, ``impl2`` ... by default)."""
    from invasion_oracle.reports.conform.process import split_command

    commands = [labelled(spec) for spec in specs]
    for _, command in commands:
        split_command(command)  # a command that cannot be split is refused before any case is read
    labels = [label for label, _ in commands if label]
    if len(set(labels)) != len(labels):
        raise MalformedInputError("--cmd", ",".join(labels), "two implementations have the same NAME")
    if len(commands) > 1:
        commands = [(label or f"impl{i + 1}", command) for i, (label, command) in enumerate(commands)]
    return commands


def _check_ruling(spec: str) -> None:
    """A ``--ruling ID=READING`` names a ruling of some game and one of its readings."""
    rid, sep, reading = spec.partition("=")
    if not sep or not rid or not reading:
        raise MalformedInputError("--ruling", spec, "expected ID=READING, e.g. SS-EXIT-Y13=ignored")
    games = [g for g in registry.names() if any(r.id.startswith(rid.strip()) for r in REGISTRY.all(g))]
    if not games:
        raise MalformedInputError("--ruling", spec, "no game has this ruling; list them: invasion rulings")
    Rulings.defaults(games[0]).with_choices([spec])


def _emit_runs(args: argparse.Namespace, fmt: str | None, runs: list[Run]) -> None:
    """The report in the chosen ``--format`` (jsonl lines already streamed unless ``--out``)."""
    if fmt == "json":
        emit(render_json(runs, args.argv), args.out)
    elif fmt == "junit":
        emit(render_junit(runs), args.out)
    elif fmt == "jsonl":
        if args.out:
            emit("\n".join(render_jsonl_line(run, r) for run in runs for r in run.results), args.out)
    else:
        emit(render(runs, args.argv, args.max_failures or DEFAULT_MAX_FAILURES), args.out)
