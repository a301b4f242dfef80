"""What the per-game search modules share: checking the scenario's game, and the time limit."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from invasion_oracle.api import Scenario
from invasion_oracle.model.core import arguments
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.solver.common import Deadline


def raw_scenario(scenario: Scenario, game: str) -> Any:
    """The game's own scenario object, after checking ``scenario`` is one of ``game``'s."""
    if not isinstance(scenario, Scenario) or scenario.game != game:
        raise MalformedInputError(
            getattr(scenario, "source", "scenario"), "$.game", f"a {game} scenario is needed (io.load(...))"
        )
    return scenario.raw


def deadline(time_limit: object) -> Deadline:
    """The search's limit: ``time_limit`` seconds (checked as ``--time-limit`` is), or none."""
    seconds = arguments.optional_seconds(time_limit)
    return Deadline(seconds) if seconds is not None else Deadline()


def engine(value: object, choices: Sequence[str]) -> str:
    """``engine``, one of the words the command's ``--engine`` takes for this search (``choices``,
    from the command's own table). ``both`` is taken only where the search itself runs every engine
    and compares them; elsewhere the command line does that (``--engine both``)."""
    return arguments.choice(value, "engine", choices)
