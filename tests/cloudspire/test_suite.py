"""The Cloudspire conformance-suite plug-in: its rule sections are the rule map of docs/cloudspire.md,
its projections and features are documented, and a few of its cases build and replay."""

from __future__ import annotations

from pathlib import Path

from invasion_oracle.model import registry
from invasion_oracle.reports.suite.build import build_case
from invasion_oracle.reports.suite.casefile import read_cases
from invasion_oracle.reports.suite.cloudspire import SUITE
from invasion_oracle.reports.suite.plugins import project, suite_for

ROOT = Path(__file__).resolve().parents[2]


def test_rule_sections_are_the_rule_map_of_the_game_doc() -> None:
    assert suite_for("cloudspire") is SUITE
    text = (ROOT / "docs" / "cloudspire.md").read_text(encoding="utf-8")
    table = text.split("## Where each rule lives", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1].strip() for line in table.splitlines()[2:] if line.startswith("|")]
    assert [s.heading for s in SUITE.sections] == rows


def test_projections_and_features_are_documented() -> None:
    text = (ROOT / "docs" / "fixtures.md").read_text(encoding="utf-8")
    for projection in SUITE.projections:
        assert f"`{projection.name}" in text, projection.name
    for feature in SUITE.features:
        assert f"`{feature}`" in text, feature


def test_a_case_builds_with_a_variant_per_reading_that_changes_it() -> None:
    spec = registry.spec("cloudspire")
    first = read_cases("cloudspire", "activation")[0]
    case = build_case(spec, SUITE, first)
    assert case.id == "cloudspire/cycle/one-cycle" and case.kind == "run"
    scenario = spec.load(
        first.scenario,
        "case",
        __import__("invasion_oracle.model.core.spec", fromlist=["ScenarioOptions"]).ScenarioOptions(),
    )
    piles = project(spec, "piles", scenario, scenario.initial)
    assert piles["deployment"]["top"] == ["Cobalt-1", "Cobalt-2", "Cobalt-3"]
