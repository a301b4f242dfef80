"""Pieces in a land (seed 002, "Invader" and "Tracking Damage"): Invaders, Dahan, Blight, Presence.

A :class:`Land` holds how many pieces of each kind it has, which of them are damaged, its Blight,
each Spirit's Presence, its Defend and the Health modifiers in force; :attr:`Land.pieces` lists
its pieces as a sorted tuple of :class:`Piece` values (kind and Damage taken). Damage,
Defend and modifiers last until Time Passes (:func:`time_passes`). Everything is immutable: every
operation returns a new land.

The piece numbers (Health, Damage dealt, Fear when destroyed) come from data
(:class:`PieceStats`), so an override file can change them; the bundled values are the seed's.

Land notation (scenario files, tests, the command line): space-separated tokens, each an optional
count, a letter and an optional ``@damage``: ``E`` Explorer, ``T`` Town, ``C`` City, ``D`` Dahan,
``B`` Blight. ``"C 2T@1 3D B"`` is a City, two Towns with 1 Damage each, three Dahan and a Blight.

>>> land = parse_land("C 2T@1 3D B")
>>> land.count(PieceKind.TOWN), land.blight, describe(land)
(2, 1, 'C 2T@1 3D B')
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from invasion_oracle.model.core.frozen import direct_constructor, quick_init


class Terrain(enum.StrEnum):
    JUNGLE = "jungle"
    MOUNTAIN = "mountain"
    SANDS = "sands"
    WETLAND = "wetland"


class PieceKind(enum.StrEnum):
    EXPLORER = "explorer"
    TOWN = "town"
    CITY = "city"
    DAHAN = "dahan"


# The kinds as plain names: ``PieceKind.TOWN`` looks the member up on the enum class each time
# (about 0.1 us, several times per piece on the Invader Actions' hot paths).
EXPLORER, TOWN, CITY, DAHAN = PieceKind.EXPLORER, PieceKind.TOWN, PieceKind.CITY, PieceKind.DAHAN
INVADERS = (CITY, TOWN, EXPLORER)  # largest first, the display order
SOURCES = (CITY, TOWN)  # Explore sources (seed 002, Invader: Town and City tables)
LETTER = {EXPLORER: "E", TOWN: "T", CITY: "C", DAHAN: "D"}
BY_LETTER = {v: k for k, v in LETTER.items()}
_ORDER = {CITY: 0, TOWN: 1, EXPLORER: 2, DAHAN: 3}


@dataclass(frozen=True, slots=True)
class KindStats:
    """One piece kind's numbers: Health, Damage it deals, Fear when destroyed."""

    health: int
    damage: int
    fear: int


@dataclass(frozen=True, slots=True)
class PieceStats:
    """The numbers of all four kinds (bundled: seed 002, Invader; Dahan from Ravage).

    ``health_floor``: the least Health modifiers can leave a piece (ruling ``SI-HEALTH-FLOOR``).
    """

    explorer: KindStats
    town: KindStats
    city: KindStats
    dahan: KindStats
    health_floor: int = 1

    def of(self, kind: PieceKind) -> KindStats:
        if kind is EXPLORER:
            return self.explorer
        if kind is TOWN:
            return self.town
        if kind is CITY:
            return self.city
        return self.dahan


@dataclass(frozen=True, slots=True)
class Piece:
    """One Invader or Dahan and the Damage it has taken this turn.

    Pieces are values; :func:`piece` hands out one shared instance per (kind, Damage).
    """

    kind: PieceKind
    damage: int = 0

    @property
    def label(self) -> str:
        """``T`` for an undamaged Town, ``T@1`` for a Town with 1 Damage."""
        return LETTER[self.kind] + (f"@{self.damage}" if self.damage else "")


_SHARED: dict[tuple[PieceKind, int], Piece] = {}


def piece(kind: PieceKind, damage: int = 0) -> Piece:
    """The piece ``kind`` with ``damage``, shared (pieces are immutable, so one object will do).

    >>> piece(PieceKind.TOWN, 1) is piece(PieceKind.TOWN, 1)
    True
    """
    found = _SHARED.get((kind, damage))
    if found is None:
        found = _SHARED[(kind, damage)] = Piece(kind, damage)
    return found


def _key(p: Piece) -> tuple[int, int]:
    return _ORDER[p.kind], p.damage


