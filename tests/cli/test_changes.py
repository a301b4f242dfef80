"""``invasion changes``: what a change of a game's data does, and the snapshot workflow.

The list of changed cases is checked against an independent replay: every case a producer makes
is played from its bundled fixture (each variant's readings and answers) under the bundled data
and under the override, and the cases whose reply differs are the ones ``changes`` must list.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle import under_data
from invasion_oracle.model import registry
from invasion_oracle.model.core.jsonio import load_schema, validate
from invasion_oracle.reports.suite.build import producers
from invasion_oracle.reports.suite.oracle import replayed
from tests.in_process import run_invasion

ROOT = Path(__file__).resolve().parents[2]
BARBARIAN_5 = {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 5}}}


@pytest.fixture(scope="module")
def warm_stonespine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A result cache holding what several tests here run: the Stonespine hero ability cases on
    the bundled data and with the Barbarian's Health 5, and the bundled place search (each test
    works on a copy of it: computed once, read by each)."""
    from invasion_oracle.reports.batch import Runner
    from invasion_oracle.reports.cache import JobCache
    from invasion_oracle.reports.changes import load_side, side_jobs, side_results
    from invasion_oracle.reports.cli import main

    folder = tmp_path_factory.mktemp("warm-stonespine")
    runner = Runner(workers=1, cache=JobCache(folder / "cache"))
    jobs = side_jobs(["stonespine"], ["heroes-abilities"], ["place"], long=False)
    side_results((), jobs, runner, main)
    new = load_side(_write(folder, "new.json", BARBARIAN_5), "--data", ["stonespine"])
    side_results(new, jobs, runner, main)
    return folder / "cache"


def _warm_copy(warm: Path, tmp_path: Path) -> str:
    shutil.copytree(warm, tmp_path / "c")
    return str(tmp_path / "c")


def _write(tmp_path: Path, name: str, document: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _fixture_cases(game: str, groups: set[str] | None = None) -> dict[str, dict[str, Any]]:
    """The bundled fixture cases of ``groups`` (each group's file, docs/fixtures.md), or all."""
    folder = ROOT / "fixtures" / registry.package_of(game).replace("_", "-")
    if not folder.is_dir():
        folder = ROOT / "fixtures" / game
    out: dict[str, dict[str, Any]] = {}
    files = (
        sorted(folder.glob("*.cases.json"))
        if groups is None
        else [folder / f"{g}.cases.json" for g in sorted(groups)]
    )
    for path in files:
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            out[case["id"]] = case
    return out


def _replayed_changes(game: str, producer: str, override: dict[str, Any]) -> set[str]:
    """The ids of the producer's cases whose replay differs under ``override`` (independently of ``changes``)."""
    (made,) = [p for p in producers(game) if getattr(p, "__name__", None) == producer]
    specs = list(made())
    ids = {f"{game}/{spec.group}/{spec.name}" for spec in specs}
    fixtures = _fixture_cases(game, {spec.group for spec in specs})
    cases = [fixtures[i] for i in sorted(ids)]
    before = replayed(game, cases)
    with under_data(override, game):
        after = replayed(game, cases)
    return {cid for cid in before if before[cid] != after[cid]}


ONE_FIELD = [
    ("stonespine", "heroes-abilities", {"heroes": {"Barbarian": {"health": 5}}}),
    ("vulketh", "grow-move", {"values": {"population_limit": 4}}),
    ("cloudspire", "fire-steps", {"values": {"crit_damage": 3}}),
    ("spirit-island", "ravage", {"pieces": {"town": {"health": 3}}}),
]


@pytest.mark.parametrize(("game", "producer", "change"), ONE_FIELD, ids=[g for g, _, _ in ONE_FIELD])
def test_a_one_field_override_lists_exactly_the_cases_a_replay_finds_changed(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    request: pytest.FixtureRequest,
    game: str,
    producer: str,
    change: dict[str, Any],
) -> None:
    override = {"extends": "bundled", "game": game, **change}
    data = _write(tmp_path, "new.json", override)
    # Stonespine's is the run of the shared warm cache (both sides read back from it)
    cache = (
        _warm_copy(request.getfixturevalue("warm_stonespine"), tmp_path) if override == BARBARIAN_5 else ""
    )
    ran = run_invasion(
        capsys,
        "changes",
        "--data",
        data,
        "--cases",
        producer,
        "--json",
        "--cache-dir",
        cache or str(tmp_path / "c"),
    )
    assert ran.returncode == 0, ran.stderr
    answer = json.loads(ran.stdout)
    validate(answer, load_schema("invasion_oracle.reports", "schemas/answer-changes.schema.json"), "answer")
    listed = set(answer["cases"])
    assert listed  # the override does something to this producer's cases
    assert listed == _replayed_changes(game, producer, override)
    for entry in answer["cases"].values():
        assert entry["kind"] in ("changed", "became-illegal") and entry["fields"] and entry["section"]
    counts = answer["summary"][game]
    assert counts["changed"] + counts["became-illegal"] == len(listed)


def test_an_override_that_changes_nothing_says_no_change(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_stonespine: Path
) -> None:
    same = _write(
        tmp_path,
        "same.json",
        {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 6}}},
    )
    ran = run_invasion(
        capsys,
        "changes",
        "--data",
        same,
        "--cases",
        "heroes-abilities",
        "--searches",
        "place",
        "--format",
        "text",
        "--check",
        "--cache-dir",
        _warm_copy(warm_stonespine, tmp_path),
    )
    assert ran.returncode == 0, ran.stderr
    assert "no change" in ran.stdout


