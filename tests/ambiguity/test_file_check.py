"""``invasion ambiguities FILE --check [--baseline B]`` (issue 33 part 4): with a scenario file,
``--check`` and ``--baseline`` work as they do without one. With a baseline (a previous
``ambiguities FILE --json``) the verdict is its differences, one line each (``RULING under
READING: outcome PATH: OLD -> NEW``), exit 1 when there is one; without, the expectation a fixture
meets: every ruling the scenario's outcome or events depend on is declared in its ``rulings``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.reports.cli import main

FILE = "example:cloudspire/rulings/CS-ROLLS.json"
ONLY = ["--only", "CS-ROLLS", "--only", "CS-APPLIED-DIE", "--only", "CS-LOAD-SOURCE", "--workers", "1"]


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["ambiguities", *argv])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture
def baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    status, out, _ = _run(capsys, FILE, *ONLY, "--json")
    assert status == 0
    path = tmp_path / "base.json"
    path.write_text(out, encoding="utf-8")
    return path


def _edit(path: Path, change: Any) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document["answer"])
    edited = path.with_name("edited.json")
    edited.write_text(json.dumps(document), encoding="utf-8")
    return edited


def test_the_same_answer_as_the_baseline_is_clean(baseline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, FILE, *ONLY, "--check", "--baseline", str(baseline))
    assert status == 0
    assert (
        out.startswith("ambiguities check: clean (3 ruling(s) run on") and f"compared with {baseline}" in out
    )


def test_each_difference_is_a_line_with_its_path_and_both_values(
    baseline: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def change(answer: dict[str, Any]) -> None:
        rolls = next(d for d in answer["differences"] if d["ruling"] == "CS-ROLLS")
        run = next(r for r in rolls["runs"] if r["reading"] == "strategy")
        run["outcome"]["round"] = 41
        run["events_digest"] = "0" * 64

    status, out, _ = _run(capsys, FILE, *ONLY, "--check", "--baseline", str(_edit(baseline, change)))
    assert status == 1
    lines = out.splitlines()
    assert lines[0].startswith("ambiguities check: FAILED, 2 problem(s)")
    assert any(line.startswith("- CS-ROLLS under strategy: outcome $.round: 41 -> ") for line in lines)
    assert any(line.startswith("- CS-ROLLS under strategy: events: ") for line in lines)
    # without --check the changes are in the report, and the exit says nothing
    status, out, _ = _run(capsys, FILE, *ONLY, "--baseline", str(_edit(baseline, change)))
    assert status == 0 and "### Changes since the baseline" in out and "$.round: 41 -> " in out


def test_json_and_junit_carry_the_verdict(baseline: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def change(answer: dict[str, Any]) -> None:
        answer["differences"] = [d for d in answer["differences"] if d["ruling"] != "CS-LOAD-SOURCE"]

    edited = str(_edit(baseline, change))
    status, out, err = _run(capsys, FILE, *ONLY, "--check", "--baseline", edited, "--json")
    answer = json.loads(out)["answer"]
    assert status == 1 and answer["problems"] == answer["baseline_changes"] != []
    assert "CS-LOAD-SOURCE: not in the baseline" in err
    status, out, _ = _run(capsys, FILE, *ONLY, "--check", "--baseline", edited, "--format", "junit")
    assert status == 1 and 'tests="3" failures="1"' in out and 'name="CS-LOAD-SOURCE"' in out


def test_without_a_baseline_undeclared_dependencies_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = _run(capsys, FILE, *ONLY, "--check")
    assert status == 1
    assert "- CS-ROLLS: the scenario's outcome depends on it" in out
    document = read_json_file(FILE)  # the same scenario, saying which readings it assumes
    document["rulings"] = {
        "CS-ROLLS": "strategy-plus-one",
        "CS-APPLIED-DIE": "moves",
        "CS-LOAD-SOURCE": "rolled",
    }
    declared = tmp_path / "declared.json"
    declared.write_text(json.dumps(document), encoding="utf-8")
    status, out, _ = _run(capsys, str(declared), *ONLY, "--check")
    assert status == 0 and out.startswith("ambiguities check: clean"), out


def test_a_baseline_of_another_kind_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    every = tmp_path / "every.json"
    every.write_text(json.dumps({"query": "ambiguities", "answer": {"rulings": []}}), encoding="utf-8")
    status, out, err = _run(capsys, FILE, *ONLY, "--check", "--baseline", str(every))
    assert status == 2 and out == ""
    assert "a baseline of every ruling" in err and err.count("\n") == 1
