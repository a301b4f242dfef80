"""Blueprints: the places on spires and the hero where dice are loaded (seed 004, Blueprints).

A :class:`Slot` names one place: ``L-top.bp1`` (the first printed blueprint of the spire in
``L-top``), ``hero.bp2``, ``R-middle.free1`` (a die loaded ignoring the blueprint: Refractor,
Monolant), ``L-top.drill1`` (a created red blueprint from Drilling Outpost) or
``R-top.lattice1`` (a created wild blueprint from Lattice, one per adjacent spire). Each slot
holds one die. A slot accepts a die whose colour matches (``None``: any colour); a miss only on a
spire, never on the hero (seed 004, Apply Dice Step).

>>> Slot.parse("L-top.bp1")
Slot(space='L-top', kind='bp', index=1)
>>> str(Slot("hero", "bp", 2))
'hero.bp2'
>>> from invasion_oracle.model.cloudspire.dice import Colour, Face
>>> accepts(Slot("hero", "bp", 1), Colour.BLUE, Colour.BLUE, Face.MISS)
False
>>> accepts(Slot("L-top", "free", 1), None, Colour.RED, Face.MISS)
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from invasion_oracle.model.cloudspire.area import HERO, SPIRE_SPACES
from invasion_oracle.model.cloudspire.dice import Colour, Face
from invasion_oracle.model.core.frozen import quick_init

KINDS = ("bp", "free", "drill", "lattice")
_SLOT = re.compile(r"^(hero|[LR]-(?:top|middle|bottom))\.(bp|free|drill|lattice)([1-9][0-9]?)$")


@quick_init
@dataclass(frozen=True, slots=True, order=True)
class Slot:
    space: str
    kind: str
    index: int

    @staticmethod
    def parse(text: str) -> Slot:
        return _parse(text)

    def __str__(self) -> str:
        return f"{self.space}.{self.kind}{self.index}"

    @property
    def on_spire(self) -> bool:
        return self.space in SPIRE_SPACES


@lru_cache(maxsize=1024)
def _parse(text: str) -> Slot:
    """:meth:`Slot.parse`, kept: a search parses the same few slots at every step."""
    match = _SLOT.match(text)
    if match is None:
        raise ValueError(
            f"{text!r} is not a blueprint slot such as L-top.bp1, hero.bp2, R-middle.free1, L-top.drill1"
        )
    return Slot(match.group(1), match.group(2), int(match.group(3)))


def accepts(slot: Slot, wanted: Colour | None, colour: Colour, face: Face) -> bool:
    """Colours must match (a wild or ignored blueprint takes any); only spires accept misses."""
    if face is Face.MISS and slot.space == HERO:
        return False
    return wanted is None or wanted is colour
