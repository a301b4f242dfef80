"""Spirit Island's short names over the shared simulate, trace and replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this
module keeps the short names the tests and solvers use. The outcome of a run is
:mod:`.outcome`'s.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough, play
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.state import IslandState


def run(
    scenario: Scenario,
    decider: Decider | None = None,
    chance: ChanceSource | None = None,
    *,
    play_on: bool = False,
) -> Playthrough[IslandState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given.

    ``play_on`` keeps resolving after a victory or defeat (the searches use it).
    """
    game = scenario.game(play_on=play_on)
    state, opening = game.start(scenario.initial)
    return play(
        game, state, decider or scenario.decider(), chance or scenario.chance_source(), opening=opening
    )


def trace_json(scenario: Scenario, playthrough: Playthrough[IslandState]) -> str:
    from invasion_oracle.model.spirit_island.spec import SPEC

    return _trace_json(SPEC, scenario, playthrough)


def replay_trace(trace: Any, source: str) -> ReplayReport:
    from invasion_oracle.model.spirit_island.spec import SPEC

    return _replay_trace(SPEC, trace, source)
