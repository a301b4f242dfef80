"""Seed 003, Warlord Powers: each power alone (as a goal reward, so LEAD's unlocking is apart)."""

from __future__ import annotations

from tests.vulketh.helpers import asked, effect_turn, events, invaders, play, players


def power(name: str) -> list[dict[str, str]]:
    return [{"effect": "power", "power": name}]


def test_steal_resources_takes_everything_the_player_has() -> None:
    document = effect_turn(
        power("steal-resources"), hexes={"1": {"invaders": 1}}, resources={"food": 2, "wood": 1}
    )
    _, p = play(document)
    assert events(p, "resources_stolen")[0].get("change") == 3
    assert p.final.resources.total == 0


def test_convert_takes_one_member_in_each_hex_holding_or_touching_a_warlord() -> None:
    hexes = {
        "1": {"warlord": "war", "player": 1},
        "2": {"player": 2},
        "3": {"player": 1, "invaders": 1},
        "5": {"player": 2},
    }
    _, p = play(effect_turn(power("convert"), hexes=hexes))
    assert [e.get("hex") for e in events(p, "converted")] == [1, 2, 3]
    assert players(p.final)[:5] == (0, 1, 0, 0, 2)
    assert invaders(p.final)[:5] == (1, 1, 2, 0, 0)
    assert (p.final.player_supply, p.final.invader_supply) == (20 - 6 + 3, 20 - 1 - 3)


def test_convert_pulls_from_the_overrun_reserve_when_the_supply_is_empty() -> None:
    hexes = {
        "1": {"warlord": "war", "player": 1},
        "2": {"player": 1},
        "3": {"player": 1},
        "9": {"invaders": 1},
    }
    members = {"values": {"invader_members": 2}}  # one on the map, one in the supply
    _, p = play(effect_turn(power("convert"), hexes=hexes, supply={"invaders": 1}, score=5, data=members))
    assert [e.get("source") for e in events(p, "converted")] == ["supply", "reserve", "reserve"]
    assert (p.final.reserve, p.final.score) == (3, 3)


def test_spread_uses_the_hexes_that_had_invaders_before_it_started() -> None:
    _, p = play(effect_turn(power("spread"), hexes={"1": {"invaders": 2}}))
    assert [e.get("hex") for e in events(p, "spread")] == [2, 3]  # not 4 or 5, next to the new ones
    assert invaders(p.final)[:5] == (2, 1, 1, 0, 0)


def test_regress_returns_developments_and_turns_a_chosen_technology_back() -> None:
    document = effect_turn(
        power("regress"), hexes={"1": {"invaders": 1}}, developments=3, bronze={"Axe": 2, "Kiln": 1}
    )
    _, p = play(document, decisions=("Kiln",))
    assert asked(p, "regress-tech") == [("Axe", "Kiln")]
    assert p.final.developments == 0
    assert dict(p.final.bronze) == {"Axe": 2, "Kiln": 0}


def test_regress_never_discards_a_technology_that_cannot_go_back() -> None:
    _, p = play(effect_turn(power("regress"), hexes={"1": {"invaders": 1}}, bronze={"Axe": 0}))
    assert events(p, "tech_not_regressed") and dict(p.final.bronze) == {"Axe": 0}


def test_war_resolves_every_shared_hex_even_below_the_limit_and_spares_warlords() -> None:
    hexes = {
        "2": {"warlord": "convert", "player": 1, "invaders": 2},
        "4": {"player": 3, "invaders": 1},
        "6": {"invaders": 2},
    }
    _, p = play(effect_turn(power("war"), hexes=hexes, invader_resources=3))
    assert events(p, "war")[0].get("hexes") == (2, 4)
    assert (p.final.hex(2).player, p.final.hex(2).invaders, p.final.hex(2).warlord) == (0, 1, "convert")
    assert (p.final.hex(4).player, p.final.hex(4).invaders) == (2, 0)
    lost = events(p, "invaders_lost_resources")
    assert [(e.get("hex"), e.get("change")) for e in lost] == [(4, -1)]
