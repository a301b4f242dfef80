"""Seed 004: Spires (gaining by banishing, inventory), Mini-Heroes, The Discard, Endgame, Setup,
Universal Heroes and More Adversity."""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.dice import Zone
from invasion_oracle.model.cloudspire.scenario import scenario_from_document
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.decisions import ChanceRequest
from tests.cloudspire.helpers import asked, doc, events, only_pool, play

# -- Gaining & Placing Spires --------------------------------------------------------------------------


def test_banishing_a_pool_die_gains_a_spire_from_the_market_which_is_then_shuffled() -> None:
    d = doc(
        start="strategy",
        discard=["Water Tower"],
        market=["Tide Chart", "Lattice", "Kite String"],
        dice=only_pool("Y1"),
    )
    _, p = play(d, ("banish yellow", "gain Gale-1 market", "activate L-top"))
    assert "banish yellow" in asked(p, "commit")[0]
    assert asked(p, "gain-spire") == [("gain Harbor-1 discard", "gain Gale-1 market")]
    assert p.final.die("Y1").zone is Zone.BANISHED
    assert p.final.spire_at("L-top") is not None
    assert p.final.market.top == () and p.final.market.shuffled == ("Gale-4", "Harbor-4")
    assert [e.get("cards") for e in events(p, "market_shuffled")] == [2]


def test_a_spire_gained_from_the_discard_can_go_to_the_inventory() -> None:
    d = doc(start="strategy", discard=["Water Tower"], dice=only_pool("Y1"))
    _, p = play(d, ("banish yellow", "inventory"))
    assert p.final.inventory == ("Harbor-1",) and p.final.discard == ()
    assert events(p, "market_shuffled") == []


def test_only_face_up_sides_can_be_retrieved_from_the_discard() -> None:
    """The Discard: a defeated Aegis lies enemy side up; its Lance Launcher cannot be gained."""
    d = doc(start="strategy", discard=["Aegis"], dice=only_pool("Y1"))
    _, p = play(d, ("commit yellow", "stop"))
    assert all(not o.startswith("banish") for o in asked(p, "commit")[0])
    assert p.final.discard == (("Cobalt-1", "enemy"),)


def test_an_enemy_card_serving_as_an_item_is_discarded_enemy_side_up() -> None:
    d = doc(start="resolve", spires={"L-bottom": "Aegis"}, lanes={"bottom": ["Bark Brute"]}, dice=only_pool())
    _, p = play(d, ("spire L-bottom",))
    assert p.final.discard == (("Cobalt-1", "enemy"),)


def test_a_full_inventory_asks_to_make_room() -> None:
    """Spires and Inventory: the inventory limit is the Strategy stat (data value, assumed)."""
    d = doc(
        start="fire",
        inventory=["Tide Chart", "Kite String"],
        lanes={"bottom": ["Prism Wisp"]},
        market=["Salt Pork", "Ore Satchel"],
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
    )
    _, p = play(d, ("apply B1 bottom", "keep-card Harbor-5", "discard Harbor-4"))
    assert asked(p, "make-room") == [("discard Harbor-4", "discard Gale-4", "decline")]
    assert p.final.inventory == ("Gale-4", "Harbor-5")
    assert ("Harbor-4", "item") in p.final.discard
    assert p.final.market.cards == ("Basalt-5",)


def test_mini_heroes_do_not_count_against_the_inventory_limit() -> None:
    """Mini-Heroes: placed in the inventory, not counted against its limit."""
    d = doc(
        start="fire",
        inventory=["Gale Kite", "Tide Chart"],
        lanes={"bottom": ["Prism Wisp"]},
        market=["Salt Pork", "Ore Satchel"],
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
    )
    _, p = play(d, ("apply B1 bottom", "keep-card Harbor-5"))
    assert asked(p, "make-room") == []
    assert p.final.inventory == ("Gale-M", "Harbor-4", "Harbor-5")


def test_a_mini_heros_ability_works_from_the_inventory() -> None:
    d = doc(
        start="resolve", inventory=["Gale Kite"], dice=only_pool(exhausted=["Y1", "Y2", "Y3", "Y4", "G1"])
    )
    _, p = play(d, ("recover yellow",) * 4)
    assert len(events(p, "die_recovered")) == 4  # Recovery 3 + 1


# -- Endgame --------------------------------------------------------------------------------------------


def test_the_boss_joins_the_deployment_stack_after_the_last_enemy_activates() -> None:
    d = doc(deployment=["Bark Brute"], dice=only_pool())
    _, p = play(d)
    assert [e.get("card") for e in events(p, "boss_added")] == ["Driftwood-H"]
    assert p.final.deployment.cards == ("Driftwood-H",) and p.final.boss_added


