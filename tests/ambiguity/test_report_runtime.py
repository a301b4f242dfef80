"""The report's runtime: the result cache (same bytes, reuse, invalidation, corrupt entries),
progress in a pipe, one Ctrl-C stopping everything (exit 130, partial, no traceback), and
``ambiguities --check`` as a short CI verdict (text and JUnit)."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from invasion_oracle.reports import cache as cache_module
from invasion_oracle.reports.cache import JobCache, decode, encode
from invasion_oracle.reports.cli import main
from tests.in_process import run_invasion
from tests.proc_stat import stat_fields

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

CHEAP = ["report", "--game", "stonespine", "--no-search", "--no-long", "--no-fixtures", "--workers", "1"]


def _report(tmp_path: Path, name: str, *extra: str) -> bytes:
    (tmp_path / name).mkdir()
    os.chdir(tmp_path / name)  # the same --out in the printed command
    assert main([*CHEAP, "--out", "out", *extra]) == 0
    out = tmp_path / name / "out"
    return (out / "report.md").read_bytes() + (out / "report.html").read_bytes()


def test_a_cached_report_is_byte_identical_to_an_uncached_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    folder = str(tmp_path / "cache")
    # the first run finds the cache empty, so it computes every job, as --no-cache does
    first = _report(tmp_path, "first", "--cache-dir", folder)
    assert "0 job(s) reused" in capsys.readouterr().err
    again = _report(tmp_path, "again", "--cache-dir", folder)
    err = capsys.readouterr().err
    assert re.search(r"cache .*: [1-9]\d* job\(s\) reused, 0 run", err), err
    assert first == again


def test_a_corrupt_cache_entry_is_a_miss_and_is_recomputed(tmp_path: Path) -> None:
    from invasion_oracle.model import registry
    from invasion_oracle.reports.ambiguity import jobs

    registry.load_all()
    store = JobCache(tmp_path)
    arguments = ("coverage", ("stonespine", "SS-PASSAGE"))
    key = store.key(jobs.dispatch, arguments, "stonespine")
    assert key is not None
    result = jobs.dispatch(*arguments)
    expected = jobs.result_type(arguments)
    store.put(key, "coverage SS-PASSAGE", "stonespine", expected, result)
    assert store.get(key, "coverage SS-PASSAGE", "stonespine", expected) == (True, result)
    (entry,) = tmp_path.rglob("*.json")
    entry.write_text("{not json", encoding="utf-8")
    assert store.get(key, "coverage SS-PASSAGE", "stonespine", expected) == (False, None)
    assert len(store.ignored) == 1 and "not JSON" in store.ignored[0]
    store.put(key, "coverage SS-PASSAGE", "stonespine", expected, result)  # recomputed and stored again
    assert store.get(key, "coverage SS-PASSAGE", "stonespine", expected) == (True, result)


def test_cache_entries_are_json_and_round_trip(tmp_path: Path) -> None:
    from invasion_oracle.model import registry
    from invasion_oracle.reports.ambiguity import jobs

    registry.load_all()
    arguments = ("coverage", ("stonespine", "SS-PASSAGE"))
    result = jobs.dispatch(*arguments)
    expected = jobs.result_type(arguments)
    assert decode(json.loads(json.dumps(encode(result, expected))), expected) == result
    store = JobCache(tmp_path)
    key = store.key(jobs.dispatch, arguments, "stonespine")
    assert key is not None
    store.put(key, "coverage SS-PASSAGE", "stonespine", expected, result)
    (written,) = tmp_path.rglob("*.json")
    assert json.loads(written.read_text(encoding="utf-8"))["job"] == "coverage SS-PASSAGE"
    assert store.get(key, "coverage SS-PASSAGE", "stonespine", expected) == (True, result)


def test_changing_one_games_file_changes_only_that_games_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for path in ["model/core/a.py", "model/registry.py", "reports/r.py", "model/vulketh/data/d.json"]:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("1", encoding="utf-8")
    (tmp_path / "examples/stonespine").mkdir(parents=True)
    (tmp_path / "examples/stonespine/w.json").write_text("{}", encoding="utf-8")
    monkeypatch.setattr(cache_module, "_root", lambda: tmp_path)
    cache_module.version.cache_clear()
    try:
        before = {p: cache_module.version(p) for p in ("", "vulketh", "stonespine")}
        (tmp_path / "model/vulketh/data/d.json").write_text("2", encoding="utf-8")  # one data value
        cache_module.version.cache_clear()
        after = {p: cache_module.version(p) for p in ("", "vulketh", "stonespine")}
        assert after["vulketh"] != before["vulketh"]
        assert after["stonespine"] == before["stonespine"] and after[""] == before[""]
        (tmp_path / "model/core/a.py").write_text("2", encoding="utf-8")  # shared code: every game
        cache_module.version.cache_clear()
        assert all(cache_module.version(p) != after[p] for p in after)
    finally:
        cache_module.version.cache_clear()


def test_a_job_with_a_wall_clock_deadline_is_never_cached() -> None:
    from invasion_oracle.reports.ambiguity.jobs import describe

    assert describe(("divergence", ("stonespine", "SS-PASSAGE", 5, 1e12)))[0] is None
    assert describe(("divergence", ("stonespine", "SS-PASSAGE", 5, None)))[0] == "stonespine"


def _cli(*argv: str) -> list[str]:
    return [
        sys.executable,
        "-c",
        "import sys; from invasion_oracle.reports.cli import main; sys.exit(main(sys.argv[1:]))",
        *argv,
    ]


def test_progress_lines_in_a_pipe(capsys: pytest.CaptureFixture[str]) -> None:
    # in the test's process: its standard error is captured, not a terminal, as in a pipe
    done = run_invasion(
        capsys, "cloudspire", "ambiguities", "--no-fixtures", "--workers", "1", "--no-cache", "--check"
    )
    assert done.returncode == 0, done.stderr
    # named by what the jobs compute (issue 36), not "ambiguity jobs"
    assert re.search(r"invasion: [a-z, -]*witness runs: \d+ job\(s\) to run", done.stderr)
    assert re.search(r"invasion: [a-z, -]*witness runs: (\d+)/\1 done in \d+ s", done.stderr)


WORKING_CPU_SECONDS = 0.1
"""CPU a forked pool worker has spent once it runs a job (it starts at none: forked, not spawned)."""


def _working_children(pid: int) -> bool:
    """Whether a child process of ``pid`` has spent :data:`WORKING_CPU_SECONDS` of CPU time."""
    for entry in Path("/proc").iterdir():
        fields = stat_fields(int(entry.name)) if entry.name.isdigit() else None
        if (
            fields
            and int(fields[1]) == pid
            and int(fields[11]) + int(fields[12]) >= WORKING_CPU_SECONDS * TICKS
        ):
            return True
    return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_one_ctrl_c_stops_the_report_with_130_a_partial_report_and_no_traceback(tmp_path: Path) -> None:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    env.pop("INVASION_DEBUG", None)
    process = subprocess.Popen(
        _cli("report", "--out", str(out), "--no-fixtures", "--no-cache", "--workers", "2"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    assert process.stderr is not None
    lines = []
    for line in process.stderr:  # wait until the batch is about to start its workers
        lines.append(line)
        if "job(s) to run" in line:
            break
    # then until its workers run jobs (read from /proc, not a sleep: on a busy machine they start
    # late); the whole report takes minutes
    give_up = time.monotonic() + 120
    while time.monotonic() < give_up and not _working_children(process.pid):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    started = time.monotonic()
    stdout, stderr = process.communicate(timeout=120)
    stopped_after = time.monotonic() - started
    stderr = "".join(lines) + stderr
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert "interrupted" in stderr
    text = (out / "report.md").read_text(encoding="utf-8")
    assert "Partial report: interrupted" in text
    assert stopped_after < 60  # generous: the machine is shared; it takes about a second idle


def test_check_prints_a_short_verdict_and_junit_validates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["stonespine", "ambiguities", "--no-fixtures", "--workers", "1", "--check"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert out.startswith("ambiguities check: clean (") and len(out.splitlines()) < 30
    junit = tmp_path / "check.xml"
    assert main([*args, "--format", "junit", "--out", str(junit)]) == 0
    root = ET.fromstring(junit.read_text(encoding="utf-8"))
    assert root.tag == "testsuites"
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert int(suite.get("tests", "")) == len(cases) == int(root.get("tests", "")) > 10
    assert suite.get("failures") == "0" and not suite.findall("testcase/failure")
    assert all(c.get("classname") == "stonespine" and c.get("name") for c in cases)


def test_check_names_each_problem_with_the_command_that_shows_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from invasion_oracle.reports.ambiguity.analysis import Analysis

    monkeypatch.setattr(
        Analysis, "problems", lambda self: ["SS-PASSAGE: no witness tells reading 'a' from 'b'"]
    )
    assert main(["stonespine", "ambiguities", "--no-fixtures", "--workers", "1", "--check"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("ambiguities check: FAILED, 1 problem(s)")
    assert lines[1] == (
        "- SS-PASSAGE: no witness tells reading 'a' from 'b'  "
        "(see: invasion ambiguities --only SS-PASSAGE --no-fixtures)"
    )
    assert main(["stonespine", "ambiguities", "--verbose"]) == 2  # --verbose only with --check
