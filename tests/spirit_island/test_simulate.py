"""Runs, traces and replays: deterministic, byte-identical, and a changed trace is caught."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.spirit_island.scenario import load_scenario
from invasion_oracle.model.spirit_island.simulate import replay_trace, run, trace_json
from invasion_oracle.reports.cli import main

EXAMPLES = sorted(Path("examples/spirit_island").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_run_and_replay_identically(path: Path) -> None:
    scenario = load_scenario(str(path))
    first = trace_json(scenario, run(scenario))
    second = trace_json(load_scenario(str(path)), run(load_scenario(str(path))))
    assert first == second  # same input and seed: byte-identical
    report = replay_trace(json.loads(first), str(path))
    assert report.identical, report.first_difference


def test_a_changed_trace_is_reported() -> None:
    scenario = load_scenario("examples/spirit_island/invader_phase.json")
    trace = json.loads(trace_json(scenario, run(scenario)))
    trace["steps"][0]["events"][0]["land"] = "A7"
    report = replay_trace(trace, "doctored.json")
    assert not report.identical and report.first_difference.startswith("step 1:")
    trace = json.loads(trace_json(scenario, run(scenario)))
    trace["outcome"]["turn"] = 99
    assert replay_trace(trace, "doctored.json").first_difference == "outcome differs"


def test_layout_example_files_match_the_bundled_layouts() -> None:
    from invasion_oracle.model.spirit_island.data import default_data

    for layout in default_data().layouts:
        document = json.loads(
            Path(f"examples/spirit_island/layouts/{layout.name}.json").read_text(encoding="utf-8")
        )
        raw = document["layouts"][layout.name]
        assert raw["partial"] is True and [tuple(e) for e in raw["edges"]] == list(layout.edges)


def test_cli_simulate_json_replay_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    trace = tmp_path / "trace.json"
    svg = tmp_path / "island.svg"
    assert (
        main(
            [
                "spirit-island",
                "simulate",
                "examples/spirit_island/invader_phase.json",
                "--trace",
                str(trace),
                "--svg",
                str(svg),
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert svg.read_text(encoding="utf-8").startswith("<svg") and "A1" in svg.read_text(encoding="utf-8")
    assert main(["spirit-island", "replay", str(trace)]) == 0
    assert "replay identical" in capsys.readouterr().out
    doctored = json.loads(trace.read_text(encoding="utf-8"))
    doctored["steps"][1]["answer"] = "A5"
    trace.write_text(canonical_json(doctored), encoding="utf-8")
    assert main(["spirit-island", "replay", str(trace)]) == 1


def test_cli_simulate_text_shows_pictures_and_the_ruling_switch(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "spirit-island",
                "simulate",
                "examples/spirit_island/invader_phase.json",
                "--ruling",
                "SI-CASCADE-CHOOSER=first-adjacent",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "Board A" in out and "~~~~ |A1 M~" in out
    assert "Rulings changed from the default: SI-CASCADE-CHOOSER=first-adjacent" in out
    assert "| cascade" not in out  # no cascade decision under that reading


def test_cli_searches(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spirit-island", "fear-threshold", "--land", "C T E", "--pool", "2"]) == 0
    out = capsys.readouterr().out
    assert "|             3 |              5 |" in out and "least Damage 3" in out
    assert (
        main(["spirit-island", "fight-back", "--land", "C T E", "--dahan", "2", "--method", "both", "--json"])
        == 0
    )
    plans = json.loads(capsys.readouterr().out)["answer"]["plans"]
    assert [p["value"] for p in plans] == [2, 2, 2]
    assert [p["engine"] for p in plans] == ["z3", "cpsat", "baseline"]
    assert (
        main(["spirit-island", "cascade", "examples/spirit_island/invader_phase.json", "--land", "A1"]) == 0
    )
    assert "A1 > A2" in capsys.readouterr().out
    assert (
        main(["spirit-island", "cascade", "examples/spirit_island/invader_phase.json", "--card", "1M"]) == 0
    )
    assert "| A1     | yes" in capsys.readouterr().out
    assert main(["spirit-island", "lands", "examples/spirit_island/island_search.json"]) == 0
    assert "depends on fight-back" in capsys.readouterr().out
    assert (
        main(
            [
                "spirit-island",
                "flip",
                "examples/spirit_island/island_search.json",
                "--fact",
                "1:explore:A4",
                "--max-cost",
                "2",
            ]
        )
        == 0
    )
    assert "A2 -1 explorer, A2 -1 city" in capsys.readouterr().out
    assert main(["spirit-island", "data"]) == 0
    assert "BADC-partial" in capsys.readouterr().out


def test_cli_flip_writes_a_boundary_fixture_that_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fixture = tmp_path / "boundary.json"
    assert (
        main(
            [
                "spirit-island",
                "flip",
                "examples/spirit_island/island_search.json",
                "--fact",
                "1:explore:A4",
                "--max-cost",
                "2",
                "--write",
                str(fixture),
            ]
        )
        == 0
    )
    capsys.readouterr()
    scenario = load_scenario(str(fixture))
    playthrough = run(scenario)
    explored = [e.get("lands") for e in playthrough.events if e.kind == "explored"]
    assert "A4" not in explored[0]  # the flipped fact: A4 is not explored in turn 1
    assert main(["spirit-island", "simulate", str(fixture)]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["fear-threshold", "--land", "T@2"], "--land:$: T@2 has Damage 2 but Health 2"),
        (["fear-threshold", "--land", "T", "--health", "tower=1"], "--health:tower=1: use KIND=DELTA"),
        (["fear-threshold"], "--land:$: give the pieces"),
        (["cascade", "examples/spirit_island/invader_phase.json", "--land", "A3"], "A3 has no Blight"),
        (["flip", "examples/spirit_island/island_search.json", "--fact", "9:ravage:A1"], "turn must be 1-3"),
        (
            ["flip", "examples/spirit_island/island_search.json", "--fact", "1:explore:A7"],
            "already depends on the players' choices",
        ),
        (["lands", "examples/spirit_island/invader_phase.json"], "island search"),
    ],
)
def test_cli_search_errors_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spirit-island", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_the_reproduce_line_comes_from_the_parsed_arguments(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Called from another program, main() must not print that program's sys.argv; names with
    spaces or shell characters are quoted."""
    odd = tmp_path / "a b;touch P.json"
    odd.write_text(
        Path("examples/spirit_island/invader_phase.json").read_text(encoding="utf-8"), encoding="utf-8"
    )
    monkeypatch.setattr("sys.argv", ["some-other-program", "--its-own-flag"])
    assert main(["spirit-island", "simulate", str(odd), "--ruling", "SI-LAND-ORDER=board-order"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("Reproduce:"))
    assert line == (
        f"Reproduce: `invasion spirit-island simulate '{odd}' --ruling SI-LAND-ORDER=board-order`"
    )


def test_the_command_line_lists_the_solvers_objectives_and_goals() -> None:
    # The parser names them without importing the solvers (so --help stays fast).
    from invasion_oracle.reports.spirit_island import cli
    from invasion_oracle.solver.spirit_island.defend import GOALS
    from invasion_oracle.solver.spirit_island.fear_threshold import OBJECTIVES

    assert tuple(OBJECTIVES) == cli.OBJECTIVES and tuple(GOALS) == cli.GOALS


def test_search_json_is_the_envelope(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["spirit-island", "defend", "--land", "C T 2D@1", "--engine", "z3", "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["game"] == "spirit-island" and envelope["query"] == "defend"
    assert envelope["status"] == "proven" and envelope["replayed"] is True
    assert [(p["goal"], p["least_defend"]) for p in envelope["answer"]["plans"]] == [
        ("no-blight", 4),
        ("dahan-safe", 5),
    ]
