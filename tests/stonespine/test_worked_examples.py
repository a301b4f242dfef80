"""The worked examples of seed 000, each rebuilt as a scenario and checked (cited by section)."""

from __future__ import annotations

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.stonespine.dungeon import Cell
from tests.stonespine.helpers import events, first, load, one_player, play


def test_preparation_example_jeremy_hungry_hatchlings() -> None:
    """Seed 000, "III. Preparation Phase", example: year 3, one minion placed, two still locked,
    HUNGRY HATCHLINGS unlocked, so the minion in the stone chamber deals extra damage."""
    rows = [
        ["stone TB", "cave -", "cave -", "cave -"],
        ["stone TB", "cave -", "cave -", "cave -"],
        ["cave T", "cave -", "cave -", "cave -"],
    ]
    doc = one_player(
        rows,
        year=3,
        guardian="Dragon",
        levels=(3, 0),
        guardians=["D3"],
        minions=["A1"],
        dice=["red", "purple", "black"],
        decisions=["red"],
    )
    scenario = load(doc)
    guardian = scenario.initial.players[0].guardian
    assert guardian.minions_unlocked == 1
    assert guardian.board.minions == 3  # two still locked on the board
    assert guardian.has("hungry-hatchlings")
    # The red hero (Barbarian, 6 health) enters the stone chamber with the minion: 2 + 1 extra.
    damaged = first(play(doc), "hero_damaged", chamber="A1")
    assert damaged.get("damage") == 3
    assert "hungry-hatchlings:1" in damaged.get("parts")
    # The same minion in a cave chamber deals only its two.
    cave_rows = [["cave TB", *rows[0][1:]], *rows[1:]]
    cave = one_player(
        cave_rows,
        year=3,
        guardian="Dragon",
        levels=(3, 0),
        guardians=["D3"],
        minions=["A1"],
        dice=["red", "purple", "black"],
        decisions=["red"],
    )
    assert first(play(cave), "hero_damaged", chamber="A1").get("damage") == 2
    # Placing a second minion is not allowed while two are locked.
    two = one_player(rows, year=3, guardian="Dragon", levels=(3, 0), guardians=["D3"], minions=["A1", "A2"])
    with pytest.raises(MalformedInputError, match=r"players\[0\]\.placement\.minions: only 1 minion"):
        load(two)


def test_defeated_purple_then_guardian_example() -> None:
    """Seed 000, "Step 2: Repel Heroes", first example: the purple hero lies defeated in the first
    chamber, so the red hero ignores that chamber (its trap and the red ability included) and is
    defeated at once by the guardian in the next chamber."""
    rows = [["cave TR spike spike blade pit", "stone L"]]
    doc = one_player(
        rows,
        year=2,
        guardians=["B1"],
        dice=["purple", "red"],
        decisions=["purple"],
        heroes={"purple": "Templar"},
        health_bonus={"purple": 0},
    )
    # Templar (assumed 4 health, protected in the first monster chamber): the four traps defeat it.
    p = play(doc)
    assert first(p, "hero_defeated", hero="purple").get("chamber") == "A1"
    assert first(p, "chamber_ignored", hero="red").get("chamber") == "A1"
    red_defeat = first(p, "hero_defeated", hero="red")
    assert red_defeat.get("chamber") == "B1" and red_defeat.get("by") == "guardian"
    assert red_defeat.get("damage") == 0  # no trap damage and no Barbarian ability in A1
    assert not [e for e in events(p, "hero_damaged") if e.get("hero") == "red"]


