"""``invasion rulings``, ``invasion [GAME] ambiguities`` and their options.

Argument parsing is cheap (no game, solver or hypothesis import); the handlers import what they
need when they run.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.reports.options import (
    OptionError,
    add_output_options,
    output_folder,
    positive_int,
    positive_seconds,
)
from invasion_oracle.reports.run_data import add_run_data_option

DEFAULT_FIXTURES = "fixtures"
DEFAULT_EXAMPLES = 100


def add_batch_options(parser: argparse.ArgumentParser) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``: where the batch jobs run."""
    parser.add_argument(
        "--workers",
        type=positive_int,
        default=None,
        metavar="N",
        help="local process pool size (default: one per core; 1 runs everything in this process)",
    )
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help="run the jobs on a Dask distributed cluster, e.g. tcp://10.0.0.5:8786 "
        "(pip install 'invasion-oracle[dask]'; same answers as the local pool)",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where job results are cached (default $INVASION_CACHE_DIR, else "
        "$XDG_CACHE_HOME/invasion-oracle or ~/.cache/invasion-oracle); a job whose code, data, "
        "rulings, scenario and budget are unchanged is not run again, and its answer is the same",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="neither read nor write the result cache (INVASION_NO_CACHE=1 does the same unless --cache-dir is given)",
    )


SCHEDULER_ADDRESS = re.compile(
    r"(?:(?:tcp|tls|ucx|ws|wss)://)?(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}))"
    r":(?P<port>[0-9]{1,5})"
)


IN_PROCESS_ADDRESS = re.compile(r"inproc://[0-9A-Za-z.:-]+/[0-9]+/[0-9]+")
"""A scheduler in this process (``LocalCluster(processes=False)``, as the tests start one)."""


def scheduler_address(text: str) -> str:
    """A Dask scheduler's address, ``[PROTOCOL://]HOST:PORT``: checked when the command line is
    read, so a garbled one is refused even when every job would come from the cache.

    >>> scheduler_address("tcp://10.0.0.5:8786")
    'tcp://10.0.0.5:8786'
    >>> scheduler_address("GARBAGE")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a Dask scheduler address [tcp://]HOST:PORT, e.g. tcp://10.0.0.5:8786; got 'GARBAGE'
    """
    if IN_PROCESS_ADDRESS.fullmatch(text):
        return text
    found = SCHEDULER_ADDRESS.fullmatch(text)
    if found is None or not 1 <= int(found["port"]) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a Dask scheduler address [tcp://]HOST:PORT, e.g. tcp://10.0.0.5:8786; got {text!r}"
        )
    return text


def runner_of(args: argparse.Namespace) -> Any:
    """The batch runner the options ask for, with its result cache (a ``--scheduler`` whose Dask
    is not installed, or a cache folder that is not one, is refused here, before any job is looked
    up in the cache). The cache folder has this one check, whether it came from ``--cache-dir``
    or ``$INVASION_CACHE_DIR`` (:meth:`JobCache.check_folder`)."""
    import importlib.util
    import os

    if args.scheduler and importlib.util.find_spec("distributed") is None:
        raise MalformedInputError(
            "--scheduler", args.scheduler, "needs Dask: pip install 'invasion-oracle[dask]'"
        )

    from invasion_oracle.reports.batch import Runner, reset_interrupted
    from invasion_oracle.reports.cache import JobCache, default_dir

    reset_interrupted()  # a new command (the tests run many in one process)
    given = getattr(args, "cache_dir", None)
    off = getattr(args, "no_cache", False) or (not given and os.environ.get("INVASION_NO_CACHE") == "1")
    cache = JobCache(Path(given) if given else default_dir(), enabled=not off)
    if given:
        source = "--cache-dir"
    else:
        source = "$INVASION_CACHE_DIR" if os.environ.get("INVASION_CACHE_DIR") else "the default cache folder"
    cache.check_folder(source)  # a file where the folder should be: one located error, before any work
    return Runner(args.workers, args.scheduler, cache)


