"""Small builders for Stonespine test scenarios."""

from __future__ import annotations

import copy
from typing import Any

from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.events import Event
from invasion_oracle.model.stonespine.scenario import Scenario, scenario_from_document
from invasion_oracle.model.stonespine.simulate import run
from invasion_oracle.model.stonespine.state import GameState


def one_player(
    rows: list[list[str]],
    *,
    year: int,
    entrance: str = "A",
    exit: str = "A",
    guardian: str = "Gorgon",
    levels: tuple[int, int] = (0, 0),
    guardians: list[str] | None = None,
    minions: list[str] | None = None,
    dice: list[str] | None = None,
    decisions: list[Any] | None = None,
    heroes: dict[str, str] | None = None,
    rulings: dict[str, str] | None = None,
    xp: int = 0,
    **extra: Any,
) -> dict[str, Any]:
    """A one-player Invasion scenario: scripted dice then the first face; scripted decisions
    then the first legal option."""
    player: dict[str, Any] = {
        "name": "Ann",
        "guardian": guardian,
        "levels": list(levels),
        "xp": xp,
        "dungeon": {"entrance": entrance, "exit": exit, "rows": rows},
        "placement": {"guardians": guardians or [], "minions": minions or []},
    }
    doc: dict[str, Any] = {
        "game": "stonespine",
        "year": year,
        "players": [player],
        "dice": {"script": dice or [], "then": "first-legal"},
        "decisions": {"script": decisions or [], "then": "first-legal"},
    }
    if heroes:
        doc["heroes"] = heroes
    if rulings:
        doc["rulings"] = rulings
    doc.update(extra)
    return doc


def load(doc: dict[str, Any], *specs: str) -> Scenario:
    return scenario_from_document(copy.deepcopy(doc), "test.json", specs)


def play(doc: dict[str, Any], *specs: str) -> Playthrough[GameState]:
    return run(load(doc, *specs))


def events(playthrough: Playthrough[GameState], kind: str) -> list[Event]:
    return [e for e in playthrough.events if e.kind == kind]


def first(playthrough: Playthrough[GameState], kind: str, **match: Any) -> Event:
    for e in events(playthrough, kind):
        if all(e.get(k) == v for k, v in match.items()):
            return e
    raise AssertionError(f"no {kind} event with {match}; events: {[x.to_json() for x in playthrough.events]}")
