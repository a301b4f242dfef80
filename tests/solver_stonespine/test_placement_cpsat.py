"""Placement objective (a) on CP-SAT (issue 22): the search's proven value and its tie list, in its
order (``top`` lists the search's first ``top``), the same value as z3 and the oracle baseline,
answers replayed, and a stopped search never claimed proven."""

from __future__ import annotations

import functools
import json
import os
import signal
import threading
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.stonespine.scenario import Scenario, load_scenario, scenario_from_document
from invasion_oracle.reports.cli import main
from invasion_oracle.solver import common
from invasion_oracle.solver.common import Deadline, Status, stop_on_interrupt
from invasion_oracle.solver.stonespine import cpsat_placement
from invasion_oracle.solver.stonespine.cpsat_placement import CpPlacementModel, cpsat_guaranteed
from invasion_oracle.solver.stonespine.generate import study_document
from invasion_oracle.solver.stonespine.placement import (
    oracle_guaranteed,
    search_guaranteed,
    upper_bound,
    z3_guaranteed,
)
from invasion_oracle.solver.stonespine.solve import solve_placement
from invasion_oracle.solver.stonespine.space import placement_space
from tests.solver_stonespine.instances import MIRROR, NEAR_UNIQUE, SMALL
from tests.solver_stonespine.test_placement import study

# SMALL, NEAR_UNIQUE: the bench's instances too (tests/solver_stonespine/instances.py).
# 8x8, 25 chambers enterable: best 2 of 4, and proving that nothing defeats 3 takes CP-SAT seconds.
HARD = {"rows": 8, "columns": 8, "seed": 23, "elements": 0.3, "bonus": 6}


def _same_answer(cpsat: Any, search: Any) -> None:
    assert cpsat.status is Status.PROVEN and cpsat.engine == "cpsat"
    assert (cpsat.best, cpsat.upper_bound, cpsat.tied, cpsat.ties_complete) == (
        search.best,
        search.upper_bound,
        search.tied,
        search.ties_complete,
    )
    assert cpsat.replayed and cpsat.plan and cpsat.worst_roll is not None


@pytest.mark.parametrize(
    ("options", "best", "ties"),
    [
        pytest.param({"rows": 1, "columns": 3, "seed": 2, "year": 1, "minions": 1}, 1, 6, id="3x1-y1"),
        pytest.param(SMALL, 2, 37, marks=pytest.mark.slow, id="3x2-y2"),  # the oracle: 1.4 s
    ],
)
def test_every_engine_finds_the_same_ties(options: dict[str, Any], best: int, ties: int) -> None:
    scenario = study(**options)
    by_search = search_guaranteed(scenario, top=0)
    assert (by_search.best, by_search.upper_bound, len(by_search.tied)) == (best, best, ties)
    _same_answer(cpsat_guaranteed(scenario, top=0), by_search)
    by_z3 = z3_guaranteed(scenario, top=0)
    assert by_z3.best == best and by_z3.tied == by_search.tied
    by_oracle = oracle_guaranteed(scenario)
    assert by_oracle.best == best and set(by_oracle.tied) == set(by_search.tied)


def test_on_the_3x2_grid_cpsat_lists_the_37_ties_in_the_searchs_order() -> None:
    scenario = study(**SMALL)
    by_search = search_guaranteed(scenario, top=0)
    assert (by_search.best, by_search.upper_bound, len(by_search.tied)) == (2, 2, 37)
    _same_answer(cpsat_guaranteed(scenario, top=0), by_search)


def test_an_optimum_below_the_bound_is_proven_by_cpsat_as_by_the_search_and_z3() -> None:
    """Best 2 of 3 heroes: CP-SAT must prove that no placement surely defeats 3."""
    scenario = study(**NEAR_UNIQUE)
    by_search = search_guaranteed(scenario)
    assert (by_search.best, by_search.upper_bound, len(by_search.tied)) == (2, 2, 3)
    assert upper_bound(placement_space(scenario)) == 3  # every roll brings three heroes
    assert z3_guaranteed(scenario, top=10).tied == by_search.tied
    for top, complete in ((3, True), (2, False)):  # below the bound a full list knows if it is all
        by_search = search_guaranteed(scenario, top=top)
        assert by_search.ties_complete is complete
        _same_answer(cpsat_guaranteed(scenario, top=top), by_search)


@pytest.mark.slow
def test_the_bundled_placement_example_on_every_exact_engine() -> None:
    """examples/stonespine/placement.json: 3 of 4 heroes, 8 tied (z3 takes about 5 s)."""
    scenario = load_scenario("example:stonespine/placement.json")
    by_search = search_guaranteed(scenario)
    assert (by_search.best, len(by_search.tied), by_search.ties_complete) == (3, 8, True)
    _same_answer(cpsat_guaranteed(scenario, top=10), by_search)
    assert z3_guaranteed(scenario, top=10).tied == by_search.tied


def test_the_bundled_placement_example_on_cpsat() -> None:
    scenario = load_scenario("example:stonespine/placement.json")
    by_search = search_guaranteed(scenario, top=3)
    assert (by_search.best, len(by_search.tied), by_search.ties_complete) == (3, 3, False)
    _same_answer(solve_placement(scenario, engine="cpsat", top=3), by_search)


