"""Dealing Damage (seed 002, "Tracking Damage" and Invader Phase 3a Ravage).

Two ways to deal Damage in a land:

* **allocated by the players** (Dahan fighting back, a fear card's Damage): every legal way to
  spread the Damage over the Invaders is an :class:`Allocation`; :func:`allocations` lists them
  all, and the game asks the players to pick one;
* **efficiently** (Invaders hurting Dahan): :func:`efficient_dahan_damage` destroys as many Dahan
  as possible, damaged ones first (seed 002, Ravage: 'as efficiently as possible').

A piece whose Damage reaches its Health is destroyed. All the Damage must be dealt while any
Invader can still take it; Damage beyond what the Invaders can take is lost.

Allocation labels name each piece that takes Damage as ``<letter><damage before>+<added>``:
``"C0+3 T1+1"`` destroys an undamaged City and finishes a Town that had 1 Damage.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.core.frozen import quick_init
from invasion_oracle.model.spirit_island.pieces import (
    BY_LETTER,
    CITY,
    DAHAN,
    INVADERS,
    LETTER,
    TOWN,
    Land,
    Piece,
    PieceKind,
    PieceStats,
    describe,
    make_land,
    piece,
)

MAX_ALLOCATIONS = 100_000
"""The most ways of spreading Damage the oracle lists as a decision's options (a bound on time and
memory: a land with many damaged pieces of several kinds has millions)."""


@dataclass(frozen=True, slots=True)
class Allocation:
    """Damage added to pieces: ``parts`` are ``(kind, damage before, damage added)``; ``label`` is
    their text (see the module notes)."""

    parts: tuple[tuple[PieceKind, int, int], ...]
    destroyed: tuple[PieceKind, ...]
    fear: int
    label: str

    @property
    def total(self) -> int:
        return sum(added for _, _, added in self.parts)


def _label(parts: tuple[tuple[PieceKind, int, int], ...]) -> str:
    return " ".join(f"{LETTER[k]}{before}+{added}" for k, before, added in parts) or "none"


def parse_allocation_label(label: str) -> tuple[tuple[PieceKind, int, int], ...]:
    """The parts of an allocation label (for tools that build answers by hand).

    >>> parse_allocation_label("C0+3 T1+1")
    ((<PieceKind.CITY: 'city'>, 0, 3), (<PieceKind.TOWN: 'town'>, 1, 1))
    """
    if label == "none":
        return ()
    parts = []
    for token in label.split():
        head, _, added = token.partition("+")
        parts.append((BY_LETTER[head[0]], int(head[1:]), int(added)))
    return tuple(parts)


def _classes(
    land: Land, stats: PieceStats, kinds: tuple[PieceKind, ...]
) -> tuple[tuple[PieceKind, int, int, int], ...]:
    """Identical pieces grouped: ``(kind, damage, count, remaining health)``, largest kind first."""
    counts: dict[tuple[PieceKind, int], int] = {}
    for p in land.pieces:
        if p.kind in kinds:
            counts[(p.kind, p.damage)] = counts.get((p.kind, p.damage), 0) + 1
    order = {k: i for i, k in enumerate(INVADERS + (DAHAN,))}
    return tuple(
        (kind, damage, n, land.health_of(kind, stats) - damage)
        for (kind, damage), n in sorted(counts.items(), key=lambda kv: (order[kv[0][0]], kv[0][1]))
    )


def capacity(land: Land, stats: PieceStats, kinds: tuple[PieceKind, ...] = INVADERS) -> int:
    """The most Damage the ``kinds`` pieces here can take (the sum of their remaining Health)."""
    return sum(n * rem for _, _, n, rem in _classes(land, stats, kinds))


def allocation_count(
    land: Land, stats: PieceStats, amount: int, kinds: tuple[PieceKind, ...] = INVADERS
) -> int:
    """How many allocations :func:`allocations` would list, counted without listing them.

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> allocation_count(parse_land("T E"), default_stats(), 2), allocation_count(parse_land("6C 6C@1 6T 6T@1 6E"), default_stats(), 30)
    (2, 178098)
    """
    classes = _classes(land, stats, kinds)
    amount = min(amount, sum(n * rem for _, _, n, rem in classes))
    ways = [1] + [0] * amount  # ways[s]: allocations of s Damage over the classes so far
    for _, _, n, rem in classes:
        ways = [
            sum(ways[s - given] * _box(n, rem, given) for given in range(min(s, n * rem) + 1))
            for s in range(amount + 1)
        ]
    return ways[amount]


@lru_cache(maxsize=4096)
def _box(parts: int, most: int, total: int) -> int:
    """Partitions of ``total`` into at most ``parts`` parts, each at most ``most``: the ways to
    spread ``total`` Damage over ``parts`` identical pieces that can each take ``most``."""
    if total == 0:
        return 1
    if parts == 0 or most == 0 or total > parts * most:
        return 0
    return _box(parts, most - 1, total) + _box(parts - 1, most, total - most)


def allocations(
    land: Land, stats: PieceStats, amount: int, kinds: tuple[PieceKind, ...] = INVADERS
) -> tuple[Allocation, ...]:
    """Every distinct way to deal ``amount`` Damage to the ``kinds`` pieces in ``land``.

    Identical pieces are not told apart, so each result is listed once. The order is the
    players' likely preference, so the first option is a sensible default: most Fear, then most
    pieces destroyed, then most Cities, then most Towns destroyed, then the label. More than
    :data:`MAX_ALLOCATIONS` raise :class:`~invasion_oracle.model.core.errors.RulesError` (counted first).

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> [a.label for a in allocations(parse_land("T E"), default_stats(), 2)]
    ['T0+2', 'T0+1 E0+1']
    """
    count = allocation_count(land, stats, amount, kinds)
    if count > MAX_ALLOCATIONS:
        raise RulesError(
            f"{amount} Damage can be spread over the pieces {describe(land)} in {count:,} ways; the oracle "
            f"lists at most {MAX_ALLOCATIONS:,} options in a decision"
        )
    classes = _classes(land, stats, kinds)
    amount = min(amount, sum(n * rem for _, _, n, rem in classes))
    found = _enumerate(tuple((n, rem) for _, _, n, rem in classes), amount)
    fear_of = {kind: stats.of(kind).fear for kind in PieceKind}
    keyed = []
    for shares in found:
        parts: list[tuple[PieceKind, int, int]] = []
        destroyed: list[PieceKind] = []
        cities = towns = 0
        for (kind, damage, _, rem), share in zip(classes, shares, strict=True):
            for added in share:
                parts.append((kind, damage, added))
                if added == rem:
                    destroyed.append(kind)
                    if kind is CITY:
                        cities += 1
                    elif kind is TOWN:
                        towns += 1
        fear = sum(fear_of[k] for k in destroyed)
        frozen = tuple(parts)
        label = _label(frozen)
        keyed.append(
            (
                (-fear, -len(destroyed), -cities, -towns, label),
                Allocation(frozen, tuple(destroyed), fear, label),
            )
        )
    keyed.sort(key=lambda ka: ka[0])
    return tuple(a for _, a in keyed)


@lru_cache(maxsize=4096)
def _enumerate(classes: tuple[tuple[int, int], ...], amount: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """All ways to split ``amount`` over classes of ``(count, remaining)``: per class a
    non-increasing tuple of positive shares, each at most ``remaining``."""
    out: list[tuple[tuple[int, ...], ...]] = []
    capacities = [n * rem for n, rem in classes]

    def walk(i: int, left: int, acc: tuple[tuple[int, ...], ...]) -> None:
        if i == len(classes):
            if left == 0:
                out.append(acc)
            return
        n, rem = classes[i]
        rest = sum(capacities[i + 1 :])
        for share in _shares(n, rem, max(0, left - rest), min(left, n * rem)):
            walk(i + 1, left - sum(share), (*acc, share))

    walk(0, amount, ())
    return tuple(out)


def _shares(n: int, cap: int, low: int, high: int) -> Iterator[tuple[int, ...]]:
    """Non-increasing tuples of at most ``n`` positive parts, each at most ``cap``, summing to
    a total in ``[low, high]``."""

    def walk(slots: int, top: int, total: int, acc: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if low <= total <= high:
            yield acc
        if slots == 0:
            return
        for part in range(min(top, high - total), 0, -1):
            yield from walk(slots - 1, part, total + part, (*acc, part))

    yield from walk(n, cap, 0, ())


def apply_allocation(
    land: Land, stats: PieceStats, allocation: Allocation
) -> tuple[Land, tuple[PieceKind, ...]]:
    """Apply ``allocation`` to ``land``: the new land and the kinds destroyed, in part order."""
    pieces = list(land.pieces)
    destroyed: list[PieceKind] = []
    damaged = False
    modified = bool(land.health)
    for kind, before, added in allocation.parts:
        pieces.remove(piece(kind, before))
        if before + added >= (land.health_of(kind, stats) if modified else stats.of(kind).health):
            destroyed.append(kind)
        else:
            pieces.append(piece(kind, before + added))
            damaged = True
    if not damaged:  # pieces only taken out of the sorted tuple: still sorted
        return make_land(tuple(pieces), land.blight, land.presence, land.defend, land.health), tuple(
            destroyed
        )
    return land.with_pieces(pieces), tuple(destroyed)


@quick_init
@dataclass(frozen=True, slots=True)
class DahanHarm:
    """What efficient Invader Damage did to the Dahan of a land."""

    destroyed: int
    damaged: int  # surviving Dahan that took Damage now


NO_HARM = DahanHarm(0, 0)


def efficient_dahan_damage(land: Land, stats: PieceStats, amount: int) -> tuple[Land, DahanHarm]:
    """Deal ``amount`` Damage to the Dahan as efficiently as possible.

    Dahan with the least Health left are destroyed first (so damaged Dahan go first); Damage
    that cannot destroy one more Dahan goes onto the most-damaged survivor (seed 002, Ravage).

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land, describe
    >>> land, harm = efficient_dahan_damage(parse_land("3D"), default_stats(), 3)
    >>> describe(land), harm
    ('D D@1', DahanHarm(destroyed=1, damaged=1))
    """
    after, destroyed, damaged = dahan_hits(land, stats, amount)
    if after is land:
        return land, NO_HARM
    return after, DahanHarm(destroyed, damaged)


def dahan_hits(land: Land, stats: PieceStats, amount: int) -> tuple[Land, int, int]:
    """:func:`efficient_dahan_damage` as plain values: the land after, the Dahan destroyed and
    the Dahan damaged (the game's hot path builds no :class:`DahanHarm`). The land itself when
    no Dahan is hit."""
    pieces = land.pieces
    if amount <= 0 or not pieces or pieces[-1].kind is not DAHAN:  # Dahan sort last
        return land, 0, 0
    # Health modifiers go by kind, so every Dahan here has the same Health and the least Health
    # left is the most Damage taken. The Dahan are the sorted pieces' tail, least Damage first:
    # walked backwards, they come most damaged first.
    first = len(pieces) - 1
    while first > 0 and pieces[first - 1].kind is DAHAN:
        first -= 1
    health = land.health_of(DAHAN, stats) if land.health else stats.dahan.health  # no modifier: printed
    left = amount
    survivors: list[Piece] = []  # most damaged first
    destroyed = 0
    for i in range(len(pieces) - 1, first - 1, -1):
        one = pieces[i]
        need = health - one.damage
        if left >= need:
            left -= need
            destroyed += 1
        else:
            survivors.append(one)
    damaged = 0
    if left > 0 and survivors:
        top = survivors[0]  # the most damaged survivor takes the rest (and stays the most damaged)
        survivors[0] = piece(top.kind, top.damage + left)
        damaged = 1
    survivors.reverse()  # back to the land's order, least Damage first
    return (
        make_land((*pieces[:first], *survivors), land.blight, land.presence, land.defend, land.health),
        destroyed,
        damaged,
    )
