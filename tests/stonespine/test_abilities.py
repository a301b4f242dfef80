"""Guardian abilities as data: the vocabulary, the seed's abilities written in it, and the refusal
of abilities the seed does not give (seed 000, "Guardian Board", "Leveling Up Guardians")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.stonespine.abilities import Do
from invasion_oracle.model.stonespine.data import default_data
from invasion_oracle.model.stonespine.dungeon import Cell
from invasion_oracle.reports.cli import main
from tests.stonespine.helpers import events, first, load, one_player, play

CORRIDOR = [["cave TB kobold kobold kobold kobold", "cave -"], ["cave T", "cave -"]]
BUNDLED = r"model/stonespine/data/stonespine\.json"


def board(name: str) -> Any:
    return default_data(Rulings.defaults("stonespine")).guardian(name)


def one_defeat(guardian: str, levels: tuple[int, int], xp: int = 4, **extra: Any) -> dict[str, Any]:
    """Year 1: the Thief dies to A1's four kobolds; the one XP he brings levels the guardian up."""
    return one_player(
        [list(r) for r in CORRIDOR],
        year=1,
        guardian=guardian,
        levels=levels,
        xp=xp,
        guardians=["B1"],
        dice=["black"],
        **extra,
    )


def with_minions(doc: dict[str, Any], *cells: str) -> dict[str, Any]:
    doc["players"][0]["placement"]["minions"] = list(cells)
    return doc


# -- the seed's abilities, written in the vocabulary ---------------------------------------------


def test_the_seed_abilities_are_data_in_the_vocabulary() -> None:
    troll, demon, dragon = board("Giant Troll"), board("Pact Demon"), board("Dragon")
    moves = troll.ability("troll-moves").effects[0]
    assert moves.do is Do.MOVE_FIGURE and moves.when.has == frozenset({"rubble"})
    steam = troll.ability("blow-off-steam").effects[0]
    assert steam.do is Do.PLACE_TOKEN and str(steam.token) == "troll-rubble" and not steam.target.empty
    debris = troll.ability("dangerous-debris").effects[0]
    assert (debris.do, debris.target.is_, debris.to) == (Do.CHANGE_TYPE, frozenset({"rubble"}), "trap")
    pact = demon.ability("pact-damage").effects[0]
    assert pact.do is Do.ADD_DAMAGE and pact.amount == "pact_damage"
    assert demon.ability("forge-pact").effects[0].do is Do.REVEAL_TOKEN
    hatch = dragon.ability("hungry-hatchlings").effects[0]
    assert (hatch.do, hatch.per, hatch.in_ and hatch.in_.value) == (Do.ADD_DAMAGE, "minion", "stone")
    hydra = board("Molten Hydra")
    assert hydra.ability("collapsing-passages").effects[0].do is Do.OPEN_PASSAGE
    assert hydra.ability("gain-collapsing-passage").effects[0].do is Do.GAIN_TOKENS
    assert [a.unknown for a in dragon.abilities] == [True, True, False]
    assert all(a.unknown for a in board("Gorgon").abilities)


def test_blow_off_steam_covers_rubble_too() -> None:
    """Seed 000, Game Terms: Rubble: rubble counts as an element for abilities, so BLOW OFF STEAM
    ("place a troll rubble token over an element") may go over it (ruling SS-RUBBLE-ELEMENT)."""
    doc = one_defeat("Giant Troll", (0, 0), decisions=["close", "left", "A2:1"])
    doc["players"][0]["dungeon"]["rows"][1] = ["cave T rubble/-2", "cave -"]
    p = play(doc)
    request = next(s.request for s in p.steps if getattr(s.request, "kind", "") == "instant-target")
    assert "A2:1" in request.options
    assert str(p.final.players[0].dungeon.chamber(Cell(0, 1)).spaces[0]) == "troll-rubble/rubble/-2"
    # Under the other reading only the kobolds are targets.
    q = play(one_defeat("Giant Troll", (0, 0), decisions=["close", "left"]), "SS-RUBBLE-ELEMENT=not-rubble")
    assert first(q, "instant_used", ability="blow-off-steam").get("covered") == "kobold"


