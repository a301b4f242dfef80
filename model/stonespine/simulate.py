"""Run a scenario through the oracle, and write or replay its trace.

A trace is the fixture other implementations run against: the scenario, every ruling's
reading, every request with its legal options and the answer given, every event, and the
outcome, all in canonical JSON. :func:`replay_trace` re-runs a trace's scenario with its
recorded answers and reports the first step where anything differs.
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
from model.stonespine.game import StonespineGame
from model.stonespine.heroes import COLORS
from model.stonespine.scenario import Scenario, scenario_from_document
from model.stonespine.state import GameState


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    game = StonespineGame(scenario.rulings, scenario.data)
    state, opening = game.start(scenario.initial)
    return play(game, state, decider or scenario.decider(), chance or scenario.chance(), opening=opening)


def outcome(state: GameState) -> dict[str, Any]:
    """What the run ended with, per player and for the hero cards."""
    players = []
    for p in state.players:
        players.append(
            {
                "name": p.name,
                "priority": p.priority,
                "defeated": [{"chamber": c.name, "hero": h.value} for c, h in p.defeated],
                "escaped": [h.value for h in p.escaped],
                "entered": p.entered,
                "gate_open": p.gate_open,
                "xp": p.xp,
                "trophies": [{"year": y, "value": v} for y, v in p.trophies],
                "demerits": [{"year": y, "value": v} for y, v in p.demerits],
                "guardian": p.guardian.to_json(),
                "placement": p.placement.to_json(),
            }
        )
    result: dict[str, Any] = {
        "year": state.year,
        "stage": state.stage.value,
        "players": players,
        "heroes": [{"color": c.value, "card": state.card(c).name, "health": state.health(c)} for c in COLORS],
    }
    if state.solo:
        result["jael"] = {
            "trophies": [{"year": y, "value": v} for y, v in state.jael.trophies],
            "xp": state.jael.xp,
        }
    if state.final_scores:
        result["final_scores"] = [s.to_json() for s in state.final_scores]
    return result


def trace_document(scenario: Scenario, playthrough: Playthrough[GameState]) -> dict[str, Any]:
    return {
        "format": TRACE_FORMAT,
        "format_version": TRACE_VERSION,
        "oracle_version": ORACLE_VERSION,
        "game": "stonespine",
        "scenario": scenario.document,
        "rulings": scenario.rulings.to_json(),
        "opening": list(playthrough.opening),
        "steps": list(playthrough.steps),
        "outcome": outcome(playthrough.final),
    }


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    return canonical_json(trace_document(scenario, playthrough), indent=1) + "\n"


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    trace = check_trace(trace, source, "stonespine")
    scenario = scenario_from_document(trace["scenario"], f"{source}:$.scenario", ruling_specs(trace))
    decisions, outcomes = recorded_answers(trace)
    playthrough = run(
        scenario,
        ScriptedDecider(decisions, label="trace decisions"),
        ScriptedChance(outcomes, label="trace dice"),
    )
    fresh = trace_document(scenario, playthrough)
    fresh["scenario"] = trace["scenario"]
    return compare(trace, fresh)


def summary(playthrough: Playthrough[GameState], initial: GameState) -> str:
    """A one-line fingerprint of a run's outcome: what differs between readings shows here.

    Per player: defeats (hero@chamber), escapes (hero@chamber, reason), XP, trophies,
    demerits, guardian moves and changed element spaces; then hero health and Jael.
    """
    parts = []
    for before, after in zip(initial.players, playthrough.final.players, strict=True):
        name = after.name
        defeats = [
            f"{e.get('hero')}@{e.get('chamber')}"
            for e in playthrough.events
            if e.kind == "hero_defeated" and e.get("player") == name
        ]
        escapes = [
            f"{e.get('hero')}@{e.get('chamber') or 'entrance'}({e.get('reason')})"
            for e in playthrough.events
            if e.kind == "hero_escaped" and e.get("player") == name
        ]
        bits = [
            f"defeated {' '.join(defeats) or '-'}",
            f"escaped {' '.join(escapes) or '-'}",
            f"xp {after.xp}",
        ]
        if after.guardian.markers != (0, 0):
            bits.append(f"levels {after.guardian.markers[0]}/{after.guardian.markers[1]}")
        bits.append("trophies " + (" ".join(f"y{y}:{v}" for y, v in after.trophies) or "-"))
        bits.append("demerits " + (" ".join(f"y{y}:{v}" for y, v in after.demerits) or "-"))
        moves = [
            e.get("chamber")
            for e in playthrough.events
            if e.kind == "guardian_moved" and e.get("player") == name
        ]
        if moves:
            bits.append("guardian moved to " + " ".join(moves))
        changed = _changed_spaces(before, after)
        if changed:
            bits.append("spaces " + " ".join(changed))
        parts.append(f"{name}: " + "; ".join(bits))
    heroes = " ".join(f"{c.value}={playthrough.final.health(c)}" for c in COLORS)
    parts.append(f"health {heroes}")
    if playthrough.final.solo:
        parts.append(
            "Jael trophies " + (" ".join(f"y{y}:{v}" for y, v in playthrough.final.jael.trophies) or "-")
        )
    return " | ".join(parts)


def _changed_spaces(before: Any, after: Any) -> list[str]:
    out: list[str] = []
    if before.dungeon.rows != after.dungeon.rows:
        return out
    for cell in after.dungeon.cells():
        old, new = before.dungeon.chamber(cell), after.dungeon.chamber(cell)
        for i, (a, b) in enumerate(zip(old.spaces, new.spaces, strict=True)):
            if a != b:
                out.append(f"{cell.name}:{i + 1} {str(a) or 'empty'}->{str(b) or 'empty'}")
    return out
