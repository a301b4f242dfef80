"""The Vul'Keth ambiguity report: which open rules change a run's outcome, with commands."""

from __future__ import annotations

from model.core.bundled import ExampleRef, examples
from model.core.rulings import REGISTRY
from model.vulketh.ambiguity import compare_readings, readings_differ
from reports.output import command_line, md_escape
from reports.tables import table


def _rows(scenario: str, ruling_id: str) -> list[tuple[str, str, str, str]]:
    rows = []
    for outcome in compare_readings(scenario, ruling_id):
        reading = outcome.reading + (" (default)" if outcome.default else "")
        command = command_line(
            ["invasion", "vulketh", "simulate", scenario, "--ruling", f"{ruling_id}={outcome.reading}"]
        )
        rows.append((ruling_id, reading, md_escape(outcome.summary), f"`{command}`"))
    return rows


def witness_report() -> str:
    """Each ruling on its witness scenario: the outcome under every reading."""
    bundled = {str(ref) for ref in examples("vulketh/rulings")}
    rows: list[tuple[str, str, str, str]] = []
    for ruling in REGISTRY.all("vulketh"):
        witness = str(ExampleRef(f"vulketh/rulings/{ruling.id}.json"))
        if witness not in bundled:
            rows.append((ruling.id, "-", "no witness scenario", ""))
            continue
        rows += _rows(witness, ruling.id)
    return table(rows, ["ruling", "reading", "outcome", "reproduce"])


def scenario_report(scenario: str, only: list[str] | None = None) -> tuple[str, int]:
    """Every ruling whose readings change this scenario's outcome; returns (table, count)."""
    rows: list[tuple[str, str, str, str]] = []
    changed = 0
    for ruling in REGISTRY.all("vulketh"):
        if only and ruling.id not in only:
            continue
        if not readings_differ(compare_readings(scenario, ruling.id), any_difference=True):
            continue
        changed += 1
        rows += _rows(scenario, ruling.id)
    return table(rows, ["ruling", "reading", "outcome", "reproduce"]), changed