def test_forge_pact_reveals_and_the_pact_then_deals_its_damage() -> None:
    """Seed 000, Guardian Board: FORGE PACT reveals a face-down demon token; each pact deals +1."""
    doc = one_defeat("Pact Demon", (1, 0), decisions=["close", "left"])
    doc = with_minions(doc, "B2")
    doc["players"][0]["dungeon"]["rows"][1] = ["cave T pact? kobold", "cave -"]
    p = play(doc)
    assert first(p, "instant_used", ability="forge-pact").get("target") == "A2:1"
    assert str(p.final.players[0].dungeon.chamber(Cell(0, 1)).spaces[0]) == "pact"
    # A hero entering a chamber with a revealed pact takes the pact's damage on top.
    revealed = one_player(
        [["cave TB pact kobold", "cave -"], ["cave T", "cave -"]],
        year=1,
        guardian="Pact Demon",
        guardians=["B1"],
        dice=["black"],
        decisions=["close"],
    )
    damaged = first(play(revealed), "hero_damaged", chamber="A1")
    assert damaged.get("damage") == 2 and "pact-damage:1" in damaged.get("parts")


def test_dangerous_debris_makes_rubble_a_trap_and_both_types() -> None:
    """DANGEROUS DEBRIS: rubble counts as a trap; changed elements are both types (Clarifications:
    Giant Troll, Deceitful Demon), so the Barbarian's +1 per trap applies."""
    rows = [["cave TB rubble/kobold troll-rubble", "cave -"], ["cave T", "cave -"]]
    doc = one_player(rows, year=1, guardian="Giant Troll", levels=(3, 0), guardians=["B1"], dice=["red"])
    damaged = first(play(doc), "hero_damaged", chamber="A1")
    assert damaged.get("parts") == ("rubble:1", "troll-rubble:1", "Barbarian:2")


# -- abilities the seed does not give: refused when they would act -----------------------------


def test_the_dragons_instant_is_refused_when_a_marker_reaches_it() -> None:
    doc = one_defeat("Dragon", (1, 0), decisions=["close", "left"])
    with pytest.raises(
        MalformedInputError,
        match=BUNDLED + r":\$\.guardians\[6\]\.instant: ability 'dragon-instant' \(instant\) of board "
        r"Dragon is not modelled; give it in a data file",
    ):
        play(with_minions(doc, "B2"))


def test_the_pact_demons_unlockable_is_refused_when_unlocked() -> None:
    doc = one_defeat("Pact Demon", (0, 2), decisions=["close", "right"])
    with pytest.raises(
        MalformedInputError,
        match=BUNDLED
        + r":\$\.guardians\[2\]\.unlockables\.A: ability 'pact-demon-unlockable' \(unlockable\) "
        r"of board Pact Demon is not modelled",
    ):
        play(with_minions(doc, "B2"))


@pytest.mark.parametrize(
    ("guardian", "levels", "ability"),
    [("Gorgon", (0, 3), "gorgon-unlockable"), ("Caustic Hydra", (0, 4), "caustic-hydra-unlockable")],
)
def test_levels_that_unlock_an_unknown_ability_are_refused_at_load(
    guardian: str, levels: tuple[int, int], ability: str
) -> None:
    doc = one_player([list(r) for r in CORRIDOR], year=2, guardian=guardian, levels=levels)
    with pytest.raises(
        MalformedInputError,
        match=rf"test\.json:\$\.players\[0\]\.levels: these levels unlock ability '{ability}' \(unlockable\)"
        rf" of board {guardian}, which is not modelled; give it in a data file",
    ):
        load(doc)


