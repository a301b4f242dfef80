"""The ambiguity analysis behind ``invasion rulings``, ``invasion ambiguities`` and the report.

:func:`analyse` runs, as one batch (:mod:`invasion_oracle.reports.batch`), every job the options ask for: each
ruling's witnesses under each reading (always), the fixtures' dependencies on rulings (with a
fixtures folder), the divergence search per ruling (``search``) and the well-formedness checks
per game (``wellformed``). :class:`Analysis` holds the answers, lists the problems a designer's
CI fails on (:meth:`Analysis.problems`) and writes itself as JSON (the ``--json`` answer, which
is also the ``--baseline`` format).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import Coverage
from invasion_oracle.model.core.rulings import REGISTRY, Ruling
from invasion_oracle.properties.dead_rules import NEVER_FIRED, DeadRule
from invasion_oracle.properties.divergence import Divergence
from invasion_oracle.properties.hooks import rule_events
from invasion_oracle.properties.wellformed import Check, checks
from invasion_oracle.reports.ambiguity import jobs
from invasion_oracle.reports.ambiguity.fixtures import CaseDependencies, FixtureCase, read_cases
from invasion_oracle.reports.batch import Runner, run_jobs


@dataclass(frozen=True, slots=True)
class Options:
    """What to analyse and how hard to search."""

    games: tuple[str, ...]
    only: tuple[str, ...] = ()  # ruling ids (empty: all of the games')
    fixtures: Path | None = None
    search: bool = False
    wellformed: bool = False
    examples: int = 100
    time_limit: float | None = None
    runner: Runner = field(default_factory=Runner)
    dead_rules: bool = False  # search for rules a reading makes dead (--check, --wellformed, report)


@dataclass(frozen=True, slots=True)
class Analysis:
    games: tuple[str, ...]
    rulings: tuple[Ruling, ...]
    coverage: dict[str, Coverage]
    fixture_cases: int | None  # None: no fixtures folder was read
    fixture_notes: tuple[str, ...]
    dependencies: tuple[CaseDependencies, ...]
    divergences: dict[str, Divergence]
    wellformed: dict[str, tuple[Check, ...]]
    interrupted: bool = False
    extra: tuple[Any, ...] = ()  # the results of the caller's extra jobs (the report's sections)
    reused: tuple[str, ...] = ()  # labels of the jobs answered from the result cache
    dead_rules: dict[str, tuple[DeadRule, ...]] | None = None  # by ruling id; None: not searched

    def never_fired(self, ruling_id: str) -> tuple[DeadRule, ...]:
        """The readings of the ruling under which a rule never fired (the search found none)."""
        return tuple(d for d in (self.dead_rules or {}).get(ruling_id, ()) if d.status == NEVER_FIRED)

    def fixtures_depending(self, ruling_id: str) -> dict[str, list[str]]:
        """Fixture cases whose outcome (or only events) depend on the ruling."""
        found: dict[str, list[str]] = {"outcome": [], "events": []}
        for case in self.dependencies:
            for rid, kind in case.depends:
                if rid == ruling_id:
                    found[kind].append(case.case)
        return found

    def problems(self) -> list[str]:
        """What ``--check`` fails on: readings without a witness, undeclared fixture dependencies,
        and well-formedness problems found."""
        found: list[str] = []
        for ruling in self.rulings:
            cover = self.coverage.get(ruling.id)
            if cover is None:
                found.append(f"{ruling.id}: witnesses not checked (interrupted)")
            else:
                found += cover.missing()
        for case in self.dependencies:
            kinds = dict(case.depends)
            for rid in case.undeclared:
                what = "outcome depends" if kinds[rid] == "outcome" else "events (not its outcome) depend"
                found.append(f"fixture {case.case}: its {what} on {rid}, which it does not declare")
        for results in self.wellformed.values():
            for check in results:
                if check.status == "found" and not check.check.startswith("reach: "):
                    found.append(f"{check.game}: {check.check}: {check.detail}")
        # A default reading under which a rule never runs: the rule is dead in every default game.
        # Another reading doing so is a note in the report (an argument against that reading).
        for ruling in self.rulings:
            found += [d.line() for d in self.never_fired(ruling.id) if d.default]
        return found

    def to_json(self) -> dict[str, Any]:
        rulings = []
        for ruling in self.rulings:
            cover = self.coverage.get(ruling.id)
            divergence = self.divergences.get(ruling.id)
            rulings.append(
                {
                    **ruling.to_json(),
                    "witnesses": cover.to_json() if cover else None,
                    "fixtures": self.fixtures_depending(ruling.id)
                    if self.fixture_cases is not None
                    else None,
                    "divergence": divergence.to_json() if divergence else None,
                    "dead_rules": None
                    if self.dead_rules is None
                    else [d.to_json() for d in self.dead_rules.get(ruling.id, ())],
                }
            )
        return {
            "games": list(self.games),
            "rulings": rulings,
            "fixtures": None
            if self.fixture_cases is None
            else {
                "cases": self.fixture_cases,
                "notes": list(self.fixture_notes),
                "dependencies": [d.to_json() for d in self.dependencies],
            },
            "wellformed": {game: [c.to_json() for c in results] for game, results in self.wellformed.items()},
            "problems": self.problems(),
            "interrupted": self.interrupted,
        }


def selected_rulings(games: tuple[str, ...], only: tuple[str, ...] = ()) -> tuple[Ruling, ...]:
    registry.load_all()
    chosen = [r for game in games for r in REGISTRY.all(game)]
    if only:
        chosen = [r for r in chosen if r.id in only]
    return tuple(chosen)


WORK_NAMES = {
    "section": "report sections",
    "divergence": "divergence searches",
    "wellformed": "well-formedness checks",
    "dead-rules": "dead-rule searches",
    "fixtures": "fixture replays",
    "coverage": "witness runs",
}
"""What each kind of job computes, as its progress names it."""


def batch_label(work: list[tuple[str, tuple[Any, ...]]]) -> str:
    """The progress label of a batch: what its jobs compute, in the order they are queued.

    >>> batch_label([("section", ()), ("fixtures", ()), ("coverage", ()), ("coverage", ())])
    'report sections, fixture replays, witness runs'
    """
    kinds = dict.fromkeys(kind for kind, _ in work)
    return ", ".join(WORK_NAMES.get(kind, kind) for kind in kinds) or "nothing to run"


def analyse(options: Options, extra: tuple[tuple[str, tuple[Any, ...]], ...] = ()) -> Analysis:
    """Run every job the options ask for, in one batch, and gather the answers.

    ``extra``: more :func:`jobs.dispatch` jobs (the report's sections) run first in the same batch,
    so the long ones overlap the many short ambiguity jobs on the pool; their results are
    :attr:`Analysis.extra`, in order."""
    rulings = selected_rulings(options.games, options.only)
    cases: tuple[FixtureCase, ...] = ()
    notes: tuple[str, ...] = ()
    if options.fixtures is not None:
        cases, notes = read_cases(options.fixtures)
        cases = tuple(c for c in cases if c.game in options.games)
    ends_at = None if options.time_limit is None else time.time() + options.time_limit
    work: list[tuple[str, tuple[Any, ...]]] = list(extra)
    if options.search:
        work += [("divergence", (r.game, r.id, options.examples, ends_at)) for r in rulings]
    if options.wellformed:
        work += [("wellformed", (g, c, options.examples, ends_at)) for g in options.games for c in checks(g)]
    if options.dead_rules:
        watched = {r.game for r in rulings if rule_events(r.game)}
        work += [
            ("dead-rules", (r.game, r.id, options.examples, ends_at)) for r in rulings if r.game in watched
        ]
    work += [("fixtures", (case,)) for case in cases]
    work += [("coverage", (r.game, r.id)) for r in rulings]
    batch = run_jobs(jobs.dispatch, work, options.runner, batch_label(work), jobs.describe, jobs.result_type)
    coverage: dict[str, Coverage] = {}
    dependencies: list[CaseDependencies] = []
    divergences: dict[str, Divergence] = {}
    wellformed: dict[str, list[Check]] = {g: [] for g in options.games} if options.wellformed else {}
    dead: dict[str, tuple[DeadRule, ...]] | None = {} if options.dead_rules else None
    for (kind, arguments), result in zip(work[len(extra) :], batch.results[len(extra) :], strict=True):
        if result is None:
            continue
        if kind == "coverage":
            coverage[result.ruling.id] = result
        elif kind == "fixtures":
            dependencies.append(result)
        elif kind == "divergence":
            divergences[result.ruling] = result
        elif kind == "dead-rules":
            assert dead is not None
            dead[arguments[1]] = result
        else:
            wellformed[result.game].append(result)
    return Analysis(
        options.games,
        rulings,
        coverage,
        len(cases) if options.fixtures is not None else None,
        notes,
        tuple(dependencies),
        divergences,
        {g: tuple(v) for g, v in wellformed.items()},
        batch.interrupted,
        batch.results[: len(extra)],
        batch.reused,
        dead,
    )
