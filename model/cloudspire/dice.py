"""The 20 Strong dice: 17 unit dice in five colours, their faces, and the zones a die can be in.

Seed 004, Components and Setup step 1: the hero gathers the 17 unit dice into the dice pool. The
colours, counts and faces are not in the seed; the bundled data takes them from the research
notes (§4.2, three fan codebases agree) and marks them ``assumed``. Dice are named by colour
letter and number (``Y1`` .. ``Y4``, ``G1``, ``B1``, ``P1``, ``R1``), in a fixed order.

>>> Colour.parse("b")
<Colour.BLUE: 'blue'>
>>> die_names({Colour.YELLOW: 2, Colour.RED: 1})
('Y1', 'Y2', 'R1')
>>> colour_of("P3")
<Colour.PURPLE: 'purple'>
"""

from __future__ import annotations

import enum
import re
from functools import cache


class Colour(enum.StrEnum):
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"
    PURPLE = "purple"
    RED = "red"

    @property
    def letter(self) -> str:
        return self.value[0].upper()

    @staticmethod
    def parse(text: str) -> Colour:
        """A colour from its name or letter (any case)."""
        return _colour(text)


@cache
def _colour(text: str) -> Colour:
    lowered = text.strip().lower()
    for colour in Colour:
        if lowered in (colour.value, colour.value[0]):
            return colour
    raise ValueError(f"unknown die colour {text!r}; use yellow, green, blue, purple or red")


COLOURS: tuple[Colour, ...] = tuple(Colour)
BY_LETTER = {c.letter: c for c in Colour}


class Face(enum.StrEnum):
    """What a rolled die shows: a miss, a hit (1 damage) or a crit (``crit_damage``)."""

    MISS = "miss"
    HIT = "hit"
    CRIT = "crit"

    @property
    def is_hit(self) -> bool:
        return self is not Face.MISS


class Zone(enum.StrEnum):
    """Where a unit die is (research §4.4; seed 004, Table Setup Diagram and Apply Dice Step)."""

    POOL = "pool"
    COMMITTED = "committed"  # committed to the Engagement; has a face once rolled
    LOADED = "loaded"  # on a blueprint (or an ignored-blueprint place) of a spire or the hero
    APPLIED = "applied"  # on an enemy, its damage counting against the enemy's Health
    EXHAUSTED = "exhausted"
    BANISHED = "banished"


_DIE = re.compile(r"^([YGBPR])([1-9][0-9]?)$")


def die_names(counts: dict[Colour, int]) -> tuple[str, ...]:
    """Every die's name, colours in :data:`COLOURS` order."""
    return tuple(f"{c.letter}{i}" for c in COLOURS for i in range(1, counts.get(c, 0) + 1))


@cache
def colour_of(die: str) -> Colour:
    match = _DIE.match(die)
    if match is None:
        raise ValueError(f"{die!r} is not a die name such as B2 (colour letter Y/G/B/P/R and a number)")
    return BY_LETTER[match.group(1)]


@cache
def die_order(die: str) -> tuple[int, int]:
    """Sort key: colour order, then number."""
    return COLOURS.index(colour_of(die)), int(die[1:])
