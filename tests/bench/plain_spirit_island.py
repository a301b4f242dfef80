"""A plain, mutable implementation of the single-land Invader Actions, for the benchmark only.

It is the baseline of ``bench_spirit_island``'s oracle-speed measure: the same Ravage, Build and
Explore in one land (seed 002, Invader Phase 3a-3c) the way a game engine without immutable
states, events or decisions writes them: piece counts in mutable records, changed in place, the
players' choices fixed (cascades to the first land without Blight, fight-back Damage on Cities,
then Towns, then Explorers). It reads only what the benchmark's workload needs (no Damage on
Invaders, no Defend, no Presence, no Blight card), and the benchmark checks that it ends where
the oracle ends.
"""

from __future__ import annotations

from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import Land, PieceKind


class PlainLand:
    __slots__ = ("blight", "cities", "dahan", "explorers", "hurt_dahan", "towns")

    def __init__(self, land: Land) -> None:
        self.explorers = land.count(PieceKind.EXPLORER)
        self.towns = land.count(PieceKind.TOWN)
        self.cities = land.count(PieceKind.CITY)
        self.dahan = land.count(PieceKind.DAHAN)
        self.hurt_dahan = 0  # Dahan with 1 Damage (of their 2 Health)
        self.blight = land.blight


class PlainIsland:
    def __init__(self, island: Island, lands: tuple[Land, ...]) -> None:
        self.island = island
        self.lands = [PlainLand(land) for land in lands]
        self.fear = 0

    def add_blight(self, index: int) -> None:
        land = self.lands[index]
        land.blight += 1
        if land.blight > 1:  # it had Blight: cascade, to a neighbour without Blight if any
            near = self.island.neighbours(index)
            clear = [j for j in near if self.lands[j].blight == 0]
            if clear or near:
                self.add_blight((clear or list(near))[0])

    def ravage(self, index: int) -> None:
        land = self.lands[index]
        if not (land.explorers or land.towns or land.cities):
            return
        damage = land.explorers + 2 * land.towns + 3 * land.cities
        if damage >= 2:
            self.add_blight(index)
        left = damage
        hurt = min(land.hurt_dahan, left)  # Dahan with 1 Damage die first
        land.hurt_dahan -= hurt
        land.dahan -= hurt
        left -= hurt
        killed = min(land.dahan - land.hurt_dahan, left // 2)
        land.dahan -= killed
        left -= 2 * killed
        if left and land.dahan > land.hurt_dahan:
            land.hurt_dahan += 1
        fight = 2 * land.dahan
        while fight >= 3 and land.cities:
            land.cities -= 1
            fight -= 3
            self.fear += 2
        while fight >= 2 and land.towns:
            land.towns -= 1
            fight -= 2
            self.fear += 1
        while fight >= 1 and land.explorers:
            land.explorers -= 1
            fight -= 1

    def build(self, index: int) -> None:
        land = self.lands[index]
        if not (land.explorers or land.towns or land.cities):
            return
        if land.towns > land.cities:
            land.cities += 1
        else:
            land.towns += 1

    def explore(self, index: int) -> None:
        def source(j: int) -> bool:
            return bool(self.lands[j].towns or self.lands[j].cities)

        if (
            self.island.coastal[index]
            or source(index)
            or any(source(j) for j in self.island.neighbours(index))
        ):
            self.lands[index].explorers += 1

    def pieces(self) -> list[tuple[int, int, int, int, int]]:
        return [(x.explorers, x.towns, x.cities, x.dahan, x.blight) for x in self.lands]