def test_kobold_escape_example() -> None:
    """Seed 000, "Step 2: Repel Heroes", second example: the red hero moves right, takes one damage
    from the kobold, cannot move to a new chamber and escapes; the gate closes, the waiting heroes
    go back to the supply."""
    rows = [["cave TR", "cave L kobold", "cave -", "cave -"]]
    doc = one_player(rows, year=2, dice=["red", "black"], decisions=["red"], guardians=["D1"])
    p = play(doc)
    damage = first(p, "hero_damaged", chamber="B1")
    assert (damage.get("damage"), damage.get("total")) == (1, 1)
    escape = first(p, "hero_escaped", hero="red")
    assert escape.get("chamber") == "B1" and escape.get("reason") == "no-new-chamber"
    assert first(p, "heroes_returned").get("heroes") == ("black",)
    assert first(p, "gate_closed", reason="escape")
    final = p.final.players[0]
    assert final.escaped == (final.escaped[0],) and not final.defeated
    assert final.demerits == ((2, 2),)  # year-2 demerit (ruling SS-DEMERIT-VALUES default)
    assert final.trophies == ()
    assert first(p, "trophy_returned", year=2)  # the only player escaped
    assert final.xp == 1  # one hero entered (the escaped one); the returned one did not


def test_cleric_and_barbarian_example_six_damage() -> None:
    """Seed 000, "Step 4: Level Up Heroes", example: the Cleric is defeated by the guardian in a
    chamber with a positive star (the guardian acts first); the Barbarian ignores that chamber,
    takes 1 (slime) + 2 (minion), then 1 (slime) + 2 (trap, his ability): six damage, defeated."""
    rows = [
        ["cave TB", "stone TB +1", "cave -", "cave -"],
        ["cave -", "stone TR slime", "stone L slime spike", "cave -"],
    ]
    doc = one_player(
        rows,
        year=2,
        entrance="B",
        exit="D",
        guardian="Dragon",
        levels=(1, 0),
        guardians=["B1"],
        minions=["B2"],
        dice=["purple", "red", "black", "black"],
        decisions=["purple", "close"],
        heroes={"purple": "Cleric", "red": "Barbarian"},
    )
    p = play(doc)
    cleric = first(p, "hero_defeated", hero="purple")
    assert (cleric.get("chamber"), cleric.get("by")) == ("B1", "guardian")
    assert not events(p, "hero_protected")  # the Cleric's ability never resolved
    barbarian = [e for e in events(p, "hero_damaged") if e.get("hero") == "red"]
    assert [(e.get("chamber"), e.get("damage")) for e in barbarian] == [("B2", 3), ("C2", 3)]
    assert "Barbarian:1" in barbarian[1].get("parts")
    defeat = first(p, "hero_defeated", hero="red")
    assert (defeat.get("chamber"), defeat.get("damage"), defeat.get("by")) == ("C2", 6, "damage")
    assert p.final.players[0].trophies == ((2, 4),)


def test_jordy_eleven_xp_levels_twice() -> None:
    """Seed 000, "Leveling Up Guardians", example: Jordy's Giant Troll has 4 XP and earns 7; with 11
    he levels up on the left track (BLOW OFF STEAM covers a negative star with troll rubble),
    still has 6, levels up again, and keeps 1."""
    # Seven one-hero waves (year 1: one white die each); each black hero (Thief, 4 health) dies
    # in the next chamber of a corridor of four-kobold chambers.
    corridor = [["cave TB kobold kobold kobold kobold", "cave - -1", "cave - +2", "cave -"]]
    corridor += [["cave TB kobold kobold kobold kobold", "cave -", "cave -", "cave -"]] * 5
    corridor += [["cave T kobold kobold kobold kobold", "cave -", "cave -", "cave -"]]
    doc = one_player(
        corridor,
        year=1,
        guardian="Giant Troll",
        xp=4,
        guardians=["D1"],
        dice=["black"] * 7 + ["red"],
        decisions=["continue"] * 6 + ["close", "left", "B1:1", "right", "C1:1"],
    )
    p = play(doc)
    final = p.final.players[0]
    assert len(final.defeated) == 7 and not final.escaped
    assert first(p, "xp_gained").get("total") == 11
    levels = events(p, "guardian_levelled")
    assert [(e.get("track"), e.get("xp")) for e in levels] == [("left", 6), ("right", 1)]
    steam = first(p, "instant_used", ability="blow-off-steam", target="B1:1")
    assert steam.get("covered") == "-1"
    assert str(final.dungeon.chamber(Cell(1, 0)).spaces[0]) == "troll-rubble/-1"
    assert final.xp == 1
    assert final.guardian.markers == (1, 1)
