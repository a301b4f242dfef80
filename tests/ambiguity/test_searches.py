"""The divergence search and the well-formedness checks find what is there, shrink it, say when
nothing was found with the budget spent, and give the same answer every run."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from invasion_oracle.properties.budget import SearchBudget
from invasion_oracle.properties.divergence import FOUND, NO_GENERATOR, NONE_FOUND, search
from invasion_oracle.properties.wellformed import CANNOT_END, NO_LEGAL_DECISION, checks, run_check
from tests.ambiguity.toy import GAME, toy_game


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game():
        yield


def test_divergence_search_finds_and_shrinks_a_witness(toy: None) -> None:
    result = search(GAME, "TOY-LAST", SearchBudget(50))
    assert result.status == FOUND and result.difference is not None
    assert result.difference.kind == "outcome"
    assert result.document is not None and result.document["stones"] == 1  # shrunk to the smallest pile
    assert "rulings" not in result.document  # the searched ruling is left open


def test_divergence_search_counts_scenarios_differing_only_in_events(toy: None) -> None:
    result = search(GAME, "TOY-SHOUT", SearchBudget(15))
    assert result.status == NONE_FOUND and result.runs == 15
    assert result.events_only > 0  # every finished game shouts under one reading


def test_divergence_search_is_deterministic(toy: None) -> None:
    first, second = search(GAME, "TOY-TAKE", SearchBudget(30)), search(GAME, "TOY-TAKE", SearchBudget(30))
    assert first.to_json() == second.to_json()


def test_a_game_without_a_generator_is_reported_honestly() -> None:
    with toy_game(hooks=False):
        result = search(GAME, "TOY-LAST", SearchBudget(10))
        assert result.status == NO_GENERATOR and "no scenario_documents()" in result.message
        assert run_check(GAME, NO_LEGAL_DECISION, SearchBudget(10)).status == NO_GENERATOR


def test_a_time_limit_of_nothing_answers_unknown() -> None:
    with toy_game():
        assert search(GAME, "TOY-LAST", SearchBudget(10, seconds=0.0)).status == "unknown"


def test_wellformedness_finds_the_toys_empty_decision_and_its_loop(toy: None) -> None:
    assert checks(GAME) == (NO_LEGAL_DECISION, CANNOT_END, "reach: Ann wins", "reach: nobody wins")
    empty = run_check(GAME, NO_LEGAL_DECISION, SearchBudget(60))
    assert empty.status == "found" and not empty.healthy
    assert (
        empty.document is not None and empty.document["broken"] == "empty" and empty.document["stones"] == 2
    )
    assert "lists no option" in empty.detail
    loop = run_check(GAME, CANNOT_END, SearchBudget(60))
    assert loop.status == "found" and loop.document is not None and loop.document["broken"] == "loop"
    assert "back in a state" in loop.detail


def test_wellformedness_reaches_a_win_condition_and_reports_an_unreachable_one(toy: None) -> None:
    ann = run_check(GAME, "reach: Ann wins", SearchBudget(40))
    assert ann.status == "found" and ann.healthy
    nobody = run_check(GAME, "reach: nobody wins", SearchBudget(20))
    assert nobody.status == "none-found" and not nobody.healthy and nobody.runs == 20


def test_divergence_search_on_stonespine_finds_the_trophy_values_witness() -> None:
    result = search("stonespine", "SS-TROPHY-VALUES", SearchBudget(20))
    assert result.status == FOUND and result.difference is not None
    paths = [f.path for f in result.difference.outcome_fields]
    assert any(p.endswith(".value") and "trophies" in p for p in paths), paths


def test_z3_encodes_the_health_token_rule_and_the_oracle_agrees() -> None:
    from invasion_oracle.reports.ambiguity.jobs import divergence

    result = divergence("stonespine", "SS-HEALTH-TOKENS", 10, None)
    assert result.engine == "z3" and result.status == FOUND and result.document is not None
    assert result.document["year"] == 1  # the smallest year: one level-up roll
    assert sorted(result.document["health_bonus"].values()) == [2]  # on a card already at +2
    assert result.difference is not None
    (field,) = result.difference.outcome_fields
    uncapped, capped = (value for _, value in field.values)
    assert field.path.startswith("$.heroes[") and uncapped == capped + 1


def test_a_z3_witness_the_oracle_does_not_reproduce_is_a_bug_not_an_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from invasion_oracle.reports.ambiguity import jobs
    from invasion_oracle.solver.common import OracleDisagreement
    from invasion_oracle.solver.stonespine import divergence as encodings

    def wrong(deadline: object) -> dict[str, object]:
        document = encodings.health_tokens(deadline)  # type: ignore[arg-type]
        assert document is not None
        document.pop("health_bonus")  # now every card starts at +0: one roll cannot pass +2
        return document

    monkeypatch.setitem(encodings.ENCODINGS, "SS-HEALTH-TOKENS", wrong)
    with pytest.raises(OracleDisagreement):
        jobs.divergence("stonespine", "SS-HEALTH-TOKENS", 10, None)


def test_reducing_a_witness_keeps_it_a_witness_and_keeps_to_its_budget() -> None:
    from invasion_oracle.properties.budget import reduce_document

    document = {"players": [{"name": "P1", "xp": 7}, {"name": "P2", "xp": 3}], "rows": ["cave T gnoll ooze"]}
    calls: list[dict[str, object]] = []

    def holds(candidate: dict[str, object]) -> bool:
        calls.append(candidate)
        players = candidate.get("players")
        return isinstance(players, list) and any(p.get("xp", 0) >= 3 for p in players)

    reduced = reduce_document(document, holds, 1000)
    assert reduced == {"players": [{"xp": 3}]}  # the smallest document that still holds
    assert reduce_document(document, holds, 1000) == reduced  # the same every run
    calls.clear()
    cut = reduce_document(document, holds, 3)
    assert len(calls) == 3 and holds(cut)  # at most the budget, and still a witness
    assert reduce_document(document, holds, 0) == document


POLLUTED_SEARCH = """
import json, pkgutil, importlib
import invasion_oracle
from invasion_oracle.reports.ambiguity.jobs import divergence

def search():
    found = divergence("spirit-island", "SI-FEAR-EARNED-DURING", 100, None)
    return json.dumps(found.to_json(), sort_keys=True)

fresh = search()
for module in pkgutil.walk_packages(invasion_oracle.__path__, "invasion_oracle."):
    try:
        importlib.import_module(module.name)
    except Exception:
        pass
print(json.dumps([fresh, search()]))
"""


def test_a_search_draws_the_same_whatever_the_process_imported_before() -> None:
    """Hypothesis mixes literal constants of the modules loaded so far into its draws; a search
    must not (two report runs, their jobs spread differently over the workers, gave different
    witnesses). One new process searches, imports every module, and searches again: without
    ``fixed_constants`` the second search drew another witness."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", POLLUTED_SEARCH], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-500:]
    fresh, after_importing_everything = json.loads(done.stdout)
    assert '"status": "found"' in fresh and fresh == after_importing_everything
