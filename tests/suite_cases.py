"""The committed conformance suite, parsed once per test process and only when a test asks.

Several test modules read every case file; parsing them at import time made every worker of
``pytest -n`` pay for it during collection, whether or not it ran those tests.
"""

from __future__ import annotations

import gc
from functools import cache
from pathlib import Path

from invasion_oracle.reports.conform.runner import load_cases
from invasion_oracle.reports.suite.cases import Case

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@cache
def all_cases() -> tuple[Case, ...]:
    """Every case of ``fixtures/``, as the conformance runner loads them."""
    cases = tuple(load_cases(FIXTURES, []))
    gc.freeze()  # kept for the whole process: the collector need not walk them again and again
    return cases


@cache
def cases_by_game() -> dict[str, list[Case]]:
    out: dict[str, list[Case]] = {}
    for case in all_cases():
        out.setdefault(case.game, []).append(case)
    return out
