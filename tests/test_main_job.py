"""The main job (`make run`): every game's sections, each with its command, the same bytes every run."""

from __future__ import annotations

import subprocess
import sys

import pytest

from invasion_oracle.reports.main_job import main_job, sections


def test_every_section_of_the_main_job_says_how_to_reproduce_it() -> None:
    text = main_job()
    assert text.count("\n## ") == len(sections()) + 1  # and the ambiguity register
    assert "## Rule ambiguities: the register and its witnesses" in text
    for block in text.split("\n## ")[1:]:
        assert "Reproduce: `invasion " in block or "`invasion " in block, block.splitlines()[0]


@pytest.mark.slow
def test_the_main_job_is_the_same_bytes_in_two_processes() -> None:
    # Also checked by .ci/run on every change; two whole runs are too long for `make test`.
    runs = [
        subprocess.run(
            [sys.executable, "-m", "invasion_oracle.reports.cli", "run"], capture_output=True, check=True
        ).stdout
        for _ in range(2)
    ]
    assert runs[0] == runs[1] and runs[0].startswith(b"# invasion-oracle: main job")
