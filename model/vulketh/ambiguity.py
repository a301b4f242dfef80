"""Where readings change outcomes: run a scenario under each reading of a ruling.

Each ruling has a witness scenario in ``examples/vulketh/rulings/<ID>.json`` built so that its
readings give different outcomes. :func:`compare_readings` runs any scenario under every reading
of a ruling and returns one outcome fingerprint per reading (or the error a reading produces).
"""

from __future__ import annotations

from dataclasses import dataclass

from model.core.errors import InvasionError
from model.core.rulings import REGISTRY
from model.vulketh.scenario import load_scenario
from model.vulketh.simulate import run, summary


@dataclass(frozen=True, slots=True)
class ReadingOutcome:
    reading: str
    default: bool
    summary: str  # the outcome fingerprint, or "error: ..." when the reading rejects the input


def compare_readings(
    scenario_path: str, ruling_id: str, other_rulings: tuple[str, ...] = ()
) -> tuple[ReadingOutcome, ...]:
    ruling = REGISTRY.get(ruling_id)
    results = []
    for reading in ruling.reading_names:
        try:
            scenario = load_scenario(scenario_path, (*other_rulings, f"{ruling_id}={reading}"))
            text = summary(scenario, run(scenario).final)
        except InvasionError as err:
            text = f"error: {err.message.split(': ', 1)[-1]}"
        results.append(ReadingOutcome(reading, reading == ruling.default, text))
    return tuple(results)


def readings_differ(outcomes: tuple[ReadingOutcome, ...], *, any_difference: bool = False) -> bool:
    """Every reading gives its own outcome (``any_difference``: at least two differ)."""
    distinct = len({o.summary for o in outcomes})
    return distinct > 1 if any_difference else distinct == len(outcomes)
