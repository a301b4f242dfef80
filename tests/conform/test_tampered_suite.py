"""A tampered suite folder is refused, never trusted (issue 33): a case file whose variants are
not what the format says (an empty ``one_of``, a bogus result, a ``from`` of -1 or past the
answers, an unknown ruling or reading, a malformed answer) or that is not a regular file is one
located error (exit 2) before the implementation is started; the same checks hold for
``fixtures check``."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.reports.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
ORACLE = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'adapters' / 'oracle.py'))}"
FILE = "vulketh/draw.cases.json"
CASE = "vulketh/draw/next-deck"


def _suite(tmp_path: Path, change: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """A suite folder with one small case file, its first case changed by ``change``."""
    folder = tmp_path / "suite"
    (folder / "vulketh").mkdir(parents=True)
    shutil.copy(FIXTURES / "index.json", folder / "index.json")
    document = json.loads((FIXTURES / FILE).read_text(encoding="utf-8"))
    if change is not None:
        change(document["cases"][0])
    (folder / FILE).write_text(json.dumps(document), encoding="utf-8")
    return folder


def _conform(folder: Path, command: str = ORACLE) -> list[str]:
    return [
        "conform",
        "--cmd",
        command,
        "--dir",
        str(folder),
        "--game",
        "vulketh",
        "--case",
        CASE,
        "--format",
        "md",
    ]


def _first_variant(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(case: dict[str, Any]) -> None:
        case["expect"][0].update(fields)

    return change


def _answers(value: Any) -> Callable[[dict[str, Any]], None]:
    def change(case: dict[str, Any]) -> None:
        case["expect"][0]["answers"][0] = value

    return change


def _depends_on(value: list[str]) -> Callable[[dict[str, Any]], None]:
    def change(case: dict[str, Any]) -> None:
        case["depends_on"] = value

    return change


TAMPERED = {
    "an empty one_of": (_first_variant(one_of=[]), "expect[0].one_of", "should be non-empty"),
    "a bogus result": (_first_variant(result="passed"), "expect[0].result", "'passed' is not one of"),
    "from -1": (_first_variant(**{"from": -1}), "expect[0].from", "less than the minimum of 0"),
    "from past the answers": (_first_variant(**{"from": 9}), "expect[0].from", "past the last step"),
    "an unknown reading": (
        _first_variant(readings={"VK-APPEASE": "whatever"}),
        "expect[0].readings.VK-APPEASE",
        "unknown reading 'whatever' of VK-APPEASE",
    ),
    "an unknown ruling": (
        _first_variant(readings={"SS-PASSAGE": "a"}),
        "expect[0].readings",
        "unknown ruling 'SS-PASSAGE' of vulketh",
    ),
    "an unknown ruling depended on": (_depends_on(["VK-NOPE"]), "depends_on[0]", "unknown ruling 'VK-NOPE'"),
    "a malformed answer": (
        _answers({"request": "bribe", "kind": "draw", "answer": "3c"}),
        "expect[0].answers[0]",
        "an answer is",
    ),
}


def test_the_untampered_copy_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_conform(_suite(tmp_path))) == 0
    assert "PASSED" in capsys.readouterr().out


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_tampered_case_is_one_located_error_before_the_implementation_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    change, where, reason = TAMPERED[name]
    folder = _suite(tmp_path, change)
    marker = tmp_path / "STARTED"
    touch = f"open({str(marker)!r}, 'w')"
    started = f"{shlex.quote(sys.executable)} -c {shlex.quote(touch)}"
    assert main(_conform(folder, started)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert f"{folder / FILE}:$.cases[0].{where}: " in err and reason in err, err
    assert not marker.exists()  # refused before the implementation was started


@pytest.mark.parametrize("name", ["an empty one_of", "an unknown reading"])
def test_fixtures_check_reports_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    change, where, reason = TAMPERED[name]
    folder = _suite(tmp_path, change)
    assert main(["fixtures", "check", "--dir", str(folder), "--game", "vulketh"]) != 0
    out = capsys.readouterr()
    assert f"$.cases[0].{where}" in out.out + out.err and reason in out.out + out.err


def test_case_files_that_are_not_regular_files_are_refused_without_blocking(tmp_path: Path) -> None:
    """A FIFO, a link to /dev/zero and a file over the input limit, run one after the other in a
    child process with a time bound (a blocking open would hang there, not here): one process for
    the three, since each start of the command line costs more than the three runs together."""
    runs = []
    for number, plant in enumerate(("fifo", "dev-zero", "huge")):
        folder = _suite(tmp_path / str(number))
        target = folder / FILE
        target.unlink()
        options = []
        if plant == "fifo":
            os.mkfifo(target)
        elif plant == "dev-zero":
            target.symlink_to("/dev/zero")
        else:
            target.write_text('{"cases": []}' + " " * 2048, encoding="utf-8")
            options = ["--max-input-size", "1K"]
        runs.append((plant, str(target), [*options, *_conform(folder)]))
    # each run's exit status and standard error, as the command line gives them (main's own)
    code = (
        "import contextlib, io, json, sys\n"
        "from invasion_oracle.reports.cli import main\n"
        "for args in json.loads(sys.argv[1]):\n"
        "    err = io.StringIO()\n"
        "    with contextlib.redirect_stderr(err):\n"
        "        status = main(args)\n"
        "    print(json.dumps([status, err.getvalue()]), flush=True)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, json.dumps([args for _, _, args in runs])],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    outcomes = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outcomes) == len(runs), done.stdout
    for (plant, target, _), (status, stderr) in zip(runs, outcomes, strict=True):
        assert status == 2, (plant, stderr)
        assert stderr.count("\n") == 1 and f"{target}:$: " in stderr, (plant, stderr)
        expected = "larger than the input limit" if plant == "huge" else "not a regular file"
        assert expected in stderr, (plant, stderr)
