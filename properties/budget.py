"""How much a generated-scenario search may spend, and hypothesis's ``find`` under that budget.

Every search here is "the smallest generated scenario such that ...": hypothesis draws up to
``examples`` scenarios from a game's strategy, and shrinks the first one that satisfies the
condition (MacIver and Donaldson's shortlex order on the choice sequence). The random source is
seeded from the search's name, so a search gives the same answer every run, in any process or
on any Dask worker. ``seconds`` caps the wall-clock time: past it the condition answers no
without running, so the search ends with what it has (the budget spent is reported).
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """Scenarios to draw (``examples``) and an optional wall-clock cap (``seconds``)."""

    examples: int = 100
    seconds: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {"examples": self.examples, "seconds": self.seconds}


@dataclass(slots=True)
class Spent:
    """What a search used: scenarios run, and whether the time cap cut it short."""

    runs: int = 0
    timed_out: bool = False
    notes: dict[str, int] = field(default_factory=dict)

    def note(self, name: str) -> None:
        self.notes[name] = self.notes.get(name, 0) + 1


def stable_seed(*names: str) -> int:
    """A seed from names, the same in every process (``hash()`` is salted per process)."""
    return int.from_bytes(hashlib.sha256("\x00".join(names).encode("utf-8")).digest()[:8], "big")


def smallest(
    strategy: st.SearchStrategy[Any],
    condition: Callable[[Any], bool],
    budget: SearchBudget,
    seed_names: tuple[str, ...],
    spent: Spent,
) -> Any | None:
    """The shrunk smallest draw satisfying ``condition``, or None when none was found."""
    # properties cannot import solver.common.Deadline (sibling layers); this is the same clock.
    ends = None if budget.seconds is None else time.perf_counter() + budget.seconds

    def counted(value: Any) -> bool:
        if ends is not None and time.perf_counter() >= ends:
            spent.timed_out = True
            return False
        spent.runs += 1
        return condition(value)

    chosen = settings(
        max_examples=budget.examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    try:
        return find(strategy, counted, settings=chosen, random=random.Random(stable_seed(*seed_names)))
    except (NoSuchExample, Unsatisfiable):
        return None
