"""Seed 003, Player Turn (scripted; the base game's turn is not in the seeds) and The Vul'Keth
Tribe: Seize and Pillage."""

from __future__ import annotations

import pytest

from invasion_oracle.model.core.decisions import ChanceRequest
from invasion_oracle.model.core.errors import MalformedInputError
from tests.vulketh.helpers import asked, events, play, player_first, player_turn, players

VK = {"tribe": "vulketh"}


def test_a_die_placed_sets_the_strength_and_the_scripted_effects_apply() -> None:
    turn = {
        "dice": [{"face": "sun", "action": "GROW"}, {"face": "moon", "action": "MOVE"}],
        "grow": {"9": 3},
        "move": [{"from": 9, "to": 7, "count": 2}],
    }
    _, p = play(player_first(turn, hexes={"9": {"player": 2}, "1": {"invaders": 1}}))
    placed = events(p, "die_placed")
    assert [(e.get("action"), e.get("strength")) for e in placed][:2] == [
        ("GROW", "standard"),
        ("MOVE", "weak"),
    ]
    assert players(p.final)[6:] == (2, 0, 3)


def test_a_script_exceeding_the_action_is_refused_where_it_stands() -> None:
    turn = {"dice": [{"face": "moon", "action": "GROW"}, {"face": "sun", "action": "MOVE"}], "grow": {"9": 3}}
    with pytest.raises(
        MalformedInputError,
        match=r"test.json:\$.player_turns\[0\].grow: GROW at weak strength adds 2 members; the script adds 3",
    ):
        play(player_first(turn, hexes={"9": {"player": 2}, "1": {"invaders": 1}}))


def test_grow_only_where_the_player_has_members() -> None:
    turn = {
        "dice": [{"face": "blank", "action": "GROW"}, {"face": "sun", "action": "MOVE"}],
        "grow": {"5": 1},
    }
    with pytest.raises(
        MalformedInputError, match=r"\$.player_turns\[0\].grow.5: the player has no members in hex 5"
    ):
        play(player_first(turn, hexes={"9": {"player": 2}, "1": {"invaders": 1}}))


def test_both_dice_on_one_action_is_refused() -> None:
    turn = {"dice": [{"face": "blank", "action": "GROW"}, {"face": "sun", "action": "GROW"}]}
    with pytest.raises(MalformedInputError, match=r"dice\[0\].action: both dice go to GROW"):
        play(player_first(turn, hexes={"9": {"player": 2}, "1": {"invaders": 1}}))


def test_open_faces_are_rolled_and_open_actions_are_asked() -> None:
    turn = {"dice": [{"action": "GATHER"}, {"face": "sun"}]}
    _, p = play(player_first(turn, hexes={"1": {"invaders": 1}}), chance=("moon",), decisions=("LEAD",))
    roll = p.steps[0].request
    assert isinstance(roll, ChanceRequest) and roll.outcomes == (
        "sun",
        "sun",
        "moon",
        "moon",
        "blank",
        "blank",
    )
    assert asked(p, "place-die") == [("GROW", "MOVE", "LEAD")]  # not GATHER, taken by the other die


def test_doubles_trigger_an_invader_event_before_the_actions() -> None:
    turn = {"dice": [{"face": "sun", "action": "GATHER"}, {"face": "sun", "action": "LEAD"}]}
    _, p = play(player_first(turn, hexes={"1": {"invaders": 1}}), chance=("tribute",))
    assert len(p.steps[0].request.outcomes) == 9  # type: ignore[union-attr]
    kinds = [e.kind for e in p.events]
    assert kinds.index("invader_event") < kinds.index("die_placed")
    assert events(p, "resources_gained")[0].get("cause") == "Invader Event Tribute (example)"


def test_no_event_without_doubles() -> None:
    _, p = play(player_first(player_turn(), hexes={"1": {"invaders": 1}}))
    assert events(p, "invader_event") == []


def test_a_village_is_paid_for_and_scores_at_the_start_of_the_next_turn() -> None:
    first = player_turn(villages=[7])
    document = player_first(
        first,
        player_turn(),
        hexes={"7": {"player": 1}, "1": {"invaders": 1}},
        resources={"food": 2, "wood": 2, "stone": 3},
    )
    _, p = play(document)
    assert events(p, "village_built")[0].get("hex") == 7
    assert p.final.resources.total == 1
    scored = events(p, "villages_scored")
    assert [(e.get("hexes"), e.get("score")) for e in scored] == [((7,), 1)]


def test_no_village_in_a_warlord_hex() -> None:
    document = player_first(
        player_turn(villages=[7]),
        hexes={"7": {"player": 1, "warlord": "war"}, "1": {"invaders": 1}},
        resources={"food": 2, "wood": 2, "stone": 2},
    )
    with pytest.raises(
        MalformedInputError, match=r"villages\[0\]: cannot build a village in hex 7: a Warlord stands there"
    ):
        play(document)


def test_seize_takes_an_opponent_village_for_nine_resources() -> None:
    document = player_first(
        player_turn(seize=[{"hex": 8, "pay": {"food": 4, "wood": 3, "stone": 2}}]),
        rivals=[{"name": "Kiror"}],
        hexes={"8": {"player": 1, "village": "Kiror"}, "1": {"invaders": 1}},
        resources={"food": 5, "wood": 3, "stone": 2},
        **VK,
    )
    _, p = play(document)
    assert p.final.hex(8).village == "player"
    assert events(p, "village_seized")[0].get("owner") == "Kiror"
    assert p.final.resources.total == 1


def test_only_the_vulketh_can_seize() -> None:
    document = player_first(
        player_turn(seize=[{"hex": 8, "pay": {"food": 9}}]),
        rivals=[{"name": "Kiror"}],
        hexes={"8": {"player": 1, "village": "Kiror"}, "1": {"invaders": 1}},
        resources={"food": 9},
    )
    with pytest.raises(MalformedInputError, match="only the Vul'Keth tribe can Seize"):
        play(document)


def test_pillage_takes_a_resource_when_conflict_clears_the_invaders() -> None:
    document = player_first(
        player_turn(), hexes={"5": {"player": 4, "invaders": 2}}, invader_resources=1, **VK
    )
    _, p = play(document, decisions=("stone",))
    assert asked(p, "pillage") == [("food", "wood", "stone", "decline")]
    assert p.final.resources.stone == 1
    assert (p.final.hex(5).player, p.final.hex(5).invaders) == (2, 0)


def test_pillage_counts_whether_the_player_survives_or_not() -> None:
    document = player_first(player_turn(), hexes={"5": {"player": 3, "invaders": 3}}, **VK)
    _, p = play(document, decisions=("food",))
    assert (p.final.hex(5).player, p.final.hex(5).invaders) == (0, 0)
    assert events(p, "pillaged")[0].get("resource") == "food"


def test_pillage_counts_when_the_opponent_escapes_by_evasion() -> None:
    document = player_first(
        player_turn(),
        rivals=[{"name": "Kiror", "evasion": True}],
        hexes={"5": {"player": 3, "rivals": {"Kiror": 3}}, "1": {"invaders": 1}},
        **VK,
    )
    _, p = play(document, decisions=("wood",))
    assert events(p, "conflict")[0].get("escaped") == ("Kiror",)
    assert events(p, "pillaged")[0].get("resource") == "wood"


def test_no_pillage_for_other_tribes() -> None:
    document = player_first(player_turn(), hexes={"5": {"player": 4, "invaders": 2}})
    _, p = play(document)
    assert asked(p, "pillage") == [] and events(p, "pillaged") == []
