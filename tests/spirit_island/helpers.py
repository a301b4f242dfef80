"""Small builders for Spirit Island tests: a scenario document with defaults, a run, lookups."""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import FirstLegalDecider, ScriptedChance, ScriptedDecider
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.spirit_island.pieces import describe
from invasion_oracle.model.spirit_island.scenario import Scenario, scenario_from_document
from invasion_oracle.model.spirit_island.simulate import run
from invasion_oracle.model.spirit_island.state import IslandState


def doc(**fields: Any) -> dict[str, Any]:
    """A scenario document: board A, no pieces, one Spirit far away, a plain Blight card."""
    base: dict[str, Any] = {
        "game": "spirit-island",
        "island": {"boards": ["A"]},
        "pieces": "empty",
        "blight": {"card": "Plain Blight"},
        "fear": {
            "deck": ["Blank Fear"] + ["draw"] * 8,
            "cards": [
                "Blank Fear",
                "Wary Settlers",
                "Coastal Flight",
                "Halted Expansion",
                "Crumbling Outposts",
                "Dahan Raid",
                "Rising Dread",
                "Stalled Ravage",
                "Frail Outposts",
                "Scattered Explorers",
            ],
        },
        "invader_deck": ["3JS", "3MW"],  # explores never touch the mountain lands A1 and A6
    }
    base.update(fields)
    return base


def scenario(document: dict[str, Any], rulings: tuple[str, ...] = ()) -> Scenario:
    return scenario_from_document(document, "test.json", rulings)


def play(
    document: dict[str, Any],
    decisions: tuple[Any, ...] = (),
    chance: tuple[Any, ...] = (),
    rulings: tuple[str, ...] = (),
) -> tuple[Scenario, Playthrough[IslandState]]:
    """Run with scripted answers, then the first legal option; chance must be scripted."""
    sc = scenario(document, rulings)
    playthrough = run(
        sc,
        ScriptedDecider(list(decisions), then=FirstLegalDecider()),
        ScriptedChance(list(chance), label="test chance"),
    )
    return sc, playthrough


def pieces(sc: Scenario, state: IslandState, name: str) -> str:
    return describe(state.lands[sc.island.index(name)])


def events(playthrough: Playthrough[IslandState], kind: str) -> list[Event]:
    return [e for e in playthrough.events if e.kind == kind]


def asked(playthrough: Playthrough[IslandState], kind: str) -> list[tuple[Any, ...]]:
    """The options of every decision of ``kind`` that was asked."""
    from invasion_oracle.model.core.decisions import DecisionRequest

    return [
        s.request.options
        for s in playthrough.steps
        if isinstance(s.request, DecisionRequest) and s.request.kind == kind
    ]
