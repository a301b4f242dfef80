"""Run a scenario through the oracle, and write or replay its trace.

A trace is the fixture other implementations run against: the scenario, every ruling's reading,
every request with its legal options and the answer given, every event, and the outcome, in
canonical JSON. :func:`replay_trace` re-runs a trace's scenario with its recorded answers and
reports the first step where anything differs. :func:`outcome` is everything a fixture compares
at the end; its totals equal the sums of the events that changed them.
"""

from __future__ import annotations

from typing import Any

from model.cloudspire.area import LANES, SPIRE_SPACES
from model.cloudspire.dice import Zone
from model.cloudspire.rulings import GAME
from model.cloudspire.scenario import Scenario, scenario_from_document
from model.cloudspire.state import GameState
from model.core.canonical import canonical_json
from model.core.decisions import ChanceSource, Decider, ScriptedChance, ScriptedDecider
from model.core.driver import Playthrough, play
from model.core.trace import (
    ORACLE_VERSION,
    TRACE_FORMAT,
    TRACE_VERSION,
    ReplayReport,
    check_trace,
    compare,
    recorded_answers,
    ruling_specs,
)


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    game = scenario.game()
    state, opening = game.start(scenario.initial)
    return play(
        game, state, decider or scenario.decider(), chance or scenario.chance_source(), opening=opening
    )


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


def summary(scenario: Scenario, state: GameState) -> str:
    """A one-line fingerprint of the outcome (used to show that readings differ)."""
    o = outcome(scenario, state)
    r = o["result"]
    t = o["totals"]
    lanes = " ".join(f"{k}:{'+'.join(v) or '-'}" for k, v in o["lanes"].items())
    return (
        f"{r['result']} round {r['round']}; health {o['hero']['health']}; defeated {t['enemies_defeated']}; "
        f"spires lost {t['spires_defeated']}; {lanes}; deployment {len(state.deployment)}; "
        f"boss {'added' if state.boss_added else 'not added'}; pool {len(state.in_zone(Zone.POOL))}"
    )


def trace_document(scenario: Scenario, playthrough: Playthrough[GameState]) -> dict[str, Any]:
    return {
        "format": TRACE_FORMAT,
        "format_version": TRACE_VERSION,
        "oracle_version": ORACLE_VERSION,
        "game": GAME,
        "scenario": scenario.document,
        "rulings": scenario.rulings.to_json(),
        "opening": list(playthrough.opening),
        "steps": list(playthrough.steps),
        "outcome": outcome(scenario, playthrough.final),
    }


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    return canonical_json(trace_document(scenario, playthrough), indent=1) + "\n"


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    trace = check_trace(trace, source, GAME)
    scenario = scenario_from_document(trace["scenario"], f"{source}:$.scenario", ruling_specs(trace))
    decisions, outcomes = recorded_answers(trace)
    playthrough = run(
        scenario,
        ScriptedDecider(decisions, label="trace decisions"),
        ScriptedChance(outcomes, label="trace chance"),
    )
    return compare(trace, trace_document(scenario, playthrough))
