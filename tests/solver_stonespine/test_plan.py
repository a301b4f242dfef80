"""The year planner (``invasion_oracle.solver.stonespine.plan``): equal to the oracle expectimax baseline on
generated small instances, replayed through the oracle, and the bundled examples."""

from __future__ import annotations

import functools
import random
from fractions import Fraction
from typing import Any

import pytest

from invasion_oracle.model.stonespine.scenario import Scenario, load_scenario, scenario_from_document
from invasion_oracle.solver.common import Status
from invasion_oracle.solver.stonespine.generate import random_chamber
from invasion_oracle.solver.stonespine.plan import (
    PlanAnswer,
    PlanChoice,
    PlanMeasure,
    oracle_plan_value,
    oracle_plan_values_of,
    purchase_classes,
    solve_plan,
)


def small_instance(seed: int) -> dict[str, Any]:
    """A 2x2 dungeon in year 1 (one row built: 1x2) at the start of the Improvement Phase, with gold to spend."""
    rng = random.Random(seed)
    rows = [[random_chamber(rng) for _ in range(3)]]
    if seed % 2:
        rows[0][1] = rows[0][1].split()[0] + " TLR rubble/kobold"
    return {
        "game": "stonespine",
        "start": "improvement",
        "year": 1,
        "last_year": 1,
        "heroes": {"black": "Thief", "purple": "Cleric", "red": "Barbarian"},
        "players": [
            {
                "name": "Ann",
                "guardian": "Gorgon",
                "levels": [0, 0],
                "xp": 1,
                "gold": 5 + seed % 5,
                "dungeon": {"entrance": "A", "exit": "B", "rows": rows},
            }
        ],
        "solo": {},
    }


@functools.cache
def instance_of(seed: int) -> Scenario:
    """Each generated instance read once for this module: the same scenario object, so its
    compiled boards and placement spaces are shared too."""
    return scenario_from_document(small_instance(seed), f"seed {seed}")


@functools.cache
def planned(seed: int, measure: PlanMeasure) -> tuple[PlanAnswer, PlanChoice | None]:
    """The planner's answer (``top`` its default) for an instance, made once: several tests read it."""
    return solve_plan(instance_of(seed), measure)


@functools.cache
def oracle_baselines(seed: int) -> dict[PlanMeasure, tuple[Fraction, Fraction]]:
    """The oracle expectimax of both measures, expected and worst, in one walk of the game tree
    (the tree is the same; both measures' tests read it)."""
    return oracle_plan_values_of(instance_of(seed), (PlanMeasure.SCORE, PlanMeasure.DEFEATED))


@pytest.mark.parametrize(
    "seed",  # six generated instances in make test, two larger ones among the slow tests
    [0, 1, 2, pytest.param(3, marks=pytest.mark.slow), 4, pytest.param(5, marks=pytest.mark.slow), 6, 7],
)
@pytest.mark.parametrize("measure", [PlanMeasure.SCORE, PlanMeasure.DEFEATED])
def test_plan_equals_the_oracle_expectimax(seed: int, measure: PlanMeasure) -> None:
    scenario = instance_of(seed)
    answer, best = planned(seed, measure)
    assert answer.status is Status.PROVEN and answer.replayed and best is not None
    assert answer.best_expected is not None and answer.best_guaranteed is not None
    expected, worst = oracle_baselines(seed)[measure]
    assert answer.best_expected.expected == expected
    assert answer.best_guaranteed.guaranteed == worst
    if seed == 0:  # the walk of one value (the bench's baseline) answers as the walk of all four
        assert oracle_plan_value(scenario, measure, worst=measure is PlanMeasure.DEFEATED) == (
            worst if measure is PlanMeasure.DEFEATED else expected
        )
    assert answer.replay_expected == answer.best_expected.expected


def test_the_purchases_are_the_oracles_own() -> None:
    scenario = load_scenario("example:stonespine/plan-year3", (), None, "data")
    classes = purchase_classes(scenario)
    bought = {p.bought for _, p in classes}
    assert () in bought and ("buy-xp", "left") in bought
    # 9 gold: XP (4) and a passage (5) fit, XP and two rubble removals do not exist here
    assert all(p.gold_left >= 0 for _, p in classes)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["plan-year3", "plan-year4"])
