"""Stonespine's one-line outcome fingerprint under each reading (its ruling tests read it).

The ambiguity engine for every game is :mod:`model.core.ambiguity` (structured differences of
outcomes and events, witnesses per reading); ``invasion stonespine ambiguities`` prints it. This
module only keeps the fingerprint (:func:`model.stonespine.simulate.summary`) that
``tests/stonespine/test_rulings.py`` matches fragments of.
"""

from __future__ import annotations

from dataclasses import dataclass

from model.core.errors import InvasionError
from model.core.rulings import REGISTRY
from model.stonespine.scenario import load_scenario
from model.stonespine.simulate import run, summary


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
            text = summary(run(scenario), scenario.initial)
        except InvasionError as err:
            text = f"error: {err.message.split(': ', 1)[-1]}"
        results.append(ReadingOutcome(reading, reading == ruling.default, text))
    return tuple(results)


def readings_differ(outcomes: tuple[ReadingOutcome, ...]) -> bool:
    return len({o.summary for o in outcomes}) > 1
