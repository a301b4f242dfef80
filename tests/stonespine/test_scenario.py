"""Scenario files: a run can start anywhere in an Invasion phase; dungeons fit the year."""

from __future__ import annotations

from typing import Any

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.stonespine.state import Stage
from tests.stonespine.helpers import events, first, load, one_player, play

ROW = ["cave TR kobold kobold kobold kobold", "cave LR kobold kobold kobold kobold", "cave L", "cave -"]


def two_players(**ann: Any) -> dict[str, Any]:
    doc = one_player([list(ROW)], year=1, guardians=["D1"], dice=["black"] * 4, decisions=["close"] * 4)
    bo = {**doc["players"][0], "name": "Bo", "priority": 2, "placement": {"guardians": ["D1"], "minions": []}}
    doc["players"][0].update(ann)
    doc["players"].append(bo)
    return doc


def test_a_hero_that_escaped_earlier_closed_the_gate() -> None:
    """Seed 000, Step 2 and Step 3: an escape closes the gate; that player gets no more heroes,
    takes the year's demerit and cannot take the trophy; the escaped hero counts for XP."""
    p = play(two_players(escaped=["red"]))
    ann = p.final.players[0]
    assert not ann.gate_open and [h.value for h in ann.escaped] == ["red"] and not ann.defeated
    assert first(p, "heroes_arrived").get("player") == "Bo"
    assert not [e for e in events(p, "heroes_arrived") if e.get("player") == "Ann"]
    assert first(p, "demerit_taken").get("player") == "Ann"
    assert first(p, "trophy_awarded").get("player") == "Bo"
    assert first(p, "xp_gained", player="Ann").get("xp") == 1


def test_a_gate_closed_earlier_gets_no_heroes() -> None:
    p = play(two_players(gate="closed", defeated=["black@A1"]))
    assert [e.get("gates") for e in events(p, "wave_started")] == [("Bo",)]
    ann = p.final.players[0]
    assert ann.entered == 1 and first(p, "xp_gained", player="Ann").get("xp") == 1
    assert first(p, "trophy_awarded").get("player") == "Ann"  # 1 defeated, no escape, higher priority


def test_every_gate_closed_goes_straight_to_step_4() -> None:
    doc = two_players(gate="closed")
    doc["players"][1]["gate"] = "closed"
    scenario = load(doc)
    assert scenario.initial.stage is Stage.LEVEL_HEROES
    assert not events(play(doc), "wave_started")


