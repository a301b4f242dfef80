"""Seed 002, Invader Phase 3a Ravage, its FAQ answers, and the research notes' worked fixtures (§3.3)."""

from __future__ import annotations

import pytest

from invasion_oracle.model.spirit_island.data import default_stats
from invasion_oracle.model.spirit_island.pieces import describe, parse_land
from invasion_oracle.model.spirit_island.ravage import invaders_strike
from tests.spirit_island.helpers import asked, doc, events, pieces, play

# A City on A8 keeps Invaders on the island, so Terror Level I is not won by accident.
KEEP = {"A8": "C"}


def ravage(lands: dict[str, object], card: str = "1M", **fields: object) -> tuple:
    return play(doc(lands={**KEEP, **lands}, invader_board={"ravage": [card]}, **fields))


def test_worked_fixture_three_dahan_explorer_town() -> None:
    """Research notes §3.3 (RETTIG InvaderDeck_Tests.Ravage): 3 Dahan, an Explorer and a Town."""
    sc, p = ravage({"A1": "3D E T"})
    (hit,) = events(p, "ravaged")
    assert (hit.get("damage"), hit.get("hits"), hit.get("dahan_destroyed"), hit.get("dahan_damaged")) == (
        3,
        3,
        1,
        1,
    )
    assert [e.get("land") for e in events(p, "blight_added")] == ["A1"]
    # two survivors deal 4: the Town and the Explorer are destroyed; the Town gives 1 Fear
    assert sorted(e.get("piece") for e in events(p, "invader_destroyed")) == ["explorer", "town"]
    assert sum(e.get("fear") for e in events(p, "invader_destroyed")) == 1
    assert p.final.fear.generated == 1
    assert pieces(sc, p.final, "A1") == "D D@1 B"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("D E", "D@1"),  # the Dahan survives damaged and kills the Explorer
        ("D@1 E", "E"),  # a damaged Dahan dies to 1 Damage; nobody is left to fight back
        ("D 2E", "2E"),  # 2 Damage destroys the Dahan
        ("D T", "T"),  # a Town's 2 Damage destroys a Dahan
        ("3D 2T@1", "D"),  # 4 Damage: 2 Dahan die, the last one destroys both damaged Towns
    ],
)
def test_rettig_comment_fixtures(before: str, after: str) -> None:
    """Research notes §3.3, 'Other RETTIG comment fixtures' (no Blight card effects)."""
    sc, p = ravage({"A1": before})
    assert describe(p.final.lands[sc.island.index("A1")], with_blight=False) == after


def test_invaders_hit_land_and_dahan_at_once_dahan_never_shield_the_land() -> None:
    """Seed 002, Ravage: the same total hits the land and the Dahan; research notes §5.1."""
    strike = invaders_strike(parse_land("5D T"), default_stats(), 2)
    assert strike.blight and strike.harm.destroyed == 1


def test_blight_is_added_once_however_large_the_damage() -> None:
    """Seed 002, Ravage: 'This only happens once, no matter how much Damage is dealt.'"""
    _, p = ravage({"A1": "3C 2T"})
    assert len(events(p, "blight_added")) == 1


def test_one_damage_adds_no_blight() -> None:
    """Seed 002, Ravage: Blight needs 2 or more Damage; partial Damage to the land is ignored."""
    _, p = ravage({"A1": "E"})
    (hit,) = events(p, "ravaged")
    assert hit.get("hits") == 1 and not hit.get("land_blighted")
    assert events(p, "blight_added") == []


def test_defend_reduces_the_total_and_dahan_still_fight_back() -> None:
    """Seed 002, Ravage: Defend reduces the total; Dahan fight back even when it stops all Damage."""
    sc, p = ravage({"A1": {"pieces": "D T", "defend": 2}})
    (hit,) = events(p, "ravaged")
    assert (hit.get("damage"), hit.get("defend"), hit.get("hits")) == (2, 2, 0)
    assert events(p, "blight_added") == []
    assert pieces(sc, p.final, "A1") == "D"  # the Dahan destroyed the Town
    assert p.final.fear.generated == 1


def test_defend_one_leaves_one_damage_no_blight() -> None:
    _, p = ravage({"A1": {"pieces": "T", "defend": 1}})
    assert events(p, "ravaged")[0].get("hits") == 1 and events(p, "blight_added") == []


def test_no_invaders_no_ravage_no_fight_back() -> None:
    """Seed 002, Ravage: only where there are Invaders; research notes §3.3."""
    _, p = ravage({"A1": "3D", "A6": "2D"})
    assert events(p, "ravaged") == [] and events(p, "dahan_fought_back") == []
    assert events(p, "card_lands")[0].get("lands") == ()


