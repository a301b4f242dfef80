"""The README's plan showcase is not degenerate: its best value is not 0, the oracle's replay of
the best plan gives the same value, and the purchases matter; the text says why it is best and
what the score is."""

from __future__ import annotations

import pytest

from invasion_oracle.model.stonespine.scenario import load_scenario
from invasion_oracle.reports.cli import main
from invasion_oracle.solver.common import Status
from invasion_oracle.solver.stonespine.plan import PlanMeasure, scoring_for, solve_plan

SHOWCASE = "example:stonespine/plan-year3"


def test_the_showcase_plan_is_worth_something_and_its_purchases_matter() -> None:
    scenario = load_scenario(SHOWCASE, (), None, "data")
    answer, best = solve_plan(scenario, PlanMeasure.SCORE)
    assert answer.status is Status.PROVEN and answer.replayed and best is not None
    assert answer.best_expected is not None and answer.replay_expected is not None
    # the value the oracle gives when it plays the plan over every dice outcome, not the solver's claim
    assert answer.replay_expected == answer.best_expected.expected != 0
    assert answer.replay_guaranteed == answer.best_expected.guaranteed
    bought = set(answer.best_expected.purchases)
    assert bought, "the best plan buys something"
    others = [r for r in answer.other_purchases if not bought <= set(r.purchases)]
    assert others and all(r.expected < answer.best_expected.expected for r in others)


def test_the_showcase_text_defines_its_score_and_says_why_the_best_is_best(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["stonespine", "plan", SHOWCASE, "--format", "md"]) == 0
    shown = capsys.readouterr().out
    scenario = load_scenario(SHOWCASE, (), None, "data")
    scoring = scoring_for(scenario, PlanMeasure.SCORE, None)
    assert f"this year's trophy ({scoring.trophy} reputation)" in shown
    assert f"this year's demerit ({scoring.demerit} reputation)" in shown
    why = [line for line in shown.splitlines() if line.startswith("Why best: ")]
    assert len(why) == 1 and "**0**" not in why[0]
