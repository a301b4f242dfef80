"""The searches find known, hand-worked cases (the answers below are worked out by hand)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.solver.common import Status
from invasion_oracle.solver.stonespine.board import board_for
from invasion_oracle.solver.stonespine.cpsat_placement import cpsat_guaranteed
from invasion_oracle.solver.stonespine.escape_search import fill_free_spaces
from invasion_oracle.solver.stonespine.min_damage import fewest_minions, fewest_tokens, least_escaping_health
from invasion_oracle.solver.stonespine.placement import oracle_guaranteed, search_guaranteed, z3_guaranteed
from invasion_oracle.solver.stonespine.policy import Measure, solve_phase, verify_phase
from invasion_oracle.solver.stonespine.routes import RouteModel, enumerate_outcomes
from tests.stonespine.helpers import load

RED = HeroColor.RED


def scenario(
    rows: list[list[str]],
    *,
    year: int = 4,
    guardians: list[str],
    minions: list[str] | None = None,
    guardian: str = "Gorgon",
    levels: tuple[int, int] = (0, 0),
    **extra: Any,
) -> Any:
    doc: dict[str, Any] = {
        "game": "stonespine",
        "year": year,
        "players": [
            {
                "name": "Ann",
                "guardian": guardian,
                "levels": list(levels),
                "dungeon": {"entrance": "A", "exit": "A", "rows": rows},
                "placement": {"guardians": guardians, "minions": minions or []},
            }
        ],
        "rulings": {"SS-MINIONS": "optional"},
    }
    doc.update(extra)
    return load(doc)


@pytest.mark.parametrize("engine", ["z3", "search"])
def test_forced_escape_in_a_harmless_dead_end(engine: str) -> None:
    """A1 -> B1, nothing in either, the guardian walled off in A2: the hero must escape at B1."""
    s = scenario([["cave TR", "cave L"], ["cave -", "cave -"]], guardians=["A2"])
    board, layout, defeated = board_for(s)
    found = (
        RouteModel(board, layout, RED, defeated).outcomes()
        if engine == "z3"
        else enumerate_outcomes(board, layout, RED, defeated)
    )
    assert set(found) == {("escaped", board.index(board.cells[1]))}
    assert [board.name(n) for n in found[("escaped", 1)].route] == ["A1", "B1"]


@pytest.mark.parametrize("engine", ["z3", "search"])
def test_ring_defeats_only_after_going_round(engine: str) -> None:
    """A 2x2 ring of two-kobold chambers: the Barbarian (6) dies in the third chamber either way
    round - A2 via B1, B2 or B1 via A2, B2 - and never in B2."""
    s = scenario(
        [["cave TBR", "cave LB kobold kobold"], ["cave TR kobold kobold", "cave TL kobold kobold"]],
        guardians=["B2"],
    )
    board, layout, defeated = board_for(s)
    layout = type(layout)((), layout.minions)  # no guardian in play
    found = (
        RouteModel(board, layout, RED, defeated).outcomes()
        if engine == "z3"
        else enumerate_outcomes(board, layout, RED, defeated)
    )
    assert {(k, board.name(n)) for k, n in found} == {("defeated", "A2"), ("defeated", "B1")}
    assert [board.name(n) for n in found[("defeated", board.index(board.cells[2]))].route] == [
        "A1",
        "B1",
        "B2",
        "A2",
    ]


@pytest.mark.parametrize("solve", [search_guaranteed, z3_guaranteed, cpsat_guaranteed, oracle_guaranteed])
def test_placement_on_a_corridor(solve: Any) -> None:
    """Year 1, one hero, a three-chamber corridor with nothing in it and B1 walled off: the hero
    is defeated only by walking into the guardian, so the guardian belongs on the corridor - any of
    its three chambers - and B1 is worthless."""
    s = scenario(
        [["cave TB", "cave -"], ["cave TB", "cave -"], ["cave T", "cave -"]], year=1, guardians=["A1"]
    )
    answer = solve(s)
    assert answer.status is Status.PROVEN and answer.best == 1
    assert sorted(t.guardians[0] for t in answer.tied) == ["A1", "A2", "A3"]


@pytest.mark.parametrize("engine", ["z3", "search", "cpsat"])
def test_minimal_damage_on_a_corridor(engine: str) -> None:
    """An empty two-chamber corridor, the guardian walled off, one Barbarian (6 health): three
    minions (2 each), or three spikes (1 + 1 for the Barbarian), or six kobolds (1 each)."""
    s = scenario([["cave TB", "cave -"], ["cave T", "cave -"]], guardians=["B2"])
    assert fewest_minions(s, [RED], engine=engine).count == 3
    assert fewest_tokens(s, [RED], "spike", engine=engine).count == 3
    assert fewest_tokens(s, [RED], "kobold", engine=engine).count == 6
    with_spikes = scenario([["cave TB spike", "cave -"], ["cave T spike", "cave -"]], guardians=["B2"])
    answer = least_escaping_health(with_spikes, RED, engine=engine)
    assert answer.health == 5 and answer.escape_route == ("A1", "A2")  # two spikes deal 4


@pytest.mark.parametrize("engine", ["z3", "search"])
def test_escape_search_finds_the_harmless_filling(engine: str) -> None:
    """A1 holds three spikes (6 damage to the Barbarian, whom the data gives 7 health) and one free
    space: a spike (+2) or a kobold (+1) there defeats him; only the star lets him escape."""
    s = scenario(
        [["cave T spike spike spike", "cave -"]],
        guardians=["B1"],
        data={
            "heroes": [
                {
                    "name": "Barbarian",
                    "color": "red",
                    "health": 7,
                    "ability": {"type": "extra-damage", "matches": ["trap"], "amount": 1},
                }
            ]
        },
    )
    answer = fill_free_spaces(s, RED, ["spike", "kobold", "+1"], engine=engine)
    assert answer.found and dict(answer.filling) == {"A1:4": "+1"}
    none = fill_free_spaces(s, RED, ["spike", "kobold"], engine=engine)
    assert answer.status is Status.PROVEN and not none.found


def test_phase_policy_values_on_a_one_chamber_dungeon() -> None:
    """Year 1, one die: A1 holds four kobolds and is a dead end. The Thief (4 health) dies there;
    the Paladin (5) and the Barbarian (6) survive and escape. Once A1 holds a defeated hero every
    later hero walks through and escapes: for defeats and the trophy the policy closes, but for XP
    (an escaped hero entered too) it rolls once more - 1/3 * 2 + 2/3 * 1 = 4/3."""
    s = scenario([["cave T kobold kobold kobold kobold", "cave -"]], year=1, guardians=["B1"])
    for measure, target, expected in (
        (Measure.NO_ESCAPE, None, Fraction(1, 3)),
        (Measure.DEFEATED, None, Fraction(1, 3)),
        (Measure.TROPHY, 1, Fraction(1, 3)),
        (Measure.XP, None, Fraction(4, 3)),
    ):
        dp, answer = solve_phase(s, measure, target)
        assert answer.value == expected, measure
        verify_phase(s, dp, answer)
    dp, _ = solve_phase(s, Measure.DEFEATED)
    assert not dp.should_continue(1)  # with A1 taken, rolling again only risks an escape
