"""The pruned placement search is exact: it agrees with enumerating every placement.

Enumeration here is the plain one - every guardian and minion position, no classes merged, every
roll - so the classes, symmetries and bounds of the search are all checked against it.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from invasion_oracle.model.stonespine.scenario import Scenario, scenario_from_document
from invasion_oracle.properties.stonespine import scenarios
from invasion_oracle.solver.common import Deadline, Status
from invasion_oracle.solver.stonespine.answers import FigurePlacement
from invasion_oracle.solver.stonespine.board import Layout, board_for
from invasion_oracle.solver.stonespine.cpsat_placement import cpsat_guaranteed
from invasion_oracle.solver.stonespine.dice import roll_distribution
from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator
from invasion_oracle.solver.stonespine.generate import study_document
from invasion_oracle.solver.stonespine.placement import (
    oracle_guaranteed,
    search_expected,
    search_guaranteed,
    z3_guaranteed,
)
from invasion_oracle.solver.stonespine.policy import InvasionDP, Measure
from invasion_oracle.solver.stonespine.space import layouts, minion_counts, placement_space, symmetries
from tests.stonespine.helpers import load


def study(rows: int, columns: int, **options: Any) -> Scenario:
    return scenario_from_document(study_document(rows, columns, **options), "study grid")


def enumerate_guaranteed(scenario: Scenario) -> tuple[int, set[Layout]]:
    """The best guaranteed value and every placement reaching it, trying all of them."""
    board, _, defeated = board_for(scenario)
    rolls = [r for r, p in roll_distribution(scenario.data, board.year) if p > 0]
    tables = EntryTables(board, batch=True)
    best, tied = -1, set()
    for layout in layouts(board, minion_counts(scenario, board), range(board.size)):
        evaluator = LayoutEvaluator(board, layout, tables)
        # the least over the rolls: each roll asked only up to the least so far
        value = min(sum(r) for r in rolls)
        for roll in rolls:
            value = evaluator.value(roll, defeated, enough=value)
        if value > best:
            best, tied = value, {layout}
        elif value == best:
            tied.add(layout)
    return best, tied


def classes(scenario: Scenario, placements: Any) -> set[Layout]:
    space = placement_space(scenario)
    return {space.canonical(p if isinstance(p, Layout) else p.layout(space.board)) for p in placements}


INSTANCES = [
    pytest.param(
        {"rows": 3, "columns": 4, "seed": 5, "year": 3, "minions": 2, "bonus": 4},
        marks=pytest.mark.slow,
        id="4x3-y3",
    ),
    pytest.param({"rows": 2, "columns": 3, "seed": 1, "year": 2, "minions": 2, "bonus": 3}, id="3x2-y2"),
    pytest.param({"rows": 3, "columns": 3, "seed": 4, "year": 4, "minions": 2, "elements": 0.3}, id="3x3-y4"),
]


@pytest.mark.parametrize("options", INSTANCES)
def test_the_search_finds_what_enumeration_finds(options: dict[str, Any]) -> None:
    scenario = study(**options)
    best, tied = enumerate_guaranteed(scenario)
    answer = search_guaranteed(scenario, top=0)
    assert answer.status is Status.PROVEN and answer.best == answer.upper_bound == best
    assert answer.ties_complete and answer.replayed
    assert {p.layout(board_for(scenario)[0]) for p in answer.tied} == classes(scenario, tied)


def _generated_dungeons_every_engine_agrees_with_enumeration(doc: dict[str, Any]) -> None:
    doc["players"][0].pop("defeated", None)
    scenario = load(doc)
    board, _, _ = board_for(scenario)
    assume(not board.limits)
    best, tied = enumerate_guaranteed(scenario)
    by_search = search_guaranteed(scenario, top=0)
    assert by_search.best == best
    assert {p.layout(board) for p in by_search.tied} == classes(scenario, tied)
    by_z3 = z3_guaranteed(scenario, deadline=Deadline(60), top=3)
    assert by_z3.status is Status.PROVEN and by_z3.best == best
    assert {p.layout(board) for p in by_z3.tied} <= classes(scenario, tied)
    # CP-SAT lists the search's first ties, in its order
    by_cpsat = cpsat_guaranteed(scenario, deadline=Deadline(60), top=3)
    assert by_cpsat.status is Status.PROVEN and by_cpsat.best == best and by_cpsat.replayed
    assert by_cpsat.tied == by_search.tied[:3]


@pytest.mark.parametrize(
    "options",
    [
        pytest.param({"rows": 1, "columns": 3, "seed": 2, "year": 1, "minions": 1}, id="3x1-y1"),
        pytest.param(
            {"rows": 2, "columns": 3, "seed": 1, "year": 2, "minions": 2, "bonus": 3},
            marks=pytest.mark.slow,
            id="3x2-y2",
        ),
    ],
)
def test_the_oracle_baseline_agrees(options: dict[str, Any]) -> None:
    scenario = study(**options)
    by_oracle = oracle_guaranteed(scenario)
    by_search = search_guaranteed(scenario, top=0)
    assert by_oracle.status is Status.PROVEN and by_oracle.best == by_search.best
    assert set(by_oracle.tied) == set(by_search.tied)


def test_listing_stops_at_top_but_the_value_is_still_proven() -> None:
    scenario = study(3, 4, seed=5, year=3, minions=2, bonus=1)
    every = search_guaranteed(scenario, top=0)
    assert every.ties_complete and len(every.tied) > 3
    few = search_guaranteed(scenario, top=3)
    assert few.status is Status.PROVEN and few.best == every.best and not few.ties_complete
    assert few.tied == every.tied[:3]
    assert few.evaluated <= every.evaluated


def test_a_full_list_below_the_bound_says_whether_more_ties_exist() -> None:
    """placement.json: best 3 of 4 (below the bound), 8 tied. Once ``top`` are listed only a better
    placement is looked for; a ninth tie must still make the list incomplete."""
    from invasion_oracle.model.stonespine.scenario import load_scenario

    scenario = load_scenario("example:stonespine/placement.json")
    every = search_guaranteed(scenario, top=0)
    assert (every.best, every.upper_bound, len(every.tied), every.ties_complete) == (3, 3, 8, True)
    for top, complete in ((3, False), (7, False), (8, True), (9, True)):
        few = search_guaranteed(scenario, top=top)
        assert few.status is Status.PROVEN and few.tied == every.tied[:top]
        assert few.ties_complete is complete, top


def test_a_value_meeting_the_bound_ends_the_search_at_once() -> None:
    """Every placement of a well-connected dungeon defeats the whole wave: the first one found
    meets the bound (the smallest roll), so the search stops after listing ``top`` of them."""
    scenario = study(4, 4, seed=9, year=4, minions=3, open_doors=0.4)
    answer = search_guaranteed(scenario, top=2)
    assert answer.status is Status.PROVEN and answer.best == answer.upper_bound == 4
    assert answer.evaluated == 2 and len(answer.tied) == 2 and not answer.ties_complete


def test_figures_doing_nothing_are_one_class() -> None:
    """Minions in the guardian's own chamber (entering it is the same with or without them) are
    all the same placement, as are figures in chambers no hero can enter."""
    scenario = study(3, 4, seed=5, year=3, minions=2, bonus=4)
    space = placement_space(scenario)
    board = space.board
    for guardians in [(g,) for g in space.enterable[:4]]:
        assert space.minions_idle(guardians[0], True)
        assert guardians[0] not in space.minion_nodes(guardians) or space.idle is None
    every = sum(1 for _ in layouts(board, space.counts, range(board.size)))
    assert sum(1 for _ in space.classes()) < every


def test_symmetric_boards_are_searched_once_per_class() -> None:
    """A dungeon that is its own mirror image: the search merges mirrored placements and still
    agrees with enumeration."""
    from tests.solver_stonespine.instances import MIRROR

    scenario = scenario_from_document(MIRROR, "mirror")
    space = placement_space(scenario)
    assert len(symmetries(space.board, space.enterable)) == 1
    best, tied = enumerate_guaranteed(scenario)
    answer = search_guaranteed(scenario, top=0)
    assert answer.best == best
    assert {p.layout(space.board) for p in answer.tied} == classes(scenario, tied)
    mirrored = sum(1 for _ in placement_space(scenario).classes())
    assert mirrored < sum(1 for _ in dataclasses.replace(space, symmetries=()).classes())


@pytest.mark.parametrize(
    ("measure", "options"),
    [
        (Measure.NO_ESCAPE, {"rows": 2, "columns": 2, "seed": 1, "year": 2, "minions": 1, "bonus": 3}),
        (Measure.DEFEATED, {"rows": 2, "columns": 2, "seed": 1, "year": 2, "minions": 1, "bonus": 3}),
        pytest.param(
            Measure.DEFEATED,
            {"rows": 2, "columns": 3, "seed": 1, "year": 2, "minions": 2, "bonus": 3},
            marks=pytest.mark.slow,
        ),
    ],
)
def test_the_expected_objective_agrees_with_enumeration(measure: Measure, options: dict[str, Any]) -> None:
    scenario = study(**options)
    board, _, defeated = board_for(scenario)
    dist = roll_distribution(scenario.data, board.year)
    values = {
        layout: InvasionDP(board, layout, dist, measure, None, defeated).solve().value
        for layout in layouts(board, minion_counts(scenario, board), range(board.size))
    }
    best = max(values.values())
    answer = search_expected(scenario, measure, top=0)
    assert answer.status is Status.PROVEN and answer.best == best and answer.replayed
    assert isinstance(answer.best, Fraction)
    assert {p.layout(board) for p in answer.tied} == classes(
        scenario, {lay for lay, v in values.items() if v == best}
    )


def test_a_time_limit_answers_the_best_so_far_with_its_bound() -> None:
    scenario = study(3, 4, seed=5, year=3, minions=2, bonus=4)
    answer = search_guaranteed(scenario, deadline=Deadline(0.05), top=0)
    assert answer.status in (Status.BEST_FOUND, Status.UNKNOWN, Status.PROVEN)
    if answer.status is not Status.PROVEN:
        assert answer.stopped == "time-limit" and not answer.ties_complete
        assert answer.upper_bound == 3


def test_placements_print_and_parse_themselves() -> None:
    scenario = study(3, 4, seed=5, year=3, minions=2, bonus=4)
    answer = search_guaranteed(scenario)
    board, _, _ = board_for(scenario)
    for placement in answer.tied:
        assert FigurePlacement.parse(str(placement)) == placement
        assert FigurePlacement.of(board, placement.layout(board)) == placement


SMALL_DUNGEONS = scenarios(max_players=1).filter(
    lambda d: (
        len(d["players"][0]["dungeon"]["rows"]) * len(d["players"][0]["dungeon"]["rows"][0]) <= 6
        and d["year"] <= 3
    )
)
GENERATED = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}
test_on_generated_dungeons_every_engine_agrees_with_enumeration = settings(max_examples=4, **GENERATED)(  # type: ignore[arg-type]
    given(SMALL_DUNGEONS)(_generated_dungeons_every_engine_agrees_with_enumeration)
)
test_on_generated_dungeons_every_engine_agrees_with_enumeration_deeply = pytest.mark.slow(
    settings(max_examples=40, **GENERATED)(  # type: ignore[arg-type]
        given(SMALL_DUNGEONS)(_generated_dungeons_every_engine_agrees_with_enumeration)
    )
)
