"""The ambiguity report: which open rules change a run's outcome, with commands to reproduce."""

from __future__ import annotations

from pathlib import Path

from model.core.rulings import REGISTRY
from model.stonespine.ambiguity import compare_readings, readings_differ
from reports.tables import table

WITNESSES = Path(__file__).resolve().parent.parent / "examples" / "stonespine" / "rulings"


def _relative(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def witness_report() -> str:
    """Each ruling on its witness scenario: the outcome under every reading."""
    rows = []
    for ruling in REGISTRY.all("stonespine"):
        path = WITNESSES / f"{ruling.id}.json"
        if not path.exists():
            rows.append((ruling.id, "-", "no witness scenario", ""))
            continue
        shown = f"examples/stonespine/rulings/{ruling.id}.json"
        for outcome in compare_readings(str(path), ruling.id):
            reading = outcome.reading + (" (default)" if outcome.default else "")
            command = f"invasion stonespine simulate {shown} --ruling {ruling.id}={outcome.reading}"
            rows.append((ruling.id, reading, outcome.summary, f"`{command}`"))
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
            command = f"invasion stonespine simulate {_relative(Path(scenario_path))} --ruling {ruling.id}={outcome.reading}"
            rows.append((ruling.id, reading, outcome.summary, f"`{command}`"))
    return table(rows, ["ruling", "reading", "outcome", "reproduce"]), changed
