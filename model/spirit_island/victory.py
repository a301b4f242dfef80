"""Victory and defeat (seed 002, Invader intro: the Terror Level's victory condition; Explore:
time running out; research notes §2.3, §2.5).

Victory, checked whenever something changes: at Terror Level I no Invaders on the island, at II
no Towns or Cities, at III no Cities; or every Fear card earned. Defeat: the Blight card runs out
on its Blighted side, a Spirit has no Presence left on the island, or an Explore finds the
Invader deck empty. When one change causes both, it is a (sacrifice) victory.
"""

from __future__ import annotations

from model.spirit_island.pieces import Land, PieceKind
from model.spirit_island.state import IslandState


def terror_victory(lands: tuple[Land, ...], terror_level: int) -> str | None:
    """The victory condition met at ``terror_level``, or ``None``.

    >>> from model.spirit_island.pieces import parse_land
    >>> terror_victory((parse_land("2E"),), 2)
    'Terror Level II: no Towns or Cities on the island'
    >>> terror_victory((parse_land("2E"),), 1) is None
    True
    """
    if terror_level == 1 and not any(land.has_invaders for land in lands):
        return "Terror Level I: no Invaders on the island"
    if terror_level == 2 and not any(land.has_source for land in lands):
        return "Terror Level II: no Towns or Cities on the island"
    if terror_level == 3 and not any(land.count(PieceKind.CITY) for land in lands):
        return "Terror Level III: no Cities on the island"
    return None


def judge(state: IslandState) -> tuple[str | None, str | None]:
    """(why the players have won, why they have lost) now; either may be ``None``."""
    if state.fear.all_earned:
        win: str | None = "every Fear card earned (Terror Level: Victory)"
    else:
        win = terror_victory(state.lands, state.fear.terror_level)
    loss = None
    if state.blight_ran_out:
        loss = "the Blight card ran out"
    elif state.time_ran_out:
        loss = "time ran out: no Invader card left to Explore with"
    elif state.spirits:
        present = {spirit for land in state.lands for spirit, _ in land.presence}
        for spirit in state.spirits:
            if spirit not in present:
                loss = f"{spirit} has no Presence left on the island"
                break
    return win, loss
