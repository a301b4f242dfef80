"""Run a scenario through the oracle, and write or replay its trace.

A trace is the fixture other implementations run against: the scenario, every ruling's reading,
every request with its legal options and the answer given, every event, and the outcome, in
canonical JSON. :func:`replay_trace` re-runs a trace's scenario with its recorded answers and
reports the first step where anything differs.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from model.core.canonical import canonical_json
from model.core.decisions import ChanceSource, Decider, ScriptedChance, ScriptedDecider
from model.core.driver import Playthrough, play
from model.core.errors import MalformedInputError
from model.spirit_island.pieces import describe
from model.spirit_island.scenario import Scenario, scenario_from_document
from model.spirit_island.state import IslandState

TRACE_FORMAT = "invasion-oracle/trace"
TRACE_VERSION = 1
ORACLE_VERSION = "0.1.0"


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None, *, play_on: bool = False,
) -> Playthrough[IslandState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    game = scenario.game(play_on=play_on)
    state, opening = game.start(scenario.initial)
    return play(game, state, decider or scenario.decider(), chance or scenario.chance_source(), opening=opening)


def outcome(scenario: Scenario, state: IslandState) -> dict[str, Any]:
    """What the run ended with: the result, the pieces by land, the tracks and the cards."""
    island = scenario.island
    return {
        "result": state.outcome.to_json() if state.outcome else {"result": "running", "reason": "", "turn": state.turn},
        "turn": state.turn,
        "lands": {
            island.lands[i]: {
                "pieces": describe(land), "presence": dict(land.presence), "defend": land.defend,
            }
            for i, land in enumerate(state.lands)
        },
        "fear": {
            "pool": state.fear.in_pool, "pool_size": state.fear.pool_size, "earned_total": state.fear.earned_total,
            "terror_level": min(state.fear.terror_level, 3), "unresolved": list(state.fear.earned),
            "resolved": list(state.fear.discard), "generated": state.fear.generated,
        },
        "blight": {"card": state.blight.card, "side": state.blight.side, "pool": state.blight.pool},
        "invader_board": {
            "deck": list(state.invaders.deck), "ravage": list(state.invaders.ravage),
            "build": list(state.invaders.build), "discard": list(state.invaders.discard),
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


@dataclass(frozen=True, slots=True)
class ReplayReport:
    identical: bool
    first_difference: str  # empty when identical


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    if not isinstance(trace, dict) or trace.get("format") != TRACE_FORMAT or trace.get("game") != "spirit-island":
        raise MalformedInputError(source, "$.format", f"not a Spirit Island invasion-oracle trace (expected format {TRACE_FORMAT!r})")
    if trace.get("format_version") != TRACE_VERSION:
        raise MalformedInputError(source, "$.format_version", f"this oracle reads version {TRACE_VERSION}, got {trace.get('format_version')!r}")
    for key in ("scenario", "rulings", "steps", "outcome", "opening"):
        if key not in trace:
            raise MalformedInputError(source, f"$.{key}", "is required")
    specs = [f"{k}={v}" for k, v in trace["rulings"].items()]
    scenario = scenario_from_document(trace["scenario"], f"{source}:$.scenario", specs)
    answers = [step["answer"] for step in trace["steps"] if step["request"]["request"] == "decision"]
    outcomes = [step["answer"] for step in trace["steps"] if step["request"]["request"] == "chance"]
    playthrough = run(scenario, ScriptedDecider(answers, label="trace decisions"), ScriptedChance(outcomes, label="trace chance"))
    fresh = _plain(trace_document(scenario, playthrough))
    for key in ("rulings", "opening"):
        if _plain(trace[key]) != fresh[key]:
            return ReplayReport(False, f"{key} differ")
    for i, (old, new) in enumerate(zip(trace["steps"], fresh["steps"], strict=False)):
        if _plain(old) != new:
            return ReplayReport(False, f"step {i + 1}: recorded {canonical_json(old)} but replay gives {canonical_json(new)}")
    if len(trace["steps"]) != len(fresh["steps"]):
        return ReplayReport(False, f"recorded {len(trace['steps'])} steps, replay gives {len(fresh['steps'])}")
    if _plain(trace["outcome"]) != fresh["outcome"]:
        return ReplayReport(False, "outcome differs")
    return ReplayReport(True, "")


def _plain(value: Any) -> Any:
    return json.loads(canonical_json(value))
