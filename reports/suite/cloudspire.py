"""Cloudspire's cases: rule by rule (20 Strong: Cloudspire Rulebook), the rulings' readings, the searches' answers.

Each case is a small described state (the Harbor Keeper with Harbor, Gale and Basalt allied, the
Driftwood Leviathan as boss, the dice not listed banished) started as close as the format allows
to the rule under test (``round``, ``strategy``, ``load``, ``fire`` or ``resolve``), one round
long, with the decisions and rolls that matter scripted and the first legal option after them.

Projections: :data:`PROJECTIONS`, each with what it shows (their exact shape: ``docs/fixtures.md``).
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.area import LANES, SPIRE_SPACES
from invasion_oracle.model.cloudspire.outcome import piles_json
from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.reports.suite.casefile import game_suite
from invasion_oracle.reports.suite.cloudspire_conflict import conflict_enemies, conflict_items
from invasion_oracle.reports.suite.cloudspire_factions import GAME, faction_rows
from invasion_oracle.reports.suite.common import result

# -- projections -------------------------------------------------------------------------------------


def _lanes(scenario: Any, state: Any, argument: str) -> Any:
    game = scenario.game()
    return {
        lane: {"stack": list(stack), "damage": game.damage_taken(state, stack[0]) if stack else 0}
        for lane, stack in zip(LANES, state.lanes, strict=True)
    }


def _dice(scenario: Any, state: Any, argument: str) -> Any:
    def where(d: Any) -> str:
        face = f" {d.face.value}" if d.face is not None else ""
        place = f" @{d.slot or d.card}" if (d.slot or d.card) else ""
        return f"{d.zone.value}{face}{place}"

    return {d.name: where(d) for d in state.dice}


def _hero(scenario: Any, state: Any, argument: str) -> Any:
    return fields_json(state, "health", "strategy", "recovery", "health_lost", "health_gained", "defeated")


def _spires(scenario: Any, state: Any, argument: str) -> Any:
    held: dict[str, list[str]] = {}
    for die in state.dice:
        if die.slot:
            held.setdefault(die.slot.split(".")[0], []).append(die.describe())
    return {
        space: {"card": placed.card, "defeated": placed.defeated, "dice": sorted(held.get(space, []))}
        for space, placed in zip(SPIRE_SPACES, state.spires, strict=True)
        if placed is not None
    }


def _piles(scenario: Any, state: Any, argument: str) -> Any:
    return piles_json(state) | {"boss_added": state.boss_added}


PROJECTIONS = {  # what each shows: cases/cloudspire.toml, [projections]
    "lanes": _lanes,
    "dice": _dice,
    "hero": _hero,
    "spires": _spires,
    "piles": _piles,
    "result": result(GAME, lambda s: {"result": "running", "reason": "", "round": s.round}),
}

SUITE = game_suite(GAME, PROJECTIONS, (), (faction_rows, conflict_enemies, conflict_items))
