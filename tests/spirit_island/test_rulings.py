"""Every SI-* ruling, every reading: a scenario whose outcome depends on the reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import compare
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.model.spirit_island.data import default_stats
from invasion_oracle.model.spirit_island.pieces import Piece, PieceKind, describe, parse_land
from invasion_oracle.model.spirit_island.upgrade_downgrade import downgrade
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
# Each (ruling, reading) below has a test in this module that fails if the reading is ignored.
COVERED = {
    ("SI-ESCALATION-TIMING", "before-explore"),
    ("SI-ESCALATION-TIMING", "after-explore"),
    ("SI-COASTAL-FLAG", "no-flag"),
    ("SI-COASTAL-FLAG", "flag"),
    ("SI-CASCADE-CHOOSER", "players"),
    ("SI-CASCADE-CHOOSER", "first-adjacent"),
    ("SI-LAND-ORDER", "players-choose"),
    ("SI-LAND-ORDER", "board-order"),
    ("SI-SKIP-SCOPE", "one-action"),
    ("SI-SKIP-SCOPE", "whole"),
    ("SI-DOWNGRADE-DAMAGE", "destroyed"),
    ("SI-DOWNGRADE-DAMAGE", "removed"),
    ("SI-DOWNGRADE-DAMAGE", "survives"),
    ("SI-BLIGHT-EMPTY", "when-empty"),
    ("SI-BLIGHT-EMPTY", "when-needed"),
    ("SI-WINNING-FEAR", "generated"),
    ("SI-WINNING-FEAR", "not-generated"),
    ("SI-FEAR-EARNED-DURING", "same-phase"),
    ("SI-FEAR-EARNED-DURING", "next-phase"),
    ("SI-HEALTH-FLOOR", "at-least-1"),
    ("SI-HEALTH-FLOOR", "to-zero"),
    ("SI-OVER-ALLOCATION", "no-excess"),
    ("SI-OVER-ALLOCATION", "excess-allowed"),
}
WITNESSES = Path(__file__).resolve().parents[2] / "examples" / "spirit_island" / "rulings"


def covers(rid: str, *readings: str) -> None:
    """Marks the test of ``rid``'s ``readings`` (checked against :data:`COVERED`)."""
    assert {(rid, r) for r in readings} <= COVERED


# -- SI-ESCALATION-TIMING --------------------------------------------------------------------------


def _escalation(reading: str) -> tuple[str, str]:
    sc, p = play(
        doc(lands={**KEEP, "A5": "E"}, adversary="Generic Escalation", invader_deck=["2W"]),
        rulings=(f"SI-ESCALATION-TIMING={reading}",),
    )
    assert len(events(p, "escalation")) == 1
    return pieces(sc, p.final, "A2"), pieces(sc, p.final, "A5")


def test_escalation_before_explore() -> None:
    """Seed 002, Explore: with a flag and an Adversary, first perform the Escalation."""
    covers("SI-ESCALATION-TIMING", "before-explore")
    assert _escalation("before-explore") == ("E", "T 2E")  # A2 had no Explorer yet


def test_escalation_after_explore() -> None:
    covers("SI-ESCALATION-TIMING", "after-explore")
    assert _escalation("after-explore") == ("T E", "T 2E")


def test_no_escalation_without_an_adversary() -> None:
    _, p = play(doc(lands={**KEEP, "A5": "E"}, invader_deck=["2W"]))
    assert events(p, "escalation") == []


# -- SI-COASTAL-FLAG ----------------------------------------------------------------------------------


def test_coastal_card_flag_readings() -> None:
    """Research notes §2.2: the Coastal Lands card escalates only under the 'flag' reading."""
    covers("SI-COASTAL-FLAG", "no-flag", "flag")
    base = doc(lands={**KEEP, "A1": "E"}, adversary="Generic Escalation", invader_deck=["2C"])
    _, p = play(base)
    assert events(p, "escalation") == []
    sc, p = play(base, rulings=("SI-COASTAL-FLAG=flag",))
    assert [e.get("card") for e in events(p, "escalation")] == ["2C"]
    assert pieces(sc, p.final, "A1") == "T 2E"


# -- SI-CASCADE-CHOOSER -------------------------------------------------------------------------------


def test_cascade_chooser_players_and_first_adjacent() -> None:
    covers("SI-CASCADE-CHOOSER", "players", "first-adjacent")
    base = doc(lands={**KEEP, "A1": "T B", "A2": "B"}, invader_board={"ravage": ["1M"]})
    _, p = play(base, decisions=("A5",))
    assert asked(p, "cascade") == [("A4", "A5", "A6", "A2")]  # lands without Blight first
    assert [e.get("land") for e in events(p, "blight_added")] == ["A1", "A5"]
    _, p = play(base, rulings=("SI-CASCADE-CHOOSER=first-adjacent",))
    assert asked(p, "cascade") == []
    assert [e.get("land") for e in events(p, "blight_added")] == ["A1", "A4"]


