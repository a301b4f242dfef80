"""Seed 002, Invader and Tracking Damage: piece numbers, counting, Damage, Health modifiers,
Upgrade & Downgrade, unlimited pieces; and search time-outs reported as unknown."""

from __future__ import annotations

import pytest

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.spirit_island.damage import allocations, apply_allocation, efficient_dahan_damage
from invasion_oracle.model.spirit_island.data import default_stats
from invasion_oracle.model.spirit_island.pieces import Piece, PieceKind, describe, parse_land, time_passes
from invasion_oracle.model.spirit_island.upgrade_downgrade import change_health, upgrade
from invasion_oracle.solver.common import Status, TimeLimit
from tests.spirit_island.helpers import doc, events, pieces, play

STATS = default_stats()


def test_counting_invaders_counts_pieces() -> None:
    """Seed 002, FAQ Invaders: three Towns and a City are four Invaders."""
    assert len(parse_land("3T C 2D").invaders) == 4


def test_notation_round_trip() -> None:
    for text in ("-", "C 2T@1 3D B", "E@0 D@1", "2B"):
        land = parse_land(text)
        assert parse_land(describe(land)) == land


def test_a_piece_is_destroyed_when_damage_reaches_health() -> None:
    """Seed 002, Tracking Damage: Damage equal to or over Health destroys."""
    land = parse_land("C@1")
    (allocation,) = allocations(land, STATS, 2)
    after, destroyed = apply_allocation(land, STATS, allocation)
    assert destroyed == (PieceKind.CITY,) and describe(after) == "-"


def test_damage_beyond_what_invaders_can_take_is_lost() -> None:
    (allocation,) = allocations(parse_land("E T"), STATS, 10)
    assert allocation.total == 3 and len(allocation.destroyed) == 2


def test_every_allocation_is_listed_once_and_deals_all_the_damage() -> None:
    options = allocations(parse_land("C T@1 2E"), STATS, 3)
    assert len({o.label for o in options}) == len(options)
    assert all(o.total == 3 for o in options)
    assert options[0].label == "C0+3"  # the most Fear first


def test_damaged_dahan_go_first_and_recover_when_time_passes() -> None:
    """Seed 002, Ravage: a damaged Dahan is turned over and recovers at the end of the turn."""
    land, harm = efficient_dahan_damage(parse_land("D D@1"), STATS, 2)
    assert (describe(land), harm.destroyed, harm.damaged) == ("D@1", 1, 1)
    assert describe(time_passes(land)) == "D"


def test_health_modifiers_never_go_below_one_and_can_destroy() -> None:
    land = parse_land("T@1").with_modifier(PieceKind.TOWN, -5)
    assert land.health_of(PieceKind.TOWN, STATS) == 1
    after, changes = change_health(parse_land("T@1 T"), PieceKind.TOWN, -1, STATS)
    assert describe(after) == "T" and [c.destroyed_kind for c in changes] == [PieceKind.TOWN]


def test_frail_outposts_destroys_damaged_towns_for_fear() -> None:
    fear = {
        "cards": ["Frail Outposts", "Blank Fear"],
        "earned_before": 3,
        "earned": ["Frail Outposts"],
        "deck": ["Blank Fear"] * 5,
    }
    sc, p = play(doc(lands={"A8": "C", "A1": "T@1 T"}, fear=fear))
    assert [e.get("piece") for e in events(p, "invader_destroyed")] == ["town"]
    assert pieces(sc, p.final, "A1") == "T" and p.final.fear.generated == 1


def test_a_city_cannot_be_upgraded() -> None:
    """Seed 002, Upgrade & Downgrade."""
    with pytest.raises(RulesError, match="city cannot be upgraded"):
        upgrade(parse_land("C"), Piece(PieceKind.CITY), STATS, "destroyed")
    land, change = upgrade(parse_land("T@1"), Piece(PieceKind.TOWN, 1), STATS, "destroyed")
    assert describe(land) == "C@1" and change.result == "replaced"  # Damage kept


def test_invaders_are_unlimited() -> None:
    """Seed 002, Invader: the number of Invaders is not limited by the supply."""
    sc, p = play(doc(lands={"A1": "40E", "A8": "C"}, invader_board={"build": ["1M"]}, invader_deck=["3JS"]))
    assert pieces(sc, p.final, "A1") == "T 40E"


def test_a_z3_time_out_is_unknown_never_an_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from invasion_oracle.solver.spirit_island import fear_threshold

    def timed_out(*_: object) -> object:
        raise TimeLimit()

    monkeypatch.setattr(fear_threshold, "z3_check", timed_out)
    plan = fear_threshold.least_damage_for_fear(parse_land("C T"), 2, method="z3", seconds=1.0)
    assert plan.status is Status.UNKNOWN and plan.damage is None and not plan.replayed
    baseline = fear_threshold.least_damage_for_fear(parse_land("C T"), 2, method="baseline", seconds=0.0)
    assert baseline.status is Status.UNKNOWN
