"""The result cache holds data, never code (issue 33): every kind of tampered entry is ignored
and its job recomputed, with one warning line; nothing named in an entry is imported or run;
devices, FIFOs, symbolic links and huge files are never read; a cache folder that is a file is
one located error. And real answers read back exactly as they were computed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from invasion_oracle.model import registry
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.reports import cache as cache_module
from invasion_oracle.reports.ambiguity import jobs
from invasion_oracle.reports.cache import FORMAT, BadEntry, JobCache, answer_table, decode, encode
from invasion_oracle.reports.cli import main
from tests.ambiguity.conftest import Register
from tests.in_process import run_invasion

JOB = ("coverage", ("vulketh", "VK-APPEASE"))
LABEL = "coverage vulketh VK-APPEASE"
PACKAGE = "vulketh"


@pytest.fixture(scope="module")
def answer() -> Any:
    registry.load_all()
    return jobs.dispatch(*JOB)


def _stored(folder: Path, answer: Any) -> tuple[JobCache, str, Path]:
    store = JobCache(folder)
    key = store.key(jobs.dispatch, JOB, PACKAGE)
    assert key is not None
    store.put(key, LABEL, PACKAGE, jobs.result_type(JOB), answer)
    path = folder / key[:2] / f"{key}.json"
    assert path.is_file()
    return store, key, path


def _lookup(store: JobCache, key: str) -> tuple[bool, Any]:
    return store.get(key, LABEL, PACKAGE, jobs.result_type(JOB))


def _with_result(path: Path, result: Any) -> None:
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["result"] = result
    path.write_text(json.dumps(entry), encoding="utf-8")


def _inside_an_outcome(path: Path, value: Any) -> None:
    """``value`` where the answer holds free-form JSON (a reading's outcome, typed ``Any``)."""
    entry = json.loads(path.read_text(encoding="utf-8"))
    run = entry["result"]["fields"]["differences"]["$tuple"][0]["fields"]["runs"]["$tuple"][0]
    run["fields"]["outcome"] = value
    path.write_text(json.dumps(entry), encoding="utf-8")


def _code_naming(marker: Path) -> list[Any]:
    """Values that the old reader (import by name, walk attributes, call) turned into a shell
    command or a file write."""
    return [
        {"$enum": "invasion_oracle.reports.cache:os.system", "value": f"touch {marker}"},
        {"$enum": "os:system", "value": f"touch {marker}"},
        {
            "$dc": "invasion_oracle.model.core.canonical:write_atomic",
            "fields": {"path": str(marker), "text": "written by a cache entry"},
        },
        {"$dc": "write_atomic", "fields": {"path": str(marker), "text": "x"}},
        {"$dc": "Coverage", "fields": {"__class__": "os.system"}},
    ]


@pytest.mark.parametrize("where", ["result", "inside an outcome"])
def test_an_entry_naming_code_is_ignored_and_runs_nothing(
    tmp_path: Path, answer: Any, where: str, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "MARKER"
    for number, value in enumerate(_code_naming(marker)):
        store, key, path = _stored(tmp_path / f"cache{number}", answer)
        (_with_result if where == "result" else _inside_an_outcome)(path, value)
        assert _lookup(store, key) == (False, None)
        assert not marker.exists(), value
        assert len(store.ignored) == 1
    err = capsys.readouterr().err
    assert err.count("invasion: warning: cache ") == len(_code_naming(marker))  # one per cache


@pytest.mark.parametrize(
    ("name", "result"),
    [
        ("a number", 42),
        ("null", None),
        ("a string", "proven"),
        ("a list", []),
        ("an unknown tag", {"$pickle": "gASVAAAA"}),
        ("another answer type", {"$dc": "Ruling", "fields": {}}),
        ("a missing field", {"$dc": "Coverage", "fields": {"ruling": None}}),
        ("a bare float", 1.5),
    ],
)
def test_a_wrong_shaped_result_is_ignored(tmp_path: Path, answer: Any, name: str, result: Any) -> None:
    store, key, path = _stored(tmp_path, answer)
    _with_result(path, result)
    assert _lookup(store, key) == (False, None), name
    assert len(store.ignored) == 1


def test_a_field_of_the_wrong_type_is_ignored(tmp_path: Path, answer: Any) -> None:
    store, key, path = _stored(tmp_path, answer)
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["result"]["fields"]["ruling"]["fields"]["readings"] = 7  # a tuple of Readings
    path.write_text(json.dumps(entry), encoding="utf-8")
    assert _lookup(store, key) == (False, None)
    assert "readings: expected" in store.ignored[0]


def test_an_answer_type_failing_its_own_checks_is_ignored(tmp_path: Path, answer: Any) -> None:
    store, key, path = _stored(tmp_path, answer)
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry["result"]["fields"]["ruling"]["fields"]["default"] = "no-such-reading"  # Ruling.__post_init__
    path.write_text(json.dumps(entry), encoding="utf-8")
    assert _lookup(store, key) == (False, None)
    assert "not a valid Ruling" in store.ignored[0]


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("format", FORMAT - 1, "format"),
        ("key", "0" * 64, "key"),
        ("job", "coverage vulketh VK-CONFLICT", "the result of"),
        ("code", "0" * 64, "another version"),
    ],
)
def test_an_entry_for_another_key_job_or_version_is_ignored(
    tmp_path: Path, answer: Any, field: str, value: Any, reason: str
) -> None:
    store, key, path = _stored(tmp_path, answer)
    entry = json.loads(path.read_text(encoding="utf-8"))
    entry[field] = value
    path.write_text(json.dumps(entry), encoding="utf-8")
    assert _lookup(store, key) == (False, None)
    assert reason in store.ignored[0]


