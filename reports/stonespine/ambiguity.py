"""The ambiguity report: which open rules change a run's outcome, with commands to reproduce."""

from __future__ import annotations

from model.core.bundled import ExampleRef, examples
from model.core.rulings import REGISTRY
from model.stonespine.ambiguity import compare_readings, readings_differ
from reports.output import command_line, md_escape
from reports.tables import table


def witness_report() -> str:
    """Each ruling on its witness scenario: the outcome under every reading."""
    bundled = {str(ref) for ref in examples("stonespine/rulings")}
    rows = []
    for ruling in REGISTRY.all("stonespine"):
        witness = str(ExampleRef(f"stonespine/rulings/{ruling.id}.json"))
        if witness not in bundled:
            rows.append((ruling.id, "-", "no witness scenario", ""))
            continue
        for outcome in compare_readings(witness, ruling.id):
            reading = outcome.reading + (" (default)" if outcome.default else "")
            command = command_line(
                ["invasion", "stonespine", "simulate", witness, "--ruling", f"{ruling.id}={outcome.reading}"]
            )
            rows.append((ruling.id, reading, md_escape(outcome.summary), f"`{command}`"))
    return table(rows, ["ruling", "reading", "outcome", "reproduce"])


def scenario_report(scenario_path: str, only: list[str] | None = None) -> tuple[str, int]:
    """Every ruling whose readings change this scenario's outcome; returns (table, count)."""
    rows = []
    changed = 0
    for ruling in REGISTRY.all("stonespine"):
        if only and ruling.id not in only:
            continue
        outcomes = compare_readings(scenario_path, ruling.id)
        if not readings_differ(outcomes):
            continue
        changed += 1
        for outcome in outcomes:
            reading = outcome.reading + (" (default)" if outcome.default else "")
            command = command_line(
                [
                    "invasion",
                    "stonespine",
                    "simulate",
                    scenario_path,
                    "--ruling",
                    f"{ruling.id}={outcome.reading}",
                ]
            )
            rows.append((ruling.id, reading, md_escape(outcome.summary), f"`{command}`"))
    return table(rows, ["ruling", "reading", "outcome", "reproduce"]), changed
