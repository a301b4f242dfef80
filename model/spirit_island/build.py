"""Build (seed 002, Invader Phase 3b; research notes §3.4).

In each land of the card's terrain that holds any Invader (an Explorer is enough, damaged pieces
count), add one piece: a City if the land has more Towns than Cities, otherwise a Town. The
piece is new (no Town is upgraded). Build comes after Ravage, so a land emptied by Dahan does
not build. One land's Build never changes another's, so the order of lands does not matter.
"""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.model.spirit_island.invader_deck import InvaderCard
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import CITY, TOWN, Land, PieceKind


def build_targets(island: Island, lands: Sequence[Land], card: InvaderCard) -> tuple[int, ...]:
    """Lands of the card's terrain that hold Invaders, in island order."""
    return tuple(
        i
        for i in range(len(lands))
        if card.matches(island.terrain[i], island.coastal[i]) and lands[i].has_invaders
    )


def built_piece(land: Land) -> PieceKind:
    """What a Build adds to ``land``.

    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> built_piece(parse_land("E")), built_piece(parse_land("T@1")), built_piece(parse_land("T C"))
    (<PieceKind.TOWN: 'town'>, <PieceKind.CITY: 'city'>, <PieceKind.TOWN: 'town'>)
    """
    return CITY if land.town_count > land.city_count else TOWN