def _fifo(path: Path, outside: Path) -> None:
    path.unlink()
    os.mkfifo(path)


def _to_dev_zero(path: Path, outside: Path) -> None:
    path.unlink()
    path.symlink_to("/dev/zero")


def _to_outside(path: Path, outside: Path) -> None:
    outside.write_bytes(path.read_bytes())  # a good entry, but not in the cache folder
    path.unlink()
    path.symlink_to(outside)


def _folder_to_outside(path: Path, outside: Path) -> None:
    shard = path.parent
    shard.rename(outside)  # good entries, but not in the cache folder
    shard.symlink_to(outside)


def _truncated(path: Path, outside: Path) -> None:
    path.write_bytes(path.read_bytes()[:-20])


def _oversized(path: Path, outside: Path) -> None:
    with path.open("r+b") as handle:  # sparse: the size is refused before a byte is read
        handle.truncate(cache_module.ENTRY_LIMIT + 1)


def _not_utf8(path: Path, outside: Path) -> None:
    path.write_bytes(b"\xff\xfe" + path.read_bytes())


def _a_folder(path: Path, outside: Path) -> None:
    path.unlink()
    path.mkdir()


TAMPERS: dict[str, Callable[[Path, Path], None]] = {
    "a FIFO": _fifo,
    "a symlink to /dev/zero": _to_dev_zero,
    "a symlink out of the folder": _to_outside,
    "its folder a symlink out": _folder_to_outside,
    "truncated JSON": _truncated,
    "oversized": _oversized,
    "not UTF-8": _not_utf8,
    "a folder": _a_folder,
}


