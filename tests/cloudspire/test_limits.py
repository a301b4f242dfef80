"""Cloudspire's search verbs keep their time limit whole and their memory bounded.

``survive`` on the bundled position needs about a minute and ``spires`` several seconds: with
``--time-limit 1`` each must answer within a second more than the limit (the scenario read, the
search and the oracle replay included), never with a wrong answer labelled proven; a memory bound
below what the search needs stops it with ``unknown``.
"""

from __future__ import annotations

import json
import time

import pytest

from reports.cli import main
from solver.common import DEFAULT_MEMORY_BYTES, resident_bytes

LIMIT = 1.0
SLACK = 1.0  # the bound: within a second (or 10%) of the limit

VERBS = [
    pytest.param(["survive", "example:cloudspire/survive.json"], True, id="survive"),
    pytest.param(
        ["survive", "example:cloudspire/survive.json", "--rounds", "3"], True, id="survive-3-rounds"
    ),
    pytest.param(["spires", "example:cloudspire/spires.json", "--bound", "2"], True, id="spires"),
    pytest.param(
        ["engagement", "example:cloudspire/engagement.json", "--engine", "both"], False, id="engagement-both"
    ),
]


@pytest.mark.parametrize(("argv", "too_long"), VERBS)
def test_every_search_keeps_a_one_second_limit(
    argv: list[str], too_long: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    before = resident_bytes()
    started = time.perf_counter()
    status = main(["cloudspire", *argv, "--time-limit", str(LIMIT), "--json"])
    elapsed = time.perf_counter() - started
    envelope = json.loads(capsys.readouterr().out)
    assert status == 0
    assert elapsed <= LIMIT + SLACK, f"{argv[0]} took {elapsed:.2f} s with a {LIMIT} s limit"
    assert envelope["status"] in ("proven", "unknown")
    if too_long:  # a search that needs many seconds cannot be proven in one
        assert envelope["status"] == "unknown" and envelope["replayed"] is False
    if envelope["status"] == "proven":
        assert envelope["replayed"] is True
    assert resident_bytes() - before < DEFAULT_MEMORY_BYTES // 4


def test_the_memory_bound_stops_survival_with_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    """A bound of 1 MiB holds 256 states: far fewer than the bundled position reaches."""
    status = main(
        [
            "cloudspire",
            "survive",
            "example:cloudspire/survive.json",
            "--memory-limit",
            "1",
            "--time-limit",
            "5",
            "--json",
        ]
    )
    envelope = json.loads(capsys.readouterr().out)
    assert status == 0
    assert envelope["status"] == "unknown" and envelope["replayed"] is False
