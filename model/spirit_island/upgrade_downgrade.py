"""Destroy, Remove, Replace, Upgrade and Downgrade (Spirit Island Rulebook, "Upgrade & Downgrade"; FAQ Towns).

* **Destroy**: the piece leaves; a Town or City destroyed generates its Fear, however it was
  destroyed (Spirit Island Rulebook, FAQ Towns: 'When does destroying a Town or City cause Fear?').
* **Remove**: the piece leaves with no Fear.
* **Replace**: the piece changes type and keeps its Damage; nothing is added and no Fear comes
  from the change itself. If the kept Damage reaches the new Health, ruling
  ``SI-DOWNGRADE-DAMAGE`` says what happens (only a smaller type can have less Health).
* **Upgrade**: Explorer to Town, Town to City; a City cannot be upgraded.
* **Downgrade**: City to Town, Town to Explorer; downgrading an Explorer removes it.

Each function returns the new land and a :class:`Change` saying what happened, so the game can
write the event and generate Fear for destroyed pieces only.
"""

from __future__ import annotations

from dataclasses import dataclass

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.spirit_island.pieces import (
    CITY,
    EXPLORER,
    TOWN,
    Land,
    Piece,
    PieceKind,
    PieceStats,
)
from invasion_oracle.model.spirit_island.pieces import piece as make_piece

UPGRADE = {EXPLORER: TOWN, TOWN: CITY}
DOWNGRADE = {CITY: TOWN, TOWN: EXPLORER}


@dataclass(frozen=True, slots=True)
class Change:
    """What an operation did to one piece.

    ``result`` is ``destroyed``, ``removed``, ``replaced`` or ``added``; ``destroyed_kind`` is the
    kind whose Fear is due (``None`` unless destroyed).
    """

    result: str
    before: Piece
    after: Piece | None
    destroyed_kind: PieceKind | None = None


def destroy(land: Land, piece: Piece) -> tuple[Land, Change]:
    return land.without(piece), Change("destroyed", piece, None, piece.kind)


def remove(land: Land, piece: Piece) -> tuple[Land, Change]:
    return land.without(piece), Change("removed", piece, None)


def replace_piece(
    land: Land, piece: Piece, new_kind: PieceKind, stats: PieceStats, downgrade_reading: str
) -> tuple[Land, Change]:
    """Replace ``piece`` by a ``new_kind`` piece keeping its Damage.

    ``downgrade_reading`` is the reading of ruling ``SI-DOWNGRADE-DAMAGE``: ``destroyed``,
    ``removed`` or ``survives``.
    """
    rest = land.without(piece)
    health = land.health_of(new_kind, stats)
    if piece.damage < health:
        after = make_piece(new_kind, piece.damage)
        return rest.with_pieces((*rest.pieces, after)), Change("replaced", piece, after)
    if downgrade_reading == "destroyed":
        return rest, Change("destroyed", piece, make_piece(new_kind, piece.damage), new_kind)
    if downgrade_reading == "removed":
        return rest, Change("removed", piece, make_piece(new_kind, piece.damage))
    after = make_piece(new_kind, health - 1)
    return rest.with_pieces((*rest.pieces, after)), Change("replaced", piece, after)


def upgrade(land: Land, piece: Piece, stats: PieceStats, downgrade_reading: str) -> tuple[Land, Change]:
    """Explorer to Town or Town to City, keeping Damage.

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land, describe
    >>> land, change = upgrade(parse_land("E"), Piece(PieceKind.EXPLORER), default_stats(), "destroyed")
    >>> describe(land), change.result
    ('T', 'replaced')
    """
    if piece.kind not in UPGRADE:
        raise RulesError(
            f"a {piece.kind.value} cannot be upgraded (Spirit Island Rulebook, Upgrade & Downgrade)"
        )
    return replace_piece(land, piece, UPGRADE[piece.kind], stats, downgrade_reading)


def downgrade(land: Land, piece: Piece, stats: PieceStats, downgrade_reading: str) -> tuple[Land, Change]:
    """City to Town, Town to Explorer (keeping Damage); an Explorer is removed.

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land, describe
    >>> land, change = downgrade(parse_land("C@2"), Piece(PieceKind.CITY, 2), default_stats(), "destroyed")
    >>> describe(land), change.result, change.destroyed_kind
    ('-', 'destroyed', <PieceKind.TOWN: 'town'>)
    """
    if piece.kind is EXPLORER:
        return remove(land, piece)
    if piece.kind not in DOWNGRADE:
        raise RulesError(f"a {piece.kind.value} cannot be downgraded")
    return replace_piece(land, piece, DOWNGRADE[piece.kind], stats, downgrade_reading)


def change_health(
    land: Land, kind: PieceKind, delta: int, stats: PieceStats
) -> tuple[Land, tuple[Change, ...]]:
    """A Health modifier for ``kind``; pieces whose Damage now reaches their Health are destroyed
    (Spirit Island Rulebook, Tracking Damage)."""
    land = land.with_modifier(kind, delta)
    changes = []
    for piece in land.pieces:
        if piece.kind is kind and piece.damage >= land.health_of(kind, stats):
            land, change = destroy(land, piece)
            changes.append(change)
    return land, tuple(changes)
