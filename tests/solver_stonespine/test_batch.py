"""The batched screening of placement classes is exact: it answers what the one-at-a-time
evaluation answers, class by class, and the search that uses it gives the same answer.

The screening drops a class when some roll keeps it below the cut; a wrong drop would lose a tie
or the optimum. So the wave question is checked on every class, roll and cut of several dungeons
(defeated heroes already lying in a chamber, optional minions, an exit, symmetric boards, a
sample of the 8x8 benchmark grid), and the search with the screening forced on is checked
against the search without it and against enumerating every placement.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings

from invasion_oracle.model.stonespine.scenario import Scenario, scenario_from_document
from invasion_oracle.properties.stonespine import scenarios
from invasion_oracle.solver.common import Status
from invasion_oracle.solver.stonespine import batch, placement
from invasion_oracle.solver.stonespine.batch import WaveBatch, class_blocks, contents_of
from invasion_oracle.solver.stonespine.board import Layout, board_for
from invasion_oracle.solver.stonespine.fast import LayoutEvaluator
from invasion_oracle.solver.stonespine.generate import study_document
from invasion_oracle.solver.stonespine.placement import search_guaranteed
from invasion_oracle.solver.stonespine.space import Space, placement_space
from tests.solver_stonespine.instances import MIRROR
from tests.solver_stonespine.test_placement import classes, enumerate_guaranteed
from tests.stonespine.helpers import load


@pytest.fixture(autouse=True, scope="module")
def _screen_from_the_first_class() -> Iterator[None]:
    """The search takes its first 64 classes one by one: here it screens from the first, so that
    the small dungeons exercise the screening."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(placement, "SCREEN_AFTER", 0)
        yield


def study(
    rows: int, columns: int, rulings: dict[str, str] | None = None, defeated: Any = (), **options: Any
) -> Scenario:
    doc = study_document(rows, columns, **options)
    if rulings:
        doc["rulings"] = rulings
    if defeated:
        doc["players"][0]["defeated"] = list(defeated)
    return scenario_from_document(doc, "study grid")


MAKERS: dict[str, Callable[[], Scenario]] = {
    "3x4-exit": lambda: study(3, 4, seed=0, year=3, minions=2, elements=0.3, bonus=4),
    "3x4-mirrored": lambda: study(3, 4, seed=3, year=3, minions=2, elements=0.3, bonus=4),
    "4x4-symmetric": lambda: study(4, 4, seed=0, year=4, minions=2, elements=0.3, bonus=4),
    "3x4-a-hero-lies-in-B2": lambda: study(
        3, 4, seed=0, year=3, minions=2, elements=0.3, bonus=4, defeated=["red@B2"]
    ),
    "3x4-optional-minions": lambda: study(
        3, 4, seed=3, year=3, minions=2, elements=0.3, bonus=4, rulings={"SS-MINIONS": "optional"}
    ),
    "mirror": lambda: scenario_from_document(MIRROR, "mirror"),
}


@functools.cache
def instance(name: str) -> Scenario:
    """Each dungeon loaded once for this module's tests: the same scenario object, so they share
    its compiled board and entry tables too (placement_space keeps those of the last few)."""
    return MAKERS[name]()


def instances() -> list[Any]:
    return [pytest.param(functools.partial(instance, name), id=name) for name in MAKERS]


def _rows(space: Space, layouts: list[Layout]) -> Any:
    """The screening's contents rows for ``layouts`` (minions * 4 + guardian * 2 per chamber)."""
    rows = np.zeros((len(layouts), space.board.size), dtype=np.int8)
    for i, layout in enumerate(layouts):
        for node, minions in enumerate(layout.minions):
            rows[i, node] += 4 * minions
        for node in set(layout.guardians):
            rows[i, node] += 2
    return rows


