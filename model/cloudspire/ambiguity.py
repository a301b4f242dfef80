"""Where readings change outcomes: run a scenario under each reading of a ruling.

Each Cloudspire ruling has a witness scenario in ``examples/cloudspire/rulings/<ID>.json`` on
which its readings give different outcomes. :func:`compare_readings` runs any scenario document
under every reading of a ruling and returns, per reading, a one-line summary and the outcome's
canonical JSON (or the error a reading produces).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from model.cloudspire.scenario import scenario_from_document
from model.cloudspire.simulate import outcome, run, summary
from model.core.canonical import canonical_json
from model.core.errors import InvasionError
from model.core.rulings import REGISTRY


@dataclass(frozen=True, slots=True)
class ReadingOutcome:
    reading: str
    default: bool
    summary: str  # one line, or "error: ..." when the reading rejects the input
    outcome: str  # the canonical outcome JSON ("" on an error)


def compare_readings(
    document: Any, source: str, ruling_id: str, other_rulings: tuple[str, ...] = ()
) -> tuple[ReadingOutcome, ...]:
    ruling = REGISTRY.get(ruling_id)
    results = []
    for reading in ruling.reading_names:
        try:
            scenario = scenario_from_document(document, source, (*other_rulings, f"{ruling_id}={reading}"))
            final = run(scenario).final
            results.append(
                ReadingOutcome(
                    reading,
                    reading == ruling.default,
                    summary(scenario, final),
                    canonical_json(outcome(scenario, final)),
                )
            )
        except InvasionError as err:
            results.append(
                ReadingOutcome(
                    reading, reading == ruling.default, f"error: {err.message.split(': ', 1)[-1]}", ""
                )
            )
    return tuple(results)


def readings_differ(outcomes: tuple[ReadingOutcome, ...]) -> bool:
    """True when every reading gives its own outcome."""
    seen = {o.outcome or o.summary for o in outcomes}
    return len(seen) == len(outcomes)
