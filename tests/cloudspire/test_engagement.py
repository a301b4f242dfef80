"""Seed 004, Engagement: the Strategy phase (Place Spires, Commit & Roll, Apply Dice), Spires Fire
and the Resolve phase (Suffer Damage, After Effects, Exhaust Dice, Recover Dice, Cleanup)."""

from __future__ import annotations

from tests.cloudspire.helpers import asked, doc, events, only_pool, play, zone

WATER = {"L-top": "Water Tower"}


# -- Place Spires Step -------------------------------------------------------------------------------


def test_spires_are_placed_from_the_inventory_into_open_spaces() -> None:
    d = doc(
        start="strategy",
        inventory=["Water Tower", "Tide Chart"],
        spires={"L-middle": "Lighthouse"},
        dice=only_pool(),
    )
    _, p = play(d, ("place Harbor-1 R-bottom",))
    assert asked(p, "place")[0][:2] == ("place Harbor-1 L-top", "place Harbor-1 L-bottom")
    assert "place Harbor-1 L-middle" not in asked(p, "place")[0]  # one card per space
    assert p.final.spire_at("R-bottom") is not None and p.final.inventory == ("Harbor-4",)


def test_a_spire_in_the_inventory_is_inert() -> None:
    """Spires and Inventory: its blueprints cannot be used."""
    d = doc(start="load", inventory=["Water Tower"], dice=only_pool(committed={"B1": "hit"}))
    _, p = play(d)
    assert asked(p, "load") == [("load B1 hero.bp1", "done")]


# -- Apply Dice Step and Blueprints --------------------------------------------------------------------


def test_colours_must_match_the_blueprint() -> None:
    """Apply Dice Step: Colors Must Match (Water Tower takes a blue and a yellow die)."""
    d = doc(start="load", spires=WATER, dice=only_pool(committed={"B1": "hit", "G1": "hit"}))
    _, p = play(d)
    options = asked(p, "load")[0]
    assert options == ("load B1 L-top.bp1", "load B1 hero.bp1", "done")


def test_misses_load_only_onto_spires_never_the_hero() -> None:
    d = doc(start="load", spires=WATER, dice=only_pool(committed={"B1": "miss", "Y1": "miss"}))
    _, p = play(d)
    assert asked(p, "load")[0] == ("load Y1 L-top.bp2", "load B1 L-top.bp1", "done")


def test_a_wild_blueprint_takes_any_colour() -> None:
    d = doc(start="load", spires={"R-middle": "Lighthouse"}, dice=only_pool(committed={"P1": "hit"}))
    _, p = play(d)
    assert asked(p, "load")[0] == ("load P1 R-middle.bp2", "done")


def test_ignoring_blueprints_loads_any_colour_on_monolant() -> None:
    """Ignoring Blueprints: the die is placed elsewhere on the card and used as if on a blueprint."""
    d = doc(
        start="load",
        spires={"L-bottom": "Monolant"},
        lanes={"bottom": ["Moss Lurker"]},
        dice=only_pool(committed={"G1": "crit", "R1": "hit"}),
    )
    _, p = play(d, ("load G1 L-bottom.free1", "load R1 L-bottom.free2", "apply G1 bottom", "apply R1 bottom"))
    assert asked(p, "load")[0] == (
        "load G1 L-bottom.free1",
        "load G1 L-bottom.free2",
        "load R1 L-bottom.free1",
        "load R1 L-bottom.free2",
        "done",
    )
    assert [e.get("card") for e in events(p, "enemy_defeated")] == ["Driftwood-4"]  # a crit (2) and a hit (1)


def test_drilling_outpost_creates_a_red_blueprint_for_the_round() -> None:
    """Created Blueprints: Drilling Outpost in the inventory gives an active spire a red blueprint;
    the die loaded there is exhausted at the end of the round."""
    d = doc(inventory=["Drilling Outpost"], spires={"L-middle": "Water Tower"}, dice=only_pool("R1"))
    _, p = play(d, ("done", "commit red", "load R1 L-middle.drill1", "done"), ("hit",))
    assert [e.get("space") for e in events(p, "blueprint_created")] == ["L-middle"]
    assert [(e.get("die"), e.get("reason")) for e in events(p, "die_exhausted")] == [
        ("R1", "created blueprint ends")
    ]
    assert asked(p, "keep") == []  # not kept: it is exhausted at the end of the round anyway


def test_rolls_allow_a_first_roll_plus_strategy_rerolls() -> None:
    """Commit Dice & Roll Dice Steps, ruling CS-ROLLS default: Strategy 2 gives three rolls."""
    d = doc(start="strategy", dice=only_pool("Y1"))
    _, p = play(d, ("commit yellow", "roll", "roll", "roll"))
    assert [e.get("roll") for e in events(p, "dice_rolled")] == [1, 2, 3]
    assert [e.get("die") for e in events(p, "die_exhausted")] == ["Y1"]  # committed, never loaded


