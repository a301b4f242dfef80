"""Spirit Island's outcome of a run, and thin helpers over the shared simulate/replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this module says
what a finished Invader Phase's outcome is (the ``outcome`` of its traces) and keeps the short
names the tests and solvers use.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough, play
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport
from invasion_oracle.model.spirit_island.pieces import describe
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


def outcome(scenario: Scenario, state: IslandState) -> dict[str, Any]:
    """What the run ended with: the result, the pieces by land, the tracks and the cards."""
    island = scenario.island
    return {
        "result": state.outcome.to_json()
        if state.outcome
        else {"result": "running", "reason": "", "turn": state.turn},
        "turn": state.turn,
        "lands": {
            island.lands[i]: {
                "pieces": describe(land),
                "presence": dict(land.presence),
                "defend": land.defend,
            }
            for i, land in enumerate(state.lands)
        },
        "fear": {
            "pool": state.fear.in_pool,
            "pool_size": state.fear.pool_size,
            "earned_total": state.fear.earned_total,
            "terror_level": min(state.fear.terror_level, 3),
            "unresolved": list(state.fear.earned),
            "resolved": list(state.fear.discard),
            "generated": state.fear.generated,
        },
        "blight": {"card": state.blight.card, "side": state.blight.side, "pool": state.blight.pool},
        "invader_board": {
            "deck": list(state.invaders.deck),
            "ravage": list(state.invaders.ravage),
            "build": list(state.invaders.build),
            "discard": list(state.invaders.discard),
        },
    }