def test_the_other_troll_side_is_refused_at_its_instant(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = one_defeat("Unnamed Troll Side", (0, 0), decisions=["close", "left"])
    path = tmp_path / "troll.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["stonespine", "simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "ability 'troll-other-side-instant' (instant) of board Unnamed Troll Side is not modelled" in err


def test_giving_the_missing_ability_in_a_data_file() -> None:
    """An ability with the id of an unknown one replaces it on every board that names it."""
    doc = one_defeat("Dragon", (1, 0), decisions=["close", "left", "A2:2"])
    doc = with_minions(doc, "B2")
    doc["players"][0]["dungeon"]["rows"][1] = ["cave T kobold", "cave -"]
    doc["data"] = {
        "abilities": [
            {
                "id": "dragon-instant",
                "name": "a dragon egg",
                "effects": [{"do": "place-token", "token": "dragon-token", "target": {"empty": True}}],
            }
        ]
    }
    p = play(doc)
    used = first(p, "instant_used", ability="dragon-instant")
    assert used.get("covered") is None
    assert str(p.final.players[0].dungeon.chamber(Cell(0, 1)).spaces[1]) == "dragon-token"


# -- the vocabulary, effect by effect, on boards a user enters -----------------------------------


def user_board(**abilities: Any) -> dict[str, Any]:
    """A data object with one user board, 'Test Gorgon': instant spaces on both tracks' first step,
    unlock A on the left track's second."""
    guardian: dict[str, Any] = {
        "name": "Test Gorgon",
        "family": "gorgon",
        "figures": 1,
        "minions": 1,
        "tracks": [["start", "instant", "unlock:A"], ["start", "instant", "minion"]],
        "ongoing": abilities.get("ongoing", []),
        "instant": abilities.get("instant", {"id": "test-nothing", "effects": [{"do": "gain-tokens"}]}),
        "unlockables": {"A": abilities.get("unlockable", {"id": "test-unknown", "unknown": True})},
        "bonus": [3, 8],
    }
    return {"guardians": [guardian]}


def test_change_type_ongoing_counts_as_both() -> None:
    data = user_board(
        ongoing=[
            {"id": "gilded", "effects": [{"do": "change-type", "target": {"is": ["chest"]}, "to": "trap"}]}
        ]
    )
    rows = [["cave TB chest", "cave -"], ["cave T", "cave -"]]
    doc = one_player(rows, year=1, guardian="Test Gorgon", guardians=["B1"], dice=["red"], data=data)
    damaged = first(play(doc), "hero_damaged", chamber="A1")
    assert damaged.get("parts") == ("chest:1", "Barbarian:1")


def test_change_type_instant_changes_one_element() -> None:
    data = user_board(
        instant={
            "id": "petrify",
            "effects": [{"do": "change-type", "target": {"is": ["monster"]}, "to": "trap"}],
        }
    )
    doc = one_defeat("Test Gorgon", (0, 0), decisions=["close", "right", "A1:2"], data=data)
    p = play(doc)
    assert first(p, "instant_used", ability="petrify").get("changed_to") == "trap"
    chamber = p.final.players[0].dungeon.chamber(Cell(0, 0))
    assert str(chamber.spaces[1]) == "kobold>trap"
    assert {"kobold", "monster", "trap"} <= chamber.spaces[1].tags()


def test_add_damage_per_element_per_chamber_and_for_some_heroes() -> None:
    data = user_board(
        ongoing=[
            {"id": "stare", "effects": [{"do": "add-damage", "amount": 1, "per": {"is": ["gorgon-token"]}}]},
            {
                "id": "hiss",
                "effects": [
                    {"do": "add-damage", "amount": 1, "per": "chamber", "in": "cave", "heroes": ["red"]}
                ],
            },
        ]
    )
    rows = [["cave TB gorgon-token gorgon-token kobold", "cave -"], ["stone T kobold", "cave -"]]
    doc = one_player(
        rows,
        year=2,
        guardian="Test Gorgon",
        guardians=["B1"],
        dice=["red", "black"],
        decisions=["red"],
        data=data,
    )
    p = play(doc)
    red = [e for e in events(p, "hero_damaged") if e.get("hero") == "red"]
    assert red[0].get("parts") == ("kobold:1", "stare:2", "hiss:1")
    assert red[1].get("parts") == ("kobold:1",)  # a stone chamber: no hiss


def test_defeat_ability_defeats_like_a_guardian() -> None:
    data = user_board(
        ongoing=[{"id": "gaze", "effects": [{"do": "defeat", "if": {"has": ["gorgon-token"]}}]}]
    )
    rows = [["cave TB gorgon-token chest", "cave -"], ["cave T", "cave -"]]
    doc = one_player(rows, year=1, guardian="Test Gorgon", guardians=["B1"], dice=["black"], data=data)
    p = play(doc)
    defeat = first(p, "hero_defeated")
    assert (defeat.get("chamber"), defeat.get("by")) == ("A1", "gaze")
    assert not events(p, "elements_destroyed")  # the Thief's ability did not resolve


def test_move_figure_on_a_users_condition() -> None:
    data = user_board(
        ongoing=[
            {"id": "slither", "effects": [{"do": "move-figure", "if": {"has": ["chest"], "in": "cave"}}]}
        ]
    )
    rows = [["cave TB chest", "cave -"], ["cave T", "cave -"]]
    doc = one_player(
        rows,
        year=2,
        guardian="Test Gorgon",
        guardians=["A1"],
        dice=["red", "black"],
        decisions=["red"],
        data=data,
    )
    p = play(doc)
    moved = first(p, "guardian_moved")
    assert (moved.get("origin"), moved.get("chamber"), moved.get("ability")) == ("A1", "A2", "slither")
    assert first(p, "hero_defeated", hero="black").get("chamber") == "A2"


def test_open_and_collapse_passages() -> None:
    data = user_board(
        instant={
            "id": "tunnel",
            "effects": [
                {"do": "collapse-passage", "passage": "secret"},
                {"do": "open-passage", "passage": "secret"},
            ],
        }
    )
    doc = one_defeat("Test Gorgon", (0, 0), decisions=["close", "right"], data=data)
    doc["players"][0]["dungeon"]["rows"][1] = ["cave T passages=R", "cave L"]
    p = play(doc)
    used = events(p, "instant_used")
    assert [(e.get("effect"), e.get("target")) for e in used] == [
        ("collapse-passage", "A2:right"),
        ("open-passage", "A1:left"),
    ]
    dungeon = p.final.players[0].dungeon
    assert not dungeon.chamber(Cell(0, 1)).passages and dungeon.chamber(Cell(0, 0)).passages


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            user_board(ongoing=[{"id": "x", "effects": [{"do": "place-token", "token": "rubble"}]}]),
            r"\$\.data\.guardians\[0\]\.ongoing\[0\]: ability 'x': a place-token effect acts once; it belongs in the instant slot",
        ),
        (
            user_board(instant={"id": "x", "effects": [{"do": "defeat"}]}),
            r"\$\.data\.guardians\[0\]\.instant: ability 'x': a defeat effect lasts",
        ),
        (
            user_board(instant="no-such-ability"),
            r"\$\.data\.guardians\[0\]\.instant: unknown ability 'no-such-ability'",
        ),
        (
            user_board(instant={"id": "x", "effects": [{"do": "place-token", "token": "kobold"}]}),
            r"instant\.effects\[0\]\.token: only rubble and guardian tokens go over an element",
        ),
        (
            user_board(instant={"id": "x", "effects": [{"do": "change-type", "to": "dragon"}]}),
            r"instant\.effects\[0\]\.to: change-type needs 'to'",
        ),
        (
            user_board(ongoing=[{"id": "x", "effects": [{"do": "add-damage", "amount": "fire_breath"}]}]),
            r"ongoing\[0\]\.effects\[0\]\.amount: unknown data value 'fire_breath'",
        ),
        (
            user_board(ongoing=[{"id": "x", "effects": [{"do": "add-damage", "per": {"is": ["kobld"]}}]}]),
            r"ongoing\[0\]\.effects\[0\]\.per\.is: unknown tag\(s\) kobld",
        ),
        (
            user_board(ongoing=[{"id": "x", "effects": [{"do": "defeat", "token": "rubble"}]}]),
            r"ongoing\[0\]\.effects\[0\]\.token: a defeat effect takes heroes, if; not 'token'",
        ),
        (
            user_board(ongoing=[{"id": "x", "effects": [{"do": "move-figure", "to": "anywhere"}]}]),
            r"ongoing\[0\]\.effects\[0\]\.to: a guardian moves to a connected adjacent chamber",
        ),
        (
            {"abilities": [{"id": "x", "unknown": True, "effects": [{"do": "defeat"}]}]},
            r"\$\.data\.abilities\[0\]\.effects: an unknown ability has no effects",
        ),
        (
            {**user_board(), "abilities": [{"id": "y", "effects": []}]},
            r"\$\.data\.abilities\[0\]\.effects: \[\] should be non-empty",
        ),
    ],
)
def test_malformed_abilities_are_located(data: dict[str, Any], message: str) -> None:
    doc = one_player([list(r) for r in CORRIDOR], year=1, guardian="Gorgon", guardians=["B1"], data=data)
    with pytest.raises(
        MalformedInputError, match=r"test\.json:" + message if message.startswith("\\$") else message
    ):
        load(doc)


