"""The batch jobs of the ambiguity report: module-level functions of plain arguments.

Each is sent to a worker by :func:`invasion_oracle.reports.batch.run_jobs` (a process of the local pool or a Dask
worker) and returns a picklable answer. ``ends_at`` is a wall-clock deadline (seconds since the
epoch) shared by every job of a command, so ``--time-limit`` covers the whole command; a job
that starts after it answers ``unknown`` at once.
"""

from __future__ import annotations

import time
import typing
from collections.abc import Callable
from functools import cache
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import Coverage, Difference, compare, coverage
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.properties.budget import SearchBudget
from invasion_oracle.properties.dead_rules import DeadRule
from invasion_oracle.properties.divergence import Divergence
from invasion_oracle.properties.wellformed import Check
from invasion_oracle.reports.ambiguity.fixtures import CaseDependencies, FixtureCase, case_dependencies


def _budget(examples: int, ends_at: float | None) -> SearchBudget:
    seconds = None if ends_at is None else max(0.0, ends_at - time.time())
    return SearchBudget(examples, seconds)


def witness_coverage(game: str, ruling_id: str) -> Coverage:
    registry.load_all()
    return coverage(registry.spec(game), REGISTRY.get(ruling_id))


def scenario_difference(
    game: str, document: Any, source: str, ruling_id: str, others: tuple[str, ...]
) -> Difference:
    registry.load_all()
    return compare(registry.spec(game), document, source, ruling_id, others)


def fixture_dependencies(case: FixtureCase) -> CaseDependencies:
    registry.load_all()
    return case_dependencies(case)


def divergence(game: str, ruling_id: str, examples: int, ends_at: float | None) -> Divergence:
    """z3 where the game encodes the ruling (``solver/<pkg>/divergence.py``), hypothesis elsewhere."""
    from invasion_oracle.properties.divergence import search
    from invasion_oracle.solver.divergence import encodings

    registry.load_all()
    budget = _budget(examples, ends_at)
    encode = encodings(game).get(ruling_id)
    if encode is not None:
        return _z3_divergence(game, ruling_id, encode, budget)
    return search(game, ruling_id, budget)


def _z3_divergence(game: str, ruling_id: str, encode: Any, budget: SearchBudget) -> Divergence:
    from invasion_oracle.properties.divergence import FOUND, NONE_FOUND, UNKNOWN
    from invasion_oracle.solver.common import Deadline, OracleDisagreement, TimeLimit

    spec = registry.spec(game)
    try:
        document = encode(Deadline(budget.seconds))
    except TimeLimit:
        return Divergence(spec.name, ruling_id, UNKNOWN, "z3", budget, 0, 0, None, None, "z3 timed out")
    if document is None:
        note = "z3 proved the readings cannot differ within the encoding"
        return Divergence(spec.name, ruling_id, NONE_FOUND, "z3", budget, 0, 0, None, None, note)
    difference = compare(spec, document, "z3 witness", ruling_id)
    if difference.kind != "outcome":  # the oracle is the judge of every solver answer
        raise OracleDisagreement(f"{ruling_id}: z3's witness does not change the outcome in the oracle")
    note = "the smallest in the encoding's terms (z3 Optimize), replayed through the oracle"
    return Divergence(spec.name, ruling_id, FOUND, "z3", budget, 1, 0, document, difference, note)


def wellformed(game: str, check: str, examples: int, ends_at: float | None) -> Check:
    from invasion_oracle.properties.wellformed import run_check

    registry.load_all()
    return run_check(game, check, _budget(examples, ends_at))


def dead_rules(game: str, ruling_id: str, examples: int, ends_at: float | None) -> tuple[DeadRule, ...]:
    """The rules a reading of the ruling may make dead (:mod:`invasion_oracle.properties.dead_rules`)."""
    from invasion_oracle.properties.dead_rules import dead_rules as search

    registry.load_all()
    return search(REGISTRY.get(ruling_id), _budget(examples, ends_at))


def section_job(module: str, name: str) -> str:
    """One of the report's game sections (``reports/<pkg>/sections.py``: module-level functions)."""
    import importlib

    registry.load_all()
    made: str = getattr(importlib.import_module(module), name)()
    return made


JOBS: dict[str, Callable[..., Any]] = {
    "section": section_job,
    "coverage": witness_coverage,
    "scenario": scenario_difference,
    "fixtures": fixture_dependencies,
    "divergence": divergence,
    "wellformed": wellformed,
    "dead-rules": dead_rules,
}


def describe(job: tuple[Any, ...]) -> tuple[str | None, str]:
    """A :func:`dispatch` job's game package (None: not cacheable, it has a wall-clock deadline)
    and its label (``divergence SS-PASSAGE``)."""
    from invasion_oracle.reports.cache import package_of_game

    kind, arguments = job
    if kind == "section":
        return arguments[0].split(".")[1], f"section {arguments[1]}"
    if kind == "fixtures":
        case: FixtureCase = arguments[0]
        return package_of_game(case.game), f"fixtures {case.case}"
    if kind in ("divergence", "wellformed", "dead-rules") and arguments[3] is not None:
        return None, f"{kind} {arguments[1]}"
    return package_of_game(arguments[0]), f"{kind} {arguments[0]} {arguments[1]}"


def result_type(job: tuple[Any, ...]) -> Any:
    """The type a :func:`dispatch` job answers (its function's return annotation): a cached
    answer is rebuilt and checked as one (:func:`invasion_oracle.reports.cache.decode`)."""
    return _result_types()[job[0]]


@cache
def _result_types() -> dict[str, Any]:
    return {kind: typing.get_type_hints(function)["return"] for kind, function in JOBS.items()}


def dispatch(kind: str, arguments: tuple[Any, ...]) -> Any:
    """Run the job called ``kind``: one batch can mix every kind (better spread over workers)."""
    return JOBS[kind](*arguments)
