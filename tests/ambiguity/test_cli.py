"""``invasion rulings``, ``invasion [GAME] ambiguities``, ``--check`` and ``--baseline``: what a
rule designer's CI sees."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main
from tests.ambiguity.toy import toy_game

TROLL = "example:stonespine/rulings/SS-TROLL-MOVE.json"


@pytest.fixture
def toy() -> Iterator[None]:
    with toy_game():
        yield


def test_the_register_lists_citation_question_readings_default_witnesses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["rulings", "--game", "stonespine", "--json", "--workers", "1"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["query"] == "rulings" and envelope["status"] == "done"
    troll = next(r for r in envelope["answer"] if r["id"] == "SS-TROLL-MOVE")
    assert troll["rulebook"] == "Stonespine Architects: Invasion Rulebook"
    assert troll["section"] == "Guardian Board (Giant Troll ongoing ability)"
    assert troll["default"] == "must" and troll["why"]
    assert troll["witnesses"] == {
        "complete": True,
        "missing": [],
        "readings": {"must": [TROLL], "may": [TROLL]},
    }
    assert troll["fixtures"] is None  # not read unless --fixtures DIR


def test_ambiguities_shows_outcome_fields_and_events_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["stonespine", "ambiguities", "--only", "SS-TROLL-MOVE", "--no-fixtures", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    (ruling,) = answer["rulings"]
    (witness,) = ruling["witnesses"]["witnesses"]
    fields = {f["path"]: f["values"] for f in witness["outcome_fields"]}
    assert fields["$.players[0].placement.guardians"] == {"must": ["A2"], "may": ["A1"]}
    assert fields["$.players[0].xp"] == {"must": 3, "may": 2}
    first = witness["event_hunks"][0]
    assert first["first"][0]["event"] == "guardian_moved" and first["second"][0]["event"] == "guardian_stayed"
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "| player 1: xp" in out and "must (default)" in out
    assert "guardian_moved player=Ann origin=A1 chamber=A2" in out
    assert f"`invasion stonespine simulate {TROLL} --ruling SS-TROLL-MOVE=may`" in out


def test_ambiguities_on_one_scenario_lists_the_rulings_that_change_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert (
        main(["ambiguities", TROLL, "--only", "SS-TROLL-MOVE", "--only", "SS-PASSAGE", "--workers", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "1 ruling(s) change the outcome of" in out and "(of 2 checked)" in out
    assert "SS-TROLL-MOVE=may" in out


def test_check_is_clean_when_every_reading_has_a_witness(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["ambiguities", "--game", "stonespine", "--check", "--no-fixtures", "--only", "SS-EXIT-Y13"])
        == 0
    )
    assert capsys.readouterr().out.startswith("ambiguities check: clean (1 ruling(s) of 1 game(s)")


def test_check_fails_on_a_reading_without_a_witness(toy: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["toy-nim", "ambiguities", "--check", "--workers", "1", "--no-fixtures"]) == 1
    out = capsys.readouterr().out
    assert "no witness tells reading 'one-or-two' from reading 'one-to-three'" in out
    assert main(["toy-nim", "ambiguities", "--check", "--json", "--workers", "1", "--no-fixtures"]) == 1
    captured = capsys.readouterr()
    assert json.loads(captured.out)["answer"]["problems"] == [
        "TOY-TAKE: no witness tells reading 'one-or-two' from reading 'one-to-three'"
    ]
    assert "invasion ambiguities --check: TOY-TAKE" in captured.err


def _fixture_folder(tmp: Path, depends_on: list[str] | None) -> Path:
    readings = {"TOY-LAST": "takes-last", "TOY-SHOUT": "quiet", "TOY-TAKE": "one-or-two"}
    case = {"scenario": {"game": "toy-nim", "stones": 3}, "rulings": readings}
    if depends_on is not None:
        case["depends_on"] = depends_on
    (tmp / "toy").mkdir()
    (tmp / "toy" / "three.json").write_text(json.dumps(case), encoding="utf-8")
    manifest = {"cases": [{"case": "toy/three", "game": "toy-nim", "file": "toy/three.json"}]}
    (tmp / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return tmp


def test_check_fails_on_a_fixture_depending_on_an_undeclared_ruling(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _fixture_folder(tmp_path, depends_on=["TOY-TAKE"])
    args = ["toy-nim", "ambiguities", "--only", "TOY-LAST", "--fixtures", str(folder), "--workers", "1"]
    assert main([*args, "--check"]) == 1
    out = capsys.readouterr().out
    assert "fixture toy/three: its outcome depends on TOY-LAST, which it does not declare" in out
    assert "fixture toy/three: its events (not its outcome) depend on TOY-SHOUT" in out
    assert main([*args, "--json"]) == 0
    deps = json.loads(capsys.readouterr().out)["answer"]["fixtures"]["dependencies"]
    assert deps == [
        {
            "case": "toy/three",
            "game": "toy-nim",
            "depends_on": {"TOY-LAST": "outcome", "TOY-SHOUT": "events"},
            "undeclared": ["TOY-LAST", "TOY-SHOUT"],
        }
    ]


def test_a_fixture_recording_every_reading_declares_them_all(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _fixture_folder(tmp_path, depends_on=None)  # a trace: its rulings record every reading
    args = [
        "toy-nim",
        "ambiguities",
        "--only",
        "TOY-LAST",
        "--fixtures",
        str(folder),
        "--workers",
        "1",
        "--check",
    ]
    assert main(args) == 0
    assert capsys.readouterr().out.startswith("ambiguities check: clean (")
    assert main([*args, "--verbose"]) == 0  # the full report
    assert "Check: 0 problem(s)" in capsys.readouterr().out


def test_baseline_reports_every_outcome_that_moved(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["stonespine", "ambiguities", "--only", "SS-TROLL-MOVE", "--no-fixtures", "--workers", "1"]
    assert main([*args, "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    baseline = tmp_path / "baseline.json"
    baseline.write_text(json.dumps(envelope), encoding="utf-8")
    assert main([*args, "--check", "--verbose", "--baseline", str(baseline)]) == 0
    assert "Nothing changed since the baseline." in capsys.readouterr().out
    run = envelope["answer"]["rulings"][0]["witnesses"]["witnesses"][0]["runs"][1]
    run["outcome"]["players"][0]["xp"] = 7  # as if the rules used to give 7 XP under "may"
    run["events_digest"] = "0" * 12
    baseline.write_text(json.dumps(envelope), encoding="utf-8")
    assert main([*args, "--check", "--baseline", str(baseline)]) == 1
    verdict = capsys.readouterr().out
    assert verdict.startswith("ambiguities check: FAILED, 2 problem(s)")
    assert f"- SS-TROLL-MOVE: {TROLL} under may: outcome $.players[0].xp: 7 -> 2  (see: " in verdict
    assert main([*args, "--check", "--verbose", "--baseline", str(baseline)]) == 1
    out = capsys.readouterr().out
    assert f"SS-TROLL-MOVE: {TROLL} under may: outcome $.players\\[0\\].xp: 7 -\\> 2" in out
    assert f"SS-TROLL-MOVE: {TROLL} under may: the events changed" in out


def test_a_bad_baseline_is_refused_before_any_work(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "b.json"
    bad.write_text('{"query": "simulate", "answer": {}}', encoding="utf-8")
    assert main(["ambiguities", "--baseline", str(bad)]) == 2
    assert "a baseline is the output of `invasion ambiguities --json`" in capsys.readouterr().err


def test_search_writes_witnesses_in_per_reading_form(
    toy: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["toy-nim", "ambiguities", "--only", "TOY-LAST", "--search", "--examples", "20", "--workers", "1"]
    assert main([*args, "--no-fixtures", "--write", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "found by hypothesis" in out
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.json"))
    assert written == ["toy_nim/rulings/TOY-LAST/gives-last.json", "toy_nim/rulings/TOY-LAST/takes-last.json"]
    gives = json.loads((tmp_path / written[0]).read_text(encoding="utf-8"))
    assert gives["rulings"] == {"TOY-LAST": "gives-last"} and gives["stones"] == 1
    assert "--ruling TOY-LAST=gives-last" in out and str(tmp_path / written[1]) in out


def test_unknown_ruling_in_only_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ambiguities", "--game", "stonespine", "--only", "SS-NOPE"]) == 2
    assert "unknown ruling 'SS-NOPE'" in capsys.readouterr().err
