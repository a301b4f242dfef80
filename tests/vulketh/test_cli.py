"""The `invasion vulketh` commands: simulate, replay, data, pictures, searches, errors."""

from __future__ import annotations

import json
from pathlib import Path
from xml.etree import ElementTree

import pytest

from invasion_oracle.reports.cli import main

WORKED = "example:vulketh/worked_example.json"
GAME = "example:vulketh/solo_game.json"


def test_simulate_prints_the_map_the_board_and_the_trace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vulketh", "simulate", WORKED]) == 0
    out = capsys.readouterr().out
    assert "Reproduce: `invasion vulketh simulate example:vulketh/worked_example.json`" in out
    for text in ("action board (oldest die first)", "|1 W:Steal", "invaders_moved", "Outcome: **undecided**"):
        assert text in out


def test_traces_are_byte_identical_and_replay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["simulate", GAME, "--trace", str(first)]) == 0
    assert main(["vulketh", "simulate", GAME, "--trace", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(first)]) == 0
    assert "identical" in capsys.readouterr().out
    trace = json.loads(first.read_text(encoding="utf-8"))
    trace["outcome"]["player"]["score"] += 1  # a fixture that disagrees with the oracle
    first.write_text(json.dumps(trace), encoding="utf-8")
    assert main(["replay", str(first)]) == 1
    assert "outcome differs" in capsys.readouterr().out


def test_svg_picture_is_well_formed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    svg = tmp_path / "end.svg"
    assert main(["vulketh", "simulate", "example:vulketh/vulketh_tribe.json", "--svg", str(svg)]) == 0
    capsys.readouterr()
    root = ElementTree.fromstring(svg.read_text(encoding="utf-8"))
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert (
        "GATHER" in texts
        and "9" in texts
        and len([p for p in root.iter("{http://www.w3.org/2000/svg}path") if p.get("d", "").endswith("Z")])
        >= 9  # hexes
    )


def test_data_says_the_cards_are_an_assumed_example_set(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["vulketh", "data"]) == 0
    out = capsys.readouterr().out
    assert "Invader Action cards (assumed): an example set" in out
    assert "Appease the Volcano" in out and "| population_limit" in out


def test_the_searches_print_their_answers_and_commands(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "vulketh",
        "clear",
        "example:vulketh/clear_hex.json",
        "--hex",
        "7",
        "--members",
        "2",
        "--engine",
        "baseline",
    ]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Put 2 on hex 7" in out and "Reproduce: `invasion vulketh clear" in out
    argv = ["vulketh", "differ", "--ruling-id", "VK-MOVE-HIGHEST", "--engine", "baseline", "--json"]
    assert main(argv) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["query"] == "differ" and envelope["answer"][0]["position"]["warlords"] == [9]


def test_differ_writes_a_boundary_fixture_that_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "witness.json"
    argv = [
        "vulketh",
        "differ",
        "--ruling-id",
        "VK-MOVE-HIGHEST",
        "--engine",
        "baseline",
        "--write",
        str(path),
    ]
    assert main(argv) == 0
    assert main(["vulketh", "simulate", str(path), "--ruling", "VK-MOVE-HIGHEST=highest-first"]) == 0
    assert "9:W+2" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["vulketh", "clear", WORKED, "--hex", "12"], "--hex: the hexes are numbered 1-9, got 12"),
        (["vulketh", "race", GAME], "$.start: the race starts from a position"),
        (
            ["vulketh", "simulate", WORKED, "--ruling", "VK-MOVE-DEST=sideways"],
            "unknown reading of VK-MOVE-DEST",
        ),
        (["vulketh", "clear", WORKED, "--hex", "3", "--hexes", "1,x"], "hex numbers 1-9 separated by commas"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_race_runs_both_engines_and_prints_the_plans(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.vulketh.test_searches import RACE

    path = tmp_path / "race.json"
    path.write_text(json.dumps(RACE), encoding="utf-8")
    assert main(["vulketh", "race", str(path), "--engine", "both"]) == 0
    out = capsys.readouterr().out
    assert "Engines: z3, cpsat, compiled and baseline (agree)" in out
    assert "turn 1: GATHER+GROW" in out and "not within the script's 1 Invader turns" in out
    assert main(["vulketh", "race", str(path), "--engine", "both", "--json"]) == 0
    both = json.loads(capsys.readouterr().out)["answer"]
    assert main(["vulketh", "race", str(path), "--engine", "cpsat", "--json"]) == 0
    cpsat = json.loads(capsys.readouterr().out)["answer"]
    assert both["engine"] == "z3+cpsat+compiled+baseline" and cpsat["engine"] == "cpsat"
    assert {**cpsat, "engine": ""} == {**both, "engine": ""} and cpsat["status"] == "proven"


def test_clear_takes_cpsat_and_both_runs_all_three_engines(capsys: pytest.CaptureFixture[str]) -> None:
    import argparse

    from invasion_oracle.reports.vulketh.cli import _engines

    argv = ["vulketh", "clear", "example:vulketh/clear_hex.json", "--hex", "7", "--members", "2"]
    assert main([*argv, "--engine", "cpsat", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert answer["engine"] == "cpsat" and answer["placement"] == {"7": 2} and answer["status"] == "proven"
    both = argparse.Namespace(engine="both", verb_engines="clear")
    assert _engines(both) == ("z3", "cpsat", "baseline")  # named z3+cpsat+baseline (the main job runs them)


def test_clear_with_nothing_to_place_meets_its_answer_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a population limit of 3 leaves hex 7 clear already: the answer places nobody, on no hex
    monkeypatch.setenv("INVASION_DEBUG", "1")  # every envelope checked against its answer schema
    data = tmp_path / "limit3.json"
    data.write_text(json.dumps({"extends": "bundled", "game": "vulketh", "values": {"population_limit": 3}}))
    words = ["vulketh", "clear", "example:vulketh/clear_hex.json", "--hex", "7", "--members", "4"]
    assert main([*words, "--data", str(data), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)["answer"]
    assert (answer["members"], answer["placement"], answer["status"]) == (0, {}, "proven")
