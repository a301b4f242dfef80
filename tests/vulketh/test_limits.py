"""Vul'Keth's search verbs keep their time limit whole and their memory bounded.

``race`` on the bundled race needs about 15 s and ``clear`` with every engine more than a second:
with ``--time-limit 1`` each must answer within a second more than the limit (the scenario read,
the z3 encoding, the search and the oracle replay included), never with a wrong answer labelled
proven. The z3 encoding of a few Invader turns alone takes seconds, so it checks the clock too.
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
    pytest.param(["race", "example:vulketh/race.json"], True, id="race-z3"),
    pytest.param(["race", "example:vulketh/race.json", "--engine", "baseline"], True, id="race-baseline"),
    pytest.param(["race", "example:vulketh/race.json", "--engine", "both"], True, id="race-both"),
    pytest.param(
        ["clear", "example:vulketh/clear_hex.json", "--hex", "7", "--members", "9", "--engine", "both"],
        False,
        id="clear-both",
    ),
    pytest.param(["differ", "--engine", "both"], False, id="differ-both"),
]


@pytest.mark.parametrize(("argv", "too_long"), VERBS)
def test_every_search_keeps_a_one_second_limit(
    argv: list[str], too_long: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    before = resident_bytes()
    started = time.perf_counter()
    status = main(["vulketh", *argv, "--time-limit", str(LIMIT), "--json"])
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