def _agrees_on_every_roll_and_cut(space: Space, layouts: list[Layout]) -> tuple[int, int]:
    """Check the batched wave question against the evaluator, roll by roll and for all rolls
    together; returns how many (class, roll) values reached 2 or more and how many answers were
    left undecided with ``spread=1`` (so the test knows it saw deep waves, not only first
    defeats, and placements leaving the search)."""
    wave = WaveBatch(space.board, space.tables, max(space.counts))
    rows = _rows(space, layouts)
    rolls = list(space.rolls)
    # one evaluator a layout, for every roll (it shares sub-results between rolls, as in the search)
    evaluators = [LayoutEvaluator(space.board, lay, space.tables) for lay in layouts]
    exact = {roll: np.array([e.value(roll, space.defeated) for e in evaluators]) for roll in rolls}
    for roll in rolls:
        for cut in range(-1, sum(roll) + 2):
            reached = wave.reaches(rows, [roll], cut, space.defeated, spread=None)
            wrong = [layouts[i] for i in np.flatnonzero(reached != (exact[roll] >= cut))]
            assert not wrong, (roll, cut, wrong[:3])
    undecided = 0
    for cut in range(-1, max(sum(r) for r in rolls) + 2):
        every = np.logical_and.reduce([exact[roll] >= cut for roll in rolls])
        assert (wave.reaches(rows, rolls, cut, space.defeated, spread=None) == every).all(), cut
        # Placements with many states leave undecided: answered True, never a wrong False.
        loose = wave.reaches(rows, rolls, cut, space.defeated, spread=1)
        assert (loose | ~every).all(), cut
        undecided += int((loose & ~every).sum())
    return sum(int((exact[roll] >= 2).sum()) for roll in rolls), undecided


@pytest.mark.parametrize("make", instances())
def test_the_wave_question_batched_agrees_with_the_evaluator(make: Any) -> None:
    space = placement_space(make())
    deep, undecided = _agrees_on_every_roll_and_cut(space, list(space.classes()))
    assert deep > 0 and undecided > 0


def test_a_value_asked_only_up_to_enough_is_the_least_of_both() -> None:
    """``value(roll, enough=k)`` is ``min(value, k)``, whatever was asked of the same evaluator
    before (the searches ask each roll only up to the least value so far): every class, roll and
    ``k``, rising, then the exact value again (a defeated hero lying in the dungeon too)."""
    space = placement_space(instance("3x4-a-hero-lies-in-B2"))
    capped_below = 0
    for layout in space.classes():
        exact = LayoutEvaluator(space.board, layout, space.tables)
        asked = LayoutEvaluator(space.board, layout, space.tables)
        for roll in space.rolls:
            value = exact.value(roll, space.defeated)
            for enough in range(sum(roll) + 2):
                assert asked.value(roll, space.defeated, enough=enough) == min(value, enough), (layout, roll)
                capped_below += enough < value
            assert asked.value(roll, space.defeated) == value
    assert capped_below > 0


@pytest.mark.slow  # the benchmark's instance; the six smaller ones above run in `make test`
def test_the_wave_question_batched_agrees_on_the_8x8_benchmark_grid() -> None:
    """Every 193rd class of the benchmark's hard instance (25 chambers enterable, three minions)."""
    space = placement_space(study(8, 8, seed=23, elements=0.3, bonus=6))
    assert _agrees_on_every_roll_and_cut(space, list(space.classes())[::193])[0] > 0


def test_a_hero_lying_in_a_chamber_changes_the_screening() -> None:
    """The chamber of a defeated hero is ignored by every later hero (no guardian, no damage): the
    same placements screened as if it were not would give other answers, so the defeated mask
    really reaches the walk."""
    lying = placement_space(instance("3x4-a-hero-lies-in-B2"))
    layouts = list(lying.classes())
    wave = WaveBatch(lying.board, lying.tables, max(lying.counts))
    rows = _rows(lying, layouts)
    differ = sum(
        int((wave.reaches(rows, [roll], cut, lying.defeated) != wave.reaches(rows, [roll], cut, 0)).sum())
        for roll in lying.rolls
        for cut in range(1, sum(roll) + 1)
    )
    assert lying.defeated and differ > 0


@pytest.mark.parametrize("make", instances())
def test_class_blocks_are_the_classes_in_order(make: Any) -> None:
    space = placement_space(make())
    blocked = [
        Layout(guardians, tuple(int(k) for k in np.bincount(row, minlength=space.board.size)))
        for guardians, minions in class_blocks(space)
        for row in minions
    ]
    assert blocked == list(space.classes())


