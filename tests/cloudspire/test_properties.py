"""The invariants of ``properties/cloudspire.py`` on generated scenarios, under random rulings."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.cloudspire.scenario import scenario_from_document
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.properties.cloudspire import (
    check,
    invariant_violations,
    scenario_documents,
    state_violations,
)

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand
SETTINGS = settings(max_examples=15 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(scenario_documents())
def test_every_generated_game_keeps_the_invariants(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated.json")
    assert check(scenario) == []


def test_the_checker_catches_a_miss_on_the_hero() -> None:
    """A checker that cannot fail is no checker: break a state and see it complain."""
    from dataclasses import replace

    from invasion_oracle.model.cloudspire.dice import Face, Zone
    from invasion_oracle.model.cloudspire.state import Die
    from tests.cloudspire.helpers import doc, only_pool

    scenario = scenario_from_document(doc(dice=only_pool("B1")), "t.json")
    broken = scenario.initial.with_die(Die("B1", Zone.LOADED, Face.MISS, "hero.bp1"))
    assert state_violations(scenario, broken) == ["a miss (B1) is loaded on the hero"]
    twice = replace(scenario.initial, inventory=("Harbor-1",), discard=(("Harbor-1", "item"),))
    assert state_violations(scenario, twice) == ["cards in two places: ['Harbor-1']"]
    playthrough = run(scenario)
    assert invariant_violations(scenario, playthrough) == []
