"""The Vul'Keth conformance cases (reports/suite/vulketh.py, fixtures/vulketh/*.cases.json)."""

from __future__ import annotations

from pathlib import Path

from invasion_oracle.model import registry
from invasion_oracle.reports.suite.coverage import coverage
from invasion_oracle.reports.suite.files import case_files, read_cases
from invasion_oracle.reports.suite.plugins import suite_for

ROOT = Path(__file__).resolve().parents[2]


def test_rule_sections_are_the_rule_map_of_the_game_doc() -> None:
    suite = suite_for("vulketh")
    assert suite is not None
    text = (ROOT / "docs" / "vulketh.md").read_text(encoding="utf-8")
    table = text.split("## Where each rule lives", 1)[1].split("\n\n", 2)[1]
    rows = [line.split("|")[1].strip() for line in table.splitlines()[2:] if line.startswith("|")]
    assert [s.heading for s in suite.sections] == rows


def test_projections_and_features_are_documented() -> None:
    suite = suite_for("vulketh")
    assert suite is not None
    text = (ROOT / "docs" / "fixtures.md").read_text(encoding="utf-8")
    for projection in suite.projections:
        assert f"`{projection.name}" in text, projection.name
    for feature in suite.features:
        assert f"`{feature}`" in text, feature


def test_committed_cases_cover_every_section_and_reading() -> None:
    files = [p for p in case_files(ROOT / "fixtures") if p.parent.name == "vulketh"]
    cases = [case for path in files for case in read_cases(path, check_schema=False)[1]]
    assert len(cases) >= 100 and registry.spec("vulketh").name == "vulketh"
    result = coverage("vulketh", cases)
    assert result.problems == []
    assert all(n > 0 for _, n in result.sections)
    assert all(n > 0 for *_, n in result.readings)
    actions = [c for c in cases if c.kind == "action"]
    assert len(actions) > len(cases) / 2
