"""Hero cards and their abilities (seed 000, "Heroes" and "Clarifications").

Each game reveals three hero cards, one per colour; every hero figure of a colour uses that
colour's card. Abilities are data:

* red ``extra-damage``: ``amount`` more damage for each matching element (or minion) in a
  chamber it is dealt damage in (Barbarian: +1 per trap);
* purple ``no-damage-first``: no damage in the first applicable chamber that matches
  (Cleric: a positive reputation star); chambers with a defeated hero or a guardian never count;
* black ``destroy``: places rubble over up to ``amount`` matching elements in each chamber it
  is dealt damage in (the player picks which).

``matches`` holds tags: element names (``kobold``), categories (``monster``, ``trap``, ``chest``,
``star+``, ``star-``, ``rubble``), ``minion``, or a chamber type (``cave``, ``stone``).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.provenance import Provenance


class HeroColor(enum.StrEnum):
    BLACK = "black"
    PURPLE = "purple"
    RED = "red"


COLORS = (HeroColor.BLACK, HeroColor.PURPLE, HeroColor.RED)


class AbilityType(enum.StrEnum):
    EXTRA_DAMAGE = "extra-damage"
    NO_DAMAGE_FIRST = "no-damage-first"
    DESTROY = "destroy"
    NONE = "none"


ABILITY_COLOR = {
    AbilityType.EXTRA_DAMAGE: HeroColor.RED,
    AbilityType.NO_DAMAGE_FIRST: HeroColor.PURPLE,
    AbilityType.DESTROY: HeroColor.BLACK,
}

KNOWN_TAGS = frozenset(
    {
        "gnoll",
        "goblin",
        "kobold",
        "ooze",
        "slime",
        "monster",
        "bear",
        "blade",
        "fire",
        "pit",
        "spike",
        "trap",
        "chest",
        "star",
        "star+",
        "star-",
        "rubble",
        "troll-rubble",
        "pact",
        "minion",
        "cave",
        "stone",
    }
)


@dataclass(frozen=True, slots=True)
class HeroAbility:
    type: AbilityType
    matches: frozenset[str] = frozenset()
    amount: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type.value, "matches": sorted(self.matches), "amount": self.amount}

    def describe(self) -> str:
        what = "/".join(sorted(self.matches))
        if self.type is AbilityType.EXTRA_DAMAGE:
            return f"+{self.amount} damage per {what}"
        if self.type is AbilityType.NO_DAMAGE_FIRST:
            return f"no damage in first chamber with {what}"
        if self.type is AbilityType.DESTROY:
            return f"destroys {self.amount} {what} per chamber"
        return "none"


@dataclass(frozen=True, slots=True)
class HeroCard:
    """A hero card: name, colour, printed health and ability, with provenance per field."""

    name: str
    color: HeroColor
    health: int
    ability: HeroAbility
    provenance: tuple[tuple[str, Provenance], ...] = ()
    source: str = ""

    def provenance_of(self, field: str) -> Provenance:
        return dict(self.provenance).get(field, Provenance.ASSUMED)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "color": self.color.value,
            "health": self.health,
            "ability": self.ability.to_json(),
            "provenance": {k: v.value for k, v in self.provenance},
            "source": self.source,
        }
