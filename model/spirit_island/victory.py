"""Victory and defeat (seed 002, Invader intro: the Terror Level's victory condition; Explore:
time running out; research notes §2.3, §2.5).

Victory, checked whenever something changes: at Terror Level I no Invaders on the island, at II
no Towns or Cities, at III no Cities; or every Fear card earned. Defeat: the Blight card runs out
on its Blighted side, a Spirit has no Presence left on the island, or an Explore finds the
Invader deck empty. When one change causes both, it is a (sacrifice) victory.
"""

from __future__ import annotations

from collections.abc import Sequence

from invasion_oracle.model.spirit_island.fear import FearTrack
from invasion_oracle.model.spirit_island.pieces import Land


def terror_victory(lands: Sequence[Land], terror_level: int) -> str | None:
    """The victory condition met at ``terror_level``, or ``None``.

    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> terror_victory((parse_land("2E"),), 2)
    'Terror Level II: no Towns or Cities on the island'
    >>> terror_victory((parse_land("2E"),), 1) is None
    True
    """
    # A land's counts answer each question (no property call per land).
    if terror_level == 1:
        for land in lands:
            if land.city_count or land.town_count or land.explorer_count:
                return None
        return "Terror Level I: no Invaders on the island"
    if terror_level == 2:
        for land in lands:
            if land.city_count or land.town_count:
                return None
        return "Terror Level II: no Towns or Cities on the island"
    if terror_level == 3:
        for land in lands:
            if land.city_count:
                return None
        return "Terror Level III: no Cities on the island"
    return None


def judge(
    lands: Sequence[Land],
    fear: FearTrack,
    spirits: Sequence[str],
    blight_ran_out: bool,
    time_ran_out: bool,
) -> tuple[str | None, str | None]:
    """(why the players have won, why they have lost) now; either may be ``None``."""
    level = fear.terror_level
    if level > len(fear.per_level):  # every card earned
        win: str | None = "every Fear card earned (Terror Level: Victory)"
    else:
        win = terror_victory(lands, level)
    loss = None
    if blight_ran_out:
        loss = "the Blight card ran out"
    elif time_ran_out:
        loss = "time ran out: no Invader card left to Explore with"
    elif spirits:
        present = {spirit for land in lands for spirit, _ in land.presence}
        for spirit in spirits:
            if spirit not in present:
                loss = f"{spirit} has no Presence left on the island"
                break
    return win, loss
