"""The engines agree: z3, the compiled search and the oracle give the same answers.

Random small dungeons come from the same strategies as the oracle's properties (random rulings
included), so agreement is checked under every reading.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from model.stonespine.heroes import COLORS, HeroColor
from properties.stonespine import scenarios
from solver.common import Deadline, Status
from solver.stonespine.board import board_for
from solver.stonespine.fast import LayoutEvaluator, defeat_mask
from solver.stonespine.placement import oracle_guaranteed, search_guaranteed, z3_guaranteed
from solver.stonespine.replay import verify_wave
from solver.stonespine.routes import RouteModel, enumerate_outcomes
from solver.stonespine.waves import oracle_wave, search_wave, z3_wave
from tests.stonespine.helpers import load

SMALL = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def _exact(doc: dict[str, Any]) -> bool:
    scenario = load(doc)
    board, _, _ = board_for(scenario)
    return not board.limits


@SMALL
@given(scenarios(max_players=1).filter(_exact), st.sampled_from(COLORS))
def test_route_outcomes_z3_equals_enumeration_and_the_oracle(doc: dict[str, Any], color: HeroColor) -> None:
    scenario = load(doc)
    board, layout, defeated = board_for(scenario)
    exhaustive = enumerate_outcomes(board, layout, color, defeated)
    proven = RouteModel(board, layout, color, defeated).outcomes()
    assert set(exhaustive) == set(proven)
    mask = defeat_mask(board, layout, board.hero(color), defeated)
    assert {k[1] for k in exhaustive if k[0] == "defeated"} == {n for n in range(board.size) if mask >> n & 1}
    for outcome in proven.values():
        if outcome.node is None:
            continue
        verify_wave(
            scenario,
            0,
            [(color, [board.name(n) for n in outcome.route])],
            [(outcome.fate.value, board.name(outcome.node), outcome.reason)],
        )


@SMALL
@given(scenarios(max_players=1).filter(_exact), st.lists(st.sampled_from(COLORS), min_size=1, max_size=3))
def test_wave_search_z3_and_oracle_agree(doc: dict[str, Any], heroes: list[HeroColor]) -> None:
    scenario = load(doc)
    board, layout, defeated = board_for(scenario)
    by_search = search_wave(board, layout, heroes, defeated)
    by_z3 = z3_wave(board, layout, heroes, defeated)
    by_oracle = oracle_wave(scenario, 0, heroes)
    assert by_search.defeated == by_z3.defeated == by_oracle.defeated
    roll = tuple(heroes.count(c) for c in COLORS)
    assert LayoutEvaluator(board, layout).value(roll, defeated) == by_search.defeated  # type: ignore[arg-type]
    for plan in (by_search, by_z3):
        verify_wave(scenario, 0, plan.plan(board), plan.expected(board))


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    scenarios(max_players=1).filter(
        lambda d: (
            _exact(d)
            and len(d["players"][0]["dungeon"]["rows"]) * len(d["players"][0]["dungeon"]["rows"][0]) <= 6
            and d["year"] <= 2
        )
    )
)
def test_placement_engines_agree_on_small_dungeons(doc: dict[str, Any]) -> None:
    doc["players"][0].pop("defeated", None)
    scenario = load(doc)
    by_search = search_guaranteed(scenario)
    # z3 lists ties one solve at a time; a case with very many ties is too slow for `make test`.
    assume(len(by_search.tied) <= 40)
    by_z3 = z3_guaranteed(scenario, deadline=Deadline(60))
    assert by_z3.status is Status.PROVEN
    by_oracle = oracle_guaranteed(scenario)
    assert by_search.best == by_z3.best == by_oracle.best
    assert set(by_search.tied) == set(by_z3.tied) == set(by_oracle.tied)


def test_the_placement_example_holds_its_first_optimal_placement() -> None:
    """examples/stonespine/placement.json says its placement is the first optimal one: keep it so."""
    from pathlib import Path

    from model.stonespine.scenario import load_scenario

    path = Path(__file__).resolve().parents[2] / "examples" / "stonespine" / "placement.json"
    scenario = load_scenario(str(path))
    _, layout, _ = board_for(scenario)
    assert search_guaranteed(scenario).tied[0] == layout


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    scenarios(max_players=1).filter(
        lambda d: (
            _exact(d)
            and len(d["players"][0]["dungeon"]["rows"]) * len(d["players"][0]["dungeon"]["rows"][0]) <= 9
        )
    ),
    st.lists(st.sampled_from(COLORS), min_size=1, max_size=2),
)
def test_min_damage_engines_agree(doc: dict[str, Any], heroes: list[HeroColor]) -> None:
    from solver.stonespine.min_damage import fewest_minions, fewest_tokens, least_escaping_health

    scenario = load(doc)
    assert (
        fewest_minions(scenario, heroes, limit=3, engine="z3").count
        == fewest_minions(scenario, heroes, limit=3, engine="search").count
    )
    assert (
        fewest_tokens(scenario, heroes, "spike", limit=2, engine="z3").count
        == fewest_tokens(scenario, heroes, "spike", limit=2, engine="search").count
    )
    assert (
        least_escaping_health(scenario, heroes[0], engine="z3").health
        == least_escaping_health(scenario, heroes[0], engine="search").health
    )


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(
    scenarios(max_players=1).filter(
        lambda d: (
            _exact(d)
            and len(d["players"][0]["dungeon"]["rows"]) * len(d["players"][0]["dungeon"]["rows"][0]) <= 4
        )
    ),
    st.sampled_from(COLORS),
)
def test_escape_search_engines_agree(doc: dict[str, Any], hero: HeroColor) -> None:
    from solver.stonespine.escape_search import _free_slots, fill_free_spaces

    scenario = load(doc)
    assume(len(_free_slots(scenario, 0)) <= 6)
    by_z3 = fill_free_spaces(scenario, hero, ["spike", "+1"], engine="z3")
    by_search = fill_free_spaces(scenario, hero, ["spike", "+1"], engine="search")
    assert by_z3.found == by_search.found
