"""min-damage on CP-SAT (issue 22): the same answers as the search and z3, tied answers in the
search's order, ``unknown`` on the time limit (never a wrong proven count), ``auto`` switching from
the search to CP-SAT after its budget of candidates."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.stonespine.elements import Element
from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario, scenario_from_document
from invasion_oracle.reports.cli import main
from invasion_oracle.solver.common import Deadline, Status, TimeLimit
from invasion_oracle.solver.stonespine import min_damage
from invasion_oracle.solver.stonespine.board import board_for
from invasion_oracle.solver.stonespine.generate import study_document
from invasion_oracle.solver.stonespine.min_damage import (
    SearchRun,
    fewest_minions,
    fewest_tokens,
    minion_search,
    token_search,
)

WAVE = (HeroColor.RED, HeroColor.PURPLE, HeroColor.BLACK)
# Small generated study grids whose answers are not zero: (rows, columns, seed), year 4.
SMALL = {"elements": 0.4, "bonus": 2, "year": 4}


def grid(rows: int, columns: int, seed: int, **options: Any) -> Scenario:
    return scenario_from_document(study_document(rows, columns, seed=seed, **options), "study grid")


def _tokens(scenario: Scenario, token: str = "spike", heroes: Any = WAVE) -> Any:
    board, layout, defeated = board_for(scenario)
    return min_damage._token_problem(
        scenario, 0, board, layout, Element.parse(token), min_damage._roll(heroes), defeated, Deadline()
    )


@pytest.mark.parametrize(("rows", "columns", "seed"), [(2, 3, 6), (3, 4, 2)])
def test_cpsat_answers_what_the_search_and_z3_answer(rows: int, columns: int, seed: int) -> None:
    """Fewest minions: the same count and placement from all three engines (z3 answers the
    search's first placement on grids this small; asked on one grid, it takes 0.2 s); fewest
    tokens: the same count and filling as the search, the first in its order (z3 answers a filling
    of its own; its counts are checked equal to the search's, and so to CP-SAT's, in
    test_agreement.py)."""
    scenario = grid(rows, columns, seed, **SMALL)
    board, layout, defeated = board_for(scenario)
    roll = min_damage._roll(WAVE)
    engines = ("search", "z3", "cpsat") if seed == 6 else ("search", "cpsat")
    minions = {e: minion_search(board, layout, roll, defeated, 4, SearchRun(e), Deadline()) for e in engines}
    assert minions["search"] is not None and minions["search"][0] == 2
    assert all(found == minions["search"] for found in minions.values())
    if seed == 2:  # the token search takes 0.1 s here, 0.25 s on the other grid
        problem = _tokens(scenario)
        by_search = token_search(problem, 3, SearchRun("search"), Deadline())
        by_cpsat = token_search(problem, 3, SearchRun("cpsat"), Deadline())
        assert by_search == by_cpsat == (3, {0: 3})


def test_the_cpsat_answer_is_replayed_and_says_when_nothing_works() -> None:
    scenario = grid(3, 4, 2, **SMALL)
    answer = fewest_minions(scenario, WAVE, limit=4, engine="cpsat")
    assert (answer.status, answer.count, answer.where, answer.engine) == (
        Status.PROVEN,
        2,
        ("A1", "A1"),
        "cpsat",
    )
    short = fewest_minions(scenario, WAVE, limit=1, engine="cpsat")  # two are needed
    assert (short.status, short.count, short.lower_bound) == (Status.PROVEN, None, 2)


class _SolveOnly(Deadline):
    """Time enough to build the model, a millisecond for CP-SAT itself."""

    def check(self) -> None:
        return None

    def remaining(self) -> float | None:
        return 0.001


def test_cpsat_stopped_by_the_time_limit_claims_no_answer() -> None:
    """Fewest kobolds on a grid where CP-SAT needs a few tenths of a second (six, which the search
    takes two minutes to find): stopped in CP-SAT's own solve or before it, no count is claimed and
    the bound proved is no higher than the answer."""
    scenario = grid(4, 4, 0, elements=0.3, bonus=3)
    heroes = [HeroColor.RED] * 4
    with pytest.raises(TimeLimit) as stop:
        token_search(_tokens(scenario, "kobold", heroes), 8, SearchRun("cpsat"), _SolveOnly())
    assert stop.value.bound is None or stop.value.bound <= 6
    answer = fewest_tokens(scenario, heroes, "kobold", engine="cpsat", deadline=Deadline(0.05))
    assert answer.status is Status.UNKNOWN and answer.count is None and answer.lower_bound <= 6


def test_auto_runs_the_search_then_cpsat_after_its_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = grid(3, 4, 2, **SMALL)
    problem = _tokens(scenario)
    within = SearchRun("auto")
    answer = token_search(problem, 3, within, Deadline())
    assert within.engine == "search"
    monkeypatch.setattr(min_damage, "TOKEN_BUDGET", 2)
    over = SearchRun("auto")
    assert token_search(problem, 3, over, Deadline()) == answer and over.engine == "cpsat"
    board, layout, defeated = board_for(scenario)
    monkeypatch.setattr(min_damage, "MINION_BUDGET", 1)
    minions = SearchRun("auto")
    found = minion_search(board, layout, min_damage._roll(WAVE), defeated, 4, minions, Deadline())
    assert minions.engine == "cpsat" and found is not None and found[0] == 2


def test_the_command_takes_cpsat_and_both(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "grid.json"
    path.write_text(json.dumps(study_document(2, 3, seed=6, **SMALL)), encoding="utf-8")
    argv = ["stonespine", "min-damage", str(path), "--heroes", "red,purple,black", "--limit", "3", "--json"]
    answers = {}
    for engine in ("cpsat", "both"):
        assert main([*argv, "--engine", engine]) == 0
        answers[engine] = json.loads(capsys.readouterr().out)["answer"]
    assert answers["cpsat"]["engine"] == "cpsat" and answers["both"]["engine"] == "search+z3+cpsat"
    assert answers["cpsat"]["where"] == answers["both"]["where"] == ["B2", "B2"]
