"""The CI job of docs/ci.md ("A CI job") and the pre-commit hook, run as written: a data folder,
a committed record accepted, the check passing, then a changed value failing it."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from tests.in_process import run_invasion

ROOT = Path(__file__).resolve().parents[2]
QUICK = ("--cases", "heroes-abilities", "--searches", "stonespine/place")  # one case file, one search


def snippet_commands() -> list[list[str]]:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"<!-- ci-snippet -->\n```sh\n(.*?)```", text, re.S)
    assert block is not None, "docs/ci.md lost its ci-snippet block"
    return [shlex.split(line) for line in block.group(1).splitlines() if line.strip()]


def hook_entry() -> list[str]:
    text = (ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")
    (entry,) = re.findall(r"^\s*entry:\s*(.+)$", text, re.M)
    assert re.search(r"^- id: invasion-changes$", text, re.M)
    return shlex.split(entry)


def _data(folder: Path, health: int) -> None:
    folder.mkdir(exist_ok=True)
    document = {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": health}}}
    (folder / "stonespine.json").write_text(json.dumps(document), encoding="utf-8")


def _run(capsys: pytest.CaptureFixture[str], words: list[str], *extra: str) -> int:
    assert words[0] == "invasion"
    return run_invasion(capsys, *words[1:], *extra).returncode


def test_the_ci_snippet_and_the_hook_pass_on_the_accepted_record_and_fail_on_a_new_change(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INVASION_CACHE_DIR", str(tmp_path / "cache"))
    # the cache on, as in CI (the test suite turns it off by default): the checks after the
    # first run read both sides back, and the changed value reruns only what read it
    monkeypatch.delenv("INVASION_NO_CACHE", raising=False)
    _data(tmp_path / "data", 5)
    accept = ["invasion", "changes", "--data", "data/", "--baseline", "changes.json", "--accept"]
    assert _run(capsys, accept, *QUICK) == 0
    for words in snippet_commands():
        assert _run(capsys, words, *QUICK) == 0
    assert "<testsuite" in (tmp_path / "changes.xml").read_text(encoding="utf-8")
    assert _run(capsys, hook_entry(), "--data", "data/", *QUICK) == 0
    _data(tmp_path / "data", 4)  # a new change the record does not hold
    for words in snippet_commands():
        assert _run(capsys, words, *QUICK) == 1
    assert _run(capsys, hook_entry(), "--data", "data/", *QUICK) == 1


@pytest.mark.slow
def test_the_ci_snippet_as_written(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("INVASION_CACHE_DIR", str(tmp_path / "cache"))
    # the cache on, as in CI (the test suite turns it off by default): the checks after the
    # first run read both sides back, and the changed value reruns only what read it
    monkeypatch.delenv("INVASION_NO_CACHE", raising=False)
    _data(tmp_path / "data", 5)
    assert (
        _run(capsys, ["invasion", "changes", "--data", "data/", "--baseline", "changes.json", "--accept"])
        == 0
    )
    for words in snippet_commands():
        assert _run(capsys, words) == 0
