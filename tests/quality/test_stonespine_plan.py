"""Quality: the year planner finds the cases it exists for (issue 23)."""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from invasion_oracle.model.stonespine.scenario import scenario_from_document
from invasion_oracle.solver.stonespine.dice import roll_distribution
from invasion_oracle.solver.stonespine.plan import PlanDP, PlanMeasure, scoring_for, solve_plan

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "solver_stonespine"))
from test_plan import small_instance


def test_buying_a_secret_passage_changes_the_optimal_placement() -> None:
    document = small_instance(0)
    scenario = scenario_from_document(document, "seed 0")
    answer, best = solve_plan(scenario, PlanMeasure.DEFEATED)
    assert best is not None and answer.replayed
    assert any(s.startswith("buy-passage") for s in best.purchases.steps)
    broke = copy.deepcopy(document)
    broke["players"][0]["gold"] = 0  # the same dungeon with nothing to buy
    _, plain = solve_plan(scenario_from_document(broke, "seed 0, no gold"), PlanMeasure.DEFEATED)
    assert plain is not None
    assert plain.layout != best.layout
    assert best.expected > plain.expected


def test_closing_the_gate_early_beats_continuing() -> None:
    document = small_instance(0)
    del document["solo"]  # one player: the trophy needs no escape and one defeat
    scenario = scenario_from_document(document, "seed 0, one player")
    answer, best = solve_plan(scenario, PlanMeasure.TROPHY, target=1)
    assert best is not None and answer.replayed
    dp = PlanDP(
        best.board,
        best.layout,
        roll_distribution(scenario.data, 1),
        scoring_for(scenario, PlanMeasure.TROPHY, 1),
    )
    closes = [
        m
        for m in range(1, 1 << best.board.size)
        if dp.continue_value(m) < dp.terminal(m, False) and not dp.should_continue(m)
    ]
    assert closes, "after a clean first wave, closing (the trophy is won) beats rolling again"