def _same_answer(scenario: Scenario, top: int) -> None:
    plain = search_guaranteed(scenario, top=top, batch_from=10**12)
    screened = search_guaranteed(scenario, top=top, batch_from=0)
    assert screened.to_json() == plain.to_json()


@pytest.mark.parametrize("make", instances())
@pytest.mark.parametrize("top", [1, 10])
def test_the_screened_search_gives_the_same_answer(make: Any, top: int) -> None:
    _same_answer(make(), top)


@pytest.mark.parametrize("make", instances())
def test_the_screened_search_finds_what_enumeration_finds(make: Any) -> None:
    """Every tie (``top=0``): the screened answer is enumeration's, and the unscreened search's
    byte for byte (one screened search for both checks)."""
    scenario = make()
    best, tied = enumerate_guaranteed(scenario)
    answer = search_guaranteed(scenario, top=0, batch_from=0)
    assert answer.status is Status.PROVEN and answer.best == best and answer.ties_complete
    board, _, _ = board_for(scenario)
    assert {p.layout(board) for p in answer.tied} == classes(scenario, tied)
    assert answer.to_json() == search_guaranteed(scenario, top=0, batch_from=10**12).to_json()


def test_the_default_search_screens_after_its_first_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """A study grid of 5,104 classes (6x6, two minions; optimum 1): the search's own settings
    (64 classes one by one, then screened) answer as the search without screening."""
    monkeypatch.setattr(placement, "SCREEN_AFTER", 64)
    screens: list[int] = []
    original = batch._screen

    def counted(*args: Any) -> Any:
        screens.append(1)
        return original(*args)

    monkeypatch.setattr(batch, "_screen", counted)
    scenario = study(6, 6, seed=10, minions=2, elements=0.3, bonus=6)
    answer = search_guaranteed(scenario)
    assert screens and answer.status is Status.PROVEN and answer.evaluated == 5104
    assert answer.to_json() == search_guaranteed(scenario, batch_from=10**12).to_json()


def test_past_the_caps_the_classes_are_evaluated_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """A path tree too large for the batch (here: more than 5 paths) hands the classes back one by
    one, from wherever the screening stopped: the answer is the same."""
    scenario = instance("3x4-exit")
    monkeypatch.setattr(batch, "TREE_CAP", 5)
    _same_answer(scenario, 0)
    _same_answer(scenario, 3)


def test_the_z3_checkpoint_still_sees_the_classes_one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """With the z3 proof asked after the first classes, those are evaluated one by one (z3 starts
    from the roll they moved first) and the screening takes over after them."""
    scenario = instance("3x4-exit")
    monkeypatch.setattr(placement, "PROOF_FROM", 10)
    monkeypatch.setattr(placement, "PROOF_AFTER", 40)
    _same_answer(scenario, 0)
    _same_answer(scenario, 2)


def test_a_contents_row_counts_minions_and_marks_the_guardian() -> None:
    rows = contents_of(5, (3,), np.array([[0, 0, 4], [1, 3, 3]], dtype=np.int64))
    assert rows.tolist() == [[8, 0, 0, 2, 4], [0, 4, 0, 10, 0]]


SMALL_DUNGEONS = scenarios(max_players=1).filter(
    lambda d: (
        len(d["players"][0]["dungeon"]["rows"]) * len(d["players"][0]["dungeon"]["rows"][0]) <= 6
        and d["year"] <= 3
    )
)


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
@given(SMALL_DUNGEONS)
def test_on_generated_dungeons_the_screened_search_agrees_with_enumeration(doc: dict[str, Any]) -> None:
    scenario = load(doc)
    board, _, _ = board_for(scenario)
    assume(not board.limits)
    best, tied = enumerate_guaranteed(scenario)
    answer = search_guaranteed(scenario, top=0, batch_from=0)
    assert answer.best == best
    assert {p.layout(board) for p in answer.tied} == classes(scenario, tied)
    assert answer.to_json() == search_guaranteed(scenario, top=0, batch_from=10**12).to_json()