def test_board_checks_instant_spaces_and_unlock_letters() -> None:
    data = user_board()
    data["guardians"][0]["instant"] = None
    doc = one_player([list(r) for r in CORRIDOR], year=1, guardian="Test Gorgon", guardians=["B1"], data=data)
    with pytest.raises(MalformedInputError, match=r"guardians\[0\]\.instant: the tracks have instant spaces"):
        load(doc)
    data = user_board()
    data["guardians"][0]["unlockables"]["B"] = "dangerous-debris"
    with pytest.raises(MalformedInputError, match=r"unlockables\.B: no track space unlocks this letter"):
        load({**doc, "data": data})


def test_the_worked_board_in_the_docs_is_the_bundled_giant_troll() -> None:
    """docs/stonespine.md enters the Giant Troll as a user would; it must load and match."""
    from invasion_oracle.model.stonespine.data import build_game_data

    text = (Path(__file__).resolve().parents[2] / "docs" / "stonespine.md").read_text(encoding="utf-8")
    section = text[text.index("### A worked board") :]
    block = section[
        section.index("```json") + len("```json") : section.index("```", section.index("```json") + 7)
    ]
    entered = build_game_data(Rulings.defaults("stonespine"), json.loads(block), "docs").guardian(
        "Giant Troll"
    )
    bundled = board("Giant Troll")
    assert entered.tracks == bundled.tracks and entered.bonus == bundled.bonus
    assert [(a.id, a.effects) for a in entered.abilities] == [(a.id, a.effects) for a in bundled.abilities]
