"""Seed 003, Invader Actions: GROW, MOVE, GATHER, LEAD (each from a small position)."""

from __future__ import annotations

from tests.vulketh.helpers import act, card, events, invaders, one_card, play

GROW_LOW = card("gl", act("GROW", "blank", "lowest"), act("GATHER", "moon"))  # GROW 3 (standard)
GROW_HIGH = card("gh", act("GROW", "blank", "highest"), act("GATHER", "moon"))
MOVE_LOW = card("ml", act("MOVE", "blank", "lowest"), act("GATHER", "moon"))  # MOVE 4 (standard)
MOVE_HIGH = card("mh", act("MOVE", "blank", "highest"), act("GATHER", "moon"))
LEAD = card("lead", act("LEAD", "sun"), act("GATHER", "moon"))


def moves(p: object) -> list[tuple[int, int, int]]:
    return [(e.get("source"), e.get("target"), e.get("count")) for e in events(p, "invaders_moved")]  # type: ignore[arg-type]


# -- GROW -------------------------------------------------------------------------------------------


def test_grow_fills_the_lowest_hex_to_five_then_the_next_occupied_one() -> None:
    _, p = play(one_card(GROW_LOW, hexes={"1": {"invaders": 4}, "3": {"invaders": 1}}))
    assert [(e.get("hex"), e.get("count")) for e in events(p, "invaders_grown")] == [(1, 1), (3, 2)]
    assert invaders(p.final)[:3] == (5, 0, 3)


def test_a_warlord_hex_counts_as_occupied_for_grow() -> None:
    _, p = play(one_card(GROW_LOW, hexes={"2": {"warlord": "war"}, "5": {"invaders": 1}}))
    assert invaders(p.final)[:5] == (0, 3, 0, 0, 1)


def test_grow_highest_starts_from_the_highest_occupied_hex() -> None:
    _, p = play(one_card(GROW_HIGH, hexes={"4": {"invaders": 2}, "7": {"invaders": 5}}))
    assert invaders(p.final)[3:7] == (5, 0, 0, 5)


def test_what_does_not_fit_is_not_placed() -> None:
    _, p = play(one_card(GROW_LOW, hexes={"1": {"invaders": 5}, "2": {"invaders": 5}}))
    short = events(p, "grow_short")[0]
    assert (short.get("placed"), short.get("no_room"), short.get("no_pieces")) == (0, 3, 0)
    assert p.final.invader_supply == 20 - 10


def test_grow_takes_the_overrun_reserve_at_a_point_each_when_the_supply_runs_out() -> None:
    # two Invader members exist: one on the map, one in the supply
    document = one_card(
        GROW_LOW,
        hexes={"1": {"invaders": 1}},
        supply={"invaders": 1},
        score=4,
        data={"values": {"invader_members": 2}},
    )
    _, p = play(document)
    assert p.final.hex(1).invaders == 4
    assert (p.final.invader_supply, p.final.reserve, p.final.score) == (0, 3, 2)
    assert events(p, "reserve_used")[0].get("count") == 2
    assert events(p, "points_lost")[0].get("change") == -2


def test_with_supply_and_reserve_empty_grow_places_nothing() -> None:
    # no member in the supply and the five overrun Invaders already pulled: all on the map
    hexes = {"1": {"invaders": 1}, "9": {"invaders": 4}}
    document = one_card(
        GROW_LOW,
        hexes=hexes,
        supply={"invaders": 0},
        reserve=0,
        score=4,
        data={"values": {"invader_members": 0}},
    )
    _, p = play(document)
    assert events(p, "grow_short")[0].get("no_pieces") == 3
    assert p.final.hex(1).invaders == 1 and p.final.score == 4


# -- MOVE -------------------------------------------------------------------------------------------


def test_move_never_moves_the_last_invader_nor_an_invader_twice() -> None:
    _, p = play(one_card(MOVE_LOW, hexes={"1": {"invaders": 1}, "2": {"invaders": 3}}))
    assert moves(p) == [(2, 3, 2)]  # hex 1 keeps its only Invader; the arrivals in 3 stay put
    assert invaders(p.final)[:3] == (1, 1, 2)
    assert events(p, "move_short")[0].get("moved") == 2


def test_move_does_not_enter_a_hex_above_five_and_continues_from_the_next_hex() -> None:
    _, p = play(one_card(MOVE_LOW, hexes={"4": {"invaders": 3}, "5": {"invaders": 5}, "7": {"invaders": 5}}))
    assert moves(p) == [(5, 6, 4)]  # 4's neighbours above it (5, 7) are full; 5 goes on to 6
    assert invaders(p.final)[3:7] == (3, 1, 4, 5)


def test_move_highest_mirrors_lowest() -> None:
    _, p = play(one_card(MOVE_HIGH, hexes={"9": {"invaders": 3}}))
    assert moves(p) == [(9, 8, 2)]


# -- GATHER and LEAD --------------------------------------------------------------------------------


def test_gather_adds_resources_by_strength() -> None:
    _, p = play(one_card(GROW_LOW, hexes={"1": {"invaders": 1}}))
    assert [e.get("change") for e in events(p, "resources_gained")] == [2]  # a moon: weak GATHER


def test_lead_ignores_its_dice_and_runs_the_unlocked_powers_top_to_bottom() -> None:
    document = one_card(
        LEAD,
        hexes={
            "1": {"warlord": "steal-resources", "invaders": 1},
            "9": {"warlord": "convert"},
            "2": {"player": 2},
            "8": {"player": 1},
        },
        resources={"food": 3},
    )
    _, p = play(document)
    assert events(p, "lead")[0].get("powers") == ("steal-resources", "convert")
    assert events(p, "resources_stolen")[0].get("change") == 3
    assert [e.get("hex") for e in events(p, "converted")] == [2, 8]
    kinds = [e.kind for e in p.events]
    assert kinds.index("resources_stolen") < kinds.index("converted")
