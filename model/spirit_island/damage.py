"""Dealing Damage (seed 002, "Tracking Damage" and Invader Phase 3a Ravage).

Two ways to deal Damage in a land:

* **allocated by the players** (Dahan fighting back, a fear card's Damage): every legal way to
  spread the Damage over the Invaders is an :class:`Allocation`; :func:`allocations` lists them
  all, and the game asks the players to pick one;
* **efficiently** (Invaders hurting Dahan): :func:`efficient_dahan_damage` destroys as many Dahan
  as possible, damaged ones first (seed 002, Ravage: 'as efficiently as possible').

A piece whose Damage reaches its Health is destroyed. All the Damage must be dealt while any
Invader can still take it; Damage beyond what the Invaders can take is lost. Under the reading
``excess-allowed`` of ruling ``SI-OVER-ALLOCATION`` (``over=True`` here) a piece may take more
Damage than destroys it: every piece can take any share, so all the Damage is always dealt and
the players may spend it on pieces that are destroyed anyway (sparing others).

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
    EXPLORER,
    INVADERS,
    LETTER,
    TOWN,
    Land,
    Piece,
    PieceKind,
    PieceStats,
    describe,
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
    """Identical pieces grouped: ``(kind, damage, count, remaining health)``, largest kind first,
    less Damage first (read off the land's counts)."""
    out = []
    for kind in _ALL_KINDS:
        if kind not in kinds:
            continue
        total = land.count(kind)
        if not total:
            continue
        health = land.health_of(kind, stats)
        hurt = [(damage, n) for k, damage, n in land.damaged if k is kind]
        undamaged = total - sum(n for _, n in hurt)
        if undamaged:
            out.append((kind, 0, undamaged, health))
        out += [(kind, damage, n, health - damage) for damage, n in hurt]
    return tuple(out)


_ALL_KINDS = (*INVADERS, DAHAN)  # the pieces' order


def _caps(
    classes: tuple[tuple[PieceKind, int, int, int], ...], amount: int, over: bool
) -> tuple[tuple[int, int], ...]:
    """Per class ``(count, most one piece can take)``: its remaining Health, or under
    over-allocation the whole amount."""
    return tuple((n, max(amount, 0) if over else rem) for _, _, n, rem in classes)


def capacity(land: Land, stats: PieceStats, kinds: tuple[PieceKind, ...] = INVADERS) -> int:
    """The most Damage the ``kinds`` pieces here can take (the sum of their remaining Health)."""
    return sum(n * rem for _, _, n, rem in _classes(land, stats, kinds))


def allocation_count(
    land: Land, stats: PieceStats, amount: int, kinds: tuple[PieceKind, ...] = INVADERS, *, over: bool = False
) -> int:
    """How many allocations :func:`allocations` would list, counted without listing them.

    >>> from invasion_oracle.model.spirit_island.data import default_stats
    >>> from invasion_oracle.model.spirit_island.pieces import parse_land
    >>> allocation_count(parse_land("T E"), default_stats(), 2), allocation_count(parse_land("6C 6C@1 6T 6T@1 6E"), default_stats(), 30)
    (2, 178098)
    >>> allocation_count(parse_land("T E"), default_stats(), 3), allocation_count(parse_land("T E"), default_stats(), 3, over=True)
    (1, 4)
    """
    caps = _caps(_classes(land, stats, kinds), amount, over)
    amount = min(amount, sum(n * cap for n, cap in caps))
    ways = [1] + [0] * amount  # ways[s]: allocations of s Damage over the classes so far
    for n, cap in caps:
        ways = [
            sum(ways[s - given] * _box(n, cap, given) for given in range(min(s, n * cap) + 1))
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
    land: Land, stats: PieceStats, amount: int, kinds: tuple[PieceKind, ...] = INVADERS, *, over: bool = False
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

    ``over`` (ruling ``SI-OVER-ALLOCATION``, reading ``excess-allowed``): a piece may take more
    than its remaining Health, so the whole amount is dealt:

    >>> [a.label for a in allocations(parse_land("T E"), default_stats(), 3)]
    ['T0+2 E0+1']
    >>> [a.label for a in allocations(parse_land("T E"), default_stats(), 3, over=True)]
    ['T0+2 E0+1', 'T0+3', 'E0+3', 'T0+1 E0+2']
    """
    count = allocation_count(land, stats, amount, kinds, over=over)
    if count > MAX_ALLOCATIONS:
        raise RulesError(
            f"{amount} Damage can be spread over the pieces {describe(land)} in {count:,} ways; the oracle "
            f"lists at most {MAX_ALLOCATIONS:,} options in a decision"
        )
    classes = _classes(land, stats, kinds)
    caps = _caps(classes, amount, over)
    amount = min(amount, sum(n * cap for n, cap in caps))
    found = _enumerate(caps, amount)
    fear_of = {kind: stats.of(kind).fear for kind in PieceKind}
    keyed = []
    for shares in found:
        parts: list[tuple[PieceKind, int, int]] = []
        destroyed: list[PieceKind] = []
        cities = towns = 0
        for (kind, damage, _, rem), share in zip(classes, shares, strict=True):
            for added in share:
                parts.append((kind, damage, added))
                if added >= rem:
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
    if not land.damaged:
        # The usual case (a fight-back against undamaged Invaders): counts only.
        counts = {CITY: land.city_count, TOWN: land.town_count, EXPLORER: land.explorer_count}
        modified = bool(land.health)
        destroyed: list[PieceKind] = []
        survivors: list[Piece] = []
        for kind, before, added in allocation.parts:
            if before or not counts.get(kind):
                break  # not one of this land's undamaged Invaders: the general way says why
            counts[kind] -= 1
            if added >= (land.health_of(kind, stats) if modified else stats.of(kind).health):
                destroyed.append(kind)
            else:
                survivors.append(piece(kind, added))
        else:
            after = land.with_counts(counts[CITY], counts[TOWN], counts[EXPLORER], land.dahan_count, ())
            for one in survivors:
                after = after.add(one.kind, 1, one.damage)
            return after, tuple(destroyed)
    pieces = list(land.pieces)
    destroyed = []
    modified = bool(land.health)
    for kind, before, added in allocation.parts:
        pieces.remove(piece(kind, before))
        if before + added >= (land.health_of(kind, stats) if modified else stats.of(kind).health):
            destroyed.append(kind)
        else:
            pieces.append(piece(kind, before + added))
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
    dahan = land.dahan_count
    if amount <= 0 or not dahan:
        return land, 0, 0
    # Health modifiers go by kind, so every Dahan here has the same Health and the least Health
    # left is the most Damage taken: the Dahan are taken most damaged first, a group of equally
    # damaged ones at a time (each group as the piece-by-piece walk would take it).
    health = land.health_of(DAHAN, stats) if land.health else stats.dahan.health  # no modifier: printed
    others = tuple(entry for entry in land.damaged if entry[0] is not DAHAN)  # Dahan sort last
    groups = [(damage, n) for kind, damage, n in land.damaged if kind is DAHAN]
    hurt = dahan - sum(n for _, n in groups)
    if hurt:
        groups.insert(0, (0, hurt))
    left = amount
    destroyed = 0
    survivors: list[tuple[int, int]] = []  # (damage, how many), most damaged first
    for damage, n in reversed(groups):
        if survivors:  # one could not be destroyed: neither can any less damaged one
            survivors.append((damage, n))
            continue
        need = health - damage
        taken = n if need <= 0 else min(n, left // need)
        left -= taken * need
        destroyed += taken
        if taken < n:
            survivors.append((damage, n - taken))
    damaged = 0
    if left > 0 and survivors:
        # the most damaged survivor takes the rest (and stays the most damaged)
        top, n = survivors[0]
        survivors[0:1] = [(top + left, 1), (top, n - 1)] if n > 1 else [(top + left, 1)]
        damaged = 1
    dahan_damaged = tuple((DAHAN, damage, n) for damage, n in reversed(survivors) if damage and n)
    after = land.with_counts(
        land.city_count,
        land.town_count,
        land.explorer_count,
        dahan - destroyed,
        others + dahan_damaged if dahan_damaged else others,
    )
    return after, destroyed, damaged