# -- SI-LAND-ORDER ------------------------------------------------------------------------------------


def test_land_order_matters_when_the_blight_card_flips() -> None:
    """Seed 002, FAQ Invaders: the players order the lands; here the flip's Explorers depend on it."""
    covers("SI-LAND-ORDER", "players-choose", "board-order")
    base = doc(
        lands={**KEEP, "A1": "T", "A6": "T"},
        blight={"card": "Restless Blight", "pool": 1},
        invader_board={"ravage": ["1M"]},
        invader_deck=["1J"],
    )
    sc, p = play(base, decisions=("A6",))
    assert asked(p, "land-order") == [("A1", "A6")]
    assert (pieces(sc, p.final, "A6"), pieces(sc, p.final, "A1")) == ("T E B", "T B")
    sc, p = play(base, rulings=("SI-LAND-ORDER=board-order",))
    assert asked(p, "land-order") == []
    assert (pieces(sc, p.final, "A1"), pieces(sc, p.final, "A6")) == ("T E B", "T B")


# -- SI-SKIP-SCOPE ------------------------------------------------------------------------------------


def test_card_skip_scope() -> None:
    """Research notes §3.2: a card skip stops one card (default) or the whole space."""
    covers("SI-SKIP-SCOPE", "one-action", "whole")
    skip = {"effect": "skip", "action": "build", "scope": "card"}
    base = doc(
        lands={**KEEP, "A1": "E"},
        invader_board={"build": ["1M", "3MW"]},
        invader_deck=["3JS"],
        spirit_phases=[{"skips": [skip]}],
    )
    _, p = play(base)
    assert [e.get("card") for e in events(p, "card_skipped")] == ["1M"]
    assert [(e.get("card"), e.get("land")) for e in events(p, "built")] == [("3MW", "A1")]
    _, p = play(base, rulings=("SI-SKIP-SCOPE=whole",))
    assert [e.get("card") for e in events(p, "card_skipped")] == ["1M", "3MW"]
    assert events(p, "built") == []


def test_land_skip_scope_with_two_cards_on_one_land() -> None:
    skip = {"effect": "skip", "action": "build", "scope": "lands", "where": {"lands": ["A1"]}}
    base = doc(
        lands={**KEEP, "A1": "E"},
        invader_board={"build": ["1M", "3MW"]},
        invader_deck=["3JS"],
        spirit_phases=[{"skips": [skip]}],
    )
    _, p = play(base)
    assert [e.get("card") for e in events(p, "built") if e.get("land") == "A1"] == ["3MW"]
    _, p = play(base, rulings=("SI-SKIP-SCOPE=whole",))
    assert [e.get("card") for e in events(p, "built") if e.get("land") == "A1"] == []
    assert len(events(p, "action_skipped")) == 2


# -- SI-DOWNGRADE-DAMAGE --------------------------------------------------------------------------------


def _downgrade_city(reading: str) -> tuple[str, int]:
    fear = {"cards": ALL, "earned_before": 6, "earned": ["Crumbling Outposts"], "deck": ["draw"] * 2}
    sc, p = play(
        doc(lands={"A1": "C@2", "A7": "C"}, fear=fear, invader_deck=["1J"]),
        rulings=(f"SI-DOWNGRADE-DAMAGE={reading}",),
    )
    return pieces(sc, p.final, "A1"), p.final.fear.generated


def test_downgrade_damage_readings() -> None:
    """Seed 002, Upgrade & Downgrade: the kept Damage may destroy the downgraded piece."""
    covers("SI-DOWNGRADE-DAMAGE", "destroyed", "removed", "survives")
    assert _downgrade_city("destroyed") == ("-", 1)  # destroyed as a Town: 1 Fear
    assert _downgrade_city("removed") == ("-", 0)
    assert _downgrade_city("survives") == ("T@1", 0)


def test_downgrade_keeps_damage_below_the_new_health() -> None:
    land, change = downgrade(parse_land("C@1"), Piece(PieceKind.CITY, 1), default_stats(), "destroyed")
    assert describe(land) == "T@1" and change.result == "replaced"
    land, change = downgrade(parse_land("E@0"), Piece(PieceKind.EXPLORER), default_stats(), "destroyed")
    assert describe(land) == "-" and change.result == "removed"  # downgrading an Explorer removes it