def test_check_fails_on_a_change_and_passes_after_accept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_stonespine: Path
) -> None:
    data = _write(tmp_path, "new.json", BARBARIAN_5)
    base = tmp_path / "changes.json"
    common = (
        "changes",
        "--data",
        data,
        "--cases",
        "heroes-abilities",
        "--cache-dir",
        _warm_copy(warm_stonespine, tmp_path),
        "--format",
        "md",
    )
    assert run_invasion(capsys, *common, "--check").returncode == 1  # no baseline: any change fails
    base.write_text(
        json.dumps(
            {
                "format": 1,
                "against": "bundled",
                "data": data,
                "summary": {},
                "no_change": True,
                "cases": {},
                "searches": {},
                "rulings": {},
            }
        ),
        encoding="utf-8",
    )
    failed = run_invasion(capsys, *common, "--baseline", str(base), "--check")
    assert failed.returncode == 1
    assert "not in the baseline: case stonespine/heroes/barbarian-ability" in failed.stderr
    assert run_invasion(capsys, *common, "--baseline", str(base), "--accept").returncode == 0
    accepted = base.read_bytes()
    assert run_invasion(capsys, *common, "--baseline", str(base), "--check").returncode == 0
    record = tmp_path / "again.json"
    assert run_invasion(capsys, *common, "--record", str(record)).returncode == 0
    assert record.read_bytes() == accepted  # byte-stable
    assert "stonespine/heroes/barbarian-ability" in json.loads(accepted)["cases"]


@pytest.mark.parametrize(
    ("content", "where"),
    [
        ("[]", "$: a changes record is a JSON object"),
        ('{"format": 7}', "$.format"),
        ('{"format": 1, "cases": [], "searches": {}, "rulings": {}}', "$.cases"),
        ('{"format": 1, "cases": {"x": {"kind": "moved"}}, "searches": {}, "rulings": {}}', "$.cases.x.kind"),
        ("{not json", "not JSON"),
    ],
)
def test_a_wrong_shaped_baseline_is_a_located_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, where: str
) -> None:
    data = _write(
        tmp_path,
        "new.json",
        {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 5}}},
    )
    base = tmp_path / "base.json"
    base.write_text(content, encoding="utf-8")
    ran = run_invasion(
        capsys, "changes", "--data", data, "--baseline", str(base), "--check", "--cases", "heroes-abilities"
    )
    assert ran.returncode == 2
    assert ran.stderr.count("\n") == 1 and str(base) in ran.stderr and where in ran.stderr


def test_a_baseline_that_is_a_folder_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = _write(
        tmp_path,
        "new.json",
        {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 5}}},
    )
    ran = run_invasion(capsys, "changes", "--data", data, "--baseline", str(tmp_path), "--check")
    assert ran.returncode == 2 and str(tmp_path) in ran.stderr


def test_an_override_that_moves_the_best_placement_is_listed_with_old_and_new(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = _write(
        tmp_path, "new.json", {"extends": "bundled", "game": "stonespine", "values": {"minion_damage": 4}}
    )
    ran = run_invasion(capsys, "changes", "--data", data, "--searches", "stonespine/place", "--json")
    assert ran.returncode == 0, ran.stderr
    place = json.loads(ran.stdout)["searches"]["stonespine/place"]
    plain = json.loads(
        run_invasion(capsys, "stonespine", "place", "example:stonespine/placement.json", "--json").stdout
    )["answer"]
    assert place["old"]["best"] == plain["best"]
    assert place["new"]["best"] != place["old"]["best"]
    assert place["new"]["plan"] != place["old"]["plan"]


def test_junit_lists_each_change_as_a_failure(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, warm_stonespine: Path
) -> None:
    data = _write(tmp_path, "new.json", BARBARIAN_5)
    ran = run_invasion(
        capsys,
        "changes",
        "--data",
        data,
        "--cases",
        "heroes-abilities",
        "--format",
        "junit",
        "--cache-dir",
        _warm_copy(warm_stonespine, tmp_path),
    )
    assert ran.returncode == 0
    assert 'name="stonespine/heroes/barbarian-ability"' in ran.stdout and "<failure" in ran.stdout


@pytest.mark.slow
def test_the_whole_stonespine_suite_lists_exactly_the_cases_a_replay_finds_changed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    override = {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": 5}}}
    data = _write(tmp_path, "new.json", override)
    ran = run_invasion(capsys, "changes", "--data", data, "--json", "--cache-dir", str(tmp_path / "c"))
    assert ran.returncode == 0, ran.stderr
    listed = set(json.loads(ran.stdout)["cases"])
    fixtures = list(_fixture_cases("stonespine").values())
    before = replayed("stonespine", fixtures)
    with under_data(override, "stonespine"):
        after = replayed("stonespine", fixtures)
    assert listed == {cid for cid in before if before[cid] != after[cid]}


def test_a_ruling_that_starts_or_stops_parting_on_a_witness_is_listed() -> None:
    from invasion_oracle.reports.changes import Results, compare

    ok = [{"readings": {}, "answers": [], "from": 0, "result": "ok", "one_of": []}]
    old = Results({"stonespine/witnesses/w1": {"section": "s", "depends_on": ["SS-A"], "expect": ok}}, {})
    new = Results({"stonespine/witnesses/w1": {"section": "s", "depends_on": ["SS-B"], "expect": ok}}, {})
    rulings = compare(old, new, ["stonespine"], ("bundled", "new.json"))["rulings"]
    assert rulings == {
        "SS-A": {
            "game": "stonespine",
            "kind": "stops-parting",
            "old_witnesses": ["stonespine/witnesses/w1"],
            "new_witnesses": [],
        },
        "SS-B": {
            "game": "stonespine",
            "kind": "starts-parting",
            "old_witnesses": [],
            "new_witnesses": ["stonespine/witnesses/w1"],
        },
    }
