"""Stonespine sections of the main job (``make run``) and of the full report (``make report``).

Every section reads bundled examples (``example:stonespine/...``), so it runs from any install,
and prints the command that reproduces it.
"""

from __future__ import annotations

from model.stonespine.scenario import load_scenario
from model.stonespine.simulate import run
from model.stonespine.spec import SPEC
from reports.simulation import simulation_report
from reports.tables import section

DEFAULT_SCENARIO = "example:stonespine/default.json"
PLACEMENT_SCENARIO = "example:stonespine/placement.json"


def example_invasion() -> str:
    scenario = load_scenario(DEFAULT_SCENARIO)
    playthrough = run(scenario)
    body = simulation_report(SPEC, scenario, playthrough, f"invasion stonespine simulate {DEFAULT_SCENARIO}")
    return section("Stonespine: the bundled example invasion", body)


def ambiguities() -> str:
    from reports.stonespine.ambiguity import scenario_report

    body, changed = scenario_report(DEFAULT_SCENARIO)
    intro = (
        f"{changed} open rule(s) change the outcome of the bundled example; each row is one reading. "
        "Every ruling's own witness: `invasion stonespine ambiguities`.\n\n"
    )
    return section(
        "Stonespine: where readings change the example's outcome",
        intro + body,
        command=f"invasion stonespine ambiguities {DEFAULT_SCENARIO}",
    )


def optimal_placement() -> str:
    from reports.cli_stonespine_solve import place_report

    scenario = load_scenario(PLACEMENT_SCENARIO)
    _, body, _ = place_report(scenario, 0)
    return section(
        "Stonespine: optimal guardian and minion placement (first wave, guaranteed)",
        body,
        command=f"invasion stonespine place {PLACEMENT_SCENARIO}",
    )


def phase_policy() -> str:
    from reports.cli_stonespine_solve import policy_report
    from solver.common import Deadline
    from solver.stonespine.policy import Measure

    scenario = load_scenario(PLACEMENT_SCENARIO)
    _, body, _ = policy_report(scenario, 0, Measure.DEFEATED, None, True, Deadline(120))
    note = "The example's own placement is the first optimal one found above.\n\n"
    return section(
        "Stonespine: the optimal continue/close policy (expected heroes defeated)",
        note + body,
        command=f"invasion stonespine policy {PLACEMENT_SCENARIO} --measure defeated",
    )


SECTIONS = (example_invasion, ambiguities, optimal_placement, phase_policy)


def witness_ambiguities() -> str:
    from reports.stonespine.ambiguity import witness_report

    return section(
        "Stonespine rulings: the outcome under each reading, on each ruling's witness",
        witness_report(),
        command="invasion stonespine ambiguities",
    )


def expected_placement() -> str:
    from reports.cli_stonespine_solve import place_report
    from solver.stonespine.policy import Measure

    scenario = load_scenario(PLACEMENT_SCENARIO)
    _, body, _ = place_report(scenario, 0, "expected", "search", Measure.DEFEATED)
    return section(
        "Stonespine: placement for the whole Invasion phase (expected heroes defeated, optimal policy)",
        body,
        command=f"invasion stonespine place {PLACEMENT_SCENARIO} --objective expected --measure defeated",
    )


LONG_SECTIONS = (witness_ambiguities, expected_placement)