def cache_summary(cache: Any) -> None:
    """One line on stderr: how many jobs came from the cache, and which were run."""
    if cache is None or not cache.enabled or not (cache.reused or cache.computed):
        return
    ran = ", ".join(cache.computed[:8]) + (", ..." if len(cache.computed) > 8 else "")
    bad = f", {len(cache.ignored)} bad entry(ies) ignored" if cache.ignored else ""
    print(
        f"invasion: cache {cache.folder}: {len(cache.reused)} job(s) reused, {len(cache.computed)} run"
        + (f" ({ran})" if cache.computed else "")
        + bad,
        file=sys.stderr,
    )


def add_fixture_options(parser: argparse.ArgumentParser, *, default: bool = True) -> None:
    where = f" (default: {DEFAULT_FIXTURES}/ when it holds a manifest.json)" if default else ""
    parser.add_argument(
        "--fixtures",
        metavar="DIR",
        help=f"the fixtures folder whose cases are rerun under every reading to find the rulings each "
        f"depends on{where}",
    )
    if default:
        parser.add_argument("--no-fixtures", action="store_true", help="do not read any fixtures")


def add_search_budget(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--examples",
        type=positive_int,
        default=None,
        metavar="N",
        help=f"scenarios each search draws before giving up (default {DEFAULT_EXAMPLES}; with --search, "
        "--wellformed or --check)",
    )
    parser.add_argument(
        "--time-limit",
        type=positive_seconds,
        default=None,
        metavar="SECONDS",
        help="stop every search after this long in all; unfinished ones report unknown (with --search, "
        "--wellformed or --check)",
    )


def register_rulings(sub: Any) -> None:
    rulings = sub.add_parser(
        "rulings",
        help="the register of open rules: citation, question, readings, default and why, "
        "witnesses per reading, fixtures depending on each",
    )
    rulings.add_argument("--game", choices=registry.names(), help="only this game's rulings")
    add_run_data_option(rulings, "every witness and fixture")
    add_fixture_options(rulings, default=False)
    add_batch_options(rulings)
    add_output_options(rulings)
    rulings.set_defaults(run=run_rulings)


def register_ambiguities(parser: argparse.ArgumentParser, game: str = "") -> None:
    """The arguments of ``invasion ambiguities`` (``game``: bound to one game)."""
    if not game:
        parser.add_argument("--game", choices=registry.names(), help="only this game")
    add_run_data_option(parser, "every witness, scenario, search and fixture")
    parser.add_argument(
        "scenario",
        nargs="?",
        help="a scenario file (or example:GAME/NAME): run it under every reading of every ruling of "
        "its game; without it, every ruling's witnesses",
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="ID", help="only these rulings (repeatable)"
    )
    parser.add_argument(
        "--search",
        action="store_true",
        help="also search, per ruling, for the smallest generated scenario whose outcome depends on it",
    )
    parser.add_argument(
        "--wellformed",
        action="store_true",
        help="also check each game's rules: no state without a legal decision, every phase ends, "
        "every win condition reachable",
    )
    add_search_budget(parser)
    parser.add_argument(
        "--check",
        action="store_true",
        help="a CI verdict: print it and each problem on one line with the command that shows it "
        "(--verbose or --out FILE: the full report; --format junit: JUnit XML, a test case per ruling); "
        "exit 0 clean, 1 when a reading has no witness, a fixture depends on a ruling it does not "
        "declare, a well-formedness problem is found, or (with --baseline) anything changed; 2 bad usage",
    )
    parser.add_argument(
        "--baseline",
        metavar="FILE",
        help="a previous `invasion ambiguities --json`: print every outcome and witness that changed",
    )
    parser.add_argument(
        "--write",
        type=output_folder("--write"),
        metavar="DIR",
        help="write each witness found by --search or --wellformed as scenario files (per reading) here",
    )
    parser.add_argument(
        "--verbose",
        action="store_true",
        help="with --check: print the full report, not only the verdict and the problems",
    )
    add_fixture_options(parser)
    add_batch_options(parser)
    add_output_options(parser, formats=("text", "md", "json", "junit"))
    parser.set_defaults(run=run_ambiguities, game=game or None)


