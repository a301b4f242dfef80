"""The engines agree on generated instances (the engagement's `both`: z3, CP-SAT and the exhaustive
baseline); answers replay through the oracle."""

from __future__ import annotations

import os
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from invasion_oracle.model.cloudspire.scenario import scenario_from_document
from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.properties.cloudspire import engagement_documents, tiny_round_documents
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))
SETTINGS = settings(max_examples=12 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(engagement_documents())
def test_engagement_z3_agrees_with_the_exhaustive_baseline(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated.json")
    try:
        answer = best_engagement(scenario, "both")  # raises OracleDisagreement on any mismatch
    except RulesError as err:
        assume("does not cover" not in str(err))
        raise
    assert answer.agree and answer.replayed
    defeat, health = answer.plan("defeat"), answer.plan("health")
    assert defeat.defeated >= health.defeated and health.health_lost <= defeat.health_lost


@settings(max_examples=5 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_round_documents(spires=1))
def test_survival_engines_agree(document: dict[str, Any]) -> None:
    answer = survival_probability(scenario_from_document(document, "generated.json"), engine="both")
    assert answer.agree and answer.replayed


@settings(max_examples=5 * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiny_round_documents(), st.integers(0, 3))
def test_spire_cover_z3_agrees_with_the_baseline(document: dict[str, Any], bound: int) -> None:
    answer = fewest_spires(scenario_from_document(document, "generated.json"), bound, engine="both")
    assert answer.agree is True
    assert answer.replayed == (answer.fewest is not None)
