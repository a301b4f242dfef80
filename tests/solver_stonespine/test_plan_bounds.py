"""``invasion stonespine plan`` stays in bounds: its size is known before it starts (a search too
large to finish without a time limit is refused up front, naming the size, the limit and the
option that helps), ``--time-limit`` stops it with the best plan so far and names the stages that
did not finish, a level-up track the data cannot model is skipped with a warning when another is
playable, and a refusal names only options ``plan`` accepts.

Times are asserted only as hang guards (generous bounds): the machine is shared."""

from __future__ import annotations

import copy
import json
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from invasion_oracle.model.core.errors import RulesError
from invasion_oracle.model.core.jsonio import load_schema
from invasion_oracle.model.stonespine.scenario import load_scenario, scenario_from_document
from invasion_oracle.reports.cli import main
from invasion_oracle.solver.common import Deadline, Status
from invasion_oracle.solver.stonespine.generate import study_document
from invasion_oracle.solver.stonespine.plan import (
    WORK_LIMIT,
    _purchase_sets,
    estimate_plan,
    solve_plan,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_plan import small_instance

HANG_GUARD = 30.0  # seconds: far above what any of these takes, only so that a hang fails


def improvement_study_grid(rows: int, columns: int, guardian: str = "Gorgon") -> dict[str, Any]:
    """A study grid (the benchmarks' family) at the start of the Improvement Phase, 9 gold to spend."""
    doc = study_document(rows, columns, seed=1, open_doors=0.5, guardian=guardian)
    doc["start"] = "improvement"
    doc["last_year"] = doc["year"]
    player = doc["players"][0]
    player.update(gold=9, xp=1)
    player.pop("placement", None)
    doc["solo"] = {}
    return doc


@pytest.fixture(scope="module")
def grid_26x26(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("plan") / "study-26x26.json"
    path.write_text(json.dumps(improvement_study_grid(26, 26, "Pact Demon")), encoding="utf-8")
    return str(path)


def test_a_26x26_study_grid_is_refused_up_front_naming_its_size_the_limit_and_the_option(
    grid_26x26: str, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.perf_counter()
    status = main(["stonespine", "plan", grid_26x26])
    assert time.perf_counter() - started < HANG_GUARD
    err = capsys.readouterr().err.strip()
    assert status == 2
    assert len(err.splitlines()) == 1
    assert "too large to finish" in err and "676 chambers" in err and "purchase sequences" in err
    assert f"{WORK_LIMIT:,}" in err and "--time-limit SECONDS" in err


def test_a_time_limit_stops_the_26x26_plan_and_names_what_did_not_finish(
    grid_26x26: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # Stops at any load: the deadline trips before the purchase walk can finish (the answer is the
    # same from 0.001 s to 0.5 s: every stage unfinished).
    limit = 0.1
    started = time.perf_counter()
    status = main(["stonespine", "plan", grid_26x26, "--time-limit", str(limit), "--json"])
    assert time.perf_counter() - started < limit + 5  # a hang guard, not a measure
    envelope = json.loads(capsys.readouterr().out)
    answer = envelope["answer"]
    assert status == 0
    assert envelope["status"] in ("best-found", "unknown")
    assert answer["stopped"] == "time-limit"
    # the walk through the purchases of a 676-chamber dungeon cannot be over in a tenth of a second
    assert answer["unfinished"][:2] == ["purchases", "placements"]
    assert "replay" in answer["unfinished"] and envelope["replayed"] is False
    jsonschema.Draft202012Validator(
        load_schema("invasion_oracle.reports", "schemas/answer-stonespine-plan.schema.json")
    ).validate(answer)


def test_the_text_answer_names_the_unfinished_stages(
    grid_26x26: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stonespine", "plan", grid_26x26, "--time-limit", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "the time limit (0.1 s) was reached" in out
    assert "Not finished: the walk through the purchase sequences" in out
    assert "the oracle's replay of the best plans" in out


def test_a_stopped_search_answers_its_best_plan_so_far_with_the_classes_it_searched() -> None:
    """On the bundled year-4 example a short limit leaves part of it undone: whatever it answers
    is labelled by what finished (never proven unless the whole search and the replay did)."""
    scenario = load_scenario("example:stonespine/plan-year4", [], None, "data")
    # On an idle machine each stops the purchase walk further on (the whole search takes 1.3 s).
    for seconds in (0.05, 0.15, 0.35):
        answer, _ = solve_plan(scenario, deadline=Deadline(seconds))
        if answer.status is Status.PROVEN:
            assert answer.replayed and answer.purchase_classes_done == answer.purchase_classes
            assert "replay" not in answer.unfinished and "purchases" not in answer.unfinished
            continue
        assert answer.stopped == "time-limit" and answer.unfinished
        if answer.best_expected is None:
            assert answer.status is Status.UNKNOWN
        else:
            assert answer.status is Status.BEST_FOUND


def test_many_purchases_are_refused_before_any_is_listed() -> None:
    """plan-year4 with 26 gold: millions of purchase sequences, refused from the prices alone."""
    doc = json.loads(Path("examples/stonespine/plan-year4.json").read_text(encoding="utf-8"))
    doc["players"][0]["gold"] = 26
    scenario = scenario_from_document(doc, "plan-year4 with 26 gold")
    size = estimate_plan(scenario, placements=False)
    assert size.work > WORK_LIMIT
    started = time.perf_counter()
    with pytest.raises(RulesError, match=r"too large to finish: about [\d,]+ purchase sequences"):
        solve_plan(scenario)
    assert time.perf_counter() - started < HANG_GUARD


def test_the_bundled_examples_fit_the_limit_with_room() -> None:
    for name in ("plan-year3", "plan-year4"):
        size = estimate_plan(load_scenario(f"example:stonespine/{name}", [], None, "data"))
        assert size.placements is not None and size.work * 3 < WORK_LIMIT, (name, size)


def test_purchase_sets_count_what_the_gold_affords() -> None:
    # 9 gold, XP at 4 (each doubling for its track), one rubble space at 3, two passages at 5 then 6:
    # {} {r} {x}x2 {x,r}x2 {x,x}x4 {p}x2 {p,r}x2 {p,x}x2x2 = 1+1+2+2+4+2+2+4
    assert _purchase_sets(9, 4, 3, 1, (5, 6), 2) == 18
    assert _purchase_sets(2, 4, 3, 5, (5,), 40) == 1  # nothing affordable: only passing
    assert _purchase_sets(9, None, 3, 3, (), 0) == 1 + 3 + 3 + 1  # no XP on offer: any of three rubble


# -- a level-up track the data cannot model ---------------------------------------------------


def warden_data(tracks: list[list[str]]) -> dict[str, Any]:
    """A data file with a guardian board whose unlockable ability is not modelled."""
    return {
        "abilities": [{"id": "warden-secret", "name": "Warden secret", "unknown": True, "text": "test"}],
        "guardians": [
            {
                "name": "Test Warden",
                "family": "gorgon",
                "figures": 1,
                "minions": 3,
                "passage_tokens": 0,
                "tracks": tracks,
                "ongoing": [],
                "unlockables": {"A": "warden-secret"},
                "bonus": [5, 12],
                "source": "test: a board whose right track unlocks an ability the data does not model",
            }
        ],
    }


ONE_TRACK_UNMODELLED = [
    ["start", "minion", "minion", "unlock:A", "unlock:A"],
    ["start", "unlock:A", "minion", "unlock:A", "unlock:A"],
]
BOTH_TRACKS_UNMODELLED = [
    ["start", "unlock:A", "minion", "minion", "unlock:A"],
    ["start", "unlock:A", "minion", "unlock:A", "unlock:A"],
]


def warden_files(tmp_path: Path, tracks: list[list[str]]) -> tuple[str, str]:
    doc = copy.deepcopy(small_instance(1))
    doc["players"][0]["guardian"] = "Test Warden"
    scenario, data = tmp_path / "warden.json", tmp_path / "warden-data.json"
    scenario.write_text(json.dumps(doc), encoding="utf-8")
    data.write_text(json.dumps(warden_data(tracks)), encoding="utf-8")
    return str(scenario), str(data)


def test_an_unmodelled_level_up_track_is_skipped_with_a_warning_when_the_other_is_playable(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario, data = warden_files(tmp_path, ONE_TRACK_UNMODELLED)
    assert main(["stonespine", "plan", scenario, "--data", data, "--json"]) == 0
    captured = capsys.readouterr()
    envelope = json.loads(captured.out)
    answer = envelope["answer"]
    assert answer["status"] == "proven" and envelope["replayed"] is True
    assert [s["purchases"] for s in answer["skipped"]] == [["buy-xp", "right"]]
    assert (
        "'warden-secret' (unlockable) of board Test Warden is not modelled" in answer["skipped"][0]["reason"]
    )
    warnings = [line for line in captured.err.splitlines() if line.startswith("invasion: warning:")]
    assert len(warnings) == 1 and "skipped the level-up track 'right' after buy-xp" in warnings[0]
    plans = [
        answer["best_expected"],
        answer["best_guaranteed"],
        *answer["runners_up"],
        *answer["other_purchases"],
    ]
    assert all("right" not in p["purchases"] for p in plans)
    # the playable track was searched: some plan buys XP and takes the left track
    loaded = load_scenario(scenario, [], json.loads(Path(data).read_text(encoding="utf-8")), data)
    found, _ = solve_plan(loaded, top=50)
    assert [b.purchases for b in found.skipped] == [("buy-xp", "right")]
    assert any(r.purchases[:2] == ("buy-xp", "left") for r in (*found.runners_up, *found.other_purchases))

    assert main(["stonespine", "plan", scenario, "--data", data]) == 0
    text = capsys.readouterr().out
    assert "**Skipped**: the level-up track 'right' after buy-xp" in text


def test_a_level_up_with_no_playable_track_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario, data = warden_files(tmp_path, BOTH_TRACKS_UNMODELLED)
    assert main(["stonespine", "plan", scenario, "--data", data]) == 2
    err = capsys.readouterr().err
    assert "'warden-secret' (unlockable) of board Test Warden is not modelled" in err


# -- advice -------------------------------------------------------------------------------------


def test_a_dungeon_the_plan_cannot_model_is_refused_with_options_plan_accepts(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    doc = json.loads(Path("examples/stonespine/plan-year4.json").read_text(encoding="utf-8"))
    doc["players"][0]["guardian"] = "Giant Troll"  # moves after a defeat: not on the compiled board
    path = tmp_path / "troll.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["stonespine", "plan", str(path)]) == 2
    err = capsys.readouterr().err
    assert "Giant Troll moving after a defeat" in err
    assert "--engine oracle" not in err
    named = {word.strip(".,;()") for word in err.replace("`", " ").split() if word.startswith("--")}
    assert "--data" in named
    with pytest.raises(SystemExit):
        main(["stonespine", "plan", "--help"])
    help_text = capsys.readouterr().out
    for option in named:  # every option the advice names is one of plan's own
        assert option in help_text, option


def test_the_refusal_of_a_dungeon_not_modelled_is_a_rules_error() -> None:
    doc = json.loads(Path("examples/stonespine/plan-year4.json").read_text(encoding="utf-8"))
    doc["players"][0]["guardian"] = "Giant Troll"
    with pytest.raises(RulesError, match="give --data"):
        solve_plan(scenario_from_document(doc, "troll"))


# -- OR-Tools' import under the deadline ----------------------------------------------------------


def test_the_cpsat_import_stops_at_the_deadline_in_a_fresh_process() -> None:
    """OR-Tools' first import (pandas with it) cannot be interrupted and takes seconds on a busy
    machine: it runs in a thread while the search waits at most its time left."""
    import subprocess

    probe = (
        "import sys, time\n"
        "from invasion_oracle.solver.common import CPSAT_MODULE, Deadline, TimeLimit, load_cpsat\n"
        "assert CPSAT_MODULE not in sys.modules\n"
        "try:\n"
        "    load_cpsat(Deadline(0.01))\n"
        "    print('loaded')\n"
        "except TimeLimit as stop:\n"
        "    print('stopped', stop.reason)\n"
        "load_cpsat(Deadline())  # no limit: waits for the same import\n"
        "from ortools.sat.python import cp_model\n"
        "print('then', cp_model.CpModel.__name__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-500:]
    assert done.stdout.split("\n")[:2] == ["stopped time", "then CpModel"]