def test_skipped_ravage_means_no_fight_back() -> None:
    """Seed 002, Ravage: Dahan do not fight back if the Ravage is skipped."""
    skip = {"effect": "skip", "action": "ravage", "scope": "lands", "where": {"lands": ["A1"]}}
    sc, p = ravage({"A1": "2D T"}, spirit_phases=[{"skips": [skip]}])
    assert [e.get("land") for e in events(p, "action_skipped")] == ["A1"]
    assert events(p, "dahan_fought_back") == []
    assert pieces(sc, p.final, "A1") == "T 2D"


def test_fight_back_allocation_is_the_players_choice() -> None:
    """Research notes §3.3 / §5.3: the players choose how the Dahan's Damage is spread."""
    sc, p = ravage({"A1": {"pieces": "D T 2E", "defend": 4}})
    (options,) = asked(p, "fight-back")
    assert options[0] == "T0+2"  # most Fear first
    assert set(options) == {"T0+2", "T0+1 E0+1", "E0+1 E0+1"}
    sc, p = play(
        doc(lands={**KEEP, "A1": {"pieces": "D T 2E", "defend": 4}}, invader_board={"ravage": ["1M"]}),
        decisions=("E0+1 E0+1",),
    )
    assert pieces(sc, p.final, "A1") == "T D"
    assert p.final.fear.generated == 0


def test_damaged_invaders_deal_full_damage() -> None:
    """Seed 002, FAQ Invaders: damage taken does not lower the damage dealt."""
    strike = invaders_strike(parse_land("T@1 C@2"), default_stats(), 2)
    assert strike.damage == 5


def test_fear_from_fight_back_destroying_a_city() -> None:
    """Seed 002, FAQ Towns: destroying by Dahan fight-back generates Fear (City: 2)."""
    _, p = ravage({"A1": {"pieces": "2D C", "defend": 3}})
    assert [e.get("piece") for e in events(p, "invader_destroyed")] == ["city"]
    assert p.final.fear.generated == 2


def test_cascade_to_an_adjacent_land_chosen_by_the_players() -> None:
    """Seed 002 Ravage / research notes §2.4: Blight added to a blighted land cascades."""
    _, p = ravage({"A1": "T B"})
    (options,) = asked(p, "cascade")
    assert options == ("A2", "A4", "A5", "A6")  # A1's neighbours; never the Ocean
    _sc, p = play(doc(lands={**KEEP, "A1": "T B"}, invader_board={"ravage": ["1M"]}), decisions=("A6",))
    assert [e.get("land") for e in events(p, "blight_added")] == ["A1", "A6"]


def test_cascade_chains_while_the_land_already_had_blight() -> None:
    _sc, p = play(
        doc(lands={**KEEP, "A1": "T B", "A6": "B", "A5": "B"}, invader_board={"ravage": ["1M"]}),
        decisions=("A6", "A5", "A7"),
    )
    assert [e.get("land") for e in events(p, "blight_added")] == ["A1", "A6", "A5", "A7"]
    # lands without Blight are offered first, so the first legal choice ends the cascade
    assert asked(p, "cascade")[0][:2] == ("A2", "A4")


def test_each_added_blight_destroys_one_presence_of_each_spirit() -> None:
    """Research notes §2.4: adding Blight destroys 1 Presence of each Spirit there, cascades too."""
    spirits = [
        {"name": "River", "presence": {"A1": 2, "A6": 1, "A3": 1}},
        {"name": "Earth", "presence": {"A1": 1, "A3": 1}},
    ]
    sc, p = play(
        doc(lands={**KEEP, "A1": "T B", "A6": "B"}, spirits=spirits, invader_board={"ravage": ["1M"]}),
        decisions=("A6", "A5"),
    )
    destroyed = [(e.get("land"), e.get("spirit")) for e in events(p, "presence_destroyed")]
    assert destroyed == [("A1", "Earth"), ("A1", "River"), ("A6", "River")]
    assert p.final.lands[sc.island.index("A1")].presence == (("River", 1),)


def test_blight_added_to_the_last_presence_loses_the_game() -> None:
    """Research notes §2.4/§2.5: a Spirit with no Presence left is destroyed: the players lose."""
    _, p = ravage({"A1": "T"}, spirits=[{"name": "River", "presence": {"A1": 1}}])
    assert p.final.outcome is not None and p.final.outcome.result == "loss"
    assert "River" in p.final.outcome.reason


def test_big_ravage_kills_two_dahan_and_survivors_fight_back() -> None:
    sc, p = ravage({"A1": "4D 2C T"})  # 8 Damage: 4 Dahan destroyed, none left to fight back
    (hit,) = events(p, "ravaged")
    assert (hit.get("hits"), hit.get("dahan_destroyed")) == (8, 4)
    assert events(p, "dahan_fought_back") == []
    assert pieces(sc, p.final, "A1") == "2C T B"


def test_land_order_decision_lists_every_ravaged_land() -> None:
    """Seed 002, FAQ Invaders: lands of one card in an order of the players' choice."""
    _, p = ravage({"A1": "E", "A6": "E"})
    assert asked(p, "land-order") == [("A1", "A6")]
