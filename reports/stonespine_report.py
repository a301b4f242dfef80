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


SECTIONS = (example_invasion,)
