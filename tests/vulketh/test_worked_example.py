"""Seed 003, Invader Turn Example, as a test under the default adjacency and MOVE ruling.

"Invaders Grow (Lowest)": three Invaders go to hex 1, which has a Warlord but no Invaders.
"Invaders Move (Lowest)": four moves; the first Invader goes from hex 1 to hex 2; hex 1 can move
no more because both its neighbours (2 and 3) then hold five; three unmoved Invaders of hex 2
go to hex 4, the next lowest adjacent hex with room.

The example's numbers (GROW 3, MOVE 4) are the standard strength in the bundled data; a blank
slid onto the starting row (sun, moon, blank) leaves one moon, so both actions are standard.
"""

from __future__ import annotations

from invasion_oracle.model.vulketh.hexmap import default_map
from invasion_oracle.model.vulketh.invader_actions import move_invaders
from tests.vulketh.helpers import act, card, events, invaders, one_card, play

EXAMPLE = card("example", act("GROW", "blank", "lowest"), act("MOVE", "blank", "lowest"))
BEFORE = {"1": {"warlord": "steal-resources"}, "2": {"invaders": 4}, "3": {"invaders": 5}}


def test_worked_invader_turn() -> None:
    _, p = play(one_card(EXAMPLE, hexes=BEFORE))
    grown = events(p, "invaders_grown")
    assert [(e.get("hex"), e.get("count")) for e in grown] == [(1, 3)]
    moved = [(e.get("source"), e.get("target"), e.get("count")) for e in events(p, "invaders_moved")]
    assert moved == [(1, 2, 1), (2, 4, 3)]
    assert invaders(p.final) == (2, 2, 5, 3, 0, 0, 0, 0, 0)
    assert p.final.hex(1).warlord == "steal-resources"


def test_both_neighbours_of_hex_1_are_full_after_the_first_move() -> None:
    """'No more Invaders can move from Hex 1 since both adjacent Hexes now have five.'"""
    after_grow = (3, 4, 5, 0, 0, 0, 0, 0, 0)
    counts, moves = move_invaders(
        after_grow, default_map().adjacency, 1, "lowest", "beyond-source", "mirror", 5
    )
    assert moves == ((1, 2),)
    assert [counts[n - 1] for n in default_map().neighbours(1)] == [5, 5]


def test_the_example_holds_under_the_other_move_reading_too() -> None:
    """Both readings of VK-MOVE-DEST were chosen to fit the example."""
    _, p = play(one_card(EXAMPLE, hexes=BEFORE), rulings=("VK-MOVE-DEST=unused",))
    assert invaders(p.final) == (2, 2, 5, 3, 0, 0, 0, 0, 0)
