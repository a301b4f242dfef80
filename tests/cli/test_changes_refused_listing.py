"""A producer whose bundled example the designer's data makes invalid cannot list its cases: the
run goes on, its cases are listed as removed, and one entry says why (not exit 2, not a crash of
the worker pool)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_producer_refused_under_the_data_is_one_entry_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: str
) -> None:
    data = tmp_path / "limit4.json"
    data.write_text(json.dumps({"extends": "bundled", "game": "vulketh", "values": {"population_limit": 4}}))
    status = main(
        [
            "changes",
            "--data",
            str(data),
            "--cases",
            "example_steps",
            "--no-cache",
            "--workers",
            workers,
            "--json",
        ]
    )
    assert status == 0, capsys.readouterr().err
    answer = json.loads(capsys.readouterr().out)
    refused = answer["cases"]["vulketh/example_steps/*"]
    assert refused["kind"] == "added"
    assert "at most 4 Invaders fit in a hex" in refused["fields"][0]["new"]
    removed = [cid for cid, c in answer["cases"].items() if c["kind"] == "removed"]
    assert removed and all(cid.startswith("vulketh/example-steps/") for cid in removed)
