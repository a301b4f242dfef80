"""Cloudspire searches find the known answers of the bundled examples (worked out by the exhaustive
engines and checked by the oracle). The long ones are marked slow (make bench / make report)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from invasion_oracle.model.cloudspire.scenario import load_scenario
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability


@pytest.mark.slow
def test_the_engagement_example_trades_a_defeat_for_health() -> None:
    """Defeating two enemies costs 1 Health; losing none defeats only one: the objectives differ."""
    answer = best_engagement(load_scenario("example:cloudspire/engagement.json"), "both")
    assert answer.agree
    assert (answer.plan("defeat").defeated, answer.plan("defeat").health_lost) == (2, 1)
    assert (answer.plan("health").defeated, answer.plan("health").health_lost) == (1, 0)


@pytest.mark.slow
def test_the_survival_example() -> None:
    """Not cycling loses for sure; cycling with the blue die beats cycling with the yellow one."""
    answer = survival_probability(load_scenario("example:cloudspire/survive.json"), engine="both")
    assert answer.agree and answer.replayed and answer.probability == Fraction(308, 729)
    assert dict(answer.first_decision) == {
        "stop": 0,
        "cycle yellow": Fraction(29, 81),
        "cycle blue": Fraction(308, 729),
    }


@pytest.mark.slow
def test_the_spires_example_needs_two_spires_for_bound_two() -> None:
    answer = fewest_spires(load_scenario("example:cloudspire/spires.json"), 2, engine="both")
    assert answer.agree and answer.fewest == 2


def test_the_spires_example_needs_one_spire_for_bound_one() -> None:
    answer = fewest_spires(load_scenario("example:cloudspire/spires.json"), 1, engine="z3")
    assert answer.fewest == 1 and answer.replayed