# -- handlers ----------------------------------------------------------------------------------


def _command(args: argparse.Namespace) -> str:
    from invasion_oracle.reports.output import command_line

    return command_line(["invasion", *args.argv])


def _runner(args: argparse.Namespace) -> Any:
    return runner_of(args)


def fixtures_folder(args: argparse.Namespace) -> Path | None:
    """The fixtures folder to read: the one given, or ``fixtures/`` when it is there."""
    if getattr(args, "no_fixtures", False):
        if args.fixtures is not None:
            raise OptionError("--no-fixtures", "contradicts --fixtures DIR; give one of them")
        return None
    if args.fixtures is None:
        from invasion_oracle.reports.fixtures import bundled_suite

        default = Path(DEFAULT_FIXTURES)
        if (default / "manifest.json").is_file():
            return default
        bundled = bundled_suite()  # a pip install without a clone: the suite installed with it
        if bundled is not None and (bundled / "manifest.json").is_file():
            print(f"ambiguities: the fixtures in {bundled} (installed with the package)", file=sys.stderr)
            return bundled
        print(
            "ambiguities: no fixtures folder found: the fixtures' dependencies are not checked",
            file=sys.stderr,
        )
        return None
    folder = Path(args.fixtures)
    if not (folder / "manifest.json").is_file():
        raise MalformedInputError(
            "--fixtures",
            args.fixtures,
            "no manifest.json there (make one with `invasion fixtures generate --dir DIR`)",
        )
    return folder


def _games(args: argparse.Namespace) -> tuple[str, ...]:
    if args.game:
        return (registry.spec(args.game).name,)
    return registry.names()


def run_rulings(args: argparse.Namespace) -> int:
    from invasion_oracle.reports.ambiguity.analysis import Options, analyse
    from invasion_oracle.reports.ambiguity.render import register_md
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit

    folder = fixtures_folder(args) if args.fixtures else None  # rerunning every fixture takes a while
    runner = _runner(args)
    analysis = analyse(Options(_games(args), fixtures=folder, runner=runner))
    cache_summary(runner.cache)
    if args.format == "json":
        answer = [rule for rule in analysis.to_json()["rulings"]]
        for rule in answer:  # the register: witnesses per reading, not every run's outcome
            cover = rule.pop("witnesses")
            rule.pop("divergence")
            rule["witnesses"] = (
                None
                if cover is None
                else {
                    "complete": cover["complete"],
                    "missing": cover["missing"],
                    "readings": cover["readings"],
                }
            )
        emit(envelope_json(args.game or "", "rulings", _command(args), answer), args.out)
    else:
        emit(register_md(analysis, _command(args)), args.out)
    return 130 if analysis.interrupted else 0


SEARCH_ONLY = (
    ("search", "--search"),
    ("wellformed", "--wellformed"),
    ("write", "--write"),
    ("examples", "--examples"),
    ("time_limit", "--time-limit"),
    ("fixtures", "--fixtures"),
)
"""The options of ``ambiguities`` about every ruling's witnesses and searches: a scenario file is
run under every reading and nothing is searched, so with one they would do nothing. (``--no-fixtures``
is kept: no fixtures are read with a file, as it asks.)"""


def check_combination(args: argparse.Namespace) -> None:
    """Refuse an option that would do nothing with the others given (exit 2, naming it and why)."""
    if args.verbose and not args.check:
        raise OptionError("--verbose", "only with --check (without it the full report is printed)")
    if args.scenario is not None:
        for dest, option in SEARCH_ONLY:
            if getattr(args, dest, None) not in (None, False):
                raise OptionError(
                    option,
                    f"does nothing with a scenario file ({args.scenario}): the file is run under every "
                    "reading and nothing is searched; drop the file to search every ruling",
                )
        return
    searching = args.search or args.wellformed
    if args.write and not searching:
        raise OptionError("--write", "writes the witnesses --search or --wellformed find; give one")
    if not (searching or args.check):
        for value, option in ((args.examples, "--examples"), (args.time_limit, "--time-limit")):
            if value is not None:
                raise OptionError(
                    option, "bounds the searches of --search, --wellformed or --check; give one"
                )


