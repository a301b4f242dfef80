"""The piece operations the Invader Actions run most (issue 22 made them faster: no sort, one
walk over the sorted pieces) give what the rule as written gives: the reference functions here
sort, as the rules read, and every generated land (damaged pieces, Health modifiers) agrees."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invasion_oracle.model.spirit_island.build import built_piece
from invasion_oracle.model.spirit_island.damage import (
    Allocation,
    DahanHarm,
    allocations,
    apply_allocation,
    efficient_dahan_damage,
)
from invasion_oracle.model.spirit_island.data import default_stats
from invasion_oracle.model.spirit_island.pieces import Land, Piece, PieceKind, land_of, parse_land, piece
from invasion_oracle.properties.spirit_island import land_notation

STATS = default_stats()
KINDS = st.sampled_from(list(PieceKind))
ORDER = {PieceKind.CITY: 0, PieceKind.TOWN: 1, PieceKind.EXPLORER: 2, PieceKind.DAHAN: 3}  # Land's order


@st.composite
def lands(draw: st.DrawFn) -> Land:
    land = parse_land(draw(land_notation()))
    for kind in draw(st.lists(KINDS, max_size=2)):  # Health modifiers, as Fear cards add them
        land = land.with_modifier(kind, draw(st.sampled_from((-1, 1, 2))))
    return land


def reference_dahan_damage(land: Land, amount: int) -> tuple[Land, DahanHarm]:
    """Seed 002, Ravage: Dahan destroyed as efficiently as possible, the least Health left
    first; the rest of the Damage on the most damaged survivor."""
    if amount <= 0 or not land.dahan:
        return land, DahanHarm(0, 0)
    dahan = sorted(land.dahan, key=lambda p: (land.remaining(p, STATS), -p.damage))
    left, survivors, destroyed = amount, [], 0
    for one in dahan:
        if left >= land.remaining(one, STATS):
            left -= land.remaining(one, STATS)
            destroyed += 1
        else:
            survivors.append(one)
    damaged = 0
    if left > 0 and survivors:
        survivors[0] = piece(survivors[0].kind, survivors[0].damage + left)
        damaged = 1
    return land.with_pieces([*land.invaders, *survivors]), DahanHarm(destroyed, damaged)


@settings(max_examples=100, deadline=None)
@given(lands(), st.integers(0, 9))
def test_efficient_dahan_damage_is_the_rule(land: Land, amount: int) -> None:
    assert efficient_dahan_damage(land, STATS, amount) == reference_dahan_damage(land, amount)


@settings(max_examples=100, deadline=None)
@given(lands(), KINDS, st.integers(1, 3), st.integers(0, 2))
def test_adding_pieces_keeps_the_sorted_order(land: Land, kind: PieceKind, n: int, damage: int) -> None:
    added = land.add(kind, n, damage)
    assert added == land.with_pieces([*land.pieces, *[Piece(kind, damage)] * n])
    assert added.pieces == tuple(sorted(added.pieces, key=lambda p: (ORDER[p.kind], p.damage)))


@settings(max_examples=100, deadline=None)
@given(lands())
def test_built_piece_is_the_rule(land: Land) -> None:
    """Seed 002, Build: a City where there are more Towns than Cities, else a Town."""
    towns, cities = land.count(PieceKind.TOWN), land.count(PieceKind.CITY)
    assert built_piece(land) == (PieceKind.CITY if towns > cities else PieceKind.TOWN)


@settings(max_examples=100, deadline=None)
@given(lands(), st.integers(1, 6))
def test_applying_an_allocation_keeps_the_sorted_order(land: Land, amount: int) -> None:
    if not land.has_invaders:
        return
    for allocation in allocations(land, STATS, amount)[:20]:
        after, destroyed = apply_allocation(land, STATS, allocation)
        assert after == after.with_pieces(after.pieces)  # sorted, as with_pieces sorts
        assert len(after.pieces) == len(land.pieces) - len(destroyed)


def reference_apply(land: Land, allocation: Allocation) -> tuple[Land, tuple[PieceKind, ...]]:
    """Tracking Damage, piece by piece: each part takes one piece with that Damage, which is
    destroyed when its Damage reaches its Health."""
    pieces = list(land.pieces)
    destroyed = []
    for kind, before, added in allocation.parts:
        pieces.remove(piece(kind, before))
        if before + added >= land.health_of(kind, STATS):
            destroyed.append(kind)
        else:
            pieces.append(piece(kind, before + added))
    return land.with_pieces(pieces), tuple(destroyed)


@settings(max_examples=100, deadline=None)
@given(lands(), st.integers(1, 7), st.booleans())
def test_applying_an_allocation_is_the_rule(land: Land, amount: int, over: bool) -> None:
    """The count-only way (undamaged Invaders) and the piece way give what the rule gives."""
    if not land.has_invaders:
        return
    for allocation in allocations(land, STATS, amount, over=over)[:20]:
        assert apply_allocation(land, STATS, allocation) == reference_apply(land, allocation)


@settings(max_examples=150, deadline=None)
@given(lands(), st.integers(0, 3), st.integers(0, 2))
def test_a_land_is_its_counts_and_its_pieces(land: Land, blight: int, defend: int) -> None:
    """Land keeps counts (issue 38): the pieces view lists exactly what the counts say, and the
    same pieces in any order make the same land, equal and with the same hash."""
    land = land.with_blight(blight).with_defend(defend)
    pieces = land.pieces
    assert pieces == tuple(sorted(pieces, key=lambda p: (ORDER[p.kind], p.damage)))
    for kind in PieceKind:
        assert land.count(kind) == sum(1 for p in pieces if p.kind is kind)
    assert land.damaged == tuple(
        (kind, damage, n)
        for (kind, damage), n in sorted(
            Counter((p.kind, p.damage) for p in pieces if p.damage).items(),
            key=lambda kv: (ORDER[kv[0][0]], kv[0][1]),
        )
    )
    again = land_of(reversed(pieces), land.blight, land.presence, land.defend, land.health)
    assert again == land and hash(again) == hash(land)
    assert land.has_invaders == any(p.kind is not PieceKind.DAHAN for p in pieces)
    assert land.has_source == any(p.kind in (PieceKind.TOWN, PieceKind.CITY) for p in pieces)
    assert land.invaders + land.dahan == pieces
    for one in set(pieces):
        rest = list(pieces)
        rest.remove(one)
        assert land.without(one) == land.with_pieces(rest)


def test_taking_a_piece_the_land_lacks_is_refused() -> None:
    land = parse_land("T@1 E 2D")
    for missing in (piece(PieceKind.TOWN), piece(PieceKind.CITY), piece(PieceKind.EXPLORER, 1)):
        with pytest.raises(ValueError, match=r"no .* in the land"):
            land.without(missing)
    assert land.without(piece(PieceKind.TOWN, 1)) == parse_land("E 2D")
