"""Dungeons the placement tests and the bench share (one copy of each).

* :data:`SMALL`: a 3x2 study grid in year 2, best 2 of 2 with 37 tied classes; the oracle baseline
  runs on it in full within seconds.
* :data:`NEAR_UNIQUE`: a 4-column, 3-row study grid in year 3 whose optimum is below the maximum
  and nearly unique (2 of 3 heroes, 3 tied placements), found among generated dungeons.
* :data:`MIRROR`: a dungeon that is its own mirror image (the search merges mirrored placements).

``SMALL`` and ``NEAR_UNIQUE`` are keyword arguments of
:func:`invasion_oracle.solver.stonespine.generate.study_document`; ``MIRROR`` is a scenario document.
"""

from __future__ import annotations

from typing import Any

SMALL: dict[str, Any] = {"rows": 2, "columns": 3, "seed": 1, "year": 2, "minions": 2, "bonus": 3}
NEAR_UNIQUE: dict[str, Any] = {
    "rows": 3,
    "columns": 4,
    "seed": 13,
    "year": 3,
    "minions": 3,
    "bonus": 4,
    "elements": 0.5,
    "guardian": "Dragon",
}
MIRROR: dict[str, Any] = {
    "game": "stonespine",
    "year": 2,
    "heroes": {"black": "Thief", "purple": "Cleric", "red": "Barbarian"},
    "players": [
        {
            "name": "Ann",
            "guardian": "Gorgon",
            "levels": [1, 1],
            "dungeon": {
                "entrance": "B",
                "exit": "B",
                "rows": [
                    ["cave BR kobold", "cave TBLR", "cave BL kobold"],
                    ["cave TR spike", "cave TLR", "cave TL spike"],
                ],
            },
            "placement": {"guardians": ["B1"], "minions": ["B1", "B1"]},
        }
    ],
}
