"""The engines agree with the oracle: the compiled board, its walkers and its z3 (and CP-SAT) encodings.

Random dungeons come from the same strategies as the oracle's properties (random rulings
included), so agreement is checked under every reading. No generated board is filtered out: a
board the compiled model cannot represent must be refused by the searches, with the reason, and
every refusal is counted and reported beside the comparisons.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.stonespine.heroes import COLORS, HeroColor
from invasion_oracle.properties.stonespine import scenarios
from invasion_oracle.solver.common import Deadline
from invasion_oracle.solver.stonespine.board import board_for
from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator, defeat_mask, first_routes
from invasion_oracle.solver.stonespine.routes import (
    RouteModel,
    enumerate_outcomes,
    oracle_outcomes,
    solve_routes,
)
from invasion_oracle.solver.stonespine.waves import oracle_wave, search_wave, solve_wave, z3_wave
from tests.stonespine.helpers import load

QUICK = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow, HealthCheck.filter_too_much]}


def quick_and_deep(body: Any, strategies: tuple[Any, ...], quick: int, deep: int) -> tuple[Any, Any]:
    """The property ``body`` as two tests: ``quick`` examples in ``make test``, ``deep`` examples
    under the ``slow`` marker (``make bench``, ``pytest -m slow``)."""
    fast = settings(max_examples=quick, **QUICK)(given(*strategies)(body))  # type: ignore[arg-type]
    slow = settings(max_examples=deep, **QUICK)(given(*strategies)(body))  # type: ignore[arg-type]
    return fast, pytest.mark.slow(slow)


def _size(doc: dict[str, Any]) -> int:
    rows = doc["players"][0]["dungeon"]["rows"]
    return len(rows) * len(rows[0])


def _compiled_outcomes(scenario: Any, color: HeroColor) -> dict[str, set[tuple[str, str | None, str]]]:
    """Every end one hero can reach, by the reference walker and by the tabulated walker."""
    board, layout, defeated = board_for(scenario)
    reference = enumerate_outcomes(board, layout, color, defeated)
    fast = first_routes(board, layout, board.hero(color), defeated)
    return {
        "reference": {
            (fate, board.name(node) if node >= 0 else None, o.reason) for (fate, node), o in reference.items()
        },
        "fast": {
            (fate, board.name(node) if node >= 0 else None, reference[(fate, node)].reason)
            for fate, node in fast
            if (fate, node) in reference
        }
        | {("missing", str(key), "") for key in fast if key not in reference},
    }


@pytest.mark.parametrize(
    "boards", [pytest.param(40, id="40"), pytest.param(400, marks=pytest.mark.slow, id="400")]
)
def test_the_compiled_board_agrees_with_the_oracle_on_every_generated_board(
    boards: int, record_property: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """One hero's routes and a wave's best value, compiled against the oracle's own search, on
    every generated board; where the compiled model cannot represent the board, the searches
    must refuse with the reason."""
    tally: Counter[str] = Counter()

    @settings(max_examples=boards, **QUICK)  # type: ignore[arg-type]
    @given(
        scenarios(max_players=1),
        st.sampled_from(COLORS),
        st.lists(st.sampled_from(COLORS), min_size=1, max_size=3),
    )
    def check(doc: dict[str, Any], color: HeroColor, heroes: list[HeroColor]) -> None:
        tally["boards"] += 1
        scenario = load(doc)
        board, layout, defeated = board_for(scenario)
        refused = board.limits_for(color)
        if refused:
            with pytest.raises(RulesError, match="does not model"):
                solve_routes(scenario, color, engine="search")
            tally[f"routes refused: {refused[0]}"] += 1
        else:
            compiled = _compiled_outcomes(scenario, color)
            oracle = set(oracle_outcomes(scenario, 0, color))
            assert compiled["reference"] == oracle
            assert compiled["fast"] == oracle
            tally["routes compared"] += 1
        if board.limits:
            with pytest.raises(RulesError, match="do not model"):
                solve_wave(scenario, heroes, engine="search")
            tally[f"waves refused: {board.limits[0]}"] += 1
        else:
            by_search = search_wave(board, layout, heroes, defeated)
            by_oracle = oracle_wave(scenario, 0, heroes)
            roll = (heroes.count(COLORS[0]), heroes.count(COLORS[1]), heroes.count(COLORS[2]))
            assert by_search.defeated == by_oracle.defeated
            assert LayoutEvaluator(board, layout).value(roll, defeated) == by_search.defeated
            tally["waves compared"] += 1

    check()
    report = ", ".join(f"{key}: {n}" for key, n in sorted(tally.items()))
    record_property("compiled-board agreement", report)
    with capsys.disabled():
        print(f"\ncompiled board vs oracle: {report}")
    assert (
        tally["routes compared"] + sum(n for k, n in tally.items() if k.startswith("routes refused"))
        == tally["boards"]
    )
    assert (
        tally["waves compared"] + sum(n for k, n in tally.items() if k.startswith("waves refused"))
        == tally["boards"]
    )
    assert (
        tally["routes compared"] >= tally["boards"] // 2 and tally["waves compared"] >= tally["boards"] // 4
    )
    assert any(k.startswith("waves refused") for k in tally), (
        "the strategies no longer make boards the model refuses"
    )


def _the_z3_route_encoding_agrees_with_the_walkers(doc: dict[str, Any], color: HeroColor) -> None:
    scenario = load(doc)
    board, layout, defeated = board_for(scenario)
    assume(not board.limits_for(color))
    walked = enumerate_outcomes(board, layout, color, defeated)
    model = RouteModel(board, layout, color, defeated)
    proven = model.outcomes(Deadline())  # z3 asked every question the cheap filters leave
    assert set(walked) == set(proven)
    mask = defeat_mask(board, layout, board.hero(color), defeated)
    assert {k[1] for k in walked if k[0] == "defeated"} == {n for n in range(board.size) if mask >> n & 1}
    answer = solve_routes(scenario, color)  # harvest, z3, every route replayed through the oracle
    assert {(o.fate, o.chamber) for o in answer.outcomes} == {
        (f, board.name(n) if n >= 0 else None) for f, n in walked
    }


def _the_z3_wave_encoding_agrees_with_the_search(doc: dict[str, Any], heroes: list[HeroColor]) -> None:
    scenario = load(doc)
    board, layout, defeated = board_for(scenario)
    assume(not board.limits)
    by_search = search_wave(board, layout, heroes, defeated)
    by_z3 = z3_wave(board, layout, heroes, defeated)
    assert by_search.defeated == by_z3.defeated
    from invasion_oracle.solver.stonespine.replay import verify_wave

    for plan in (by_search, by_z3):
        verify_wave(scenario, 0, plan.plan(board), plan.expected(board))


def _min_damage_engines_agree(doc: dict[str, Any], heroes: list[HeroColor]) -> None:
    from invasion_oracle.solver.stonespine.min_damage import (
        fewest_minions,
        fewest_tokens,
        least_escaping_health,
    )

    scenario = load(doc)
    board, _, _ = board_for(scenario)
    assume(not board.limits)
    # CP-SAT answers what the search answers (the first tied placement or filling in its order);
    # z3 the same count (and for tokens a filling of its own).
    minions = {e: fewest_minions(scenario, heroes, limit=3, engine=e) for e in ("search", "z3", "cpsat")}
    assert minions["z3"].count == minions["search"].count
    assert (minions["cpsat"].count, minions["cpsat"].where) == (
        minions["search"].count,
        minions["search"].where,
    )
    tokens = {
        e: fewest_tokens(scenario, heroes, "spike", limit=2, engine=e) for e in ("search", "z3", "cpsat")
    }
    assert tokens["z3"].count == tokens["search"].count
    assert (tokens["cpsat"].count, tokens["cpsat"].where) == (tokens["search"].count, tokens["search"].where)
    health = {e: least_escaping_health(scenario, heroes[0], engine=e) for e in ("search", "z3", "cpsat")}
    assert health["z3"].health == health["search"].health == health["cpsat"].health


def _escape_search_engines_agree(doc: dict[str, Any], hero: HeroColor) -> None:
    """The escape search's z3 route conditions (rules.enter along a route, on z3 terms) against
    trying every filling."""
    from invasion_oracle.solver.stonespine.escape_search import _free_slots, fill_free_spaces

    scenario = load(doc)
    board, _, _ = board_for(scenario)
    assume(not board.limits_for(hero) and len(_free_slots(scenario, 0)) <= 5)
    try:
        by_z3 = fill_free_spaces(scenario, hero, ["spike", "+1"], engine="z3")
    except RulesError as refused:  # a filling would bring what the compiled board does not model
        with pytest.raises(RulesError, match="does not model"):
            fill_free_spaces(scenario, hero, ["spike", "+1"], engine="search")
        assert "does not model" in str(refused)
        return
    by_search = fill_free_spaces(scenario, hero, ["spike", "+1"], engine="search")
    assert by_z3.found == by_search.found


def test_the_tables_are_the_rules() -> None:
    """The fast walker's table holds, for every chamber and state, what rules.enter says."""
    from invasion_oracle.solver.stonespine.fast import BY_DAMAGE, BY_EXIT, BY_GUARDIAN
    from invasion_oracle.solver.stonespine.rules import (
        PY,
        HeroState,
        chamber_facts,
        enter,
        hero_terms,
        route_rules,
    )
    from tests.solver_stonespine.test_placement import study

    scenario = study(4, 4, seed=3, year=4)
    board, _, _ = board_for(scenario)
    tables = EntryTables(board, batch=True)
    for table, hero in zip(tables.by_color, board.heroes, strict=True):
        for node in range(board.size):
            for minions in range(3):
                for guardian in (False, True):
                    for ignored in (False, True):
                        row = table.row(node, minions, guardian, ignored)
                        facts = chamber_facts(
                            PY, board, hero, node, minions=minions, guardian=guardian, ignored=ignored
                        )
                        for state, code in enumerate(row):
                            step = enter(
                                PY,
                                route_rules(board),
                                hero_terms(PY, hero),
                                facts,
                                HeroState(state >> 1, bool(state & 1)),
                            )
                            expected = (
                                BY_GUARDIAN
                                if step.by_guardian
                                else BY_DAMAGE
                                if step.by_damage
                                else BY_EXIT
                                if step.by_exit
                                else step.after.damage * 2 + int(step.after.protection_used)
                            )
                            assert code == expected


