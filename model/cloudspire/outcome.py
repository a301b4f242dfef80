"""Cloudspire's outcome of a run, as traces record it (beside the state, not in :mod:`.simulate`:
``docs/adding-a-game.md``).

Everything a fixture compares at the end; its totals equal the sums of the events that changed them.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.dice import Zone
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState


def outcome(scenario: Scenario, state: GameState) -> dict[str, Any]:
    """The result, the hero's stats, the totals, and where every card and die ended."""
    game = scenario.game()
    result = (
        state.outcome.to_json()
        if state.outcome
        else {"result": "running", "reason": "", "round": state.round}
    )
    return {
        "result": result,
        "round": state.round,
        "hero": {
            "card": state.hero,
            "health": state.health,
            "strategy": state.strategy,
            "recovery": state.recovery,
        },
        "totals": {
            "health_lost": state.health_lost,
            "health_gained": state.health_gained,
            "enemies_defeated": len(state.defeated),
            "spires_defeated": state.spires_lost,
            "dice_banished": len(state.in_zone(Zone.BANISHED)),
        },
        "defeated": list(state.defeated),
        "lanes": {lane: list(stack) for lane, stack in zip(LANES, state.lanes, strict=True)},
        "damage_on_top": {
            lane: game.damage_taken(state, stack[0])
            for lane, stack in zip(LANES, state.lanes, strict=True)
            if stack
        },
        "spires": {
            space: {"card": p.card, "defeated": p.defeated}
            for space, p in zip(SPIRE_SPACES, state.spires, strict=True)
            if p is not None
        },
        **piles_json(state),
        "boss": {"card": state.boss, "added": state.boss_added},
        "dice": {zone.value: [d.describe() for d in state.in_zone(zone)] for zone in Zone},
    }


def piles_json(state: GameState) -> dict[str, Any]:
    """The Deployment and Market Stacks, the discard (card, side) and the inventory."""
    return {
        "deployment": state.deployment.to_json(),
        "market": state.market.to_json(),
        "discard": [[card, side] for card, side in state.discard],
        "inventory": list(state.inventory),
    }
