"""The solver commands: Markdown with the command to reproduce, canonical JSON, clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main

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
            ["Best value: **3** (proven; engine search", "Tied placements: **8**.", "Worst roll"],
        ),
        (["policy", PLACEMENT, "--measure", "defeated"], ["308/81", "gives the same value"]),
        (["min-damage", PLACEMENT, "--what", "minions", "--heroes", "red,red"], ["Fewest minions"]),
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


def test_place_json_is_one_canonical_envelope_with_structured_placements(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["stonespine", "place", PLACEMENT, "--json"]) == 0
    first = capsys.readouterr().out
    assert main(["stonespine", "place", PLACEMENT, "--json"]) == 0
    assert capsys.readouterr().out == first
    envelope = json.loads(first)
    assert set(envelope) == {"game", "query", "command", "status", "answer", "replayed"}
    assert (envelope["game"], envelope["query"], envelope["status"]) == ("stonespine", "place", "proven")
    assert envelope["replayed"] is True
    answer = envelope["answer"]
    assert answer["best"] == 3 and answer["upper_bound"] == 3 and answer["ties_complete"]
    assert len(answer["tied"]) == 8
    assert answer["tied"][0] == {
        "figures": [
            {"kind": "guardian", "chamber": "C1"},
            {"kind": "minion", "chamber": "C2"},
            {"kind": "minion", "chamber": "C2"},
            {"kind": "minion", "chamber": "C2"},
        ]
    }


@pytest.mark.parametrize(
    "argv",
    [
        ["routes", PLACEMENT, "--hero", "red", "--json"],
        ["wave", PLACEMENT, "--heroes", "red,purple", "--json"],
        ["policy", PLACEMENT, "--measure", "no-escape", "--json"],
        ["min-damage", PLACEMENT, "--what", "minions", "--heroes", "red", "--json"],
        ["min-damage", PLACEMENT, "--what", "health", "--hero", "red", "--json"],
        ["escape", PLACEMENT, "--hero", "red", "--elements", "+1,chest", "--json"],
    ],
)
def test_every_verb_answers_in_the_same_envelope(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", *argv]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["game"] == "stonespine" and envelope["query"] == argv[0]
    assert envelope["status"] == envelope["answer"]["status"] == "proven"
    assert envelope["command"].startswith("invasion stonespine " + argv[0])


def test_time_limit_answers_best_found_or_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["stonespine", "place", PLACEMENT, "--engine", "oracle", "--time-limit", "0.1", "--json"]) == 0
    )
    envelope = json.loads(capsys.readouterr().out)
    answer = envelope["answer"]
    assert envelope["status"] in ("best-found", "unknown") and answer["stopped"] == "time-limit"
    assert answer["upper_bound"] == 4 and not answer["ties_complete"]
    assert main(["stonespine", "place", PLACEMENT, "--engine", "oracle", "--time-limit", "0.1"]) == 0
    out = capsys.readouterr().out
    assert "not proven optimal" in out or "no claim is made" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["place", PLACEMENT, "--time-limit", "nan"], "argument --time-limit: expected a finite number"),
        (["place", PLACEMENT, "--time-limit", "inf"], "argument --time-limit: expected a finite number"),
        (["place", PLACEMENT, "--time-limit", "-1"], "argument --time-limit: expected a finite number"),
        (["routes", PLACEMENT, "--hero", "red", "--time-limit", "0"], "seconds above 0, got '0'"),
        (["wave", PLACEMENT, "--heroes", "red", "--time-limit", "soon"], "seconds above 0, got 'soon'"),
        (["place", PLACEMENT, "--top", "-1"], "argument --top: expected a whole number 0 or more"),
        (["place", PLACEMENT, "--target", "-2"], "argument --target: expected a whole number 0 or more"),
        (["policy", PLACEMENT, "--target", "1.5"], "argument --target: expected a whole number"),
        (["min-damage", PLACEMENT, "--heroes", "red", "--limit", "-3"], "argument --limit: expected"),
        (["escape", PLACEMENT, "--hero", "red", "--rows", "-1"], "argument --rows: expected"),
        (
            ["escape", PLACEMENT, "--hero", "red", "--columns", "27"],
            "argument --columns: expected a whole number from 1 to 26",
        ),
        (
            ["escape", PLACEMENT, "--hero", "red", "--seeds", "-5"],
            "argument --seeds: expected a whole number 0 or more",
        ),
        (["wave", PLACEMENT, "--heroes", "red,,red"], "argument --heroes: item 2 of 'red,,red' is empty"),
        (["min-damage", PLACEMENT, "--heroes", ","], "argument --heroes: item 1 of ',' is empty"),
        (
            ["place", PLACEMENT, "--memory-limit", "0"],
            "argument --memory-limit: expected a whole number of MiB from 1 to 1048576",
        ),
    ],
)
def test_bad_flag_values_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["stonespine", *argv])
    assert exit.value.code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err


def test_the_measures_offered_are_the_solver_s() -> None:
    from invasion_oracle.reports.stonespine.cli import MEASURES
    from invasion_oracle.solver.stonespine.policy import Measure

    assert tuple(m.value for m in Measure) == MEASURES


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["routes", PLACEMENT, "--hero", "green"], "unknown hero colour 'green'"),
        (["min-damage", PLACEMENT, "--what", "minions"], "give the wave's heroes"),
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


@pytest.mark.slow
def test_the_readme_solver_examples_show_what_they_say(capsys: pytest.CaptureFixture[str]) -> None:
    """Each solver line of README.md, with the claim in the comment above it."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    lines = readme.splitlines()
    checks = {
        "place": lambda a: a["best"] == 3 and len(a["tied"]) == 8,
        "wave": lambda a: a["defeated"] == 3 and len(a["heroes"]) == 4,
        "policy": lambda a: a["value"] == "65/81",
        "routes": lambda a: (
            {(o["fate"], o["chamber"]) for o in a["outcomes"]} == {("defeated", "B1"), ("escaped", "A2")}
        ),
        "min-damage": lambda a: a["count"] == 4 and a["lower_bound"] == 4,
        "escape": lambda a: a["dungeon"] is not None,
    }
    seen = set()
    for line in lines:
        if line.startswith(".venv/bin/invasion stonespine ") and line.split()[2] in checks:
            argv = line.split()[1:]
            assert main([*argv, "--json"]) == 0, line
            answer = json.loads(capsys.readouterr().out)["answer"]
            assert checks[argv[1]](answer), (line, answer)
            seen.add(argv[1])
    assert seen == set(checks)