def test_entries_that_are_not_regular_files_in_the_folder_are_never_read(tmp_path: Path, answer: Any) -> None:
    """In a child process with a time bound: a blocking open of a FIFO or a read of /dev/zero
    would hang or fill memory there, not here."""
    script = f"""
import sys
from pathlib import Path
from invasion_oracle.model import registry
from invasion_oracle.reports.ambiguity import jobs
from invasion_oracle.reports.cache import JobCache
registry.load_all()
job = {JOB!r}
for folder in sys.argv[1:]:
    store = JobCache(Path(folder))
    key = store.key(jobs.dispatch, job, {PACKAGE!r})
    print(store.get(key, {LABEL!r}, {PACKAGE!r}, jobs.result_type(job))[0], len(store.ignored), flush=True)
"""
    folders = []
    for number, tamper in enumerate(TAMPERS.values()):
        folder = tmp_path / f"cache{number}"
        _store, _key, path = _stored(folder, answer)
        tamper(path, tmp_path / f"outside{number}")
        folders.append(str(folder))
    done = subprocess.run(
        [sys.executable, "-c", script, *folders], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["False 1"] * len(TAMPERS), done.stdout
    warnings = done.stderr.splitlines()
    assert len(warnings) == len(TAMPERS), done.stderr  # one for each cache
    reasons = ["not a regular file", "symbolic link", "symbolic link", "is not a folder of the cache"]
    reasons += ["not JSON", "larger than the limit", "not JSON", "is a directory"]
    for name, line, reason in zip(TAMPERS, warnings, reasons, strict=True):
        assert line.startswith("invasion: warning: cache ") and reason in line, (name, line)


def test_the_guard_is_the_input_files_guard(tmp_path: Path) -> None:
    """The cache reads through :func:`read_regular_file`, the guard of every input file."""
    from invasion_oracle.model.core.jsonio import read_json_file, read_regular_file

    os.mkfifo(tmp_path / "fifo")
    (tmp_path / "link").symlink_to("/dev/zero")
    for name in ("fifo", "link"):
        with pytest.raises(MalformedInputError, match="not a regular file"):
            read_json_file(tmp_path / name)
        with pytest.raises(MalformedInputError, match=r"not a regular file|symbolic link"):
            read_regular_file(tmp_path / name, name, 100, follow_symlinks=False)
    (tmp_path / "big").write_bytes(b"x" * 101)
    with pytest.raises(MalformedInputError, match="larger than the limit of 100 bytes"):
        read_regular_file(tmp_path / "big", "big", 100, advice=False)


def test_the_answer_table_is_the_projects_own_types_reachable_from_the_jobs() -> None:
    names: set[str] = set()
    for kind in jobs.JOBS:
        table = answer_table(jobs.result_type((kind, ())))
        assert all(t.__module__.startswith("invasion_oracle.") for t in table.values())
        names |= set(table)
    # pinned: a new answer type is a reviewed change of what an entry may build
    assert names == {
        "Coverage",
        "Ruling",
        "Reading",
        "Difference",
        "ReadingRun",
        "FieldDifference",
        "EventHunk",
        "CaseDependencies",
        "Divergence",
        "SearchBudget",
        "Check",
        "DeadRule",
    }


def test_only_tables_types_are_encoded() -> None:
    from invasion_oracle.reports.cache import Unencodable

    with pytest.raises(Unencodable):
        encode(JobCache(Path("x")), jobs.result_type(JOB))
    with pytest.raises(BadEntry):
        decode({"$dc": "JobCache", "fields": {"folder": "x"}}, Any)


def test_a_cache_folder_that_is_a_file_is_one_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = tmp_path / "cache"
    plain.write_text("not a folder", encoding="utf-8")
    assert main(["vulketh", "ambiguities", "--no-fixtures", "--workers", "1", "--cache-dir", str(plain)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"--cache-dir:{plain}: is a file, not a folder" in err, err
    for folder, reason in (
        ("/dev/null", "is a device, FIFO or socket, not a folder"),
        ("a\0b", "not a usable path"),
    ):
        assert main(["vulketh", "ambiguities", "--no-fixtures", "--workers", "1", "--cache-dir", folder]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--cache-dir:" in err and reason in err, err
    monkeypatch.setenv("INVASION_CACHE_DIR", str(plain / "below"))
    monkeypatch.delenv("INVASION_NO_CACHE", raising=False)
    assert main(["vulketh", "ambiguities", "--no-fixtures", "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "$INVASION_CACHE_DIR:" in err and "is a file" in err, err


# -- end to end: the command --------------------------------------------------------------------


def _command(folder: Path, *extra: str) -> list[str]:
    return [
        "vulketh",
        "ambiguities",
        "--workers",
        "1",
        "--format",
        "json",
        "--cache-dir",
        str(folder),
        *extra,
    ]


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """The command in a fresh process: the one that reads the cache back, as a later run does
    (nothing of the run that wrote it imported or memoised)."""
    code = (
        "import sys; from invasion_oracle.reports.cli import main; status = main(sys.argv[1:]); "
        # what the command imported: a run without --search needs no hypothesis (about 0.1 s)
        "print('hypothesis', 'loaded' if 'hypothesis' in sys.modules else 'not loaded', file=sys.stderr); "
        "sys.exit(status)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("INVASION_DEBUG", "INVASION_NO_CACHE")}
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=300, env=env
    )


def test_ambiguities_recomputes_every_tampered_entry_and_runs_nothing(
    tmp_path: Path, vulketh_register: Register
) -> None:
    folder = tmp_path / "cache"
    shutil.copytree(vulketh_register.cache, folder)  # a clean run's cache (the same command's jobs)
    marker = tmp_path / "MARKER"
    plants: list[Callable[[Path], None]] = [
        lambda p: _inside_an_outcome(p, _code_naming(marker)[0]),  # needs a coverage answer: first
        *(lambda p, v=v: _with_result(p, v) for v in _code_naming(marker)),
        lambda p: _with_result(p, 42),
        lambda p: _with_result(p, None),
        *(lambda p, t=t, n=n: t(p, tmp_path / f"outside{n}") for n, t in enumerate(TAMPERS.values())),
    ]
    entries = sorted(folder.rglob("*.json"), key=lambda p: '"job": "coverage' not in p.read_text("utf-8"))
    alone = [p for p in entries if len(list(p.parent.iterdir())) == 1]  # one entry moves with its folder
    entries.remove(alone[-1])
    entries.insert(len(plants) - len(TAMPERS) + list(TAMPERS.values()).index(_folder_to_outside), alone[-1])
    assert len(entries) >= len(plants)
    for plant, path in zip(plants, entries, strict=False):
        plant(path)
    again = _run(_command(folder))
    assert again.returncode == 0, again.stderr
    clean = vulketh_register.envelope
    answered = json.loads(again.stdout)
    assert answered.pop("command") != clean["command"]  # (another --cache-dir, no --out)
    assert answered == {k: v for k, v in clean.items() if k != "command"}  # the answer of a clean run
    assert not marker.exists()
    warnings = [line for line in again.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, again.stderr
    assert f"{len(plants)} bad entry(ies) ignored" in again.stderr, again.stderr
    assert f"{len(plants)} run" in again.stderr, again.stderr
    assert "hypothesis not loaded" in again.stderr  # nothing searched: the search library stays out


def test_real_answers_read_back_byte_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every kind of job a full run caches (coverage, fixtures, divergence, wellformed,
    dead-rules), with the deepest answers (a divergence found with its difference, dead rules
    found): the run from the cache prints exactly what the run that computed them did."""
    folder = tmp_path / "cache"
    extra = (
        "--search",
        "--wellformed",
        "--examples",
        "2",  # enough for VK-CONFLICT's divergence with its difference (the asserts below)
        "--only",
        "VK-CONFLICT",
        "--only",
        "VK-POWER-UNLOCK",
    )
    code = cache_module.version.__wrapped__("vulketh")  # computed afresh, as each run does
    first = run_invasion(capsys, *_command(folder, *extra))  # computed here, read back in a new process
    assert first.returncode == 0, first.stderr
    again = _run(_command(folder, *extra))
    assert again.returncode == 0, again.stderr
    assert again.stdout == first.stdout
    # every key holds the code version: a file of the checkout edited (or a merge) between the two
    # runs, not a test, is then why nothing was reused; say so instead of "0 reused"
    assert cache_module.version.__wrapped__("vulketh") == code, "the checkout's code changed during the test"
    assert " 0 run" in again.stderr and "warning" not in again.stderr, again.stderr
    entries = [json.loads(p.read_text(encoding="utf-8")) for p in folder.rglob("*.json")]
    assert {e["job"].split()[0] for e in entries} == {
        "coverage",
        "fixtures",
        "divergence",
        "wellformed",
        "dead-rules",
    }
    assert any(e["job"].startswith("divergence") and e["result"]["fields"]["difference"] for e in entries)
    assert any(e["job"].startswith("dead-rules") and e["result"]["$tuple"] for e in entries)


_PLAIN = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=4) | st.floats(allow_nan=False),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.tuples(inner, inner)
        | st.frozensets(st.integers() | st.text(max_size=3), max_size=3)
        | st.dictionaries(st.text(max_size=3), inner, max_size=3)
        | st.dictionaries(
            st.integers() | st.text(min_size=1, max_size=3).map(lambda t: "$" + t), inner, max_size=2
        )
    ),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(_PLAIN)
def test_plain_results_parse_in_one_pass_as_decode_rebuilds_them(value: Any) -> None:
    text = json.dumps({"result": encode(value)})
    assert cache_module.loads_untyped(text.encode()) == decode(json.loads(text), Any) == {"result": value}


@pytest.mark.parametrize(
    "text",
    [
        '{"r": 1.5}',
        '{"r": {"$dc": "Verdict", "fields": {}}}',
        '{"r": {"$enum": "Verdict", "value": 1}}',
        '{"r": {"$nope": []}}',
        '{"r": {"$tuple": [1], "x": 2}}',
        '{"r": {"$float": 1}}',
        '{"r": {"$float": "x"}}',
        '{"r": {"$dict": [[1]]}}',
        '{"r": {"$dict": [[[1], 2]]}}',
        '{"r": {"$frozenset": [[1]]}}',
        '{"r": ',
        '{"r": "\udcff"}',  # not UTF-8 once written
    ],
)
def test_what_decode_refuses_the_one_pass_refuses(text: str) -> None:
    with pytest.raises(BadEntry):
        cache_module.loads_untyped(text.encode("utf-8", "surrogateescape"))