def test_defeating_everything_with_an_empty_stack_wins() -> None:
    d = doc(
        start="fire",
        boss_added=True,
        lanes={"bottom": ["Driftwood Leviathan"]},
        dice=only_pool(
            applied={f"P{i}": {"card": "Driftwood Leviathan", "face": "crit"} for i in range(1, 5)},
            loaded={"B1": {"slot": "hero.bp1", "face": "crit"}},
        ),
    )
    _, p = play(d, ("apply B1 bottom",))
    assert p.final.outcome is not None and p.final.outcome.result == "win"
    assert p.final.defeated == ("Driftwood-H",)


def test_health_below_one_loses() -> None:
    d = doc(start="resolve", health=1, lanes={"bottom": ["Bark Brute"]}, dice=only_pool())
    _, p = play(d)
    assert p.final.outcome is not None and p.final.outcome.result == "loss" and p.final.health == 0


def test_totals_equal_the_sum_of_their_events() -> None:
    d = doc(
        lanes={"bottom": ["Bark Brute"], "top": ["Halo Drone"]},
        deployment=["Log Runner", "Moss Lurker"],
        rounds=3,
        dice=only_pool("B1", "B2", "Y1"),
    )
    _, p = play(d)
    assert p.final.health_lost == sum(e.get("amount") for e in events(p, "health_lost"))
    assert p.final.health_gained == sum(e.get("amount") for e in events(p, "health_gained"))
    assert len(p.final.defeated) == len(events(p, "enemy_defeated"))
    assert p.final.health == 15 - p.final.health_lost + p.final.health_gained


# -- Setup, Universal Heroes, More Adversity ----------------------------------------------------------


def _setup(setup: dict[str, Any]) -> tuple[Any, GameState, list[ChanceRequest]]:
    sc = scenario_from_document({"game": "cloudspire", "start": "setup", "setup": setup}, "test.json")
    game = sc.game()
    state, _ = game.start(sc.initial)
    seen = []
    while isinstance(state.request, ChanceRequest) and state.request.source in ("boss", "mini-boss"):
        seen.append(state.request)
        state, _ = game.step(state, state.request.outcomes[0])
    return sc, state, seen


def test_setup_builds_the_market_the_boss_and_the_deployment_stack() -> None:
    """Setup steps 1-4 (step 4 by ruling CS-DEPLOYMENT-MAKEUP: the boss's faction and mini-boss)."""
    _, state, seen = _setup({"hero": "Harbor Keeper", "mini_heroes": ["Gale Kite", "Basalt"]})
    assert state.allied == ("Harbor", "Gale", "Basalt")
    assert state.inventory == ("Harbor-1", "Harbor-2")  # the two Water Towers
    assert len(state.market) == 16 and state.market.needs_reveal  # 13 conflict cards + 3 mini-heroes
    assert "Harbor-M" in state.market.cards
    assert seen[0].outcomes == ("Aurora-H", "Cobalt-H", "Driftwood-H", "Ember-H", "Frost-H", "Ivory-H")
    assert state.boss == "Aurora-H"
    assert sorted(state.deployment.cards) == [
        "Aurora-1",
        "Aurora-2",
        "Aurora-3",
        "Aurora-4",
        "Aurora-5",
        "Aurora-M",
    ]
    assert (state.health, state.strategy, state.recovery) == (15, 2, 3)
    assert len(state.in_zone(Zone.POOL)) == 17


def test_renown_adds_random_mini_bosses() -> None:
    """More Adversity: renown 3 shuffles two more mini-bosses into the Deployment Stack."""
    _, state, seen = _setup(
        {"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Basalt"], "boss": "Ember Tyrant", "renown": 3}
    )
    assert [r.source for r in seen] == ["mini-boss", "mini-boss"]
    assert seen[0].outcomes == ("Aurora-M", "Cobalt-M", "Driftwood-M", "Frost-M", "Ivory-M")
    assert len(state.deployment) == 8


def test_a_universal_hero_chooses_three_mini_heroes_and_two_same_name_spires() -> None:
    _, state, _ = _setup(
        {
            "hero": "Wayfarer",
            "mini_heroes": ["Harbor", "Gale", "Basalt"],
            "starting_spires": ["Lattice", "Lattice"],
        }
    )
    assert state.inventory == ("Gale-1", "Gale-2") and state.allied == ("Harbor", "Gale", "Basalt")
    assert len(state.market) == 16


def test_a_universal_hero_has_no_blueprint() -> None:
    d = doc(start="load", hero="Wayfarer", dice=only_pool(committed={"B1": "hit"}))
    _, p = play(d)
    assert asked(p, "load") == []


def test_a_universal_heros_added_enemies_join_the_non_boss_enemy_closest_to_the_hero() -> None:
    d = doc(
        start="strategy",
        hero="Wayfarer",
        lanes={"middle": ["Reed Archer"], "bottom": ["Driftwood Hulk"]},
        deployment=["Snow Mite", "Tide Lancer", "Bark Brute"],
        dice=only_pool(),
    )
    _, p = play(d)
    assert p.final.lanes[1] == ("Driftwood-3", "Frost-1", "Cobalt-2")  # Snow Mite's own icon chains
    assert p.final.deployment.cards == ("Driftwood-2",)
