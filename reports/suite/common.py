"""What the game plug-ins share: a scenario document loaded, a hypothesis-shrunk example, the
``result`` projection."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.spec import ScenarioOptions
from invasion_oracle.reports.suite.events import coded_result
from invasion_oracle.reports.suite.plugins import ProjectionFunction


def load(game: str, document: dict[str, Any], source: str = "suite") -> Any:
    """``document`` (a copy) loaded as ``game``'s scenario, under the rulings it names."""
    return registry.spec(game).load(copy.deepcopy(document), source, ScenarioOptions())


def shrunk(strategy: Any, condition: Callable[[Any], bool], examples: int) -> Any | None:
    """The smallest example of ``strategy`` meeting ``condition`` (hypothesis ``find``), or
    ``None``; the same whatever ran before: derandomized, no database, the fixed constants of
    ``properties/budget.py``."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis.errors import NoSuchExample

    from invasion_oracle.properties.budget import fixed_constants

    quiet = settings(
        database=None,
        derandomize=True,
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    try:
        with fixed_constants():
            return find(strategy, condition, settings=quiet)
    except NoSuchExample:
        return None


def result(game: str, running: Callable[[Any], dict[str, Any]]) -> ProjectionFunction:
    """A game's ``result`` projection: ``running(state)`` while the game runs, else its outcome's
    result with the reason as a code (and its ids), never prose."""

    def project(scenario: Any, state: Any, argument: str) -> Any:
        return running(state) if state.outcome is None else coded_result(game, state.outcome.to_json())

    return project
