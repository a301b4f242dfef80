"""What the per-game search modules share: checking the scenario's game, and the time limit."""

from __future__ import annotations

from typing import Any

from invasion_oracle.api import Scenario
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.solver.common import Deadline


def raw_scenario(scenario: Scenario, game: str) -> Any:
    """The game's own scenario object, after checking ``scenario`` is one of ``game``'s."""
    if not isinstance(scenario, Scenario) or scenario.game != game:
        raise MalformedInputError(
            getattr(scenario, "source", "scenario"), "$.game", f"a {game} scenario is needed (io.load(...))"
        )
    return scenario.raw


def deadline(time_limit: float | None) -> Deadline:
    """The search's limit: ``time_limit`` seconds, or none."""
    return Deadline(time_limit) if time_limit is not None else Deadline()