# -- SI-BLIGHT-EMPTY ------------------------------------------------------------------------------------


def _flip_after(reading: str, side: str = "healthy") -> tuple[list[str], str | None]:
    base = doc(
        lands={**KEEP, "A1": "T", "A6": "T"},
        blight={"card": "Plain Blight", "side": side, "pool": 1},
        invader_board={"ravage": ["1M"]},
        invader_deck=["1J"],
    )
    _, p = play(base, rulings=(f"SI-BLIGHT-EMPTY={reading}", "SI-LAND-ORDER=board-order"))
    kinds = [e.kind for e in p.events if e.kind in ("blight_added", "blight_card_flipped")]
    return kinds, p.final.outcome.result if p.final.outcome else None


def test_blight_empty_readings() -> None:
    covers("SI-BLIGHT-EMPTY", "when-empty", "when-needed")
    assert _flip_after("when-empty")[0] == ["blight_added", "blight_card_flipped", "blight_added"]
    assert _flip_after("when-needed")[0] == ["blight_added", "blight_added", "blight_card_flipped"]
    # on the Blighted side: lose on taking the last one, or only when one more is needed
    assert _flip_after("when-empty", "blighted") == (["blight_added"], "loss")
    assert _flip_after("when-needed", "blighted") == (["blight_added"], "loss")
    # with a single Blight to add, only 'when-empty' loses
    single = doc(
        lands={**KEEP, "A1": "T"},
        blight={"card": "Plain Blight", "side": "blighted", "pool": 1},
        invader_board={"ravage": ["1M"]},
        invader_deck=["1J"],
    )
    _, p = play(single, rulings=("SI-BLIGHT-EMPTY=when-empty",))
    assert p.final.outcome is not None and p.final.outcome.result == "loss"
    _, p = play(single, rulings=("SI-BLIGHT-EMPTY=when-needed",))
    assert p.final.outcome is None and p.final.blight.pool == 0


# -- SI-WINNING-FEAR --------------------------------------------------------------------------------


def _winning_town(reading: str) -> tuple[str, int, int, list[str]]:
    fear = {"cards": ALL, "earned_before": 3, "pool": 1, "deck": ["Blank Fear"] * 6}
    _, p = play(
        doc(lands={"A1": "T 2D"}, invader_board={"ravage": ["1M"]}, invader_deck=["1J"], fear=fear),
        rulings=(f"SI-WINNING-FEAR={reading}",),
    )
    assert p.final.outcome is not None
    kinds = [e.kind for e in p.events if e.kind in ("invader_destroyed", "fear_generated", "game_over")]
    return p.final.outcome.result, p.final.fear.generated, p.final.fear.earned_total, kinds


def test_the_fear_of_a_winning_destruction() -> None:
    """Seed 002, Invader and FAQ Towns: the last Town's Fear (it empties the pool and earns a card)
    is generated before the win, or not at all (and said so)."""
    covers("SI-WINNING-FEAR", "generated", "not-generated")
    assert _winning_town("generated") == (
        "win",
        1,
        4,
        ["invader_destroyed", "fear_generated", "game_over"],
    )
    result, generated, earned, kinds = _winning_town("not-generated")
    assert (result, generated, earned) == ("win", 0, 3)
    assert kinds == ["invader_destroyed", "game_over"]


def test_the_fear_not_generated_is_reported() -> None:
    _, p = play(
        doc(lands={"A1": "T 2D"}, invader_board={"ravage": ["1M"]}, invader_deck=["1J"]),
        rulings=("SI-WINNING-FEAR=not-generated",),
    )
    assert [(e.get("amount"), e.get("cause")) for e in events(p, "fear_not_generated")] == [
        (1, "destroyed in A1")
    ]


# -- SI-FEAR-EARNED-DURING ----------------------------------------------------------------------------


def test_a_fear_card_earned_during_the_fear_step() -> None:
    """Seed 002, Fear: Rising Dread's Fear earns Scattered Explorers; it resolves now or next phase."""
    covers("SI-FEAR-EARNED-DURING", "same-phase", "next-phase")
    fear = {
        "cards": ALL,
        "earned": ["Rising Dread"],
        "pool": 1,
        "deck": ["Scattered Explorers"] + ["Blank Fear"] * 7,
    }
    base = doc(lands={**KEEP, "A7": "E 2D"}, invader_deck=["1J"], fear=fear)
    sc, p = play(base)
    assert [e.get("card") for e in events(p, "fear_card_resolved")] == ["Rising Dread", "Scattered Explorers"]
    assert pieces(sc, p.final, "A7") == "2D"
    sc, p = play(base, rulings=("SI-FEAR-EARNED-DURING=next-phase",))
    assert [e.get("card") for e in events(p, "fear_card_resolved")] == ["Rising Dread"]
    assert p.final.fear.earned == ("Scattered Explorers",) and pieces(sc, p.final, "A7") == "E 2D"


