"""The Invader deck and Invader board (seed 002, Invader Phase 3 and 4; research notes §2.2).

Cards are named by stage and terrain letters: ``1J`` (Stage I Jungle), ``2W`` (Stage II Wetland,
escalation flag), ``2C`` (Stage II Coastal Lands), ``3JS`` (Stage III Jungle + Sands). A land
matches a card when its terrain is on the card, or, for the coastal card, when it is coastal.

The deck is a tuple of entries, top first: a card id when the scenario fixes it, or
``stage-N`` when the card is unknown. Revealing an unknown entry is a chance draw among the
Stage N cards not seen anywhere yet (in the deck, on the board or in the discard); a uniform
draw is the same as shuffling each stage and setting one card aside unseen, which is how the
standard deck is built (3 + 4 + 5 of 4 / 5 / 6 cards).

The board has three action spaces (Ravage, Build, Explore). A space may hold several cards;
they resolve oldest first, each with its own actions, and advance together.
"""

from __future__ import annotations

from dataclasses import dataclass

from invasion_oracle.model.core.frozen import quick_init, replace
from invasion_oracle.model.spirit_island.effects import Effect
from invasion_oracle.model.spirit_island.pieces import Terrain

TERRAIN_LETTER = {Terrain.JUNGLE: "J", Terrain.MOUNTAIN: "M", Terrain.SANDS: "S", Terrain.WETLAND: "W"}
STAGE_PREFIX = "stage-"


@dataclass(frozen=True, slots=True)
class InvaderCard:
    id: str
    stage: int
    terrains: tuple[Terrain, ...]
    coastal: bool = False
    escalation: bool = False  # printed flag on single-terrain Stage II cards

    def matches(self, terrain: Terrain, coastal: bool) -> bool:
        """Does a land of ``terrain`` (``coastal`` or not) match this card?

        >>> InvaderCard("2C", 2, (), coastal=True).matches(Terrain.JUNGLE, True)
        True
        >>> InvaderCard("3JS", 3, (Terrain.JUNGLE, Terrain.SANDS)).matches(Terrain.WETLAND, True)
        False
        """
        return terrain in self.terrains or (self.coastal and coastal)

    def escalates(self, coastal_flag_reading: str) -> bool:
        """Whether the card shows the escalation flag (ruling ``SI-COASTAL-FLAG`` for ``2C``)."""
        if self.coastal and self.stage == 2:
            return coastal_flag_reading == "flag"
        return self.escalation

    def describe(self) -> str:
        what = "Coastal Lands" if self.coastal else "+".join(t.value.capitalize() for t in self.terrains)
        return f"{self.id} (Stage {'I' * self.stage if self.stage < 4 else self.stage} {what})"


@dataclass(frozen=True, slots=True)
class Adversary:
    """An Adversary, reduced to what the Invader Phase needs: its Escalation effects."""

    name: str
    escalation: tuple[Effect, ...]
    source: str = ""


def stage_entry(stage: int) -> str:
    return f"{STAGE_PREFIX}{stage}"


def entry_stage(entry: str) -> int | None:
    """The stage of an unknown deck entry, or ``None`` for a known card id.

    >>> entry_stage("stage-2"), entry_stage("2W")
    (2, None)
    """
    if entry.startswith(STAGE_PREFIX):
        return int(entry[len(STAGE_PREFIX) :])
    return None


@quick_init
@dataclass(frozen=True, slots=True)
class InvaderBoard:
    """The deck (top first) and the cards in each action space and the discard."""

    deck: tuple[str, ...]
    ravage: tuple[str, ...] = ()
    build: tuple[str, ...] = ()
    explore: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()

    def seen(self) -> frozenset[str]:
        """Card ids known anywhere (so a chance draw cannot produce them again)."""
        known = [e for e in self.deck if entry_stage(e) is None]
        return frozenset((*known, *self.ravage, *self.build, *self.explore, *self.discard))

    def advance(self) -> InvaderBoard:
        """Slide the cards left (seed 002, Invader Phase 4): Ravage to the discard, Build to
        Ravage, Explore to Build."""
        return replace(
            self, discard=self.discard + self.ravage, ravage=self.build, build=self.explore, explore=()
        )


def draw_options(board: InvaderBoard, stage: int, cards: tuple[InvaderCard, ...]) -> tuple[str, ...]:
    """The cards an unknown Stage ``stage`` entry can turn out to be."""
    seen = board.seen()
    return tuple(c.id for c in cards if c.stage == stage and c.id not in seen)
