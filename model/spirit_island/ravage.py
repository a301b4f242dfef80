"""Ravage (seed 002, Invader Phase 3a; research notes §3.3).

In each land of the card's terrain that holds Invaders:

1. the Invaders deal their Damage (1 per Explorer, 2 per Town, 3 per City, damaged or not);
   Defend in the land reduces the total, not below 0;
2. at once, the same reduced total hits the land and the Dahan: 2 or more adds one Blight
   (whatever the amount; partial Damage to the land is ignored), and the Dahan are destroyed as
   efficiently as possible (:func:`~invasion_oracle.model.spirit_island.damage.efficient_dahan_damage`); the
   Dahan never shield the land;
3. then the surviving Dahan (damaged ones too) fight back: 2 Damage each, allocated by the
   players; destroyed Towns and Cities give their Fear. They fight back even when Defend
   stopped all the Damage, but not when the Ravage was skipped.

A land without Invaders is not ravaged at all (no fight-back). Which lands a card ravages is
noted first (:func:`ravage_targets`); the players order them (ruling ``SI-LAND-ORDER``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from invasion_oracle.model.core.frozen import quick_init
from invasion_oracle.model.spirit_island.damage import NO_HARM, DahanHarm, dahan_hits
from invasion_oracle.model.spirit_island.invader_deck import InvaderCard
from invasion_oracle.model.spirit_island.island import Island
from invasion_oracle.model.spirit_island.pieces import DAHAN, Land, PieceStats, invader_damage


@quick_init
@dataclass(frozen=True, slots=True)
class Strike:
    """The Invaders' half of a Ravage in one land."""

    damage: int  # what the Invaders deal before Defend
    defend: int
    hits: int  # after Defend: this hits the land and the Dahan
    blight: bool  # hits reached the land-Damage threshold
    land: Land  # the land after the Dahan took the hits
    harm: DahanHarm


def ravage_targets(island: Island, lands: Sequence[Land], card: InvaderCard) -> tuple[int, ...]:
    """Lands of the card's terrain that hold Invaders, in island order."""
    return tuple(
        i
        for i in range(len(lands))
        if card.matches(island.terrain[i], island.coastal[i]) and lands[i].has_invaders
    )


def invaders_strike(land: Land, stats: PieceStats, blight_threshold: int) -> Strike:
    """Step 1 and 2 for one land: Damage, Defend, the land and the Dahan hit at once.

    The research notes' worked fixture (§3.3): 3 Dahan, an Explorer and a Town deal 3 Damage:
    Blight, one Dahan destroyed, one damaged.

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land, describe
    >>> strike = invaders_strike(parse_land("3D E T"), default_stats(), 2)
    >>> strike.hits, strike.blight, describe(strike.land), strike.harm.destroyed
    (3, True, 'T E D D@1', 1)
    """
    damage, defend, hits, blight, after, destroyed, damaged = strike_parts(land, stats, blight_threshold)
    harm = NO_HARM if after is land else DahanHarm(destroyed, damaged)
    return Strike(damage, defend, hits, blight, after, harm)


StrikeParts = tuple[int, int, int, bool, Land, int, int]
"""A :class:`Strike` as plain values: damage, defend, hits, blight, the land after, the Dahan
destroyed and the Dahan damaged."""


def strike_parts(land: Land, stats: PieceStats, blight_threshold: int) -> StrikeParts:
    """:func:`invaders_strike` as plain values (the game's hot path builds no Strike)."""
    damage = invader_damage(land, stats)
    defend = land.defend
    hits = damage - defend if damage > defend else 0
    after, destroyed, damaged = dahan_hits(land, stats, hits)
    return damage, defend, hits, hits >= blight_threshold, after, destroyed, damaged


def fight_back_damage(land: Land, stats: PieceStats) -> int:
    """Damage the surviving Dahan deal back: 2 each (their Damage taken does not matter)."""
    return stats.dahan.damage * land.count(DAHAN)
