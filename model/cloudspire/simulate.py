"""Cloudspire's outcome of a run, and thin helpers over the shared simulate/replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this module says
what a finished run's outcome is (the ``outcome`` of its traces: everything a fixture compares at
the end; its totals equal the sums of the events that changed them) and keeps short names for
the tests and solvers.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.dice import Zone
from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import run as _run
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    return _run(scenario, decider, chance)


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
        "inventory": list(state.inventory),
        "deployment": state.deployment.to_json(),
        "market": state.market.to_json(),
        "discard": [[card, side] for card, side in state.discard],
        "boss": {"card": state.boss, "added": state.boss_added},
        "dice": {zone.value: [d.describe() for d in state.in_zone(zone)] for zone in Zone},
    }


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    from invasion_oracle.model.cloudspire.spec import SPEC

    return _trace_json(SPEC, scenario, playthrough)


def replay_trace(trace: Any, source: str) -> ReplayReport:
    from invasion_oracle.model.cloudspire.spec import SPEC

    return _replay_trace(SPEC, trace, source)