Damaged = tuple[tuple[PieceKind, int, int], ...]
"""The damaged pieces of a land: ``(kind, Damage, how many)``, Damage above 0, sorted like the
pieces (Cities, Towns, Explorers, Dahan; less Damage first)."""


@quick_init
@dataclass(frozen=True, slots=True)
class Land:
    """What one land holds: how many pieces of each kind (damaged ones included), which of them
    are damaged, its Blight, each Spirit's Presence, its Defend and the Health modifiers in force
    (``health``, by kind, until Time Passes).

    Counts, not a tuple of pieces (issue 38): the Invader Actions ask how many Towns, Cities,
    Explorers and Dahan a land holds and add or take a few, and a count answers and changes in
    one step where a tuple of pieces was walked and rebuilt; the plain engines keep counts too.
    ``damaged`` lists only the pieces with Damage (a handful, and only until Time Passes).
    :attr:`pieces` gives the old view, a sorted tuple of :class:`Piece` values, for the rest.

    Build lands with :func:`parse_land`, :func:`land_of`, :meth:`with_pieces` or :meth:`add`,
    which keep the counts and ``damaged`` consistent (every damaged piece counted in its kind's
    count); two lands with the same pieces are then equal field for field.
    """

    city_count: int = 0
    town_count: int = 0
    explorer_count: int = 0
    dahan_count: int = 0
    damaged: Damaged = ()
    blight: int = 0
    presence: tuple[tuple[str, int], ...] = ()
    defend: int = 0
    health: tuple[tuple[PieceKind, int], ...] = ()

    # -- counting --------------------------------------------------------------------------

    def count(self, kind: PieceKind) -> int:
        if kind is TOWN:
            return self.town_count
        if kind is EXPLORER:
            return self.explorer_count
        if kind is CITY:
            return self.city_count
        return self.dahan_count

    @property
    def pieces(self) -> tuple[Piece, ...]:
        """Every piece, sorted: Cities, Towns, Explorers, Dahan, less Damage first."""
        if not self.damaged:
            return (
                (_CITY0,) * self.city_count
                + (_TOWN0,) * self.town_count
                + (_EXPLORER0,) * self.explorer_count
                + (_DAHAN0,) * self.dahan_count
            )
        out: list[Piece] = []
        for kind in _KINDS:
            hurt = [(damage, n) for k, damage, n in self.damaged if k is kind]
            out += [piece(kind)] * (self.count(kind) - sum(n for _, n in hurt))
            for damage, n in hurt:
                out += [piece(kind, damage)] * n
        return tuple(out)

    @property
    def invaders(self) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.kind is not DAHAN)

    @property
    def dahan(self) -> tuple[Piece, ...]:
        return tuple(p for p in self.pieces if p.kind is DAHAN)

    @property
    def has_invaders(self) -> bool:
        return bool(self.city_count or self.town_count or self.explorer_count)

    @property
    def has_source(self) -> bool:
        """A Town or City: a source of Explorers (seed 002, Invader: Town, City)."""
        return bool(self.city_count or self.town_count)

    def presence_of(self, spirit: str) -> int:
        for name, n in self.presence:
            if name == spirit:
                return n
        return 0

    def modifier(self, kind: PieceKind) -> int:
        return sum(d for k, d in self.health if k is kind)

    def health_of(self, kind: PieceKind, stats: PieceStats) -> int:
        """Current Health of ``kind`` here: printed Health plus modifiers, never below the floor
        (1, or 0 under ruling ``SI-HEALTH-FLOOR``)."""
        if not self.health:
            return stats.of(kind).health
        return max(stats.health_floor, stats.of(kind).health + self.modifier(kind))

    def remaining(self, piece: Piece, stats: PieceStats) -> int:
        """Damage still needed to destroy ``piece``."""
        return self.health_of(piece.kind, stats) - piece.damage

    # -- changing ----------------------------------------------------------------------------

    def with_pieces(self, pieces: Iterable[Piece]) -> Land:
        return land_of(pieces, self.blight, self.presence, self.defend, self.health)

    def add(self, kind: PieceKind, n: int = 1, damage: int = 0) -> Land:
        if n <= 0:
            return self
        damaged = self.damaged
        if damage:
            damaged = _damaged_changed(damaged, kind, damage, n)
        c, t, e, d = self.city_count, self.town_count, self.explorer_count, self.dahan_count
        if kind is EXPLORER:
            e += n
        elif kind is TOWN:
            t += n
        elif kind is CITY:
            c += n
        else:
            d += n
        return make_land(c, t, e, d, damaged, self.blight, self.presence, self.defend, self.health)

    def without(self, piece: Piece) -> Land:
        """The land with one ``piece`` (kind and damage) taken away; ``ValueError`` when there
        is none."""
        kind, damage = piece.kind, piece.damage
        damaged = self.damaged
        if damage:
            damaged = _damaged_changed(damaged, kind, damage, -1)
        elif self.count(kind) - sum(n for k, _, n in damaged if k is kind) <= 0:
            raise ValueError(f"no {piece.label} in the land")
        c, t, e, d = self.city_count, self.town_count, self.explorer_count, self.dahan_count
        if kind is EXPLORER:
            e -= 1
        elif kind is TOWN:
            t -= 1
        elif kind is CITY:
            c -= 1
        else:
            d -= 1
        return make_land(c, t, e, d, damaged, self.blight, self.presence, self.defend, self.health)

    def with_counts(self, cities: int, towns: int, explorers: int, dahan: int, damaged: Damaged) -> Land:
        """The land with these counts and damaged pieces (consistent, as :class:`Land` says),
        its Blight, Presence, Defend and modifiers kept: for the Invader Actions' hot paths."""
        return make_land(
            cities, towns, explorers, dahan, damaged, self.blight, self.presence, self.defend, self.health
        )

    def with_blight(self, blight: int) -> Land:
        return make_land(
            self.city_count,
            self.town_count,
            self.explorer_count,
            self.dahan_count,
            self.damaged,
            blight,
            self.presence,
            self.defend,
            self.health,
        )

    def with_defend(self, defend: int) -> Land:
        return make_land(
            self.city_count,
            self.town_count,
            self.explorer_count,
            self.dahan_count,
            self.damaged,
            self.blight,
            self.presence,
            defend,
            self.health,
        )

    def with_presence(self, spirit: str, delta: int) -> Land:
        counts = dict(self.presence)
        counts[spirit] = counts.get(spirit, 0) + delta
        presence = tuple(sorted((s, n) for s, n in counts.items() if n > 0))
        return make_land(
            self.city_count,
            self.town_count,
            self.explorer_count,
            self.dahan_count,
            self.damaged,
            self.blight,
            presence,
            self.defend,
            self.health,
        )

    def with_modifier(self, kind: PieceKind, delta: int) -> Land:
        counts = dict(self.health)
        counts[kind] = counts.get(kind, 0) + delta
        health = tuple(sorted(((k, d) for k, d in counts.items() if d), key=lambda kd: _ORDER[kd[0]]))
        return make_land(
            self.city_count,
            self.town_count,
            self.explorer_count,
            self.dahan_count,
            self.damaged,
            self.blight,
            self.presence,
            self.defend,
            health,
        )


