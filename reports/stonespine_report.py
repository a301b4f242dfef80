"""Stonespine sections of the main job."""

from __future__ import annotations

from pathlib import Path

from model.stonespine.scenario import load_scenario
from model.stonespine.simulate import run
from reports.stonespine_tables import simulation_report
from reports.tables import section

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "stonespine"
DEFAULT_SCENARIO = EXAMPLES / "default.json"


def example_invasion() -> str:
    scenario = load_scenario(str(DEFAULT_SCENARIO))
    playthrough = run(scenario)
    relative = "examples/stonespine/default.json"
    body = simulation_report(scenario, playthrough, f"invasion stonespine simulate {relative}")
    return section("Stonespine: the bundled example invasion", body)


def ambiguities() -> str:
    from reports.stonespine_ambiguity import scenario_report

    body, changed = scenario_report(str(DEFAULT_SCENARIO))
    intro = (
        f"{changed} open rule(s) change the outcome of the bundled example; each row is one reading. "
        "Every ruling's own witness: `invasion stonespine ambiguities`.\n\n"
    )
    return section(
        "Stonespine: where readings change the example's outcome",
        intro + body,
        command="invasion stonespine ambiguities examples/stonespine/default.json",
    )


SECTIONS = (example_invasion, ambiguities)
