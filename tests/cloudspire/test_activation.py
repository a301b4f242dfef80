"""Seed 004, Round Structure: Activation (Cycle Enemies, Advance Enemies) and Enemy Stacks."""

from __future__ import annotations

from tests.cloudspire.helpers import asked, doc, events, only_pool, play, zone


def _deployed(p: object) -> list[str]:
    return [e.get("card") for e in events(p, "enemy_deployed")]  # type: ignore[arg-type]


# -- Cycle Enemies Phase ---------------------------------------------------------------------------


def test_cycle_moves_the_top_card_to_the_bottom_for_a_pool_die() -> None:
    """Cycle Enemies Phase: exhaust a pool die to move the top card of the stack to the bottom."""
    d = doc(deployment=["Aegis", "Tide Lancer", "Riptide Skiff"], dice=only_pool("Y1", "G1"))
    _, p = play(d, ("cycle yellow", "stop", "stop"))
    assert events(p, "enemy_cycled")[0].get("card") == "Cobalt-1"
    assert _deployed(p) == ["Cobalt-2"]
    assert [(e.get("die"), e.get("reason")) for e in events(p, "die_exhausted")] == [("Y1", "cycle")]
    assert p.final.deployment.cards == ("Cobalt-3", "Cobalt-1")


def test_cycle_at_most_as_often_as_the_pool_has_dice() -> None:
    """...as many times as the number of dice in your dice pool."""
    d = doc(deployment=["Aegis", "Tide Lancer", "Riptide Skiff"], dice=only_pool("Y1", "G1"))
    _, p = play(d, ("cycle yellow", "cycle green", "stop"))
    assert len(asked(p, "cycle")) == 2  # the pool is empty after two cycles
    assert _deployed(p) == ["Cobalt-3"]


def test_cycle_is_optional() -> None:
    d = doc(deployment=["Aegis", "Tide Lancer"], dice=only_pool("Y1"))
    _, p = play(d, ("stop", "stop"))
    assert _deployed(p) == ["Cobalt-1"]
    assert zone(p.final, "Y1") == "pool"


# -- Advance Enemies Phase --------------------------------------------------------------------------


def test_enemies_advance_then_the_top_card_deploys() -> None:
    """Advance Enemies Phase: middle to bottom, top to middle, then deploy into the top lane."""
    d = doc(
        lanes={"top": ["Reed Archer"], "middle": ["Moss Lurker"]}, deployment=["Bark Brute"], dice=only_pool()
    )
    _, p = play(d)
    moves = [(e.get("card"), e.get("to")) for e in events(p, "enemy_advanced")]
    assert moves == [("Driftwood-4", "bottom"), ("Driftwood-3", "middle")]
    assert p.final.lanes == (("Driftwood-2",), ("Driftwood-3",), ("Driftwood-4",))
    assert not events(p, "deployment_failed")


def test_blocked_moves_do_not_happen_and_failed_deployment_costs_one_health() -> None:
    """...do not make that move; if no new enemy was deployed, the hero loses 1 Health."""
    d = doc(
        lanes={"top": ["Reed Archer"], "middle": ["Moss Lurker"], "bottom": ["Bark Brute"]},
        deployment=["Snow Mite"],
        dice=only_pool(),
    )
    _, p = play(d)
    assert events(p, "enemy_advanced") == []
    assert [e.get("reason") for e in events(p, "deployment_failed")] == ["blocked"]
    assert [e.get("amount") for e in events(p, "health_lost") if e.get("cause") == "deployment-failed"] == [1]
    assert p.final.deployment.cards == ("Frost-1",)


def test_a_free_middle_lane_lets_the_top_enemy_move_and_a_new_one_deploy() -> None:
    d = doc(
        lanes={"top": ["Reed Archer"], "bottom": ["Bark Brute"]}, deployment=["Snow Mite"], dice=only_pool()
    )
    _, p = play(d)
    assert p.final.lanes == (("Frost-1",), ("Driftwood-3",), ("Driftwood-2",))


def test_activation_effects_trigger_on_the_first_activation_only() -> None:
    """Activation Effects Trigger Now: when the enemy is activated for the first time."""
    d = doc(deployment=["Halo Drone", "Bark Brute"], dice=only_pool(), rounds=2)
    _, p = play(d)
    activation = [e for e in events(p, "health_lost") if e.get("cause") == "activation"]
    assert [(e.get("card"), e.get("amount")) for e in activation] == [("Aurora-3", 1)]
    assert [e.get("card") for e in events(p, "enemy_activated")] == ["Aurora-3", "Driftwood-2"]


