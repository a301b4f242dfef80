"""One benchmark module run and rendered (``python -m tests.bench`` runs several side by side, in
worker processes that import this by name)."""

from __future__ import annotations

import importlib
import inspect
import resource
import time

from invasion_oracle.reports.tables import table
from tests.bench import Measure

HEADERS = ["measure", "this project", "baseline (same run)", "ratio", "workload"]


def cpu_seconds() -> float:
    """This process's CPU time and that of its children waited for (the commands a bench runs)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def run_module(name: str, quick: bool) -> tuple[str, list[object] | None, float, float]:
    """One benchmark module's ``(table text, measures as JSON or None, wall seconds, CPU
    seconds)``; ``None`` for a module with ``main() -> str``, or one ``--quick`` skips (its text
    is then empty). The CPU seconds count the module's import and the commands it runs: the
    modules run one at a time in a process, so their sum is about the whole run's CPU."""
    started, cpu = time.perf_counter(), cpu_seconds()
    module = importlib.import_module(f"tests.bench.{name}")
    takes_quick = hasattr(module, "results") and "quick" in inspect.signature(module.results).parameters
    if quick and not takes_quick:
        return "", None, 0.0, 0.0
    if hasattr(module, "results"):
        measures: list[Measure] = module.results(quick=True) if quick else module.results()
        text, found = table([m.row() for m in measures], HEADERS), [m.to_json() for m in measures]
    else:
        text, found = module.main(), None
    return text, found, time.perf_counter() - started, cpu_seconds() - cpu
