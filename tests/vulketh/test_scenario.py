"""Scenario and data files: bad input gets one located error (file:json.path: reason)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.vulketh.data import build_game_data
from invasion_oracle.model.vulketh.scenario import load_scenario, scenario_from_document
from tests.vulketh.helpers import doc

CASES: list[tuple[dict[str, Any], str]] = [
    (doc(start="sometime"), r"test.json:\$.start: 'sometime' is not one of"),
    (doc(hexes={"10": {"invaders": 1}}), r"\$.hexes: '10' does not match"),
    (doc(hexes={"2": {"invaders": -1}}), r"\$.hexes.2.invaders: -1 is less than the minimum of 0"),
    (
        doc(hexes={"2": {"invaders": 2.0}}),
        r"\$.hexes.2.invaders: 2.0 is not an integer; numbers in this format are integers",
    ),
    (doc(hexes={"2": {"invaders": 6}}), r"\$.hexes.2.invaders: at most 5 Invaders fit in a hex, got 6"),
    (
        doc(hexes={"2": {"warlord": "war"}, "3": {"warlord": "war"}}),
        r"\$.hexes.3.warlord: the war token is already the Warlord in hex 2",
    ),
    (doc(hexes={"2": {"village": "Kiror"}}), r"\$.hexes.2.village: a village belongs to 'player' or a rival"),
    (doc(hexes={"2": {"rivals": {"Kiror": 1}}}), r"\$.hexes.2.rivals.Kiror: unknown rival tribe 'Kiror'"),
    (doc(start="setup", score=3), r"\$.score: a scenario starting at setup has no position yet"),
    (doc(score=-1), r"\$.score: a negative score needs the ruling VK-SCORE-FLOOR=negative"),
    (doc(reserve=6), r"\$.reserve: the Warlord Track holds 5 overrun Invaders, got 6"),
    (
        doc(hexes={"1": {"player": 4}}, supply={"player": 17}),
        r"\$.supply.player: the player has 20 pieces \(20 members\); with 4 on the map the supply holds 16, not 17",
    ),
    (
        doc(hexes={"1": {"invaders": 1}}, supply={"invaders": 0}),
        r"\$.supply.invaders: the Invaders have 25 pieces \(20 members and 5 overrun\); with 1 on the map and 5 "
        r"on the Warlord Track the supply holds 19, not 0 .*set data.values.invader_members",
    ),
    (
        doc(
            hexes={"1": {"invaders": 5}, "2": {"invaders": 1}},
            reserve=0,
            data={"values": {"invader_members": 0}},
        ),
        r"\$.hexes: the Invaders have 5 pieces \(0 members and 5 overrun\); 6 on the map and 0 on the Warlord "
        r"Track are too many",
    ),
    (doc(decks={"1": ["2a"]}), r"\$.decks.1\[0\]: card 2a belongs to deck 2"),
    (doc(decks={"1": ["1z"]}), r"\$.decks.1\[0\]: unknown Invader Action card '1z'"),
    (
        doc(chance={"script": ["1a", "E99"]}),
        r"\$.chance.script\[1\]: 'E99' is not a die face, an Invader Action card or an Invader Event id",
    ),
    (doc(discard=["1a"], decks={"1": ["1a"]}), r"\$.decks.1\[0\]: card 1a is already in \$.discard"),
    (doc(discard=["1a", "1b"], last_card="1a"), r"\$.last_card: the card played last \(1a\) is the top"),
    (
        doc(warlord_board=["war"], hexes={"1": {"warlord": "war"}}),
        r"\$.warlord_board\[0\]: the war token is on the map",
    ),
    (
        doc(events={"pile": ["raid", "Raid (example)"]}),
        r"\$.events.pile\[1\]: Invader Event raid is listed twice",
    ),
    (doc(rulings={"VK-MOVE-DEST": "sideways"}), r"\$.rulings.VK-MOVE-DEST: unknown reading of VK-MOVE-DEST"),
    (doc(map={"edges": [[1, 1]]}), r"\$.map.edges\[0\]: hex 1 cannot be adjacent to itself"),
    (doc(map={"edges": [[1, 2], [2, 12]]}), r"\$.map.edges\[1\]: no hex 12; the hexes are numbered 1-9"),
    (doc(map={"edges": [[1, 2], [3, 4]]}), r"\$.map.edges: the hexes must form one connected map"),
    (doc(rivals=[{"name": "player"}]), r"\$.rivals\[0\].name: 'player' is taken"),
    (
        doc(player_turns=[{"dice": [{"face": "sun"}], "grow": {}}]),
        r"\$.player_turns\[0\].dice: \[\{'face': 'sun'\}\] is too short",
    ),
    (
        doc(player_turns=[{"dice": [{}, {}], "move": [{"from": 3, "to": 3, "count": 1}]}]),
        r"\$.player_turns\[0\].move\[0\]: a move goes from one hex to another",
    ),
]


@pytest.mark.parametrize(("document", "message"), CASES)
def test_bad_scenarios_are_refused_where_they_are_wrong(document: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        scenario_from_document(document, "test.json")


def test_files_with_a_float_are_refused_by_the_reader(tmp_path: Path) -> None:
    path = tmp_path / "float.json"
    path.write_text('{"game": "vulketh", "start": "invader", "score": 2.0}', encoding="utf-8")
    with pytest.raises(MalformedInputError, match=r"float.json:\$.score: 2.0 is not an integer"):
        load_scenario(str(path))


DATA_CASES: list[tuple[dict[str, Any], str]] = [
    ({"values": {"population_limits": 4}}, r"data.json:\$.values.population_limits: unknown value"),
    ({"values": {"population_limit": 0}}, r"\$.values.population_limit: must be at least 1"),
    (
        {"values": {"warlords_to_win": 6}},
        r"\$.values.warlords_to_win: 6 Warlords cannot be summoned from a board of 5",
    ),
    ({"dice_faces": {"sun": 0, "moon": 0, "blank": 0}}, r"\$.dice_faces: a die needs at least one face"),
    (
        {
            "action_cards": [
                {
                    "id": "a",
                    "deck": 1,
                    "actions": [{"action": "GROW", "face": "sun"}] * 2,
                    "goal": {"goal": "none"},
                    "next_deck": 1,
                }
            ]
        },
        r"\$.action_cards: deck 2 has no Invader Action card",
    ),
    (
        {"invader_events": [{"id": "x", "name": "X", "effects": [{"effect": "earthquake"}]}]},
        r"\$.invader_events\[0\].effects\[0\].effect: unknown effect 'earthquake'",
    ),
    (
        {"invader_events": [{"id": "x", "name": "X", "effects": [{"effect": "grow", "amount": 2}]}]},
        r"\$.invader_events\[0\].effects\[0\]: a grow effect needs 'direction'",
    ),
    (
        {
            "action_cards": [
                {
                    "id": "a",
                    "deck": 1,
                    "actions": [{"action": "GROW", "face": "sun"}] * 2,
                    "goal": {"goal": "hex_occupied"},
                    "next_deck": 1,
                }
            ]
        },
        r"\$.action_cards\[0\].goal: a hex_occupied goal needs 'hex'",
    ),
    (
        {"village_cost": {"food": 2.5}},
        r"\$.village_cost.food: 2.5 is not an integer; numbers in this format are integers",
    ),
]


@pytest.mark.parametrize(("overrides", "message"), DATA_CASES)
def test_bad_data_files_are_refused_where_they_are_wrong(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(MalformedInputError, match=message):
        build_game_data(overrides, "data.json")


def test_a_data_file_overrides_values_and_marks_them_user() -> None:
    data = build_game_data(
        {
            "values": {"population_limit": 4},
            "action_values": {"GROW": {"weak": 1, "standard": 2, "strong": 3}},
        },
        "mine.json",
    )
    assert data.value("population_limit") == 4 and data.amount("GROW", "standard") == 2
    assert dict(data.values)["population_limit"].provenance.value == "user"
    assert data.action_values.provenance.value == "user"
    assert data.amount("MOVE", "standard") == 4  # untouched


def test_a_scenario_map_replaces_the_derived_one() -> None:
    edges = [[n, n + 1] for n in range(1, 9)]  # a line of hexes
    scenario = scenario_from_document(doc(map={"edges": edges}), "test.json")
    assert scenario.rules.map.neighbours(5) == (4, 6)
    assert scenario.rules.map.provenance.value == "user"
