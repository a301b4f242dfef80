"""Spirit Island's outcome of a run, as traces record it (beside the state, not in :mod:`.simulate`:
``docs/adding-a-game.md``).
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.spirit_island.pieces import describe
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.state import IslandState


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
