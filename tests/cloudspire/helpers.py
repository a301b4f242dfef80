"""Small builders for Cloudspire tests: a described-state scenario, a scripted run, lookups.

The base state: the Harbor Keeper (Health 15, Strategy 2, Recovery 3, blueprint blue + yellow)
with the Harbor, Gale and Basalt factions allied, the Driftwood Leviathan as boss (no global
effect), every die in the pool, nothing in play, one round to play.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.scenario import Scenario, scenario_from_document
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.answers import FirstOutcome
from invasion_oracle.model.core.decisions import (
    DecisionRequest,
    FirstLegalDecider,
    ScriptedChance,
    ScriptedDecider,
)
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.events import Event


def doc(start: str = "round", rounds: int = 1, **state: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hero": "Harbor Keeper",
        "allied": ["Harbor", "Gale", "Basalt"],
        "boss": "Driftwood Leviathan",
    }
    base.update(state)
    return {"game": "cloudspire", "start": start, "rounds": rounds, "state": base}


def scenario(document: dict[str, Any], rulings: tuple[str, ...] = ()) -> Scenario:
    return scenario_from_document(document, "test.json", rulings)


def play(
    document: dict[str, Any],
    decisions: tuple[Any, ...] = (),
    chance: tuple[Any, ...] = (),
    rulings: tuple[str, ...] = (),
    *,
    then: str = "first-legal",
) -> tuple[Scenario, Playthrough[GameState]]:
    """Run with scripted decisions, then the first legal option (or nothing); scripted chance,
    then each request's first outcome (a miss on every colour but red)."""
    sc = scenario(document, rulings)
    decider = ScriptedDecider(list(decisions), then=FirstLegalDecider() if then == "first-legal" else None)
    return sc, run(sc, decider, ScriptedChance(list(chance), then=FirstOutcome(), label="test chance"))


def events(p: Playthrough[GameState], kind: str) -> list[Event]:
    return [e for e in p.events if e.kind == kind]


def asked(p: Playthrough[GameState], kind: str) -> list[tuple[Any, ...]]:
    """The options of every decision of ``kind`` that was asked."""
    return [
        s.request.options
        for s in p.steps
        if isinstance(s.request, DecisionRequest) and s.request.kind == kind
    ]


def zone(state: GameState, die: str) -> str:
    return state.die(die).zone.value


NO_POOL = {
    "dice": {
        "banished": [
            "Y1",
            "Y2",
            "Y3",
            "Y4",
            "G1",
            "G2",
            "G3",
            "G4",
            "B1",
            "B2",
            "B3",
            "B4",
            "P1",
            "P2",
            "P3",
            "P4",
            "R1",
        ]
    }
}


def only_pool(*dice: str, **more: Any) -> dict[str, Any]:
    """A ``dice`` entry leaving only ``dice`` in the pool (the rest banished), plus ``more`` zones."""
    listed = {d for v in more.values() for d in (v if isinstance(v, list) else v.keys())}
    rest = [d for d in NO_POOL["dice"]["banished"] if d not in dice and d not in listed]
    return {"banished": rest, **more}
