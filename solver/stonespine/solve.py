"""The placement question answered by the engine asked for (``invasion stonespine place --engine``).

The dispatcher has a module of its own so that the search (:mod:`.placement`) and CP-SAT's loop
(:mod:`.cpsat_placement`, which builds on the search's) do not import each other.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.answers import PlacementAnswer
from invasion_oracle.solver.stonespine.placement import (
    oracle_guaranteed,
    search_expected,
    search_guaranteed,
    z3_guaranteed,
)


def solve_placement(
    scenario: Scenario,
    *,
    objective: str = "guaranteed",
    engine: str = "search",
    measure: Any = None,
    target: int | None = None,
    top: int = 10,
    player: int = 0,
    deadline: Deadline | None = None,
) -> PlacementAnswer:
    """Query 4 answered: the optimal placement for ``objective`` by ``engine``."""
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.solver.stonespine.policy import Measure

    if objective == "guaranteed":
        if engine == "z3":
            return z3_guaranteed(scenario, player, deadline, top=top)
        if engine == "cpsat":
            from invasion_oracle.solver.stonespine.cpsat_placement import cpsat_guaranteed

            return cpsat_guaranteed(scenario, player, deadline, top=top)
        if engine == "oracle":
            return oracle_guaranteed(scenario, player, deadline)
        return search_guaranteed(scenario, player, deadline, top)
    if engine != "search":
        raise MalformedInputError(
            "--engine", engine, "the expected objective is solved by exhaustive DP (--engine search)"
        )
    return search_expected(scenario, measure or Measure.TROPHY, target, player, deadline, top)
