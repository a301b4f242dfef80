"""Invader Action cards, Invader Events, goals and effects: the card text as data.

The printed cards are not in the sources (research notes §3.9.5), so the bundled cards are a
small example set marked ``assumed``; a data file replaces them. A card's shape follows the seed
(Invader Turn, Steps 1-3): two actions, each naming the action, the die face slid into that row
and ``lowest`` / ``highest``; a goal checked at the start of the next Invader turn; the reward
for meeting it; and the deck (one, two or three masks) the next card is drawn from.

Goals and effects are small tagged values, so new kinds can be added (see
:mod:`invasion_oracle.model.vulketh.effects`) without touching the cards' format:

>>> Goal.from_json({"goal": "occupied_hexes", "at_least": 4}).describe()
'Invaders in at least 4 hexes'
>>> Effect.from_json({"effect": "grow", "amount": 2, "direction": "highest"}).describe()
'GROW 2 highest'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.provenance import Provenance

DIRECTIONS = ("lowest", "highest")
RESOURCE_KINDS = ("food", "wood", "stone")


@dataclass(frozen=True, slots=True)
class Goal:
    """A condition on the board, checked at the start of the next Invader turn."""

    kind: str
    amount: int = 0
    hex: int = 0

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Goal:
        return Goal(raw["goal"], raw.get("at_least", raw.get("at_most", 0)), raw.get("hex", 0))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"goal": self.kind}
        if self.kind in ("occupied_hexes", "invaders_on_map", "resources"):
            out["at_least"] = self.amount
        if self.kind == "player_members":
            out["at_most"] = self.amount
        if self.kind == "hex_occupied":
            out["hex"] = self.hex
        return out

    def describe(self) -> str:
        return {
            "none": "no goal",
            "occupied_hexes": f"Invaders in at least {self.amount} hexes",
            "invaders_on_map": f"at least {self.amount} Invaders on the map",
            "hex_occupied": f"Invaders in hex {self.hex}",
            "player_members": f"the player has at most {self.amount} members on the map",
            "resources": f"the Invaders hold at least {self.amount} resources",
        }.get(self.kind, self.kind)


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of an Invader Event or a goal reward; ``kind`` names its handler."""

    kind: str
    amount: int = 0
    direction: str = ""
    power: str = ""
    face: str = ""
    action: str = ""
    resource: str = ""

    @staticmethod
    def from_json(raw: dict[str, Any]) -> Effect:
        return Effect(
            raw["effect"],
            raw.get("amount", 0),
            raw.get("direction", ""),
            raw.get("power", ""),
            raw.get("face", ""),
            raw.get("action", ""),
            raw.get("resource", ""),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"effect": self.kind}
        for key in ("amount", "direction", "power", "face", "action", "resource"):
            value = getattr(self, key)
            if value:
                out[key] = value
        return out

    def describe(self) -> str:
        words = {
            "gain_resources": f"Invaders gain {self.amount} resources",
            "grow": f"GROW {self.amount} {self.direction}",
            "move": f"MOVE {self.amount} {self.direction}",
            "lead": "LEAD (every unlocked Warlord power)",
            "power": f"Warlord power {self.power}",
            "lose_points": f"the player loses {self.amount} points",
            "remove_warlord": "the player removes a Warlord",
            "remove_invaders": f"remove {self.amount} Invaders from the {self.direction} hexes",
            "player_resources": f"the player takes {self.amount} {self.resource}",
            "slide": f"slide a {self.face} into {self.action}",
        }
        return words.get(self.kind, self.kind)


@dataclass(frozen=True, slots=True)
class InvaderAction:
    """One action printed on an Invader Action card: slide ``face`` into ``action``'s row."""

    action: str
    face: str
    direction: str  # "lowest" / "highest" (GATHER and LEAD ignore it)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "face": self.face, "direction": self.direction}

    def describe(self) -> str:
        where = f" {self.direction}" if self.action in ("GROW", "MOVE") else ""
        return f"{self.action}{where} ({self.face})"


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    deck: int
    actions: tuple[InvaderAction, InvaderAction]
    goal: Goal
    reward: tuple[Effect, ...]
    next_deck: int
    provenance: Provenance
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "deck": self.deck,
            "actions": [a.to_json() for a in self.actions],
            "goal": self.goal.to_json(),
            "reward": [e.to_json() for e in self.reward],
            "next_deck": self.next_deck,
            "provenance": self.provenance.value,
            "source": self.source,
        }


@dataclass(frozen=True, slots=True)
class EventCard:
    id: str
    name: str
    effects: tuple[Effect, ...]
    provenance: Provenance
    source: str

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "effects": [e.to_json() for e in self.effects],
            "provenance": self.provenance.value,
            "source": self.source,
        }
