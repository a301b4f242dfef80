"""Vul'Keth's and Cloudspire's search verbs keep their time limit whole and their memory bounded.

Each search below needs seconds to a minute on its bundled position (``race`` about 15 s,
``survive`` about a minute); with ``--time-limit 0.1`` each must answer within a second more than the
limit (the scenario read, the encoding, the search and the oracle replay included), never with a
wrong answer labelled proven. Vul'Keth's z3 encoding of a few Invader turns alone takes seconds,
so it checks the clock too. (Stonespine's searches: ``tests/solver_stonespine/test_limits.py``.)

The time measured is the command's own CPU time (``time.process_time``), which a busy machine does
not inflate; a phase that never checks the deadline shows in it under any load.
"""

from __future__ import annotations

import json
import time

import pytest

from invasion_oracle.reports.cli import main
from invasion_oracle.solver.common import DEFAULT_MEMORY_BYTES, resident_bytes

LIMIT = 0.1  # short, to keep the suite fast; the bound (within a second of it) is checked the same way
SLACK = 1.0  # the bound: within a second (or 10%) of the limit

# (command, whether it surely needs more than the limit)
SEARCHES = [
    pytest.param(["vulketh", "race", "example:vulketh/race.json"], True, id="vulketh-race-z3"),
    pytest.param(
        ["vulketh", "race", "example:vulketh/race.json", "--engine", "baseline"],
        True,
        id="vulketh-race-baseline",
    ),
    pytest.param(
        ["vulketh", "race", "example:vulketh/race.json", "--engine", "both"], True, id="vulketh-race-both"
    ),
    pytest.param(
        [
            "vulketh",
            "clear",
            "example:vulketh/clear_hex.json",
            "--hex",
            "7",
            "--members",
            "9",
            "--engine",
            "both",
        ],
        False,
        id="vulketh-clear-both",
    ),
    pytest.param(["vulketh", "differ", "--engine", "both"], False, id="vulketh-differ-both"),
    pytest.param(["cloudspire", "survive", "example:cloudspire/survive.json"], True, id="cloudspire-survive"),
    pytest.param(
        ["cloudspire", "survive", "example:cloudspire/survive.json", "--rounds", "3"],
        True,
        id="cloudspire-survive-3-rounds",
    ),
    pytest.param(
        ["cloudspire", "spires", "example:cloudspire/spires.json", "--bound", "2"],
        True,
        id="cloudspire-spires",
    ),
    pytest.param(
        ["cloudspire", "engagement", "example:cloudspire/engagement.json", "--engine", "both"],
        False,
        id="cloudspire-engagement-both",
    ),
]


@pytest.mark.parametrize(("argv", "too_long"), SEARCHES)
def test_every_search_keeps_a_short_time_limit(
    argv: list[str], too_long: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    before = resident_bytes()
    started = time.process_time()
    status = main([*argv, "--time-limit", str(LIMIT), "--json"])
    elapsed = time.process_time() - started
    envelope = json.loads(capsys.readouterr().out)
    assert status == 0
    assert elapsed <= LIMIT + SLACK, f"{' '.join(argv[:2])} took {elapsed:.2f} s with a {LIMIT} s limit"
    assert envelope["status"] in ("proven", "best-found", "unknown")
    if too_long:  # a search that needs many seconds cannot be proven in one
        assert envelope["status"] != "proven"
        if envelope["status"] == "unknown":
            assert envelope["replayed"] is False
    if envelope["status"] == "proven":
        assert envelope["replayed"] is True
    assert resident_bytes() - before < DEFAULT_MEMORY_BYTES // 4


def test_the_memory_bound_stops_cloudspire_survival_with_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    """A bound of 1 MiB holds 256 states: far fewer than the bundled position reaches."""
    argv = [
        "cloudspire",
        "survive",
        "example:cloudspire/survive.json",
        "--memory-limit",
        "1",
        "--time-limit",
        "5",
    ]
    status = main([*argv, "--json"])
    envelope = json.loads(capsys.readouterr().out)
    assert status == 0
    assert envelope["status"] == "unknown" and envelope["replayed"] is False


# Ctrl-C in every game's searches: tests/cli/test_interrupts.py


def test_the_command_counts_its_time_limit_from_the_process_start() -> None:
    """Run as the command (no argv), the deadline starts when the process did, so the interpreter's
    start and the imports are inside ``--time-limit``; a caller passing argv (a test, a library
    user) starts it at the call."""
    import subprocess
    import sys

    code = (
        "import time; from invasion_oracle.reports.cli import process_age; "
        "time.sleep(0.05); print(process_age())"
    )
    age = float(
        subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    )
    assert 0.05 <= age < 5.0  # the sleep at least, whatever the start and imports took
