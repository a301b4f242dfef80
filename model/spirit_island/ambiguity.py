"""Where readings change outcomes: run a scenario under each reading of an ``SI-*`` ruling.

Each Spirit Island ruling has a witness scenario in ``examples/spirit_island/rulings/<ID>.json``
on which its readings give different outcomes. :func:`compare_readings` runs any scenario under
every reading of a ruling and returns each reading's outcome (the same JSON a fixture compares).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.core.canonical import canonical_json
from model.core.rulings import REGISTRY
from model.spirit_island.scenario import load_scenario
from model.spirit_island.simulate import outcome, run


@dataclass(frozen=True, slots=True)
class ReadingOutcome:
    reading: str
    default: bool
    outcome: dict[str, Any]

    @property
    def summary(self) -> str:
        return canonical_json(self.outcome)


def compare_readings(
    scenario_path: str, ruling_id: str, other_rulings: tuple[str, ...] = ()
) -> tuple[ReadingOutcome, ...]:
    """The outcome of ``scenario_path`` under each reading of ``ruling_id``."""
    ruling = REGISTRY.get(ruling_id)
    results = []
    for reading in ruling.reading_names:
        scenario = load_scenario(scenario_path, (*other_rulings, f"{ruling_id}={reading}"))
        results.append(
            ReadingOutcome(reading, reading == ruling.default, outcome(scenario, run(scenario).final))
        )
    return tuple(results)


def readings_differ(outcomes: tuple[ReadingOutcome, ...]) -> bool:
    return len({o.summary for o in outcomes}) == len(outcomes)
