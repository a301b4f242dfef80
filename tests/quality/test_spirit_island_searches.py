"""The Spirit Island searches find hand-made answers (worked out on paper from seed 002's rules)."""

from __future__ import annotations

import pytest

from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.island import build_island
from invasion_oracle.model.spirit_island.pieces import PieceKind, parse_land
from invasion_oracle.model.spirit_island.scenario import load_scenario
from invasion_oracle.solver.spirit_island.cascade import best_cascade, card_cascades
from invasion_oracle.solver.spirit_island.defend import least_defend
from invasion_oracle.solver.spirit_island.fear_threshold import (
    best_fight_back,
    fear_table,
    least_damage_for_fear,
    least_damage_for_next_card,
)
from invasion_oracle.solver.spirit_island.island_search import (
    question_from_scenario,
    search_facts,
    smallest_flip,
)

METHODS = ("z3", "baseline")
ISLAND = build_island(default_data(), ("A",))


def lands(**placed: str) -> tuple:
    return tuple(parse_land(placed.get(name, "")) for name in ISLAND.lands)


@pytest.mark.parametrize("method", METHODS)
def test_fear_thresholds_of_a_city_and_a_town(method: str) -> None:
    # k=1: the Town (2 Damage); k=2: the City (3; there is only one Town); k=3: both (5)
    plans = fear_table(parse_land("C T E"), method=method)
    assert [(p.wanted, p.damage) for p in plans] == [(1, 2), (2, 3), (3, 5)]
    assert least_damage_for_fear(parse_land("C T"), 4, method=method).damage is None


@pytest.mark.parametrize("method", METHODS)
def test_existing_damage_and_health_modifiers_count(method: str) -> None:
    assert least_damage_for_fear(parse_land("C@2 T"), 2, method=method).damage == 1  # the City needs 1 more
    stronger = parse_land("T").with_modifier(PieceKind.TOWN, 1)
    assert least_damage_for_fear(stronger, 1, method=method).damage == 3  # a Town with +1 Health


@pytest.mark.parametrize("method", METHODS)
def test_next_fear_card(method: str) -> None:
    plan = least_damage_for_next_card(parse_land("C 2T"), 2, method=method)
    assert (plan.damage, plan.replayed) == (3, True)  # the City's 2 Fear empties a pool of 2


@pytest.mark.parametrize("method", METHODS)
def test_fight_back_fear_versus_kills(method: str) -> None:
    # 2 Dahan deal 4 to C T E: the most Fear is the City (2) plus the Explorer;
    # the most kills is the Town and the Explorer (2 kills, 1 Damage left on the City)
    assert best_fight_back(parse_land("C T E"), 2, "fear", method=method).value == 2
    assert best_fight_back(parse_land("C T E"), 2, "destroyed", method=method).value == 2
    assert best_fight_back(parse_land("C 3E"), 1, "destroyed", method=method).value == 2


@pytest.mark.parametrize("method", METHODS)
def test_least_defend(method: str) -> None:
    assert least_defend(parse_land("C T"), "no-blight", method=method).defend == 4  # 5 Damage, 1 left
    assert least_defend(parse_land("3D C"), "dahan-safe", method=method).defend == 2
    assert (
        least_defend(parse_land("D@1 E"), "dahan-safe", method=method).defend == 1
    )  # a damaged Dahan dies to 1
    assert least_defend(parse_land("E"), "no-blight", method=method).defend == 0


@pytest.mark.parametrize("method", METHODS)
def test_cascade_prefers_lands_without_presence(method: str) -> None:
    state = lands(A1="B", A2="B")
    state = tuple(
        land.with_presence("River", 1) if ISLAND.lands[i] in ("A4", "A5", "A6") else land
        for i, land in enumerate(state)
    )
    answer = best_cascade(ISLAND, state, "A1", method=method)
    # A1's neighbours A4, A5, A6 hold Presence; through blighted A2 the cascade reaches A3
    assert answer.best == ("A2", "A3") and answer.presence == 0 and answer.replayed


@pytest.mark.parametrize("method", METHODS)
def test_card_cascade_through_an_earlier_land(method: str) -> None:
    # 1M ravages A1 (blighted) and A6 (not): A1's cascade can put Blight on A6 first
    answer = card_cascades(
        ISLAND, lands(A1="T B", A6="T", A8="C"), default_data().card_by_id("1M"), method=method
    )
    rows = {x.land: (x.always, x.possible) for x in answer.lands}
    assert rows == {"A1": (True, True), "A6": (False, True)}
    # the witness: ravage A1 first and cascade straight into A6
    (a6,) = [x for x in answer.lands if x.land == "A6"]
    assert a6.witness_order[0] == "A1" and a6.witness_chains == (("A6",),)


@pytest.mark.parametrize("method", METHODS)
def test_card_cascade_when_a_later_chain_could_never_end(method: str) -> None:
    # Every land of board A has Blight: A2's and A5's Blight cascade in every resolution. A chain
    # after the target's, which could never end, once made z3 answer "never" for both.
    state = lands(**{**{name: "B" for name in ISLAND.lands}, "A2": "T B", "A5": "T B"})
    answer = card_cascades(ISLAND, state, default_data().card_by_id("1W"), method=method)
    assert {x.land: (x.always, x.possible) for x in answer.lands} == {"A2": (True, True), "A5": (True, True)}


@pytest.mark.parametrize("method", ["baseline", pytest.param("z3", marks=pytest.mark.slow)])
def test_island_search_example_depends_on_the_dahan(method: str) -> None:
    scenario = load_scenario("examples/spirit_island/island_search.json")
    question = question_from_scenario(scenario)
    facts = search_facts(question, scenario.data, method=method)
    a7 = scenario.island.index("A7")
    assert facts.verdict((0, "explore", a7)) == "depends"  # A8's Town may or may not survive the Dahan
    assert facts.verdict((0, "ravage", scenario.island.index("A8"))) == "always"
    assert facts.witnesses >= 2 and facts.method == method


@pytest.mark.parametrize("method", ["baseline", pytest.param("z3", marks=pytest.mark.slow)])
def test_smallest_flip_removes_the_source(method: str) -> None:
    scenario = load_scenario("examples/spirit_island/island_search.json")
    question = question_from_scenario(scenario)
    flip = smallest_flip(
        question, (0, "explore", scenario.island.index("A4")), data=scenario.data, method=method, max_cost=2
    )
    # A4 is explored from A2's City; A2's Explorer would build a Town first: both must go
    assert flip.cost == 2 and flip.changes == (("A2", "explorer", -1), ("A2", "city", -1)) and flip.replayed
