"""The committed whole-run traces are what the oracle writes now, and each one replays.

The conformance suite's case files are tested in ``tests/fixtures/``.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from invasion_oracle.reports import fixtures
from invasion_oracle.reports.cli import main

FOLDER = Path(__file__).resolve().parents[1] / "fixtures"


@cache
def expected() -> dict[str, str]:
    """What the oracle writes now (built once for the tests below)."""
    return fixtures.files(fixtures.build())


def test_committed_fixtures_match_the_oracle() -> None:
    problems = fixtures.check(FOLDER, expected())
    assert problems == [], "fixtures drifted; run `make fixtures` and review the diff:\n" + "\n".join(
        problems
    )


@pytest.mark.parametrize(
    "case", [c["case"] for c in json.loads((FOLDER / "manifest.json").read_text(encoding="utf-8"))["cases"]]
)
def test_every_fixture_replays(case: str, capsys: pytest.CaptureFixture[str]) -> None:
    game = case.split("/", 1)[0]
    assert main([game, "replay", str(FOLDER / f"{case}.trace.json")]) == 0
    assert "replay identical" in capsys.readouterr().out


def test_check_reports_a_tampered_fixture(tmp_path: Path) -> None:
    for name, text in expected().items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert fixtures.check(tmp_path, expected()) == []
    victim = next(tmp_path.rglob("*.trace.json"))
    victim.write_text(
        victim.read_text(encoding="utf-8").replace('"damage": 1', '"damage": 2', 1) + " ", encoding="utf-8"
    )
    problems = fixtures.check(tmp_path, expected())
    assert any("differs from what the oracle now writes" in p for p in problems)