def run_ambiguities(args: argparse.Namespace) -> int:
    check_combination(args)
    if args.scenario is not None:
        return _one_scenario(args)
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.reports.ambiguity.analysis import Options, analyse
    from invasion_oracle.reports.ambiguity.baseline import answer_of, changes
    from invasion_oracle.reports.ambiguity.markdown import analysis_md
    from invasion_oracle.reports.ambiguity.write import write_witnesses
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit

    games = _games(args)
    baseline = None
    if args.baseline:  # read it first: a bad baseline is refused before any work
        baseline = answer_of(read_json_file(args.baseline), args.baseline)
    only = tuple(args.only)
    if only:
        from invasion_oracle.model.core.rulings import REGISTRY, resolve_name

        registry.load_all()
        known = [r.id for g in games for r in REGISTRY.all(g)]
        only = tuple(resolve_name(rid, known, "ruling", "--only", rid) for rid in only)
    options = Options(
        games,
        only,
        fixtures_folder(args),
        args.search,
        args.wellformed,
        args.examples or DEFAULT_EXAMPLES,
        args.time_limit,
        _runner(args),
        dead_rules=args.check or args.wellformed,
    )
    analysis = analyse(options)
    cache_summary(options.runner.cache)
    written = write_witnesses(analysis, Path(args.write)) if args.write else {}
    answer = analysis.to_json()
    moved = changes(baseline, answer) if baseline is not None else []
    if baseline is not None:
        answer["baseline_changes"] = moved
    failing = list(analysis.problems()) + moved
    if options.fixtures is None and not getattr(args, "no_fixtures", False):
        failing.append("no fixtures folder: the fixtures' dependencies on rulings were not checked")
    command = _command(args)
    folder = fixtures_folder(args)
    if args.format == "junit":
        from invasion_oracle.reports.ambiguity.verdict import junit

        emit(junit(analysis, moved, str(folder) if folder else None), args.out)
    elif args.check and args.format != "json" and not args.verbose:
        from invasion_oracle.reports.ambiguity.verdict import verdict_text

        if args.out:  # the full report to the file, the verdict on the terminal
            from invasion_oracle.model.core.canonical import write_atomic

            full = analysis_md(analysis, command, written, moved if baseline is not None else None, True)
            write_atomic(args.out, full if full.endswith("\n") else full + "\n")
        emit(verdict_text(analysis, moved, str(folder) if folder else None), kind="plain")
    elif args.format == "json":
        status = (
            "unknown"
            if analysis.interrupted
            else ("best-found" if args.search or args.wellformed else "done")
        )
        emit(envelope_json(args.game or "", "ambiguities", command, answer, status=status), args.out)
        if args.check and failing:
            print("\n".join(f"invasion ambiguities --check: {line}" for line in failing), file=sys.stderr)
    else:
        emit(
            analysis_md(analysis, command, written, moved if baseline is not None else None, args.check),
            args.out,
        )
    if analysis.interrupted:
        return 130
    return 1 if args.check and failing else 0


def _scenario_game(args: argparse.Namespace, document: Any) -> Any:
    """The game of a scenario given to ``ambiguities``: its ``game`` field, or the verb's game."""
    if not args.game:
        return registry.spec_for_document(document, args.scenario)
    spec = registry.spec(args.game)
    other = document.get("game") if isinstance(document, dict) else None
    if isinstance(other, str) and other != spec.name and other in registry.names():
        raise MalformedInputError(
            args.scenario,
            "$.game",
            f"this is a {other} scenario, not a {spec.name} one: use `invasion ambiguities {args.scenario}`",
        )
    return spec


