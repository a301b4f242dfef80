"""Bad input gives one clear error naming the field and the reason; the CLI exits 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.errors import AmbiguousInputError, IllegalDecisionError, MalformedInputError
from invasion_oracle.reports.cli import main
from tests.stonespine.helpers import load, one_player, play

ROWS = [["cave TB kobold", "cave -"], ["cave T", "cave -"]]


def base() -> dict[str, Any]:
    return one_player([list(r) for r in ROWS], year=2, guardians=["B1"])


def mutate(path: str, value: Any) -> dict[str, Any]:
    doc = base()
    target: Any = doc
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    last = keys[-1]
    if value is DELETE:
        del target[int(last) if last.isdigit() else last]
    elif last.isdigit():
        target[int(last)] = value
    else:
        target[last] = value
    return doc


DELETE = object()

CASES = [
    ("year", 7, r"test.json:\$.year: 7 is greater than the maximum of 4"),
    ("game", "chess", r"\$.game: 'stonespine' was expected"),
    ("players", DELETE, r"\$: 'players' is required"),
    ("colour", "red", r"\$: Additional properties are not allowed \('colour' was unexpected\)"),
    ("players.0.xp", -1, r"\$.players\[0\].xp: -1 is less than the minimum of 0"),
    ("players.0.guardian", "Hydra King", r"\$.players\[0\].guardian: unknown guardian board 'Hydra King'"),
    (
        "players.0.guardian",
        "Troll",
        r"\$.players\[0\].guardian: unknown guardian board 'Troll' \(did you mean",
    ),
    ("heroes", {"red": "Clerik"}, r"\$.heroes.red: unknown hero card 'Clerik' \(did you mean 'Cleric'"),
    ("heroes", {"red": "Cleric"}, r"\$.heroes.red: Cleric is a purple hero, not red"),
    (
        "heroes",
        {"black": "Black"},
        r"\$.heroes.black: hero card 'Black' is ambiguous: Black Hero 2, Black Hero 3, Black Hero 4",
    ),
    (
        "players.0.dungeon.entrance",
        "F",
        r"\$.players\[0\].dungeon.entrance: column 'F' is outside the grid \(A-B\)",
    ),
    ("players.0.dungeon.rows.1", ["cave T"], r"\$.players\[0\].dungeon.rows\[1\]: a row needs 2 chambers"),
    ("players.0.dungeon.rows.0.0", "cave TB dragon", r"rows\[0\]\[0\]: unknown element 'dragon'"),
    ("players.0.dungeon.rows.0.0", "cave TQ", r"rows\[0\]\[0\]: sides are written with the letters T B L R"),
    ("players.0.dungeon.rows.0.0", "castle TB", r"rows\[0\]\[0\]: chamber type is cave or stone"),
    (
        "players.0.dungeon.rows.0.0",
        "cave TB kobold kobold kobold kobold kobold",
        r"a chamber has four element spaces, got 5",
    ),
    ("players.0.dungeon.rows.0.0", "cave TB +5", r"reputation stars are \+1..\+3"),
    (
        "players.0.dungeon.rows.0.0",
        "cave TB kobold/spike",
        r"only rubble and guardian tokens lie over an element",
    ),
    ("players.0.dungeon.rows.0.0", "cave TB troll-rubble/rubble/spike", None),  # tokens stack
    ("players.0.dungeon.rows.0.0", "cave TB chest?", r"only guardian tokens lie face down"),
    ("players.0.dungeon.rows.0.0", "cave TB kobold>gold", r"an element changes into a type"),
    (
        "players.0.dungeon.rows",
        [],
        r"\$.players\[0\].dungeon.rows: the Invasion needs at least one built row",
    ),
    (
        "players.0.placement.guardians",
        ["C9"],
        r"placement.guardians\[0\]: chamber C9 is outside the dungeon \(A1-B2\)",
    ),
    (
        "players.0.placement.guardians",
        [],
        r"placement.guardians: Gorgon has 1 guardian figure\(s\) to place, got 0",
    ),
    ("players.0.placement.minions", ["A1"], r"placement.minions: only 0 minion\(s\) are unlocked"),
    ("players.0.levels", [9, 0], r"players\[0\].levels: the left track has spaces 0-4, got 9"),
    ("solo", {}, None),  # one player: allowed
    ("rulings", {"SS-NOPE": "x"}, r"unknown stonespine ruling 'SS-NOPE'"),
    ("rulings", {"SS-EXIT-Y13": "sometimes"}, r"unknown reading of SS-EXIT-Y13 'sometimes'"),
    (
        "data",
        {"values": {"minion_damage": 3, "dragon_fire": 2}},
        r"test.json:\$.data.values.dragon_fire: unknown value",
    ),
    ("data", {"dice": {"white": ["green"]}}, r"test.json:\$.data.dice.white\[0\]: 'green' does not match"),
    (
        "data",
        {
            "heroes": [
                {
                    "name": "Rogue",
                    "color": "red",
                    "health": 3,
                    "ability": {"type": "destroy", "matches": ["chest"], "amount": 1},
                }
            ]
        },
        r"test.json:\$.data.heroes\[0\].ability.type: a destroy ability belongs to a black hero, not red",
    ),
    (
        "data",
        {
            "heroes": [
                {
                    "name": "Rogue",
                    "color": "black",
                    "health": 3,
                    "ability": {"type": "destroy", "matches": ["gold"], "amount": 1},
                }
            ]
        },
        r"test.json:\$.data.heroes\[0\].ability.matches: unknown tag\(s\) gold",
    ),
]


@pytest.mark.parametrize(
    ("path", "value", "message"), CASES, ids=[c[0] + ":" + str(c[1])[:20] for c in CASES]
)
def test_malformed_scenario_names_field_and_reason(path: str, value: Any, message: str | None) -> None:
    doc = mutate(path, value)
    if message is None:
        load(doc)
        return
    with pytest.raises(MalformedInputError, match=message):
        load(doc)


def test_two_players_in_solo_is_rejected() -> None:
    doc = base()
    doc["players"].append({**doc["players"][0], "name": "Bo"})
    doc["solo"] = {}
    with pytest.raises(MalformedInputError, match=r"\$.solo: solo play has one player, got 2"):
        load(doc)


def test_duplicate_player_names_and_priorities() -> None:
    doc = base()
    doc["players"].append(dict(doc["players"][0]))
    with pytest.raises(MalformedInputError, match=r"players\[1\].name: player name 'Ann' is used twice"):
        load(doc)
    doc["players"][1] = {**doc["players"][0], "name": "Bo", "priority": 1}
    doc["players"][0]["priority"] = 1
    with pytest.raises(MalformedInputError, match=r"players\[1\].priority: priority 1 is used twice"):
        load(doc)


def test_illegal_scripted_decision_names_the_step_and_the_legal_options() -> None:
    doc = one_player(
        [["cave TBR", "cave L"], ["cave TR", "cave TL"]],
        year=2,
        guardians=["B1"],
        dice=["red", "red"],
        decisions=["D4"],
    )
    with pytest.raises(
        IllegalDecisionError,
        match=r"\$\.decisions\.script\[0\]: move for Ann \(hero=red chamber=A1 damage=0\): 'D4' is not legal; legal: 'A2', 'B1'",
    ):
        play(doc)


def test_illegal_scripted_die_face() -> None:
    doc = one_player([list(r) for r in ROWS], year=2, guardians=["B1"], dice=["green"])
    with pytest.raises(
        IllegalDecisionError,
        match=r"\$\.dice\.script\[0\]: roll white .*'green' is not legal; legal: 'black', 'purple', 'red'",
    ):
        play(doc)


def test_script_that_runs_out_without_fallback() -> None:
    doc = one_player([list(r) for r in ROWS], year=2, guardians=["B1"])
    doc["dice"] = {"script": ["red"], "then": "none"}
    with pytest.raises(IllegalDecisionError, match=r"dice ran out after 1 results at roll gray"):
        play(doc)


def test_ruling_prefix_and_ambiguity() -> None:
    assert load(base(), "SS-EXIT-Y13=ign").rulings.reading("SS-EXIT-Y13") == "ignored"
    with pytest.raises(AmbiguousInputError, match=r"stonespine ruling 'SS-EXIT' is ambiguous"):
        load(base(), "SS-EXIT=forced")
    with pytest.raises(MalformedInputError, match=r"expected ID=READING"):
        load(base(), "SS-EXIT-Y13")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "invalid JSON at line 1 column 2"),
        ("[1, 2]", "$: [1, 2] is not of type 'object'"),
        ('{"game": "stonespine", "year": NaN, "players": []}', "NaN is not valid JSON"),
        (b"\xff\xfe{}", "not UTF-8"),
    ],
)
def test_cli_reports_malformed_files_in_one_line_with_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str | bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert main(["stonespine", "simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert err.startswith(f"invasion: error: {path}:")


def test_cli_missing_file_and_bad_ruling(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "simulate", str(tmp_path / "none.json")]) == 2
    assert "none.json:$: no such file" in capsys.readouterr().err
    good = tmp_path / "ok.json"
    good.write_text(json.dumps(base()), encoding="utf-8")
    assert main(["stonespine", "simulate", str(good), "--ruling", "SS-EXIT-Y13=never"]) == 2
    assert "unknown reading of SS-EXIT-Y13 'never'" in capsys.readouterr().err
