"""One benchmark module run and rendered (``python -m tests.bench`` runs several side by side, in
worker processes that import this by name)."""

from __future__ import annotations

import importlib
import inspect
import time

from invasion_oracle.reports.tables import table
from tests.bench import Measure

HEADERS = ["measure", "this project", "baseline (same run)", "ratio", "workload"]


def run_module(name: str, quick: bool) -> tuple[str, list[object] | None, float]:
    """One benchmark module's ``(table text, measures as JSON or None, seconds)``; ``None`` for a
    module with ``main() -> str``, or one ``--quick`` skips (its text is then empty)."""
    module = importlib.import_module(f"tests.bench.{name}")
    takes_quick = hasattr(module, "results") and "quick" in inspect.signature(module.results).parameters
    if quick and not takes_quick:
        return "", None, 0.0
    started = time.perf_counter()
    if hasattr(module, "results"):
        measures: list[Measure] = module.results(quick=True) if quick else module.results()
        return (
            table([m.row() for m in measures], HEADERS),
            [m.to_json() for m in measures],
            time.perf_counter() - started,
        )
    return module.main(), None, time.perf_counter() - started
