"""Seeded random dungeons for benchmarks, agreement tests and the escape-path search.

Door patterns and element frequencies follow the base deck's statistics in the research notes
(``shared/research/stonespine.md``, "Chamber deck statistics"): the same counts, not the cards.
Same seed, same dungeon.
"""

from __future__ import annotations

import copy
import functools
import random
from typing import Any

# (pattern, cave count, stone count) from the research notes' door-pattern table.
DOOR_PATTERNS = {
    "BL": (3, 5),
    "BLR": (4, 4),
    "BR": (4, 1),
    "LR": (5, 5),
    "T": (5, 0),
    "TB": (4, 4),
    "TBL": (4, 14),
    "TBLR": (5, 0),
    "TBR": (4, 5),
    "TL": (4, 4),
    "TLR": (5, 3),
    "TR": (3, 5),
}
ELEMENT_WEIGHTS = {
    "slime": 34,
    "ooze": 34,
    "gnoll": 23,
    "goblin": 22,
    "kobold": 19,
    "+1": 18,
    "chest": 18,
    "spike": 7,
    "fire": 7,
    "bear": 6,
    "pit": 6,
    "blade": 5,
    "-1": 6,
    "+3": 2,
    "+2": 1,
    "-2": 1,
    "-3": 1,
}
ELEMENTS_PER_CARD = {0: 1, 1: 8, 2: 72, 3: 17, 4: 2}


def random_chamber(rng: random.Random, *, open_doors: float = 0.0) -> str:
    """One chamber in compact form; ``open_doors`` is the chance to add each missing doorway."""
    kind = rng.choice(("cave", "stone"))
    patterns = [(p, counts[0 if kind == "cave" else 1]) for p, counts in DOOR_PATTERNS.items()]
    doors = set(rng.choices([p for p, _ in patterns], weights=[w for _, w in patterns])[0])
    for side in "TBLR":
        if side not in doors and rng.random() < open_doors:
            doors.add(side)
    count = rng.choices(list(ELEMENTS_PER_CARD), weights=list(ELEMENTS_PER_CARD.values()))[0]
    elements = rng.choices(list(ELEMENT_WEIGHTS), weights=list(ELEMENT_WEIGHTS.values()), k=count)
    return " ".join([kind, "".join(s for s in "TBLR" if s in doors), *elements])


def random_dungeon(seed: int, rows: int = 4, columns: int = 4, *, open_doors: float = 0.0) -> dict[str, Any]:
    """A dungeon document (``entrance``, ``exit``, ``rows``); the entrance chamber opens upward."""
    rng = random.Random(seed)
    grid = [[random_chamber(rng, open_doors=open_doors) for _ in range(columns)] for _ in range(rows)]
    entrance = rng.randrange(1, columns - 1) if columns > 2 else 0
    words = grid[0][entrance].split()
    if "T" not in words[1]:
        words[1] = "T" + words[1]
        grid[0][entrance] = " ".join(words)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return {"entrance": letters[entrance], "exit": letters[rng.randrange(columns)], "rows": grid}


def scenario_document(
    dungeon: dict[str, Any],
    *,
    year: int,
    guardian: str = "Dragon",
    levels: tuple[int, int] = (0, 0),
    placement: dict[str, list[str]] | None = None,
    heroes: dict[str, str] | None = None,
    health_bonus: dict[str, int] | None = None,
    rulings: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A one-player Invasion scenario around ``dungeon``."""
    player: dict[str, Any] = {"name": "Ann", "guardian": guardian, "levels": list(levels), "dungeon": dungeon}
    player["placement"] = placement or {"guardians": ["A1"], "minions": []}
    doc: dict[str, Any] = {"game": "stonespine", "year": year, "players": [player]}
    if heroes:
        doc["heroes"] = heroes
    if health_bonus:
        doc["health_bonus"] = health_bonus
    if rulings:
        doc["rulings"] = rulings
    return doc


def thin_elements(dungeon: dict[str, Any], keep: float, seed: int) -> dict[str, Any]:
    """``dungeon`` with each printed element kept with chance ``keep`` (seeded: the same every run)."""
    if keep >= 1:
        return dungeon
    rng = random.Random(seed * 7919 + 17)
    rows = [
        [" ".join(text.split()[:2] + [e for e in text.split()[2:] if rng.random() < keep]) for text in row]
        for row in dungeon["rows"]
    ]
    return {**dungeon, "rows": rows}


def study_document(
    rows: int,
    columns: int,
    *,
    seed: int = 0,
    year: int = 4,
    minions: int = 3,
    bonus: int = 2,
    elements: float = 1.0,
    open_doors: float = 0.3,
    guardian: str = "Gorgon",
) -> dict[str, Any]:
    """A study grid: the benchmarks' and limit tests' family of one-player scenarios.

    A ``rows`` x ``columns`` dungeon generated from the base deck's statistics (each missing
    doorway opened with chance ``open_doors``, each printed element kept with chance
    ``elements``), the ``guardian`` levelled just enough to unlock ``minions`` minions, the
    first-game heroes (Thief, Cleric, Barbarian) with ``bonus`` extra health each, and the
    guardian and minions placed in the first chamber. Same arguments, same document (a fresh copy
    of the one made the first time: finding the guardian's levels loads the scenario once per
    level pair tried, and tests and benchmarks ask for the same grids again and again).
    """
    return copy.deepcopy(
        _study_document((rows, columns, seed, year, minions, bonus, elements, open_doors, guardian))
    )


_StudyArguments = tuple[int, int, int, int, int, int, float, float, str]


@functools.lru_cache(maxsize=64)
def _study_document(arguments: _StudyArguments) -> dict[str, Any]:
    """:func:`study_document`, made: a scenario loaded per level pair tried."""
    from invasion_oracle.model.core.errors import MalformedInputError
    from invasion_oracle.model.stonespine.scenario import scenario_from_document

    rows, columns, seed, year, minions, bonus, elements, open_doors, guardian = arguments

    dungeon = thin_elements(random_dungeon(seed, rows, columns, open_doors=open_doors), elements, seed)
    first = f"{dungeon['entrance']}1"
    levels = sorted(((left, right) for left in range(5) for right in range(5)), key=lambda lr: (sum(lr), lr))
    for left, right in levels:
        doc = scenario_document(
            dungeon,
            year=year,
            guardian=guardian,
            levels=(left, right),
            placement={"guardians": [first], "minions": [first] * minions},
            heroes={"black": "Thief", "purple": "Cleric", "red": "Barbarian"},
            health_bonus={"black": bonus, "purple": bonus, "red": bonus},
        )
        try:
            scenario = scenario_from_document(doc, "study grid")
        except MalformedInputError as err:
            if ".dungeon" in err.path:
                raise  # the grid itself is refused (say, more rows than the year has built)
            continue  # these levels do not fit (too few minions, an ability not modelled, ...)
        if scenario.initial.players[0].guardian.minions_unlocked == minions:
            return doc
    raise ValueError(f"{guardian} cannot unlock exactly {minions} minions")
