"""Baselines and fixture manifests read back are data checked for shape (issue 33): a baseline
whose parts are not shaped as `ambiguities --json` writes them, a baseline that is not a regular
file, or a manifest naming a file outside its folder is one located error (exit 2) before any
work, never an internal error or a silent pass."""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.reports.cli import main
from tests.ambiguity.conftest import Register

COMMAND = ["vulketh", "ambiguities", "--check", "--no-cache", "--workers", "1", "--no-fixtures"]


@pytest.fixture
def baseline(vulketh_register: Register) -> dict[str, Any]:
    """A real baseline: the ``--json`` output (with fixture dependencies) of a small game (a copy:
    the tests change it)."""
    document: dict[str, Any] = json.loads(json.dumps(vulketh_register.envelope))
    return document


def _witness(answer: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = answer["rulings"][0]["witnesses"]["witnesses"][0]
    return found


def _set(
    where: Callable[[dict[str, Any]], dict[str, Any]], field: str, value: Any
) -> Callable[[dict[str, Any]], None]:
    def change(answer: dict[str, Any]) -> None:
        where(answer)[field] = value

    return change


TAMPERED: dict[str, tuple[Callable[[dict[str, Any]], None], str]] = {
    "witnesses a list": (_set(lambda a: a["rulings"][0], "witnesses", []), "$.answer.rulings[0].witnesses"),
    "a witness without a scenario": (
        _set(_witness, "scenario", None),
        "$.answer.rulings[0].witnesses.witnesses[0]",
    ),
    "runs a number": (_set(_witness, "runs", 5), "$.answer.rulings[0].witnesses.witnesses[0].runs"),
    "a ruling id a list": (_set(lambda a: a["rulings"][0], "id", [1]), "$.answer.rulings[0]"),
    "a divergence a number": (
        _set(lambda a: a["rulings"][0], "divergence", 3),
        "$.answer.rulings[0].divergence",
    ),
    "depends_on a list": (
        _set(lambda a: a["fixtures"]["dependencies"][0], "depends_on", []),
        "$.answer.fixtures.dependencies[0]",
    ),
}


@pytest.mark.parametrize("name", list(TAMPERED))
def test_a_wrong_shaped_baseline_is_one_located_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], baseline: dict[str, Any], name: str
) -> None:
    change, where = TAMPERED[name]
    document = json.loads(json.dumps(baseline))
    change(document["answer"])
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    assert main([*COMMAND, "--baseline", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{path}:{where}: " in err, err


def test_the_untampered_baseline_is_accepted(baseline: dict[str, Any]) -> None:
    from invasion_oracle.reports.ambiguity.baseline import answer_of, changes

    answer = answer_of(baseline, "baseline.json")
    assert answer is baseline["answer"] and changes(answer, answer) == []


def test_a_baseline_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)  # the guard refuses it before opening: no writer needed, no hang
    for path in (fifo, Path("/dev/zero")):
        assert main([*COMMAND, "--baseline", str(path)]) == 2
        err = capsys.readouterr().err
        assert f"{path}:$: not a regular file" in err, err


@pytest.mark.parametrize("outside", ["../elsewhere.json", "/etc/hostname"])
def test_a_manifest_naming_a_file_outside_its_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], outside: str
) -> None:
    folder = tmp_path / "fixtures"
    folder.mkdir()
    (tmp_path / "elsewhere.json").write_text('{"scenario": {}}', encoding="utf-8")
    manifest = {"cases": [{"case": "vulketh/x", "game": "vulketh", "file": outside}]}
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    assert main(["vulketh", "ambiguities", "--no-cache", "--workers", "1", "--fixtures", str(folder)]) == 2
    err = capsys.readouterr().err
    assert f"{folder / 'manifest.json'}:$.cases[0].file: a file outside the fixtures folder" in err, err
