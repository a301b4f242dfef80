"""The invariants of every run (properties/vulketh.py), on generated positions and games."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.vulketh.scenario import scenario_from_document
from invasion_oracle.model.vulketh.simulate import run
from invasion_oracle.properties.vulketh import games, invariant_violations, replay_violations

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand
FAST = settings(max_examples=20 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(games())
def test_every_step_keeps_the_invariants(document: dict[str, object]) -> None:
    scenario = scenario_from_document(document, "generated.json")
    assert invariant_violations(scenario, run(scenario)) == []


@FAST
@given(games())
def test_replaying_the_recorded_answers_gives_the_same_run(document: dict[str, object]) -> None:
    assert replay_violations(scenario_from_document(document, "generated.json")) == []
