"""The copy-paste CI job of docs/ci.md: its commands parse, and (slow) they run and pass here."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]


def ci_commands() -> list[list[str]]:
    """The ``invasion`` commands of the GitHub Actions job in docs/ci.md (its ``- run:`` lines)."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    job = re.search(r"```yaml\n(.*?)```", text, re.S)
    assert job is not None
    runs = [line.split("- run:", 1)[1].strip() for line in job.group(1).splitlines() if "- run:" in line]
    return [shlex.split(run)[1:] for run in runs if run.startswith("invasion ")]


def test_the_ci_jobs_commands_are_valid() -> None:
    commands = ci_commands()
    assert len(commands) == 2 and all(c[:2] == ["ambiguities", "--check"] for c in commands)
    for words in commands:
        args = build_parser(words).parse_args(words)
        assert args.check


@pytest.mark.slow
def test_the_ci_job_runs_clean_on_the_project(tmp_path: Path) -> None:
    for words in ci_commands():
        words = [
            w.replace(".invasion-cache", str(tmp_path / "cache")).replace(
                "ambiguities.xml", str(tmp_path / "ambiguities.xml")
            )
            for w in words
        ]
        done = subprocess.run(  # in the checkout: its fixtures/ are read, as in CI
            [sys.executable, "-m", "invasion_oracle.reports.cli", *words],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        assert "Traceback" not in done.stderr
        if "--format" in words:
            assert ET.parse(tmp_path / "ambiguities.xml").getroot().tag == "testsuites"
        else:
            assert len(done.stdout.splitlines()) < 30