def test_a_wave_under_way_resumes_at_step_2() -> None:
    doc = two_players(waiting=["black", "red"], defeated=["red@A1"])
    doc["players"][1]["gate"] = "closed"
    doc["wave"] = 2
    doc["decisions"] = {"script": ["black", "close"], "then": "first-legal"}
    scenario = load(doc)
    assert scenario.initial.stage is Stage.REPEL and scenario.initial.wave == 2
    p = play(doc)
    sent = events(p, "hero_sent")
    assert [(e.get("hero"), e.get("chosen")) for e in sent] == [("black", True), ("red", False)]
    assert not events(p, "wave_started")  # red escapes: no gate is left open
    ann = p.final.players[0]
    assert [c.name for c, _ in ann.defeated] == ["A1", "B1"] and [h.value for h in ann.escaped] == ["red"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"escaped": ["red"], "gate": "open"},
            r"players\[0\]\.gate: a hero escaped, so the gate closed at once",
        ),
        (
            {"gate": "closed", "waiting": ["red"]},
            r"players\[0\]\.waiting: heroes wait only outside an open gate",
        ),
        ({"waiting": ["red"]}, r"\$\.wave: heroes wait outside a dungeon, so a wave is under way"),
        ({"escaped": ["red", "black"]}, r"players\[0\]\.escaped: \['red', 'black'\] is too long"),
        ({"defeated": ["red@A0"]}, r"players\[0\]\.defeated\[0\]: 'red@A0' does not match"),
        ({"placement": {"guardians": ["D1"], "spent": ["C1"]}}, r"placement\.spent\[0\]: no guardian figure"),
    ],
)
def test_mid_phase_fields_must_be_consistent(change: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        load(two_players(**change))


def test_mid_phase_fields_belong_to_an_invasion_start() -> None:
    doc = one_player([list(ROW)], year=1, start="preparation")
    doc["players"][0]["escaped"] = ["red"]
    del doc["players"][0]["placement"]
    with pytest.raises(
        MalformedInputError, match=r"players\[0\]\.escaped: 'escaped' says what happened earlier"
    ):
        load(doc)
    doc = one_player([list(ROW)], year=1, start="preparation", wave=1)
    del doc["players"][0]["placement"]
    with pytest.raises(
        MalformedInputError, match=r"\$\.wave: waves belong to a scenario starting at the Invasion"
    ):
        load(doc)


def test_a_spent_guardian_does_not_defeat_again_under_once_per_phase() -> None:
    """SS-GUARDIAN-FIRST=once-per-phase: a guardian listed as spent lets the hero in, and the
    hero's card ability still does not resolve in its chamber (seed 000, Heroes)."""
    rows = [["cave TB chest kobold", "cave -"], ["cave T", "cave -"]]
    doc = one_player(
        rows, year=1, guardian="Giant Troll", guardians=["A1"], dice=["black"], decisions=["close"]
    )
    doc["players"][0]["placement"]["spent"] = ["A1"]
    p = play(doc, "SS-GUARDIAN-FIRST=once-per-phase")
    assert first(p, "hero_damaged", chamber="A1").get("damage") == 1
    assert not events(p, "elements_destroyed")
    assert first(play(doc), "hero_defeated").get("by") == "guardian"  # the default: it defeats again


@pytest.mark.parametrize(
    ("year", "start", "rows", "message"),
    [
        (2, "invasion", 3, r"3 rows are built, but year 2 has only 2 built by then"),
        (1, "invasion", 2, r"2 rows are built, but year 1 has only 1"),
        (
            3,
            "construction",
            3,
            r"3 rows are built, but year 3 has only 2 built before its Construction phase",
        ),
    ],
)
def test_a_game_dungeon_has_one_row_a_year(year: int, start: str, rows: int, message: str) -> None:
    """Seed 000, "How to Play": one Construction phase a year; the base game builds one row of four
    chamber cards in it (research notes, "Dungeon geometry")."""
    doc = one_player([list(ROW) for _ in range(rows)], year=year, start=start, guardians=["D1"])
    if start != "invasion":
        del doc["players"][0]["placement"]
        doc["years"] = [{"rows": {"Ann": list(ROW)}}]
    with pytest.raises(MalformedInputError, match=r"test\.json:\$\.players\[0\]\.dungeon\.rows: " + message):
        load(doc)


def test_study_grids_and_partial_dungeons_are_allowed() -> None:
    load(one_player([list(ROW)], year=3, guardians=["D1"]))  # fewer rows than the year: a partial dungeon
    wide = [[*ROW, "cave -"] for _ in range(3)]
    load(one_player(wide, year=1, guardians=["E1"]))  # five columns: a study grid
    tall = [list(ROW) for _ in range(6)]
    load(one_player(tall, year=1, guardians=["D1"]))  # more than four rows: a study grid


def test_later_years_beyond_the_last_are_refused() -> None:
    doc = one_player([list(ROW)], year=1, start="construction", guardians=["D1"], last_year=1)
    doc["players"][0]["dungeon"]["rows"] = []
    del doc["players"][0]["placement"]
    doc["years"] = [{"rows": {"Ann": list(ROW)}}, {"rows": {"Ann": list(ROW)}}]
    with pytest.raises(MalformedInputError, match=r"\$\.years\[1\]: playing to year 1 builds 1 later row"):
        load(doc)


def test_xp_that_would_have_levelled_up_is_refused() -> None:
    """Seed 000, Leveling Up Guardians: five or more XP level the guardian up at once."""
    doc = one_player([list(ROW)], year=1, guardians=["D1"], xp=5)
    with pytest.raises(MalformedInputError, match=r"players\[0\]\.xp: 5 cubes would already have levelled"):
        load(doc)
    load(one_player([list(ROW)], year=1, guardian="Giant Troll", levels=(4, 4), guardians=["D1"], xp=9))
