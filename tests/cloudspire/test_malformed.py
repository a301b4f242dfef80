"""Bad scenario and data input: every error names the file, the JSON path and the reason."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.cloudspire.data import build_game_data
from invasion_oracle.model.cloudspire.scenario import load_scenario, scenario_from_document
from invasion_oracle.model.core.errors import MalformedInputError
from tests.cloudspire.helpers import doc, only_pool


def error(document: Any, *rulings: str) -> str:
    with pytest.raises(MalformedInputError) as info:
        scenario_from_document(document, "s.json", rulings)
    return str(info.value)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda d: d.pop("start"), "s.json:$: 'start' is required"),
        (lambda d: d["state"].update(hero="Nobody"), "s.json:$.state.hero: unknown hero 'Nobody'"),
        (
            lambda d: d["state"].update(health=2.0),
            "s.json:$.state.health: 2.0 is not an integer; numbers in this format are integers",
        ),
        (lambda d: d["state"].update(health=-1), "s.json:$.state.health: -1 is less than the minimum of 1"),
        (
            lambda d: d["state"].update(lanes={"top": ["Nothing Here"]}),
            "s.json:$.state.lanes.top[0]: unknown card 'Nothing Here'",
        ),
        (
            lambda d: d["state"].update(lanes={"top": ["Water Tower"]}),
            "s.json:$.state.lanes.top[0]: Harbor-1 is of the allied faction Harbor: it cannot be an enemy",
        ),
        (
            lambda d: d["state"].update(lanes={"top": ["Aegis"]}, deployment=["Cobalt-1"]),
            "s.json:$.state.deployment[0]: card 'Cobalt-1' is already used",
        ),
        (
            lambda d: d["state"].update(allied=["Harbor", "Gale", "Harbor"]),
            "s.json:$.state.allied[2]: faction 'Harbor' twice",
        ),
        (lambda d: d["state"].update(boss="Harbor Keeper"), "s.json:$.state.boss: unknown boss"),
        (
            lambda d: d["state"].update(boss="Gale Harbinger"),
            "s.json:$.state.boss: Gale Harbinger is of an allied faction (Gale)",
        ),
        (
            lambda d: d["state"].update(spires={"L-top": "Tide Chart"}),
            "s.json:$.state.spires.L-top: Harbor-4 is not a spire card",
        ),
        (
            lambda d: d["state"].update(spires={"M-top": "Water Tower"}),
            "s.json:$.state.spires.M-top: not a spire space",
        ),
        (
            lambda d: d["state"].update(dice={"exhausted": ["B1"], "banished": ["B1"]}),
            "s.json:$.state.dice.banished[0]: die B1 is already listed at $.state.dice.exhausted[0]",
        ),
        (
            lambda d: d["state"].update(dice={"loaded": {"B1": {"slot": "hero.bp1", "face": "miss"}}}),
            "s.json:$.state.dice.loaded.B1: hero.bp1 does not take a blue miss",
        ),
        (
            lambda d: d["state"].update(dice={"loaded": {"B1": {"slot": "L-top.bp1", "face": "hit"}}}),
            "s.json:$.state.dice.loaded.B1.slot: no slot L-top.bp1 here",
        ),
        (
            lambda d: d["state"].update(dice={"loaded": {"Y1": {"slot": "hero.bp1", "face": "hit"}}}),
            "s.json:$.state.dice.loaded.Y1: hero.bp1 does not take a yellow hit",
        ),
        (
            lambda d: d["state"].update(
                lanes={"top": ["Aegis", "Tide Lancer"]},
                dice={"applied": {"B1": {"card": "Tide Lancer", "face": "hit"}}},
            ),
            "s.json:$.state.dice.applied.B1.card: Cobalt-2 is not on top of an enemy stack",
        ),
        (
            lambda d: d["state"].update(
                lanes={"top": ["Spark Imp"]}, dice={"applied": {"B1": {"card": "Spark Imp", "face": "hit"}}}
            ),
            "s.json:$.state.dice.applied: the dice on Ember-1 already defeat it",
        ),
        (
            lambda d: d["state"].update(rolls_used=4),
            "s.json:$.state.rolls_used: at most 3 rolls are allowed (ruling CS-ROLLS), got 4",
        ),
        (
            lambda d: d["state"].update(boss_added=True),
            "s.json:$.state.boss_added: the boss was added: put it in a lane or in the Deployment Stack",
        ),
        (
            lambda d: d["state"].update(lanes={"top": ["Driftwood Leviathan"]}),
            "s.json:$.state.lanes.top[0]: the boss is in play only once added",
        ),
        (
            lambda d: d["state"].update(market=["Aegis"]),
            "s.json:$.state.market: Cobalt-1 is not an allied item or mini-hero",
        ),
        (
            lambda d: d.update(setup={"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Basalt"]}),
            "s.json:$.setup: belongs to a scenario starting at setup",
        ),
        (
            lambda d: d.update(rulings={"CS-ROLLS": "twice"}),
            "s.json:$.rulings.CS-ROLLS: unknown reading of CS-ROLLS 'twice'",
        ),
    ],
)
def test_a_bad_state_names_its_path(change: Any, expected: str) -> None:
    document = doc()
    change(document)
    assert error(document).startswith(expected)


@pytest.mark.parametrize(
    ("setup", "expected"),
    [
        (
            {"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Gale"]},
            "s.json:$.setup.mini_heroes[1]: mini-hero of Gale chosen twice",
        ),
        (
            {"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Basalt", "Ivory"]},
            "s.json:$.setup.mini_heroes: choose two mini-heroes besides Harbor's",
        ),
        (
            {"hero": "Harbor Keeper", "mini_heroes": ["Gale", "Basalt"], "boss": "Gale"},
            "s.json:$.setup.boss: Gale Harbinger is of an allied faction (Gale)",
        ),
        (
            {"hero": "Wayfarer", "mini_heroes": ["Gale", "Basalt", "Harbor"]},
            "s.json:$.setup.starting_spires: a universal hero chooses two spire cards",
        ),
        (
            {
                "hero": "Wayfarer",
                "mini_heroes": ["Gale", "Basalt", "Harbor"],
                "starting_spires": ["Water Tower", "Lighthouse"],
            },
            "s.json:$.setup.starting_spires: the two spires must have the same name",
        ),
        (
            {
                "hero": "Harbor Keeper",
                "mini_heroes": ["Gale", "Basalt"],
                "starting_spires": ["Lattice", "Lattice"],
            },
            "s.json:$.setup.starting_spires: only a universal hero chooses",
        ),
    ],
)
def test_a_bad_setup_names_its_path(setup: dict[str, Any], expected: str) -> None:
    assert error({"game": "cloudspire", "start": "setup", "setup": setup}).startswith(expected)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (
            {
                "conflict": [
                    {
                        "id": "Harbor-1",
                        "faction": "Harbor",
                        "enemy": {"name": "X", "health": 2, "damage": 1, "reward": ["loot 2"]},
                        "item": {"name": "Y", "spire": False},
                    }
                ]
            },
            "d.json:$.conflict[0].enemy.reward[0]: unknown effect 'loot'",
        ),
        (
            {
                "conflict": [
                    {
                        "id": "Harbor-1",
                        "faction": "Harbor",
                        "enemy": {"name": "X", "health": 2, "damage": 1, "after": ["heal 1"]},
                        "item": {"name": "Y", "spire": False},
                    }
                ]
            },
            "d.json:$.conflict[0].enemy.after[0]: heal is not allowed as after",
        ),
        (
            {
                "conflict": [
                    {
                        "id": "Nowhere-1",
                        "faction": "Nowhere",
                        "enemy": {"name": "X", "health": 2, "damage": 1},
                        "item": {"name": "Y", "spire": False},
                    }
                ]
            },
            "d.json:$.conflict[0].faction: faction 'Nowhere' has no hero/boss card",
        ),
        ({"values": {"crit_damage": 2.0}}, "d.json:$.values.crit_damage: 2.0 is not an integer"),
        ({"values": {"crit_bonus": 1}}, "d.json:$.values.crit_bonus: unknown value 'crit_bonus'"),
        (
            {"dice": {"colours": {"red": {"count": 1, "faces": ["hit"]}}}},
            "d.json:$.dice.colours.red.faces: ['hit'] is too short",
        ),
        (
            {
                "conflict": [
                    {
                        "id": "Harbor-1",
                        "faction": "Harbor",
                        "enemy": {"name": "X", "health": 2, "damage": 1},
                        "item": {"name": "Y", "spire": False, "blueprints": ["blue"]},
                    }
                ]
            },
            "d.json:$.conflict[0].item.blueprints: only spires have blueprints",
        ),
    ],
)
def test_a_bad_data_file_names_its_path(data: dict[str, Any], expected: str) -> None:
    with pytest.raises(MalformedInputError) as info:
        build_game_data(data, "d.json")
    assert str(info.value).startswith(expected)


def test_a_data_override_is_marked_user_and_used(tmp_path: Path) -> None:
    data = build_game_data({"values": {"crit_damage": 3}}, "d.json")
    assert dict(data.values)["crit_damage"].provenance.value == "user"
    document = doc(
        start="fire",
        lanes={"bottom": ["Bark Brute"]},
        dice=only_pool(loaded={"B1": {"slot": "hero.bp1", "face": "crit"}}),
    )
    document["data"] = {"values": {"crit_damage": 3}}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    scenario = load_scenario(str(path))
    assert scenario.game().damage_of(scenario.initial.die("B1").face, "Driftwood-2") == 3


def test_a_float_in_a_file_is_refused_when_read(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text('{"game": "cloudspire", "start": "round", "rounds": 1.0}', encoding="utf-8")
    with pytest.raises(MalformedInputError) as info:
        load_scenario(str(path))
    assert str(info.value).startswith(f"{path}:$.rounds: 1.0 is not an integer")
