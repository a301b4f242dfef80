"""The main job (`make run`): every game's sections, each with its command, the same bytes every run."""

from __future__ import annotations

from reports.main_job import main_job, sections


def test_main_job_is_deterministic_and_every_section_says_how_to_reproduce_it() -> None:
    first, second = main_job(), main_job()
    assert first == second
    assert first.count("\n## ") == len(sections()) + 1  # and the ambiguity register
    assert "## Rule ambiguities: the register and its witnesses" in first
    for block in first.split("\n## ")[1:]:
        assert "Reproduce: `invasion " in block or "`invasion " in block, block.splitlines()[0]
