"""Blight and the Blight card (seed 002, Invader Phase 1 Blighted Island and 3a Ravage; research
notes §2.4).

The Blight card starts on its Healthy side with N per player plus 1 Blight (the +1 only at
setup). Taking the last Blight off the Healthy side flips it to Blighted Island: refill to the
Blighted side's amount (no +1) and resolve its immediate effect; it never flips back. Running out
on the Blighted side loses the game. Ruling ``SI-BLIGHT-EMPTY`` says whether this happens when
the last Blight is taken (default) or only when one is needed and none is left. Without a card,
the Invader Board's Blight space holds 5 per player plus 1 and never flips.

Adding Blight to a land destroys one Presence of each Spirit there; if the land already had
Blight, the Blight cascades to an adjacent land (never the Ocean), which can cascade again.
"""

from __future__ import annotations

from dataclasses import dataclass

from invasion_oracle.model.core.frozen import direct_constructor, quick_init
from invasion_oracle.model.core.provenance import Provenance
from invasion_oracle.model.spirit_island.effects import Effect

HEALTHY = "healthy"
BLIGHTED = "blighted"


@dataclass(frozen=True, slots=True)
class BlightCard:
    name: str
    healthy_per_player: int
    blighted_per_player: int
    on_flip: tuple[Effect, ...] = ()
    each_phase: tuple[Effect, ...] = ()  # the Blighted Island step of every Invader Phase
    provenance: Provenance = Provenance.ASSUMED
    source: str = ""


@quick_init
@dataclass(frozen=True, slots=True)
class BlightTrack:
    """The Blight card in play (``None``: the Invader Board's space), its side and its pool."""

    card: str | None
    side: str
    pool: int


@quick_init
@dataclass(frozen=True, slots=True)
class Taken:
    """What taking one Blight did: ``flipped`` the card, or ``lost`` the game."""

    track: BlightTrack
    available: bool  # a Blight was there to take
    flipped: bool = False
    lost: bool = False


_track = direct_constructor(BlightTrack)  # every field given: no __init__ (issue 38)


def take_blight(track: BlightTrack, card: BlightCard | None, players: int, reading: str) -> Taken:
    """Take one Blight for a land, flipping or losing as ruling ``SI-BLIGHT-EMPTY`` reads.

    >>> card = BlightCard("x", 2, 4)
    >>> t = take_blight(BlightTrack("x", HEALTHY, 1), card, 1, "when-empty")
    >>> t.flipped, t.track
    (True, BlightTrack(card='x', side='blighted', pool=4))
    >>> take_blight(BlightTrack("x", BLIGHTED, 1), card, 1, "when-empty").lost
    True
    """
    return Taken(*blight_taken(track, card, players, reading))


def blight_taken(
    track: BlightTrack, card: BlightCard | None, players: int, reading: str
) -> tuple[BlightTrack, bool, bool, bool]:
    """:func:`take_blight` as plain values: the track, available, flipped, lost (the game's hot
    path builds no :class:`Taken`)."""
    can_flip = card is not None and track.side == HEALTHY
    refill = card.blighted_per_player * players if card is not None else 0
    if reading == "when-needed":
        if track.pool > 0:
            return _track(track.card, track.side, track.pool - 1), True, False, False
        if can_flip:
            return _track(track.card, BLIGHTED, refill - 1), refill > 0, True, refill == 0
        return track, False, False, True
    if track.pool <= 0:  # only reachable when a scenario starts with an empty pool
        return track, False, False, True
    left = track.pool - 1
    if left > 0:
        return _track(track.card, track.side, left), True, False, False
    if can_flip:
        return _track(track.card, BLIGHTED, refill), True, True, refill == 0
    return _track(track.card, track.side, 0), True, False, True


def setup_pool(card: BlightCard | None, players: int, space_per_player: int, extra: int) -> int:
    """Blight at setup: the card's Healthy amount per player (or the space's), plus ``extra``."""
    per_player = card.healthy_per_player if card is not None else space_per_player
    return per_player * players + extra
