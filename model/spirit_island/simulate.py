"""Run a scenario through the oracle, and write or replay its trace.

A trace is the fixture other implementations run against: the scenario, every ruling's reading,
every request with its legal options and the answer given, every event, and the outcome, in
canonical JSON. :func:`replay_trace` re-runs a trace's scenario with its recorded answers and
reports the first step where anything differs.
"""

from __future__ import annotations

from typing import Any

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
from model.spirit_island.pieces import describe
from model.spirit_island.scenario import Scenario, scenario_from_document
from model.spirit_island.state import IslandState


def run(
    scenario: Scenario,
    decider: Decider | None = None,
    chance: ChanceSource | None = None,
    *,
    play_on: bool = False,
) -> Playthrough[IslandState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    game = scenario.game(play_on=play_on)
    state, opening = game.start(scenario.initial)
    return play(
        game, state, decider or scenario.decider(), chance or scenario.chance_source(), opening=opening
    )


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


def trace_document(scenario: Scenario, playthrough: Playthrough[IslandState]) -> dict[str, Any]:
    return {
        "format": TRACE_FORMAT,
        "format_version": TRACE_VERSION,
        "oracle_version": ORACLE_VERSION,
        "game": "spirit-island",
        "scenario": scenario.document,
        "rulings": scenario.rulings.to_json(),
        "opening": list(playthrough.opening),
        "steps": list(playthrough.steps),
        "outcome": outcome(scenario, playthrough.final),
    }


def trace_json(scenario: Scenario, playthrough: Playthrough[IslandState]) -> str:
    return canonical_json(trace_document(scenario, playthrough), indent=1) + "\n"


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    trace = check_trace(trace, source, "spirit-island")
    scenario = scenario_from_document(trace["scenario"], f"{source}:$.scenario", ruling_specs(trace))
    decisions, outcomes = recorded_answers(trace)
    playthrough = run(
        scenario,
        ScriptedDecider(decisions, label="trace decisions"),
        ScriptedChance(outcomes, label="trace chance"),
    )
    return compare(trace, trace_document(scenario, playthrough))
