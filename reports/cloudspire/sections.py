"""Cloudspire sections of the main job (a round, the engagement search) and of the full report
(survival probability, fewest spires); the rulings' register is written once for every game
(``reports/ambiguity``). Each prints the command that reproduces it."""

from __future__ import annotations

from invasion_oracle.model.cloudspire.scenario import load_scenario
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.cloudspire.spec import SPEC
from invasion_oracle.reports.cloudspire.tables import engagement_body, spires_body, survival_body
from invasion_oracle.reports.simulation import simulation_report
from invasion_oracle.reports.tables import section
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability

ROUND = "example:cloudspire/round.json"
ENGAGEMENT = "example:cloudspire/engagement.json"
SURVIVE = "example:cloudspire/survive.json"
SPIRES = "example:cloudspire/spires.json"
SPIRES_BOUND = 2


def example_round() -> str:
    scenario = load_scenario(ROUND)
    playthrough = run(scenario)
    body = simulation_report(SPEC, scenario, playthrough, f"invasion cloudspire simulate {ROUND}")
    return section("Cloudspire: one round", body)


def engagement_search() -> str:
    scenario = load_scenario(ENGAGEMENT)
    answer = best_engagement(scenario, "both")
    return section(
        "Cloudspire: the best loading and targeting for the rolled dice",
        engagement_body(scenario, answer),
        command=f"invasion cloudspire engagement {ENGAGEMENT}",
    )


def survival_search() -> str:
    scenario = load_scenario(SURVIVE)
    answer = survival_probability(scenario, engine="both")
    return section(
        "Cloudspire: the probability of surviving two rounds under optimal play",
        survival_body(scenario, answer),
        command=f"invasion cloudspire survive {SURVIVE}",
    )


def spires_search() -> str:
    scenario = load_scenario(SPIRES)
    answer = fewest_spires(scenario, SPIRES_BOUND, engine="both")
    return section(
        "Cloudspire: the fewest spires keeping Health above a bound",
        spires_body(scenario, answer),
        command=f"invasion cloudspire spires {SPIRES} --bound {SPIRES_BOUND}",
    )


SECTIONS = (example_round, engagement_search)
LONG_SECTIONS = (survival_search, spires_search)