make_land = direct_constructor(Land)
"""``Land(...)`` without ``__init__``, every field given in order: for the changes above and the
Invader Actions' hot paths, whose counts are already consistent."""

_KINDS = (CITY, TOWN, EXPLORER, DAHAN)  # the pieces' order
_CITY0, _TOWN0, _EXPLORER0, _DAHAN0 = (piece(kind) for kind in _KINDS)


def land_of(
    pieces: Iterable[Piece],
    blight: int = 0,
    presence: tuple[tuple[str, int], ...] = (),
    defend: int = 0,
    health: tuple[tuple[PieceKind, int], ...] = (),
) -> Land:
    """The land holding ``pieces`` (in any order), with the other fields as given."""
    counts = [0, 0, 0, 0]
    hurt: dict[tuple[PieceKind, int], int] = {}
    for p in pieces:
        counts[_ORDER[p.kind]] += 1
        if p.damage:
            hurt[(p.kind, p.damage)] = hurt.get((p.kind, p.damage), 0) + 1
    damaged = tuple(
        (kind, damage, n)
        for (kind, damage), n in sorted(hurt.items(), key=lambda kv: (_ORDER[kv[0][0]], kv[0][1]))
    )
    return make_land(*counts, damaged, blight, presence, defend, health)


def _damaged_changed(damaged: Damaged, kind: PieceKind, damage: int, delta: int) -> Damaged:
    """``damaged`` with ``delta`` more pieces of ``kind`` at ``damage`` (above 0); ``ValueError``
    when that would leave fewer than none."""
    entries = {(k, d): n for k, d, n in damaged}
    n = entries.get((kind, damage), 0) + delta
    if n < 0:
        raise ValueError(f"no {piece(kind, damage).label} in the land")
    if n:
        entries[(kind, damage)] = n
    else:
        entries.pop((kind, damage), None)
    return tuple(
        (k, d, m) for (k, d), m in sorted(entries.items(), key=lambda kv: (_ORDER[kv[0][0]], kv[0][1]))
    )