def test_an_exhaust_pool_activation_effect_asks_which_die() -> None:
    d = doc(deployment=["Hail Caller"], dice=only_pool("Y1", "B1"))
    _, p = play(d, ("exhaust-pool blue",))
    assert asked(p, "exhaust-pool") == [("exhaust-pool yellow", "exhaust-pool blue")]
    assert [e.get("die") for e in events(p, "die_exhausted")][:1] == ["B1"]


# -- Enemy Stacks ---------------------------------------------------------------------------------


def test_an_additional_enemy_icon_puts_the_next_card_under_the_deployed_enemy() -> None:
    """Additional Enemy Icons: the next enemy goes under the one that activated it."""
    d = doc(deployment=["Prism Wisp", "Glare Knight", "Halo Drone"], dice=only_pool())
    _, p = play(d)
    assert p.final.lanes[0] == ("Aurora-1", "Aurora-2")
    assert p.final.deployment.cards == ("Aurora-3",)
    # Only the top card activated; effects of the card added under are ignored.
    assert [e.get("card") for e in events(p, "enemy_activated")] == ["Aurora-1"]


def test_additional_enemies_chain_while_added_cards_have_icons() -> None:
    d = doc(
        deployment=["Bone Acolyte", "Spark Imp", "Snow Mite", "Bark Brute", "Reed Archer"], dice=only_pool()
    )
    _, p = play(d)
    assert p.final.lanes[0] == ("Ivory-1", "Ember-1", "Frost-1", "Driftwood-2")
    assert p.final.deployment.cards == ("Driftwood-3",)


def test_an_icon_with_an_empty_deployment_stack_is_ignored() -> None:
    d = doc(deployment=["Prism Wisp"], dice=only_pool())
    _, p = play(d)
    assert [e.get("reason") for e in events(p, "additional_enemy_ignored")] == ["deployment-empty"]
    assert p.final.lanes[0] == ("Aurora-1",)


def test_an_icon_that_would_deploy_a_mini_boss_is_ignored() -> None:
    d = doc(deployment=["Prism Wisp", "Cobalt Warden"], dice=only_pool())
    _, p = play(d)
    assert [e.get("reason") for e in events(p, "additional_enemy_ignored")] == ["next-is-boss"]
    assert p.final.deployment.cards == ("Cobalt-M",)


def test_icons_resolve_only_on_deployment_not_when_a_stack_advances() -> None:
    d = doc(
        lanes={"top": ["Prism Wisp"]},
        activated=["Prism Wisp"],
        deployment=["Bark Brute", "Reed Archer"],
        dice=only_pool(),
    )
    _, p = play(d)
    assert p.final.lanes[1] == ("Aurora-1",)
    assert p.final.lanes[0] == ("Driftwood-2",)
    assert events(p, "enemy_added") == []


def test_a_stack_advances_as_a_group() -> None:
    d = doc(lanes={"middle": ["Glare Knight", "Brine Serpent"]}, dice=only_pool(), deployment=["Bark Brute"])
    _, p = play(d)
    assert p.final.lanes[2] == ("Aurora-2", "Cobalt-5")


def test_only_the_top_card_of_a_stack_deals_damage() -> None:
    """Enemy Stacks: only the top card can deal damage."""
    d = doc(start="resolve", lanes={"bottom": ["Glare Knight", "Brine Serpent"]}, dice=only_pool())
    _, p = play(d)
    hits = [e for e in events(p, "health_lost") if e.get("cause") == "attack"]
    assert {e.get("card") for e in hits} == {"Aurora-2"}
    assert sum(e.get("amount") for e in hits) == 2


def test_only_the_top_card_takes_dice_and_the_next_is_revealed_on_defeat() -> None:
    """...the next enemy in the stack is revealed and activates; its icons are ignored."""
    d = doc(
        start="fire",
        lanes={"bottom": ["Reed Archer", "Prism Wisp"]},
        activated=["Reed Archer"],
        deployment=["Bark Brute"],
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
    )
    _, p = play(d, ("apply B1 bottom", "done"))
    applied = events(p, "die_applied")
    assert [(e.get("card"), e.get("damage")) for e in applied] == [("Driftwood-3", 2)]
    assert [e.get("card") for e in events(p, "enemy_revealed")] == ["Aurora-1"]
    assert [e.get("card") for e in events(p, "enemy_activated")] == ["Aurora-1"]
    assert events(p, "enemy_added") == []  # the revealed Prism Wisp's icon is ignored
    assert p.final.deployment.cards == ("Driftwood-2",)
