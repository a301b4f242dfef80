"""The committed conformance suite, parsed once per test process and only when a test asks.

Several test modules read every case file; parsing them at import time made every worker of
``pytest -n`` pay for it during collection, whether or not it ran those tests.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

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


@cache
def case_by_id() -> dict[str, Case]:
    return {case.id: case for case in all_cases()}


def events_of(case: Case) -> Iterator[dict[str, Any]]:
    """Every compared event of every variant and acceptable outcome of ``case``."""
    for variant in case.variants:
        for outcome in variant.one_of:
            yield from (e for e in outcome.events if isinstance(e, dict))


def strings_in(value: Any) -> Iterator[str]:
    """Every string inside a JSON value (a scenario, say), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings_in(item)