@pytest.mark.parametrize("optional", [False, True], ids=["all-minions", "optional-minions"])
def test_top_lists_the_searchs_first_ties(optional: bool) -> None:
    """232 tied classes (297 with minions optional, fewer minions tried first): CP-SAT proposes in
    the search's class order, so ``top`` gives the search's first ``top``, not any ``top``."""
    doc = study_document(3, 4, seed=5, year=3, minions=2, bonus=1)
    if optional:
        doc["rulings"] = {"SS-MINIONS": "optional"}
    scenario = scenario_from_document(doc, "study grid")
    every = search_guaranteed(scenario, top=0)
    assert len(every.tied) == (297 if optional else 232)
    for top in (1, 10):
        by_search = search_guaranteed(scenario, top=top)
        assert by_search.tied == every.tied[:top] and not by_search.ties_complete
        _same_answer(cpsat_guaranteed(scenario, top=top), by_search)
    if optional:
        assert str(every.tied[0]) == "guardian C1; minions -"  # no minion comes first


def _mirror() -> Scenario:
    return scenario_from_document(MIRROR, "mirror")


def _optional_2x2() -> Scenario:
    """Up to two minions, none first: by count, then position (one minion in the last chamber comes
    before two in the first)."""
    doc = study_document(rows=2, columns=2, seed=1, year=2, minions=2, bonus=3)
    doc["rulings"] = {"SS-MINIONS": "optional"}
    return scenario_from_document(doc, "study grid")


@pytest.mark.parametrize("make", [_mirror, _optional_2x2], ids=["mirror", "2x2-optional-minions"])
def test_with_no_roll_cpsat_proposes_every_class_once_in_the_searchs_order(make: Any) -> None:
    """Without a roll every placement qualifies: the proposals, each class blocked once proposed
    (with its mirror images), are the search's placement classes, one each, in its order."""
    space = placement_space(make())
    model = CpPlacementModel(space, Deadline())
    proposed = []
    while (layout := model.propose()) is not None:
        proposed.append(layout)
        model.block(layout)
    assert proposed == list(space.classes())


def test_too_wide_an_order_for_one_objective_is_minimised_term_by_term(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scenario = _optional_2x2()
    by_search = search_guaranteed(scenario, top=5)
    monkeypatch.setattr(cpsat_placement, "ONE_OBJECTIVE_BELOW", 1)
    _same_answer(cpsat_guaranteed(scenario, top=5), by_search)


def test_mirror_images_are_one_class() -> None:
    scenario = _mirror()
    assert placement_space(scenario).symmetries
    _same_answer(cpsat_guaranteed(scenario, top=12), search_guaranteed(scenario, top=12))


@functools.cache
def _hard() -> Scenario:
    """Read once for this module: the same scenario object, so its compiled board and placement
    space are shared too (placement_space keeps those of the last few)."""
    return scenario_from_document(study_document(**HARD), "study grid")


def test_a_proof_cut_short_answers_the_best_found_never_proven(monkeypatch: pytest.MonkeyPatch) -> None:
    """CP-SAT's own deterministic time limit (the same work on every machine) stops the proof that
    nothing defeats 3 of 4 heroes (it needs about 4.7 units; each proposal before it under 0.04):
    the answer is the best found while climbing, 2, with the bound not proved below 4."""
    monkeypatch.setitem(cpsat_placement.PARAMETERS, "max_deterministic_time", 0.1)
    answer = cpsat_guaranteed(_hard(), top=10)
    assert (answer.status, answer.best, answer.upper_bound) == (Status.BEST_FOUND, 2, 4)
    assert answer.stopped == "time-limit" and not answer.ties_complete and len(answer.tied) == 1


def test_the_time_limit_and_ctrl_c_stop_cpsat_without_a_claim(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _hard()
    short = cpsat_guaranteed(scenario, deadline=Deadline(0.2))
    assert short.status in (Status.BEST_FOUND, Status.UNKNOWN) and short.stopped == "time-limit"
    assert short.best is None or short.best <= 2
    # Ctrl-C from another thread once a CP-SAT solve has run for a tenth of a second: the proof
    # (seconds; each proposal before it takes hundredths), or a proposal on a slow machine.
    solve = common._cpsat_run
    sent = threading.Event()

    def interrupt() -> None:
        if not sent.is_set():
            sent.set()
            os.kill(os.getpid(), signal.SIGINT)

    def solve_then_interrupt(*args: Any, **kwargs: Any) -> Any:
        timer = threading.Timer(0.1, interrupt)
        if not sent.is_set():
            timer.start()
        try:
            return solve(*args, **kwargs)
        finally:
            timer.cancel()
            if timer.is_alive():
                timer.join()

    monkeypatch.setattr(common, "_cpsat_run", solve_then_interrupt)
    deadline = Deadline(60)
    with stop_on_interrupt(deadline):
        stopped = cpsat_guaranteed(scenario, deadline=deadline)
    assert sent.is_set()
    assert stopped.status in (Status.BEST_FOUND, Status.UNKNOWN) and stopped.stopped == "interrupted"
    assert stopped.best is None or stopped.best <= 2


def test_the_command_takes_cpsat_and_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(study_document(**SMALL)), encoding="utf-8")
    answers = {}
    for engine in ("search", "cpsat", "both"):
        assert main(["stonespine", "place", str(path), "--top", "5", "--engine", engine, "--json"]) == 0
        envelope = json.loads(capsys.readouterr().out)
        assert envelope["status"] == "proven" and envelope["replayed"]
        answers[engine] = envelope["answer"]
    assert answers["cpsat"]["engine"] == "cpsat"
    assert answers["both"]["engine"] == "search+z3+cpsat+baseline"
    assert answers["cpsat"]["best"] == answers["search"]["best"] == answers["both"]["best"] == 2
    assert answers["cpsat"]["tied"] == answers["search"]["tied"] == answers["both"]["tied"]
    assert len(answers["cpsat"]["tied"]) == 5 and not answers["cpsat"]["ties_complete"]