def test_next_phase_still_resolves_the_whole_stack_picked_up() -> None:
    fear = {"cards": ALL, "earned": ["Blank Fear", "Scattered Explorers"], "deck": ["draw"] * 7}
    _, p = play(
        doc(lands={**KEEP, "A7": "E 2D"}, invader_deck=["1J"], fear=fear),
        rulings=("SI-FEAR-EARNED-DURING=next-phase",),
    )
    assert [e.get("card") for e in events(p, "fear_card_resolved")] == ["Blank Fear", "Scattered Explorers"]


# -- SI-HEALTH-FLOOR ------------------------------------------------------------------------------------


def test_health_floor() -> None:
    """Seed 002, Tracking Damage: Town Health -2 leaves 1, or 0, which destroys the Town (1 Fear)."""
    covers("SI-HEALTH-FLOOR", "at-least-1", "to-zero")
    fear = {
        "cards": ALL,
        "earned_before": 5,
        "earned": ["Frail Outposts", "Frail Outposts"],
        "deck": ["Blank Fear"] * 2,
    }
    base = doc(lands={**KEEP, "A1": "T"}, invader_deck=["1J"], fear=fear)
    sc, p = play(base)
    assert pieces(sc, p.final, "A1") == "T" and p.final.fear.generated == 0
    sc, p = play(base, rulings=("SI-HEALTH-FLOOR=to-zero",))
    assert pieces(sc, p.final, "A1") == "-" and p.final.fear.generated == 1
    assert [e.get("cause") for e in events(p, "invader_destroyed")] == ["Fear card Frail Outposts"]


# -- SI-OVER-ALLOCATION --------------------------------------------------------------------------------


def test_over_allocation() -> None:
    """Seed 002, Invader (Damage meets or exceeds Health) and Ravage (the Dahan's Damage divided as
    the players choose): two Dahan's 4 Damage against a Town and an Explorer (3 Health between them)."""
    covers("SI-OVER-ALLOCATION", "no-excess", "excess-allowed")
    base = doc(
        lands={**KEEP, "A5": {"pieces": "2D T E", "defend": 3}},
        invader_board={"ravage": ["3MW"]},
        invader_deck=["1J"],
    )
    sc, p = play(base)
    assert asked(p, "fight-back") == []  # one way only: both destroyed, the fourth Damage lost
    assert [e.get("allocation") for e in events(p, "dahan_fought_back")] == ["T0+2 E0+1"]
    assert pieces(sc, p.final, "A5") == "2D"
    sc, p = play(base, decisions=("T0+1 E0+3",), rulings=("SI-OVER-ALLOCATION=excess-allowed",))
    options = asked(p, "fight-back")
    assert [sorted(o) for o in options] == [sorted(("T0+2 E0+2", "T0+3 E0+1", "T0+4", "E0+4", "T0+1 E0+3"))]
    assert pieces(sc, p.final, "A5") == "T@1 2D" and p.final.fear.generated == 0


def test_over_allocation_applies_to_effect_damage_too() -> None:
    """A Fear card's Damage is spread by the same rule: with excess allowed, the players may spare a piece."""
    from invasion_oracle.model.spirit_island.damage import allocations

    land = parse_land("T E")
    exact = {a.label for a in allocations(land, default_stats(), 2)}
    over = {a.label for a in allocations(land, default_stats(), 2, over=True)}
    assert exact == {"T0+2", "T0+1 E0+1"} and over == exact | {"E0+2"}
    assert all(a.total == 2 for a in allocations(land, default_stats(), 2, over=True))


# -- witnesses ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruling", [r.id for r in REGISTRY.all("spirit-island")])
def test_every_ruling_has_a_witness_on_which_its_readings_differ(ruling: str) -> None:
    """examples/spirit_island/rulings/<ID>.json: every reading gives its own outcome."""
    path = str(WITNESSES / f"{ruling}.json")
    difference = compare(registry.spec("spirit-island"), read_json_file(path), path, ruling)
    assert [r.reading for r in difference.runs] == list(REGISTRY.get(ruling).reading_names)
    assert len(difference.groups) == len(difference.runs), difference.groups


def test_every_reading_has_a_test() -> None:
    assert {(r.id, reading) for r in REGISTRY.all("spirit-island") for reading in r.reading_names} == COVERED
