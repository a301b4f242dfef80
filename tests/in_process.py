"""``invasion`` run in the test's own process: the command's status, standard output and error.

A test about what a command answers need not pay a new interpreter (about 0.3-0.6 s of CPU each, on
two shared cores); the tests about the process itself (signals, standard input, exit at start-up,
a terminal) keep starting a real one.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from invasion_oracle.reports.cli import main


@dataclass(frozen=True, slots=True)
class Ran:
    """What ``subprocess.run(..., capture_output=True, text=True)`` gives, from ``main``."""

    returncode: int
    stdout: str
    stderr: str


def run_invasion(capsys: pytest.CaptureFixture[str], *argv: str) -> Ran:
    """``invasion ARGV`` through its ``main``; a usage error (argparse's SystemExit) is its status."""
    capsys.readouterr()  # what the test printed before is not the command's
    try:
        status = main(list(argv))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    captured = capsys.readouterr()
    return Ran(status, captured.out, captured.err)