def test_bundled_examples_plan_proven(name: str) -> None:
    scenario = load_scenario(f"example:stonespine/{name}", (), None, "data")
    answer, _ = solve_plan(scenario)
    assert answer.status is Status.PROVEN and answer.replayed
    assert answer.best_expected is not None and answer.runners_up
    assert answer.upper_bound == answer.best_expected.expected
    # the purchases matter: every other choice of purchases does worse in expectation
    # (year 3: removing the rubble; year 4: the XP that unlocks the minion)
    assert answer.other_purchases
    bought = set(answer.best_expected.purchases)
    worse = [r for r in answer.other_purchases if not bought <= set(r.purchases)]
    assert worse and all(r.expected < answer.best_expected.expected for r in worse)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_other_purchases_are_each_purchase_class_best_plan(seed: int) -> None:
    """The best plan of every other purchase class, checked against scoring every placement of
    every class (no pruning)."""
    from invasion_oracle.solver.common import Deadline
    from invasion_oracle.solver.stonespine.dice import roll_distribution
    from invasion_oracle.solver.stonespine.plan import PlanDP, alone, scoring_for
    from invasion_oracle.solver.stonespine.space import placement_space

    scenario = instance_of(seed)
    answer, best = solve_plan(scenario, PlanMeasure.SCORE, top=10)
    assert best is not None and answer.status is Status.PROVEN
    scoring = scoring_for(scenario, PlanMeasure.SCORE, None)
    me = scenario.initial.players[0].name
    exact = {}
    for board, purchases in purchase_classes(scenario):
        space = placement_space(alone(scenario, purchases.state, me), 0)
        dist = roll_distribution(scenario.data, board.year)
        exact[purchases.bought] = max(
            PlanDP(board, layout, dist, scoring, space.defeated, None, space.tables).phase_value()[0]
            for layout in space.classes(Deadline())
        )
    assert exact[best.purchases.bought] == best.expected == max(exact.values())
    shown = {r.purchases: r.expected for r in answer.other_purchases}
    others = {k: v for k, v in exact.items() if k != best.purchases.bought}
    assert len(shown) == min(10, len(others))
    assert all(exact[k] == v for k, v in shown.items())
    assert sorted(shown.values(), reverse=True) == sorted(others.values(), reverse=True)[: len(shown)]


@pytest.mark.parametrize("seed", [0, 1, 2, 4])
def test_each_purchase_is_valued_against_its_own_purchase_class(seed: int) -> None:
    """'Expected without it': the best plan's placement on the dungeon of the purchase class that
    leaves that one purchase (and the level-up track a Buy XP gave) out, scored directly."""
    from invasion_oracle.solver.stonespine.board import Layout
    from invasion_oracle.solver.stonespine.dice import roll_distribution
    from invasion_oracle.solver.stonespine.plan import PlanDP, scoring_for

    scenario = instance_of(seed)
    answer, best = planned(seed, PlanMeasure.DEFEATED)
    assert best is not None and answer.status is Status.PROVEN
    scoring = scoring_for(scenario, PlanMeasure.DEFEATED, None)
    classes = {p.bought: board for board, p in purchase_classes(scenario)}
    placement = best.layout.placement(best.board)
    effects = list(answer.effects)
    assert [e.purchase for e in effects] == list(best.purchases.bought)
    for i, effect in enumerate(effects):
        if effect.kind != "improvement":
            assert effect.kind == "track" and effect.without is None
            continue
        drop = {i, i + 1} if i + 1 < len(effects) and effects[i + 1].kind == "track" else {i}
        rest = tuple(e.purchase for j, e in enumerate(effects) if j not in drop)
        board = classes.get(rest)
        if board is None:
            continue  # that sequence is another class's longer spelling: nothing to compare with
        fits = len(placement.guardians) == board.guardian_figures and len(placement.minions) <= board.minions
        if not fits:
            assert effect.without is None
            continue
        dist = roll_distribution(scenario.data, board.year)
        direct = PlanDP(board, Layout.of(board, placement), dist, scoring).phase_value()[0]
        assert effect.without == direct
    if best.purchases.bought:
        board = classes[()]
        fits = len(placement.guardians) == board.guardian_figures and len(placement.minions) <= board.minions
        assert (answer.without_purchases is not None) == fits


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_worst_first_wave_is_the_worst_roll_played_out(seed: int) -> None:
    from invasion_oracle.solver.stonespine.dice import roll_heroes
    from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator

    answer, best = planned(seed, PlanMeasure.DEFEATED)
    assert best is not None and answer.best_expected is not None
    wave = answer.worst_wave
    assert sorted(w.hero for w in wave) == sorted(roll_heroes(best.worst_roll))
    evaluator = LayoutEvaluator(best.board, best.layout, EntryTables(best.board), None)
    assert sum(w.fate == "defeated" for w in wave) == evaluator.value(best.worst_roll, 0)