def _one_scenario(args: argparse.Namespace) -> int:
    """``ambiguities FILE``: the scenario under every reading of every ruling of its game; with
    ``--baseline`` what changed since a previous ``ambiguities FILE --json``, with ``--check`` a
    verdict (against the baseline, else: every ruling it depends on declared in its ``rulings``)."""
    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.model.core.rulings import REGISTRY, resolve_name
    from invasion_oracle.model.core.spec import ScenarioOptions
    from invasion_oracle.reports.ambiguity.baseline import scenario_answer_of, scenario_changes, undeclared
    from invasion_oracle.reports.ambiguity.jobs import scenario_difference
    from invasion_oracle.reports.ambiguity.render import difference_md
    from invasion_oracle.reports.batch import run_jobs
    from invasion_oracle.reports.envelope import envelope_json
    from invasion_oracle.reports.output import emit
    from invasion_oracle.reports.tables import section

    # every input is read and checked before any run: the baseline, the scenario, --only, the runner
    baseline = scenario_answer_of(read_json_file(args.baseline), args.baseline) if args.baseline else None
    document = read_json_file(args.scenario)
    spec = _scenario_game(args, document)
    spec.load(document, args.scenario, ScenarioOptions())  # bad input is reported before any run
    rulings = REGISTRY.all(spec.name)
    if args.only:
        known = [r.id for r in rulings]
        wanted = {resolve_name(rid, known, "ruling", "--only", rid) for rid in args.only}
        rulings = tuple(r for r in rulings if r.id in wanted)
    runner = _runner(args)
    work = [(spec.name, document, args.scenario, r.id, ()) for r in rulings]
    batch = run_jobs(scenario_difference, work, runner, "readings")
    differences = [d for d in batch.results if d is not None]
    command = _command(args)
    answer: dict[str, Any] = {"scenario": args.scenario, "differences": [d.to_json() for d in differences]}
    moved = scenario_changes(baseline, answer, bool(args.only)) if baseline is not None else []
    if baseline is not None:
        answer["baseline_changes"] = moved
    # with a baseline it is the expectation (issue 34's snapshots build on this); else, declarations
    failing = moved if baseline is not None else undeclared(document, args.scenario, answer["differences"])
    if args.check:
        answer["problems"] = failing
    status = 130 if batch.interrupted else (1 if args.check and failing else 0)
    if args.format == "junit":
        from invasion_oracle.reports.ambiguity.verdict import scenario_junit

        emit(scenario_junit(args.scenario, [r.id for r in rulings], failing, batch.interrupted), args.out)
        return status
    if args.format == "json":
        emit(envelope_json(spec.name, "ambiguities", command, answer), args.out)
        if args.check and failing:
            print("\n".join(f"invasion ambiguities --check: {line}" for line in failing), file=sys.stderr)
        return status
    changed = [d for d in differences if d.kind == "outcome"]
    events = [d for d in differences if d.kind == "events"]
    title = (
        f"{len(changed)} ruling(s) change the outcome of {args.scenario}"
        + (f", {len(events)} only its events" if events else "")
        + f" (of {len(differences)} checked)"
    )
    body = "\n\n".join(f"### {d.ruling}\n\n{difference_md(spec.name, d)}" for d in changed + events)
    body = body or "_(no ruling changes this scenario)_"
    if baseline is not None:
        lines = "\n".join(f"- {line}" for line in moved) or "_(nothing changed)_"
        body += f"\n\n### Changes since the baseline {args.baseline}\n\n{lines}"
    if args.check and not baseline and failing:
        body += "\n\n### Problems\n\n" + "\n".join(f"- {line}" for line in failing)
    full = section(title, body, command=command)
    if args.check and not args.verbose:
        from invasion_oracle.reports.ambiguity.verdict import scenario_verdict_text

        if args.out:  # the full report to the file, the verdict on the terminal
            from invasion_oracle.model.core.canonical import write_atomic

            write_atomic(args.out, full if full.endswith("\n") else full + "\n")
        verdict = scenario_verdict_text(
            args.scenario, len(differences), failing, args.baseline, batch.interrupted
        )
        emit(verdict, kind="plain")
        return status
    emit(full, args.out)
    return status
