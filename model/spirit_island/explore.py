"""Explore (seed 002, Invader Phase 3c; research notes §3.5).

Turn up the top Invader card (none left: time has run out and the players lose). With an
Adversary and a flagged card, Escalation comes first (ruling ``SI-ESCALATION-TIMING``). Then add
exactly one Explorer to every land of the card's terrain that holds a Town or City, or is
adjacent to a Town, a City or the Ocean (is coastal). Explorers are never sources, however many
sources there are the land gets one Explorer, and all sources are judged before any Explorer is
added.
"""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.model.spirit_island.invader_deck import InvaderCard
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import Land


def explore_targets(island: Island, lands: Sequence[Land], card: InvaderCard) -> tuple[int, ...]:
    """The lands an Explore with ``card`` adds an Explorer to, judged on ``lands`` as they are.

    >>> from invasion_oracle.model.spirit_island.data import default_data
    >>> from invasion_oracle.model.spirit_island.island import build_island
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> island = build_island(default_data(), ("A",))
    >>> lands = tuple(parse_land("E") if name == "A5" else parse_land("") for name in island.lands)
    >>> wetland = default_data().card_by_id("1W")
    >>> [island.lands[i] for i in explore_targets(island, lands, wetland)]
    ['A2']
    """
    return tuple(
        i
        for i in range(len(lands))
        if card.matches(island.terrain[i], island.coastal[i]) and explorers_reach(island, lands, i)
    )


def explorers_reach(island: Island, lands: Sequence[Land], index: int) -> bool:
    """Does an Explore add an Explorer to land ``index``: it holds a Town or City, or is adjacent
    to one or to the Ocean (the land's terrain is the card's business, not checked here)."""
    if island.coastal[index]:
        return True
    # A loop over the land and its neighbours, each judged by its counts (Land.has_source without
    # the property call): no generator per land.
    land = lands[index]
    if land.city_count or land.town_count:
        return True
    for j in island.neighbours_of[index]:
        land = lands[j]
        if land.city_count or land.town_count:
            return True
    return False