# -- Spires Fire Phase ----------------------------------------------------------------------------


def test_hero_hits_reach_only_the_bottom_lane() -> None:
    d = doc(
        start="fire",
        lanes={"middle": ["Bark Brute"], "bottom": ["Moss Lurker"]},
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "hit"}}),
    )
    _, p = play(d, ("done",))
    assert asked(p, "fire") == [("apply B1 bottom", "done")]


def test_spire_hits_reach_only_their_row() -> None:
    d = doc(
        start="fire",
        spires={"R-middle": "Water Tower"},
        lanes={"middle": ["Bark Brute"], "bottom": ["Moss Lurker"]},
        dice=only_pool(loaded={"B1": {"slot": "R-middle.bp1", "face": "crit"}}),
    )
    _, p = play(d, ("done",))
    assert asked(p, "fire") == [("apply B1 middle", "done")]


def test_loaded_misses_are_not_applied() -> None:
    d = doc(
        start="fire",
        spires=WATER,
        lanes={"top": ["Bark Brute"]},
        dice=only_pool(loaded={"B1": {"slot": "L-top.bp1", "face": "miss"}}),
    )
    _, p = play(d)
    assert asked(p, "fire") == []


def test_dice_on_an_undefeated_enemy_carry_their_damage_over() -> None:
    """Exhaust Dice Step: dice applied to undefeated enemies and their damage carry over."""
    d = doc(
        start="fire",
        lanes={"bottom": ["Bark Brute"]},
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
        rounds=2,
    )
    sc, p = play(d, ("apply B1 bottom",))
    assert p.final.die("B1").zone.value == "applied" and p.final.die("B1").card == "Driftwood-2"
    assert sc.game().damage_taken(p.final, "Driftwood-2") == 2


# -- Suffer Damage Step -------------------------------------------------------------------------------


def test_loaded_misses_absorb_damage_before_the_spire_can_be_damaged() -> None:
    d = doc(
        start="resolve",
        spires={"L-bottom": "Water Tower"},
        lanes={"bottom": ["Bark Brute"]},
        dice=only_pool(loaded={"B1": {"slot": "L-bottom.bp1", "face": "miss"}}),
    )
    _, p = play(d, ("miss L-bottom.bp1", "spire L-bottom"))
    assert asked(p, "damage") == [("miss L-bottom.bp1", "hero"), ("spire L-bottom", "hero")]
    assert [e.get("die") for e in events(p, "miss_removed")] == ["B1"]
    assert [e.get("space") for e in events(p, "spire_defeated")] == ["L-bottom"]
    assert p.final.health == 15
    # Cleanup: the defeated spire goes to the single discard, allied item side up.
    assert p.final.discard == (("Harbor-1", "item"),)
    assert p.final.spire_at("L-bottom") is None


def test_an_enemy_deals_all_its_damage_before_the_next_one_attacks() -> None:
    d = doc(
        start="resolve",
        spires={"L-bottom": "Water Tower", "R-top": "Lighthouse"},
        lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]},
        dice=only_pool(),
    )
    _, p = play(d, ("attack top", "spire R-top", "hero", "hero"))
    assert asked(p, "attack-order") == [("attack bottom", "attack top")]
    kinds = [e.kind for e in p.events if e.kind in ("attack_started", "spire_defeated", "health_lost")]
    assert kinds == ["attack_started", "spire_defeated", "attack_started", "health_lost", "health_lost"]


def test_a_middle_lane_enemy_cannot_reach_the_hero() -> None:
    d = doc(start="resolve", lanes={"middle": ["Bark Brute"]}, dice=only_pool())
    _, p = play(d)
    assert events(p, "attack_started") == [] and p.final.health == 15


def test_a_ranged_enemy_reaches_the_hero_from_any_lane() -> None:
    d = doc(start="resolve", lanes={"top": ["Tide Lancer"]}, dice=only_pool())
    _, p = play(d)
    assert p.final.health == 13


def test_an_enemy_without_targets_left_stops() -> None:
    d = doc(
        start="resolve",
        spires={"L-middle": "Water Tower"},
        lanes={"middle": ["Brine Serpent"]},
        dice=only_pool(),
    )
    _, p = play(d)
    assert [e.get("unused") for e in events(p, "attack_ended")] == [2]


# -- After Effects, Exhaust, Recover -----------------------------------------------------------------


def test_after_effects_resolve_for_enemies_in_play() -> None:
    d = doc(start="resolve", lanes={"middle": ["Moss Lurker"]}, dice=only_pool())
    _, p = play(d)
    assert [(e.get("cause"), e.get("amount")) for e in events(p, "health_lost")] == [("after-effect", 1)]


