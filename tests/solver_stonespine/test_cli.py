"""The solver commands: Markdown with the command to reproduce, canonical JSON, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reports.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "stonespine"
PLACEMENT = str(EXAMPLES / "placement.json")
DEFAULT = str(EXAMPLES / "default.json")


@pytest.mark.parametrize(
    ("argv", "fragments"),
    [
        (["routes", PLACEMENT, "--hero", "red"], ["Can the red hero be defeated? **Yes**", "replayed"]),
        (
            ["wave", PLACEMENT, "--heroes", "red,red,red,red"],
            ["Defeated: **3 of 4**", "replayed through the oracle"],
        ),
        (["wave", PLACEMENT, "--heroes", "red,red", "--engine", "oracle"], ["Defeated: **2 of 2**"]),
        (
            ["place", PLACEMENT],
            ["Best value: **3** (proven; engine search", "Tied placements: **8**", "Worst roll"],
        ),
        (["policy", PLACEMENT, "--measure", "defeated"], ["308/81", "gives the same value"]),
        (["min-damage", PLACEMENT, "--what", "minions", "--heroes", "red,red,red,red"], ["Fewest minions"]),
        (["min-damage", PLACEMENT, "--what", "health", "--hero", "purple"], ["escape"]),
        (["escape", PLACEMENT, "--hero", "red", "--elements", "+1,chest"], ["Escape-path search"]),
    ],
)
def test_solver_commands_print_answers_and_the_command(
    argv: list[str], fragments: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stonespine", *argv]) == 0
    out = capsys.readouterr().out
    assert "Reproduce: `invasion stonespine " + argv[0] in out
    for fragment in fragments:
        assert fragment in out


def test_place_json_is_canonical_and_lists_every_tie(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "place", PLACEMENT, "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["stonespine", "place", PLACEMENT, "--json"]) == 0
    assert capsys.readouterr().out == first
    answer = json.loads(first)
    assert answer["status"] == "proven" and answer["best"] == 3 and len(answer["tied"]) == 8


def test_time_limit_answers_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "place", PLACEMENT, "--engine", "oracle", "--time-limit", "0.5"]) == 0
    out = capsys.readouterr().out
    assert "Best value: **unknown** (unknown" in out and "no placement is claimed optimal" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["routes", PLACEMENT, "--hero", "green"], "unknown hero colour 'green'"),
        (["wave", PLACEMENT, "--heroes", ""], "give the wave's heroes"),
        (["place", DEFAULT], "models one dungeon's heroes exactly except: the Giant Troll moving"),
        (["policy", PLACEMENT], "the trophy measure needs a target"),
        (["place", PLACEMENT, "--player", "Zed"], "unknown player 'Zed'"),
        (
            ["min-damage", PLACEMENT, "--what", "tokens", "--heroes", "red", "--token", "chest"],
            "add a monster or a trap",
        ),
    ],
)
def test_solver_commands_reject_bad_input_with_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["stonespine", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
