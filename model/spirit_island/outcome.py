"""Spirit Island's outcome of a run, as traces record it (beside the state, not in :mod:`.simulate`:
``docs/adding-a-game.md``).
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.spirit_island.fear import FearTrack
from invasion_oracle.model.spirit_island.pieces import Land, describe
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
        "lands": {island.lands[i]: land_json(land) for i, land in enumerate(state.lands)},
        "fear": fear_json(state.fear),
        "blight": {"card": state.blight.card, "side": state.blight.side, "pool": state.blight.pool},
        "invader_board": {
            "deck": list(state.invaders.deck),
            "ravage": list(state.invaders.ravage),
            "build": list(state.invaders.build),
            "discard": list(state.invaders.discard),
        },
    }


def land_json(land: Land) -> dict[str, Any]:
    """One land: its pieces in land notation, Presence by Spirit and Defend."""
    return {"pieces": describe(land), "presence": dict(land.presence), "defend": land.defend}


def fear_json(fear: FearTrack) -> dict[str, Any]:
    """The Fear track: the pool, the cards earned, the Terror Level (3 at most), Fear generated."""
    return {
        "pool": fear.in_pool,
        "pool_size": fear.pool_size,
        "earned_total": fear.earned_total,
        "terror_level": min(fear.terror_level, 3),
        "unresolved": list(fear.earned),
        "resolved": list(fear.discard),
        "generated": fear.generated,
    }