def test_exhaust_dice_step() -> None:
    """Exhaust dice on defeated enemies and committed dice not loaded; choose for loaded dice."""
    d = doc(
        start="fire",
        spires=WATER,
        lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]},
        dice=only_pool(
            committed={"G1": "hit"},
            loaded={
                "B1": {"slot": "L-top.bp1", "face": "crit"},
                "Y1": {"slot": "L-top.bp2", "face": "miss"},
                "B2": {"slot": "hero.bp1", "face": "hit"},
            },
        ),
    )
    _, p = play(d, ("apply B1 top", "apply B2 bottom", "keep Y1"))
    exhausted = {e.get("die"): e.get("reason") for e in events(p, "die_exhausted")}
    assert exhausted == {"B1": "on a defeated enemy", "G1": "committed, not loaded"}
    assert zone(p.final, "B2") == "applied"  # on the undefeated Bark Brute
    assert zone(p.final, "Y1") == "loaded"  # kept for the next round
    assert asked(p, "keep") == [("keep Y1", "exhaust Y1")]


def test_recovery_returns_up_to_recovery_dice_plus_bonuses() -> None:
    """Recover Dice: Recovery 3, plus 1 for the Tide Chart in the inventory."""
    d = doc(
        start="resolve",
        inventory=["Tide Chart"],
        dice=only_pool(exhausted=["Y1", "Y2", "G1", "G2", "B1", "R1"]),
    )
    _, p = play(d, ("recover red", "recover blue", "recover green", "recover yellow"))
    assert sorted(e.get("die") for e in events(p, "die_recovered")) == ["B1", "G1", "R1", "Y1"]


# -- Rewards ------------------------------------------------------------------------------------------------


def test_draw_keep_reward_cycles_unkept_cards_to_the_market_bottom() -> None:
    """ "Draw/Keep" Rewards: unkept cards go to the bottom of the Market Stack in a chosen order."""
    d = doc(
        start="fire",
        lanes={"bottom": ["Corona Beast"]},
        market=["Lighthouse", "Tide Chart", "Salt Pork", "Kite String"],
        dice=only_pool(
            applied={"P1": {"card": "Corona Beast", "face": "crit"}},
            loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
        ),
    )
    _, p = play(d, ("apply B1 bottom", "keep-card Harbor-5", "bottom Harbor-4", "inventory"))
    assert [e.get("card") for e in events(p, "card_drawn")] == ["Harbor-3", "Harbor-4", "Harbor-5"]
    assert p.final.market.cards == ("Gale-4", "Harbor-4", "Harbor-3")
    assert p.final.inventory == ("Harbor-5",)
    assert [e.get("cause") for e in events(p, "health_gained")] == ["item"]  # Salt Pork: +2 on gain


def test_a_claim_reward_gains_the_enemy_cards_item_side() -> None:
    d = doc(
        start="fire",
        recovery=0,
        lanes={"bottom": ["Aegis"]},
        dice=only_pool(
            applied={"P1": {"card": "Aegis", "face": "crit"}, "P2": {"card": "Aegis", "face": "hit"}},
            loaded={
                "B1": {"slot": "hero.bp1", "face": "hit"},
                "B2": {"slot": "L-bottom.free1", "face": "hit"},
            },
        ),
        spires={"L-bottom": "Monolant"},
    )
    _, p = play(d, ("apply B1 bottom", "apply B2 bottom", "activate R-bottom"))
    assert [e.get("card") for e in events(p, "card_gained")] == ["Cobalt-1"]
    assert p.final.spire_at("R-bottom") is not None and p.final.spire_at("R-bottom").card == "Cobalt-1"  # type: ignore[union-attr]
    assert p.final.discard == ()
    assert [e.get("damage") for e in events(p, "die_applied")] == [1, 1]  # armored: a crit counts 1


def test_instant_rewards_resolve_on_defeat() -> None:
    d = doc(
        start="fire",
        health=10,
        lanes={"bottom": ["Log Runner"]},
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
    )
    _, p = play(d, ("apply B1 bottom",))
    assert [(e.get("cause"), e.get("amount")) for e in events(p, "health_gained")] == [("reward", 1)]
    assert p.final.health == 11


def test_cleanup_exhausts_dice_left_on_a_defeated_spire() -> None:
    """Cleanup Step: defeated spires go to the discard; their remaining loaded dice are exhausted."""
    d = doc(
        start="resolve",
        recovery=0,
        spires={"L-bottom": "Water Tower"},
        lanes={"bottom": ["Bark Brute"]},
        dice=only_pool(loaded={"B1": {"slot": "L-bottom.bp1", "face": "hit"}}),
    )
    _, p = play(d, ("spire L-bottom",))
    assert asked(p, "keep") == []  # no keep-or-exhaust choice for a die on a defeated spire
    assert [(e.get("die"), e.get("reason")) for e in events(p, "die_exhausted")] == [
        ("B1", "on a defeated spire")
    ]
    assert p.final.discard == (("Harbor-1", "item"),)
