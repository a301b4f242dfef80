"""Every Stonespine input is checked before it reaches the rules (issue 13): data files and the
numbers in scenarios give one located line, ``file:json.path: reason``, and exit status 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.stonespine.data import build_game_data
from invasion_oracle.reports.cli import main
from tests.stonespine.helpers import load, one_player

ROWS = [["cave TB kobold", "cave -"], ["cave T", "cave -"]]
HERO = {"name": "Rogue", "color": "red", "health": 3, "ability": {"type": "none"}}
BOARD = {
    "name": "Plain",
    "family": "plain",
    "figures": 1,
    "minions": 0,
    "tracks": [["start", "empty"], ["start", "empty"]],
    "bonus": [1, 2],
}

# (data document, path inside it, start of the reason)
BAD_DATA: list[tuple[dict[str, Any], str, str]] = [
    ({"values": {"dice_by_year": 3}}, "$.values.dice_by_year", "3 is not of type 'array'"),
    ({"values": {"xp_market": 4}}, "$.values.xp_market", "4 is not of type 'array'"),
    ({"values": {"minion_damage": [2]}}, "$.values.minion_damage", "[2] is not of type 'integer'"),
    ({"values": {"hero_level_rolls": []}}, "$.values.hero_level_rolls", "[] is too short"),
    ({"values": {"jael_defeats": [3, 6, 9]}}, "$.values.jael_defeats", "[3, 6, 9] is too short"),
    (
        {"values": {"dice_by_year": [["white"], ["red"], ["gray"], ["gray"]]}},
        "$.values.dice_by_year[1][0]",
        "'red' is not one of",
    ),
    ({"values": {"passage_prices": [5, 6.5]}}, "$.values.passage_prices[1]", "6.5 is not an integer"),
    (
        {"values": {"xp_price": 4.0}},
        "$.values.xp_price",
        "4.0 is not an integer; numbers in this format are integers (write 4)",
    ),
    ({"values": {"xp_price": 0}}, "$.values.xp_price", "0 is less than the minimum of 1"),
    ({"values": {"minion_damage": -1}}, "$.values.minion_damage", "-1 is less than the minimum of 0"),
    ({"values": {"level_up_cost": -5}}, "$.values.level_up_cost", "-5 is less than the minimum of 1"),
    (
        {"values": {"rubble_removal_price": "3"}},
        "$.values.rubble_removal_price",
        "'3' is not of type 'integer'",
    ),
    ({"values": {"fire_breath": 2}}, "$.values.fire_breath", "unknown value; known:"),
    (
        {"values": {"dice_by_year": [["white"], [], ["white"], ["white"]]}},
        "$.values.dice_by_year[1]",
        "[] should be non-empty",
    ),
    ({"trophies": [1, 2, 3]}, "$.trophies", "[1, 2, 3] is too short"),
    ({"demerits": [1, 2, 3, -4]}, "$.demerits[3]", "-4 is less than the minimum of 0"),
    ({"dice": {"white": []}}, "$.dice.white", "[] should be non-empty"),
    (
        {"heroes": [{**HERO, "health": 2.0}]},
        "$.heroes[0].health",
        "2.0 is not an integer; numbers in this format are integers (write 2)",
    ),
    ({"heroes": [HERO, HERO]}, "$.heroes[1].name", "'Rogue' is given twice in this file"),
    (
        {"guardians": [{**BOARD, "tracks": [["start"], ["start", "minion"]]}]},
        "$.guardians[0].tracks[0]",
        "['start'] is too short",
    ),
    ({"guardians": [{**BOARD, "bonus": [5, -1]}]}, "$.guardians[0].bonus[1]", "-1 is less than the minimum"),
    (
        {"guardians": [{**BOARD, "tracks": [["start", "instant*0"], ["start"] * 2]}]},
        "$.guardians[0].tracks[0][1]",
        "'instant*0' does not match",
    ),
    (
        {"guardians": [{**BOARD, "minions": 1}]},
        "$.guardians[0].minions",
        "the board has 1 minions but 0 minion spaces",
    ),
    (
        {"guardians": [{**BOARD, "tracks": [["start", "minion"], ["start", "empty"]]}]},
        "$.guardians[0].minions",
        "the board has 0 minions",
    ),
]


@pytest.mark.parametrize(
    ("data", "where", "reason"), BAD_DATA, ids=[c[1] + ":" + c[2][:16] for c in BAD_DATA]
)
def test_a_bad_data_file_names_the_field(data: dict[str, Any], where: str, reason: str) -> None:
    with pytest.raises(MalformedInputError) as raised:
        build_game_data(Rulings.defaults("stonespine"), data, "d.json")
    assert raised.value.source == "d.json" and raised.value.path == where
    assert raised.value.reason.startswith(reason), raised.value.reason


@pytest.mark.parametrize(("data", "where", "reason"), BAD_DATA[:6], ids=[c[1] for c in BAD_DATA[:6]])
def test_embedded_data_errors_are_located_from_the_scenario_file(
    data: dict[str, Any], where: str, reason: str
) -> None:
    doc = one_player([list(r) for r in ROWS], year=2, guardians=["B1"], data=data)
    with pytest.raises(MalformedInputError) as raised:
        load(doc)
    assert raised.value.path == "$.data" + where[1:]
    assert str(raised.value).startswith(f"test.json:$.data{where[1:]}: {reason}")


def bad_scenario(path: str, value: Any) -> dict[str, Any]:
    doc = one_player([list(r) for r in ROWS], year=2, guardians=["B1"], health_bonus={"red": 1})
    target: Any = doc
    keys = path.split(".")
    for key in keys[:-1]:
        target = target[int(key)] if key.isdigit() else target[key]
    target[int(keys[-1]) if keys[-1].isdigit() else keys[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        ("year", 2.0, r"\$\.year: 2\.0 is not an integer; numbers in this format are integers \(write 2\)"),
        (
            "players.0.levels",
            [1.0, 0],
            r"\$\.players\[0\]\.levels\[0\]: 1\.0 is not an integer; numbers in this format are integers \(write 1\)",
        ),
        ("players.0.xp", 2.0, r"\$\.players\[0\]\.xp: 2\.0 is not an integer"),
        ("health_bonus.red", 1.0, r"\$\.health_bonus\.red: 1\.0 is not an integer"),
        ("dice", {"then": "random", "seed": 3.0}, r"\$\.dice\.seed: 3\.0 is not an integer"),
        ("decisions", {"script": [1.5]}, r"\$\.decisions\.script\[0\]: 1\.5 is not of type 'string'"),
        (
            "players.0.placement.guardians",
            ["A0"],
            r"\$\.players\[0\]\.placement\.guardians\[0\]: 'A0' does not match",
        ),
        (
            "players.0.placement.minions",
            ["b0"],
            r"\$\.players\[0\]\.placement\.minions\[0\]: 'b0' does not match",
        ),
        ("players.0.gold", 10**6, r"\$\.players\[0\]\.gold: 1000000 is greater than the maximum"),
    ],
)
def test_scenario_numbers_and_cells_are_checked(path: str, value: Any, message: str) -> None:
    with pytest.raises(MalformedInputError, match=r"^test\.json:" + message):
        load(bad_scenario(path, value))


def test_cli_data_file_errors_are_one_located_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.json"
    scenario.write_text(
        json.dumps(one_player([list(r) for r in ROWS], year=2, guardians=["B1"])), encoding="utf-8"
    )
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"values": {"hero_level_rolls": [1, 2]}}), encoding="utf-8")
    for verb in (["stonespine", "simulate", str(scenario)], ["stonespine", "data"]):
        assert main([*verb, "--data", str(data)]) == 2
        err = capsys.readouterr().err
        assert err == f"invasion: error: {data}:$.values.hero_level_rolls: [1, 2] is too short\n"


def test_a_data_file_wins_value_by_value_over_the_scenarios_data(tmp_path: Path) -> None:
    from invasion_oracle.model.stonespine.scenario import load_scenario

    doc = one_player([list(r) for r in ROWS], year=2, guardians=["B1"])
    doc["data"] = {"values": {"minion_damage": 3, "element_damage": 2}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    scenario = load_scenario(str(path), (), {"values": {"minion_damage": 5}}, "d.json")
    assert scenario.data.value("minion_damage") == 5  # the data file wins
    assert scenario.data.value("element_damage") == 2  # the scenario's other values still apply