(
    test_the_z3_route_encoding_agrees_with_the_walkers,
    test_the_z3_route_encoding_agrees_with_the_walkers_deeply,
) = quick_and_deep(
    _the_z3_route_encoding_agrees_with_the_walkers,
    (
        scenarios(max_players=1).filter(lambda d: _size(d) <= 9),
        st.sampled_from(COLORS),
    ),
    6,
    60,
)


test_the_z3_wave_encoding_agrees_with_the_search, test_the_z3_wave_encoding_agrees_with_the_search_deeply = (
    quick_and_deep(
        _the_z3_wave_encoding_agrees_with_the_search,
        (
            scenarios(max_players=1).filter(lambda d: _size(d) <= 8),
            st.lists(st.sampled_from(COLORS), min_size=1, max_size=3),
        ),
        4,
        40,
    )
)


test_min_damage_engines_agree, test_min_damage_engines_agree_deeply = quick_and_deep(
    _min_damage_engines_agree,
    (
        scenarios(max_players=1).filter(lambda d: _size(d) <= 6),
        st.lists(st.sampled_from(COLORS), min_size=1, max_size=2),
    ),
    3,
    30,
)


test_escape_search_engines_agree, test_escape_search_engines_agree_deeply = quick_and_deep(
    _escape_search_engines_agree,
    (
        scenarios(max_players=1).filter(lambda d: _size(d) <= 4),
        st.sampled_from(COLORS),
    ),
    4,
    40,
)
