"""Spirit Island sections of the main job: an Invader Phase, a fear-threshold table, the island
search. Each prints the command that reproduces it."""

from __future__ import annotations

from invasion_oracle.model.spirit_island.pieces import parse_land
from invasion_oracle.model.spirit_island.scenario import load_scenario
from invasion_oracle.model.spirit_island.simulate import run
from invasion_oracle.model.spirit_island.spec import SPEC
from invasion_oracle.reports.simulation import simulation_report
from invasion_oracle.reports.spirit_island.tables import facts_table, fear_table, flip_table
from invasion_oracle.reports.tables import section
from invasion_oracle.solver.spirit_island.fear_threshold import fear_table as fear_plans
from invasion_oracle.solver.spirit_island.fear_threshold import least_damage_for_next_card
from invasion_oracle.solver.spirit_island.island_search import (
    question_from_scenario,
    search_facts,
    smallest_flip,
)

EXAMPLE = "example:spirit_island/invader_phase.json"
SEARCH = "example:spirit_island/island_search.json"
FEAR_LAND = "C C@1 2T T@1 2E"
FEAR_POOL = 3
FLIP_FACT = "1:explore:A4"


def example_invader_phase() -> str:
    scenario = load_scenario(EXAMPLE)
    playthrough = run(scenario)
    body = simulation_report(SPEC, scenario, playthrough, f"invasion spirit-island simulate {EXAMPLE}")
    return section("Spirit Island: an Invader Phase on board A", body)


def fear_threshold_table() -> str:
    land = parse_land(FEAR_LAND)
    z3_plans = fear_plans(land, method="z3")
    baseline = fear_plans(land, method="baseline")
    nxt = least_damage_for_next_card(land, FEAR_POOL)
    # said only as compared (the table's last column shows each row's comparison)
    same = all(z.damage == b.damage for z, b in zip(z3_plans, baseline, strict=True))
    lines = [
        f"Least Damage spread over the land `{FEAR_LAND}` (existing Damage counted) that destroys Towns and Cities "
        f"worth at least k Fear; z3 and the exhaustive baseline {'agree' if same else 'DISAGREE'}, and every "
        "allocation was replayed through the oracle as the players' decision for a Damage effect.",
        "",
        fear_table(z3_plans, baseline),
        "",
        f"With {FEAR_POOL} markers left in the Fear pool, the least Damage that earns the next Fear card is "
        f"{nxt.damage} (`{nxt.allocation}`); the oracle, replaying it, earns the card.",
    ]
    command = f"invasion spirit-island fear-threshold --land '{FEAR_LAND}' --pool {FEAR_POOL}"
    return section("Spirit Island: fear thresholds", "\n".join(lines), command=command)


def island_search() -> str:
    scenario = load_scenario(SEARCH)
    question = question_from_scenario(scenario)
    facts = search_facts(question, scenario.data, method="z3")
    baseline = search_facts(question, scenario.data, method="baseline")
    agree = "agree" if facts.verdicts == baseline.verdicts else "DISAGREE"
    turn, action, land = FLIP_FACT.split(":")
    flip = smallest_flip(question, (int(turn) - 1, action, scenario.island.index(land)), data=scenario.data)
    body = "\n".join(
        [
            f"Where the cards hit, whatever the players do (`always`) or depending on how the Dahan fight back; z3 and the "
            # The witness trajectories themselves differ by engine (and, for z3, between calls):
            # not printed, so the main job is the same bytes every time.
            f"baseline {agree}; every witness trajectory z3 found was replayed through the oracle.",
            "",
            facts_table(question, facts),
            "",
            f"The smallest starting change flipping `{FLIP_FACT}` (a boundary fixture), replayed through the oracle "
            f"(`invasion spirit-island flip {SEARCH} --fact {FLIP_FACT}`):",
            "",
            flip_table(flip, scenario.island.lands),
        ]
    )
    return section(
        "Spirit Island: where a card sequence ravages, builds and explores",
        body,
        command=f"invasion spirit-island lands {SEARCH}",
    )


SECTIONS = (example_invader_phase, fear_threshold_table, island_search)
