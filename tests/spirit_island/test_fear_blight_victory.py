"""Seed 002, Fear (Invader Phase 2) and the Fear/Terror rules (research notes §2.3), the Blight
card (§2.4), and victory and defeat (§2.5; a simultaneous win and loss is a win)."""

from __future__ import annotations

from invasion_oracle.model.spirit_island.pieces import parse_land
from invasion_oracle.model.spirit_island.scenario import scenario_from_document
from tests.spirit_island.helpers import asked, doc, events, pieces, play

KEEP = {"A8": "C"}
ALL = [
    "Wary Settlers",
    "Coastal Flight",
    "Halted Expansion",
    "Crumbling Outposts",
    "Dahan Raid",
    "Rising Dread",
    "Stalled Ravage",
    "Frail Outposts",
    "Scattered Explorers",
    "Blank Fear",
]


def fear(**fields: object) -> dict[str, object]:
    """A Fear track whose deck is all Blank Fear draws (from every card, so there are enough)."""
    earned = list(fields.get("earned", []))  # type: ignore[call-overload]
    before = int(fields.get("earned_before", 0))  # type: ignore[call-overload]
    return {"cards": ALL, "deck": ["draw"] * (9 - before - len(earned)), **fields}


def test_fear_pool_is_four_per_player_and_leftover_fear_carries_over() -> None:
    """Research notes §2.3: 4 markers per player; an empty pool earns a card and refills."""
    sc = scenario_from_document(
        doc(lands=KEEP, spirits=[{"name": "A", "presence": {"A7": 1}}, {"name": "B", "presence": {"A7": 1}}]),
        "t",
    )
    assert sc.initial.fear.pool_size == 8
    _, p = play(doc(lands=KEEP, fear=fear(deck=["Blank Fear"] + ["draw"] * 8), spirit_phases=[{"fear": 6}]))
    assert [e.get("card") for e in events(p, "fear_card_earned")] == ["Blank Fear"]
    assert p.final.fear.in_pool == 2 and p.final.fear.generated == 6


def test_terror_level_rises_as_soon_as_the_third_card_is_earned() -> None:
    _, p = play(
        doc(lands=KEEP, fear=fear(earned_before=2, pool=1), spirit_phases=[{"fear": 1}]),
        chance=("Blank Fear",),
    )
    assert [e.get("terror_level") for e in events(p, "terror_level_raised")] == [2]
    assert p.final.fear.terror_level == 2


def test_earned_cards_resolve_in_order_at_the_current_terror_level() -> None:
    """Seed 002, Fear: in the order earned, using only the current Terror Level (possibly higher
    than when earned)."""
    _, p = play(doc(lands=KEEP, fear=fear(earned_before=1, earned=["Wary Settlers", "Blank Fear"])))
    resolved = events(p, "fear_card_resolved")
    assert [(e.get("card"), e.get("terror_level")) for e in resolved] == [
        ("Wary Settlers", 2),
        ("Blank Fear", 2),
    ]
    assert {e.get("amount") for e in events(p, "defend_added")} == {2}
    assert len(events(p, "defend_added")) == 8  # every land of board A


def test_a_card_earned_while_resolving_is_resolved_in_the_same_fear_step() -> None:
    _, p = play(doc(lands=KEEP, fear=fear(earned=["Rising Dread"], pool=1)), chance=("Wary Settlers",))
    assert [e.get("card") for e in events(p, "fear_card_resolved")] == ["Rising Dread", "Wary Settlers"]


def test_fear_effects_last_only_for_the_turn() -> None:
    """Seed 002, Fear: 'Fear effects last only for the current turn.'"""
    sc, p = play(
        doc(
            lands={**KEEP, "A1": "T"},
            turns=2,
            fear=fear(earned=["Wary Settlers"]),
            invader_board={"ravage": ["1M"], "build": ["3MW"]},
            invader_deck=["3JS", "3SW"],
        )
    )
    a1 = [e.get("hits") for e in events(p, "ravaged") if e.get("land") == "A1"]
    assert a1 == [1, 5]  # Defend 1 in turn 1 only (the second Ravage meets a Town and a City, no Defend)
    assert p.final.lands[sc.island.index("A1")].defend == 0


def test_earning_every_fear_card_wins() -> None:
    _, p = play(
        doc(lands=KEEP, fear=fear(earned_before=8, pool=1), spirit_phases=[{"fear": 1}]),
        chance=("Blank Fear",),
    )
    assert p.final.outcome is not None and p.final.outcome.result == "win"
    assert "every Fear card" in p.final.outcome.reason


def test_removing_a_town_gives_no_fear() -> None:
    """Seed 002, FAQ Towns: removal and replacement cause no Fear; destruction does."""
    sc, p = play(doc(lands={**KEEP, "A1": "T D"}, fear=fear(earned_before=3, earned=["Coastal Flight"])))
    assert [e.get("piece") for e in events(p, "piece_removed")] == ["town"]
    assert p.final.fear.generated == 0 and pieces(sc, p.final, "A1") == "D"


