"""A deliberately broken Spirit Island implementation: the oracle with faults the runner must catch.

* Build always adds a Town, never a City (the rule "more Towns than Cities: a City" is missing);
* destroyed Towns generate no Fear (a data override slipped into every Spirit Island case);
* Defend is ignored in a Ravage;
* it crashes on ``spirit-island/event/omens``, hangs on ``spirit-island/event/peaceful-season`` and
  prints garbage for ``spirit-island/event/settlers-arrive``.

``tests/conform/test_broken_adapters.py`` names the cases that must fail.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import invasion_oracle.model.spirit_island.game as game
from invasion_oracle.model.spirit_island.pieces import Land, PieceKind, PieceStats
from invasion_oracle.model.spirit_island.ravage import strike_parts
from invasion_oracle.reports.conform.adapter import Fault, levels_from_argv, serve


def _always_a_town(land: Land) -> PieceKind:
    return PieceKind.TOWN


def _no_defend(land: Land, stats: PieceStats, threshold: int) -> Any:
    return strike_parts(dataclasses.replace(land, defend=0), stats, threshold)


def _towns_without_fear(message: dict[str, Any]) -> dict[str, Any]:
    if message["game"] != "spirit-island":
        return message
    scenario = dict(message["scenario"])
    data = dict(scenario.get("data", {}))
    data["pieces"] = {**data.get("pieces", {}), "town": {"fear": 0}}
    scenario["data"] = data
    return {**message, "scenario": scenario}


MISBEHAVE = {
    "spirit-island/event/omens": "crash",
    "spirit-island/event/peaceful-season": "hang",
    "spirit-island/event/settlers-arrive": "garbage",
}

FAULTS = (
    Fault("misbehaves", misbehave=lambda message: MISBEHAVE.get(message["id"], "")),
    Fault("Towns give no Fear", before=_towns_without_fear),
)

if __name__ == "__main__":
    game.built_piece = _always_a_town  # the engine's Build rule, broken
    game.strike_parts = _no_defend  # Defend forgotten (the game's Ravage strikes through strike_parts)
    sys.exit(serve(name="broken-spirit-island", faults=FAULTS, levels=levels_from_argv()))
