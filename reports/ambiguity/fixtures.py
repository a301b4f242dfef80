"""Which fixtures depend on which rulings: a thin reader of the fixtures folder.

The fixtures (``invasion fixtures``, ``fixtures/manifest.json``) are another part's files; this
module reads only what it needs from each case listed in the manifest: its game, the scenario
it runs, the reading of each ruling it records (``rulings``) and the rulings it declares it
depends on (``depends_on`` when the file has that field; otherwise every ruling whose reading
it records, as a trace records them all). A case **depends on** a ruling when running its
scenario under another reading of that ruling (the others as recorded) changes its outcome or
its events; a dependency the case does not declare is a problem for ``ambiguities --check``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from invasion_oracle.model import registry
from invasion_oracle.model.core.ambiguity import run_reading
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.rulings import REGISTRY

MANIFEST = "manifest.json"


@dataclass(frozen=True, slots=True)
class FixtureCase:
    """What the dependency check needs of one fixture case."""

    case: str
    game: str
    file: str
    scenario: dict[str, Any]
    readings: tuple[tuple[str, str], ...]  # the reading of each ruling the case records
    declared: tuple[str, ...]  # the rulings the case says it depends on


@dataclass(frozen=True, slots=True)
class CaseDependencies:
    """The rulings a case depends on, each with how (``outcome`` or ``events``)."""

    case: str
    game: str
    depends: tuple[tuple[str, str], ...]
    undeclared: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "case": self.case,
            "game": self.game,
            "depends_on": {rid: kind for rid, kind in self.depends},
            "undeclared": list(self.undeclared),
        }


def read_cases(folder: Path) -> tuple[tuple[FixtureCase, ...], tuple[str, ...]]:
    """The cases listed in ``folder/manifest.json`` this check can rerun, and notes on the others."""
    manifest_path = folder / MANIFEST
    manifest = read_json_file(manifest_path)
    entries = manifest.get("cases") if isinstance(manifest, dict) else None
    if not isinstance(entries, list):
        raise MalformedInputError(str(manifest_path), "$.cases", "expected the list of fixture cases")
    cases, notes = [], []
    known = registry.names()
    for index, entry in enumerate(entries):
        where = f"$.cases[{index}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise MalformedInputError(str(manifest_path), where, "expected an object with a 'file'")
        case, game = str(entry.get("case", entry["file"])), entry.get("game")
        if game not in known:
            notes.append(f"{case}: game {game!r} is not known to this oracle; skipped")
            continue
        path = folder / entry["file"]
        if Path(entry["file"]).is_absolute() or ".." in Path(entry["file"]).parts:
            raise MalformedInputError(
                str(manifest_path), f"{where}.file", "a file outside the fixtures folder"
            )
        document = read_json_file(path)
        scenario = document.get("scenario") if isinstance(document, dict) else None
        if not isinstance(scenario, dict):
            notes.append(f"{case}: no scenario to rerun in {path}; skipped")
            continue
        recorded = document.get("rulings", {})
        if not isinstance(recorded, dict):
            raise MalformedInputError(str(path), "$.rulings", "expected an object of ruling id to reading")
        declared = document.get("depends_on", list(recorded))
        if not isinstance(declared, list) or not all(isinstance(d, str) for d in declared):
            raise MalformedInputError(str(path), "$.depends_on", "expected a list of ruling ids")
        readings = tuple(sorted((str(k), str(v)) for k, v in recorded.items()))
        cases.append(FixtureCase(case, str(game), str(path), scenario, readings, tuple(declared)))
    return tuple(cases), tuple(notes)


def case_dependencies(case: FixtureCase) -> CaseDependencies:
    """Rerun ``case`` under every other reading of every ruling of its game (a batch job)."""
    spec = registry.spec(case.game)
    recorded = dict(case.readings)
    specs = [f"{rid}={reading}" for rid, reading in case.readings if rid in REGISTRY]
    depends = []
    # A ruling the case records is played, as the base, under exactly the case's own readings:
    # the same run for each such ruling (the cases record every ruling), played once.
    as_recorded: tuple[str, str, str] | None = None
    for ruling in REGISTRY.all(spec.name):
        base_reading = recorded.get(ruling.id, ruling.default)
        if ruling.id in recorded and as_recorded is not None:
            base_key = as_recorded
        else:
            base_key = run_reading(spec, case.scenario, case.file, ruling, base_reading, specs).result_key
            if ruling.id in recorded:
                as_recorded = base_key
        kinds = set()
        for reading in ruling.reading_names:
            if reading == base_reading:
                continue
            other = run_reading(spec, case.scenario, case.file, ruling, reading, specs)
            if (other.outcome_key, other.error) != (base_key[0], base_key[2]):
                kinds.add("outcome")
            elif other.result_key != base_key:
                kinds.add("events")
        if kinds:
            depends.append((ruling.id, "outcome" if "outcome" in kinds else "events"))
    undeclared = tuple(rid for rid, _ in depends if rid not in case.declared)
    return CaseDependencies(case.case, spec.name, tuple(depends), undeclared)