def test_dahan_raid_damage_is_allocated_by_the_players() -> None:
    sc, p = play(
        doc(lands={**KEEP, "A1": "T E D"}, fear=fear(earned_before=3, earned=["Dahan Raid"])),
        decisions=("T0+2",),
    )
    assert asked(p, "damage") == [("T0+2", "T0+1 E0+1")]
    assert pieces(sc, p.final, "A1") == "E D" and p.final.fear.generated == 1


def test_blight_card_setup_pool_is_per_player_plus_one() -> None:
    """Research notes §2.4: N per player + 1 at setup (erratum), the card drawn at random."""
    document = doc(
        lands=KEEP,
        blight={"card": "draw"},
        spirits=[{"name": "A", "presence": {"A7": 1}}, {"name": "B", "presence": {"A7": 1}}],
    )
    _, p = play(document, chance=("Encroaching Settlers",))
    (drawn,) = events(p, "blight_card_drawn")
    assert (drawn.get("card"), drawn.get("pool")) == ("Encroaching Settlers", 5)


def test_taking_the_last_healthy_blight_flips_the_card_with_no_extra() -> None:
    sc, p = play(
        doc(
            lands={**KEEP, "A1": "T", "A4": "B"},
            blight={"card": "Restless Blight", "pool": 1},
            invader_board={"ravage": ["1M"]},
            invader_deck=["1J"],
        )
    )
    (flip,) = events(p, "blight_card_flipped")
    assert flip.get("pool") == 4  # Blighted side: 4 per player, no +1
    assert p.final.blight.side == "blighted"
    # the flip's immediate effect: an Explorer in each land with Blight
    assert pieces(sc, p.final, "A1") == "T E B" and pieces(sc, p.final, "A4") == "E B"


def test_running_out_on_the_blighted_side_loses() -> None:
    _, p = play(
        doc(
            lands={**KEEP, "A1": "T"},
            blight={"card": "Plain Blight", "side": "blighted", "pool": 1},
            invader_board={"ravage": ["1M"]},
        )
    )
    assert p.final.outcome is not None and p.final.outcome.result == "loss"
    assert "Blight card ran out" in p.final.outcome.reason


def test_without_a_card_the_blight_space_holds_five_per_player_plus_one_and_never_flips() -> None:
    sc = scenario_from_document(doc(lands=KEEP, blight={"card": "none"}), "t")
    assert sc.initial.blight.pool == 6
    _, p = play(
        doc(lands={**KEEP, "A1": "T"}, blight={"card": "none", "pool": 1}, invader_board={"ravage": ["1M"]})
    )
    assert events(p, "blight_card_flipped") == []
    assert p.final.outcome is not None and p.final.outcome.result == "loss"


def test_blighted_island_effect_every_phase() -> None:
    sc, p = play(
        doc(lands=KEEP, blight={"card": "Encroaching Settlers", "side": "blighted"}, invader_deck=["1M"])
    )
    assert events(p, "blighted_island")
    assert [pieces(sc, p.final, n) for n in ("A1", "A2", "A3")] == ["2E", "E", "E"]  # A1 also explored by 1M


def test_terror_level_two_victory_mid_card_stops_the_remaining_lands() -> None:
    """Research notes §2.3: you win immediately whenever the current condition holds."""
    _, p = play(
        doc(lands={"A1": "2D T", "A6": "E"}, fear=fear(earned_before=3), invader_board={"ravage": ["1M"]})
    )
    assert [e.get("land") for e in events(p, "ravaged")] == ["A1"]
    assert p.final.outcome is not None and p.final.outcome.result == "win"
    assert p.final.outcome.reason.startswith("Terror Level II")


def test_terror_level_three_victory_needs_no_cities_only() -> None:
    _, p = play(
        doc(
            lands={"A1": {"pieces": "3D C", "defend": 3}, "A8": "T E"},
            fear=fear(earned_before=6),
            invader_board={"ravage": ["1M"]},
        )
    )
    assert p.final.outcome is not None and p.final.outcome.reason.startswith("Terror Level III")


def test_terror_level_one_victory_needs_no_invaders_at_all() -> None:
    _, p = play(doc(lands={"A1": "2D E"}, invader_board={"ravage": ["1M"]}))
    assert p.final.outcome is not None and p.final.outcome.reason.startswith("Terror Level I:")
    _, p = play(doc(lands={"A1": "2D E", "A7": "E"}, invader_board={"ravage": ["1M"]}, invader_deck=["3JW"]))
    assert p.final.outcome is None


def test_a_simultaneous_win_and_loss_is_a_win() -> None:
    """Research notes §2.3 (base rulebook p.12): one change that both wins and loses is a win."""
    sc = scenario_from_document(
        doc(lands={"A1": "E"}, spirits=[{"name": "River", "presence": {"A1": 1}}]), "t"
    )
    # The last Invader and River's last Presence leave the island in the same change.
    state = sc.initial._replace(lands=tuple(parse_land("") for _ in sc.initial.lands))
    game = sc.game()
    final, opening = game.start(state)
    assert final.outcome is not None and final.outcome.result == "win"
    assert "sacrifice" in final.outcome.reason
    assert opening[-1].kind == "game_over"
