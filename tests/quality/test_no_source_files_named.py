"""What a user sees names the rulebooks by their titles, never our seed files or research notes:
the rulings register (text and JSON), every game's data and the run of every bundled example."""

from __future__ import annotations

import re

import pytest

from invasion_oracle.model import registry
from invasion_oracle.reports.cli import main
from tests.pictures.test_legends import scenario_examples

OUR_SOURCES = re.compile(
    r"seed 00[0-4]|Seed 00[0-4]|[0-9a-f]{16}\.txt|\b00[0-4]_[0-9a-f]+|research notes|research §|shared/research|\bthe seed\b",
    re.IGNORECASE,
)


def named_sources(text: str) -> list[str]:
    return sorted({m[0] for m in OUR_SOURCES.finditer(text)})


def test_the_pattern_finds_our_file_names() -> None:
    found = named_sources("see seed 003_a0498fd92e3f4dbf.txt, Setup; research notes §1.2")
    assert "seed 003" in found and "research notes" in found
    assert named_sources("the file 002_e6736f3c5c17c7be.txt") != []
    assert named_sources("Rise of Tribes: The Vul'Keth Invasion Rulebook, Setup (seed 12 of the dice)") == []


@pytest.mark.parametrize("game", [spec.name for spec in registry.specs()])
@pytest.mark.parametrize("form", [["--format", "md"], ["--json"]])
def test_the_rulings_and_data_name_no_source_file(
    game: str, form: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rulings", "--game", game, "--workers", "1", *form]) == 0
    assert named_sources(capsys.readouterr().out) == []
    assert main([game, "data", *form]) == 0
    assert named_sources(capsys.readouterr().out) == []


@pytest.mark.parametrize(("game", "example"), scenario_examples())
def test_a_bundled_examples_run_names_no_source_file(
    game: str, example: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", example, "--format", "md"]) == 0
    assert named_sources(capsys.readouterr().out) == []


def test_the_examples_list_names_no_source_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["examples", "--json"]) == 0
    assert named_sources(capsys.readouterr().out) == []
