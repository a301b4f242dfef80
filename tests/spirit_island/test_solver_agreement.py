"""z3 and the exhaustive baselines agree on random small instances; every answer was replayed
through the oracle (the searches raise OracleDisagreement otherwise).

Each agreement runs a few examples in ``make test`` (z3 costs 0.05-1 s per model, so they stay
few) and many more in its ``slow`` twin, named ``..._deep`` (``make bench``, ``pytest -m slow``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from invasion_oracle.model.spirit_island.data import default_data
from invasion_oracle.model.spirit_island.island import build_island
from invasion_oracle.model.spirit_island.pieces import Land, PieceKind
from invasion_oracle.properties.spirit_island import land_pieces
from invasion_oracle.solver.spirit_island.cascade import best_cascade, card_cascades
from invasion_oracle.solver.spirit_island.defend import GOALS, least_defend
from invasion_oracle.solver.spirit_island.fear_threshold import (
    OBJECTIVES,
    best_fight_back,
    least_damage_for_fear,
    least_damage_for_next_card,
)
from invasion_oracle.solver.spirit_island.island_search import (
    IslandQuestion,
    baseline_facts,
    smallest_flip,
    z3_facts,
)

# INVASION_HYPOTHESIS_SCALE=10 runs ten times as many examples (a deeper sweep).
SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))
ISLAND = build_island(default_data(), ("A",))
CARDS = ("1J", "1M", "1S", "1W", "2C", "3JM", "3JS", "3JW", "3MS", "3MW", "3SW")


def examples(n: int) -> settings:
    return settings(max_examples=n * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


deep = pytest.mark.slow


# -- one land ---------------------------------------------------------------------------------------


def check_least_damage_for_fear(land: Land, wanted: int) -> None:
    a = least_damage_for_fear(land, wanted, method="z3")
    b = least_damage_for_fear(land, wanted, method="baseline")
    assert a.damage == b.damage
    assert a.replayed == b.replayed == (a.damage is not None)
    if a.damage is not None:
        assert a.fear >= wanted and b.fear >= wanted


@examples(6)
@given(land_pieces(dahan=False, modifiers=True), st.integers(1, 8))
def test_least_damage_for_fear(land: Land, wanted: int) -> None:
    check_least_damage_for_fear(land, wanted)


@deep
@examples(60)
@given(land_pieces(dahan=False, modifiers=True), st.integers(1, 8))
def test_least_damage_for_fear_deep(land: Land, wanted: int) -> None:
    check_least_damage_for_fear(land, wanted)


def check_next_card(land: Land, pool: int) -> None:
    assert (
        least_damage_for_next_card(land, pool, method="z3").damage
        == least_damage_for_next_card(land, pool, method="baseline").damage
    )


@examples(4)
@given(land_pieces(dahan=False), st.integers(1, 4))
def test_least_damage_for_the_next_card(land: Land, pool: int) -> None:
    check_next_card(land, pool)


@deep
@examples(40)
@given(land_pieces(dahan=False), st.integers(1, 4))
def test_least_damage_for_the_next_card_deep(land: Land, pool: int) -> None:
    check_next_card(land, pool)


def check_fight_back(land: Land, dahan: int, objective: str) -> None:
    a = best_fight_back(land, dahan, objective, method="z3")
    b = best_fight_back(land, dahan, objective, method="baseline")
    assert a.value == b.value


@examples(5)
@given(land_pieces(dahan=False, modifiers=True), st.integers(0, 3), st.sampled_from(OBJECTIVES))
def test_best_fight_back(land: Land, dahan: int, objective: str) -> None:
    check_fight_back(land, dahan, objective)


@deep
@examples(40)
@given(land_pieces(dahan=False, modifiers=True), st.integers(0, 3), st.sampled_from(OBJECTIVES))
def test_best_fight_back_deep(land: Land, dahan: int, objective: str) -> None:
    check_fight_back(land, dahan, objective)


def check_defend(land: Land, goal: str) -> None:
    assert least_defend(land, goal, method="z3").defend == least_defend(land, goal, method="baseline").defend


@examples(6)
@given(land_pieces(), st.sampled_from(GOALS))
def test_least_defend(land: Land, goal: str) -> None:
    check_defend(land, goal)


@deep
@examples(40)
@given(land_pieces(), st.sampled_from(GOALS))
def test_least_defend_deep(land: Land, goal: str) -> None:
    check_defend(land, goal)


# -- cascades -----------------------------------------------------------------------------------------


@st.composite
def board_a_lands(draw: st.DrawFn, *, invaders: bool = False) -> tuple[Land, ...]:
    lands = []
    for _ in ISLAND.lands:
        land = Land()
        if draw(st.integers(0, 2)) == 0:
            land = Land(blight=1)
        if draw(st.integers(0, 3)) == 0:
            land = land.with_presence(draw(st.sampled_from(("River", "Earth"))), 1)
        if invaders:
            land = (
                land.add(PieceKind.TOWN, draw(st.integers(0, 1)))
                .add(PieceKind.EXPLORER, draw(st.integers(0, 2)))
                .add(PieceKind.DAHAN, draw(st.integers(0, 2)))
            )
        lands.append(land)
    return tuple(lands)


def check_best_cascade(lands: tuple[Land, ...], origin: str) -> None:
    index = ISLAND.index(origin)
    if lands[index].blight == 0:
        lands = lands[:index] + (Land(blight=1, presence=lands[index].presence),) + lands[index + 1 :]
    a = best_cascade(ISLAND, lands, origin, method="z3")
    b = best_cascade(ISLAND, lands, origin, method="baseline")
    assert a.paths == b.paths
    assert (a.best, a.presence) == (b.best, b.presence)


@examples(4)
@given(board_a_lands(), st.sampled_from(ISLAND.lands))
def test_best_cascade(lands: tuple[Land, ...], origin: str) -> None:
    check_best_cascade(lands, origin)


@deep
@examples(40)
@given(board_a_lands(), st.sampled_from(ISLAND.lands))
def test_best_cascade_deep(lands: tuple[Land, ...], origin: str) -> None:
    check_best_cascade(lands, origin)


def check_card_cascades(lands: tuple[Land, ...], card: str) -> None:
    c = default_data().card_by_id(card)
    a = card_cascades(ISLAND, lands, c, method="z3")
    b = card_cascades(ISLAND, lands, c, method="baseline")
    assert [(x.land, x.always, x.possible) for x in a.lands] == [
        (x.land, x.always, x.possible) for x in b.lands
    ]


@examples(2)
@given(board_a_lands(invaders=True), st.sampled_from(CARDS))
def test_card_cascades(lands: tuple[Land, ...], card: str) -> None:
    check_card_cascades(lands, card)


@deep
@examples(30)
@given(board_a_lands(invaders=True), st.sampled_from(CARDS))
def test_card_cascades_deep(lands: tuple[Land, ...], card: str) -> None:
    check_card_cascades(lands, card)


# -- the island ----------------------------------------------------------------------------------------


@st.composite
def questions(draw: st.DrawFn, *, turns: int = 2) -> IslandQuestion:
    start = []
    for _ in ISLAND.lands:
        if draw(st.integers(0, 2)) == 0:
            start.append(
                (
                    draw(st.integers(0, 2)),
                    draw(st.integers(0, 1)),
                    draw(st.integers(0, 1)),
                    draw(st.integers(0, 2)),
                )
            )
        else:
            start.append((0, 0, 0, draw(st.integers(0, 1))))
    cards = draw(st.lists(st.sampled_from(CARDS), min_size=turns + 2, max_size=turns + 2, unique=True))
    defend = tuple(tuple(draw(st.sampled_from((0, 0, 0, 1, 2))) for _ in ISLAND.lands) for _ in range(turns))
    return IslandQuestion(ISLAND, tuple(start), cards[0], cards[1], tuple(cards[2:]), defend)


def check_island_facts(question: IslandQuestion) -> None:
    z3_answer, baseline = z3_facts(question), baseline_facts(question)
    assert z3_answer.verdicts == baseline.verdicts
    assert z3_answer.witnesses > 0 and baseline.witnesses > 0  # both replayed their witnesses


@examples(2)
@given(questions(turns=1))
def test_island_facts(question: IslandQuestion) -> None:
    check_island_facts(question)


@deep
@examples(15)
@given(questions())
def test_island_facts_deep(question: IslandQuestion) -> None:
    check_island_facts(question)


def check_smallest_flip(question: IslandQuestion, data: st.DataObject) -> None:
    verdicts = [(fact, v) for fact, v in baseline_facts(question, replay=False).verdicts if v != "depends"]
    fact, _ = data.draw(st.sampled_from(verdicts))
    a = smallest_flip(question, fact, method="z3", max_cost=2)
    b = smallest_flip(question, fact, method="baseline", max_cost=2)
    assert a.cost == b.cost
    assert a.replayed == b.replayed == (a.cost is not None)


@examples(1)
@given(questions(turns=1), st.data())
def test_smallest_flip(question: IslandQuestion, data: st.DataObject) -> None:
    check_smallest_flip(question, data)


@deep
@examples(8)
@given(questions(turns=1), st.data())
def test_smallest_flip_deep(question: IslandQuestion, data: st.DataObject) -> None:
    check_smallest_flip(question, data)