def time_passes(land: Land) -> Land:
    """Damage heals, Defend and Health modifiers end (seed 002, Tracking Damage: 'when Time Passes')."""
    if not land.defend and not land.health and not land.damaged:
        return land
    return make_land(
        land.city_count,
        land.town_count,
        land.explorer_count,
        land.dahan_count,
        (),
        land.blight,
        land.presence,
        0,
        (),
    )


def invader_damage(land: Land, stats: PieceStats) -> int:
    """Damage the Invaders here deal when they Ravage: 1 per Explorer, 2 per Town, 3 per City.

    Damage taken does not lower the Damage a piece deals (seed 002, FAQ Invaders).
    """
    return (
        land.explorer_count * stats.explorer.damage
        + land.town_count * stats.town.damage
        + land.city_count * stats.city.damage
    )


# -- notation ------------------------------------------------------------------------------

_TOKEN = re.compile(r"^(\d*)([ETCDB])(?:@(\d+))?$")

MAX_PIECES_PER_LAND = 1000
"""Far beyond any real land; a bound so that ``999999999C`` is refused, not built piece by piece."""


def parse_land(text: str) -> Land:
    """A land from notation; raises ``ValueError`` with the offending token.

    >>> parse_land("2E T@1").pieces
    (Piece(kind=<PieceKind.TOWN: 'town'>, damage=1), Piece(kind=<PieceKind.EXPLORER: 'explorer'>, damage=0), Piece(kind=<PieceKind.EXPLORER: 'explorer'>, damage=0))
    >>> parse_land("2X")
    Traceback (most recent call last):
    ...
    ValueError: bad piece token '2X': use [count]E|T|C|D|B[@damage], like 2T@1
    >>> parse_land("999999999C")
    Traceback (most recent call last):
    ...
    ValueError: bad piece token '999999999C': a land holds at most 1000 pieces and 1000 Blight here
    """
    pieces: list[Piece] = []
    blight = 0
    for token in text.split():
        if token == "-":
            continue
        match = _TOKEN.match(token)
        if match is None:
            raise ValueError(f"bad piece token {token!r}: use [count]E|T|C|D|B[@damage], like 2T@1")
        count = int(match.group(1)) if match.group(1) else 1
        if count < 1:
            raise ValueError(f"bad piece token {token!r}: the count must be at least 1")
        if count + (blight if match.group(2) == "B" else len(pieces)) > MAX_PIECES_PER_LAND:
            raise ValueError(
                f"bad piece token {token!r}: a land holds at most {MAX_PIECES_PER_LAND} pieces and "
                f"{MAX_PIECES_PER_LAND} Blight here"
            )
        letter, damage = match.group(2), int(match.group(3) or 0)
        if letter == "B":
            if match.group(3):
                raise ValueError(f"bad piece token {token!r}: Blight takes no damage")
            blight += count
            continue
        pieces += [piece(BY_LETTER[letter], damage)] * count
    return land_of(pieces, blight)


def describe(land: Land, *, with_blight: bool = True) -> str:
    """Land notation for ``land``'s pieces (and Blight); ``-`` when empty."""
    tokens = []
    for label, n in _grouped(p.label for p in land.pieces):
        tokens.append(f"{n}{label}" if n > 1 else label)
    if with_blight and land.blight:
        tokens.append(f"{land.blight}B" if land.blight > 1 else "B")
    return " ".join(tokens) or "-"


def _grouped(labels: Iterable[str]) -> Iterator[tuple[str, int]]:
    last, n = None, 0
    for label in labels:
        if label == last:
            n += 1
            continue
        if last is not None:
            yield last, n
        last, n = label, 1
    if last is not None:
        yield last, n


def check_land(land: Land, stats: PieceStats) -> str | None:
    """Why ``land`` is impossible (a piece already destroyed by its Damage), or ``None``."""
    for p in land.pieces:
        if p.damage >= land.health_of(p.kind, stats):
            return f"{p.label} has Damage {p.damage} but Health {land.health_of(p.kind, stats)}: it would already be destroyed"
        if p.damage < 0:
            return f"{p.label} has negative Damage"
    return None
