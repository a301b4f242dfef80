"""The `invasion cloudspire` commands: simulate through the contract, pictures, data, the searches,
ambiguities, traces that replay, bad input."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from invasion_oracle.model.cloudspire.render import render_svg, render_text
from invasion_oracle.model.cloudspire.scenario import load_scenario
from invasion_oracle.reports.cli import main

ROUND = "example:cloudspire/round.json"


def test_simulate_shows_the_play_area_before_and_after(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cloudspire", "simulate", ROUND]) == 0
    out = capsys.readouterr().out
    assert "Reproduce: `invasion cloudspire simulate example:cloudspire/round.json`" in out
    assert "Deployment Stack:" in out and "Dice: pool" in out
    for heading in ("Decisions and chance:", "Trace:", "After:", "Outcome:"):
        assert heading in out


def test_a_trace_is_byte_identical_and_replays(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one, two = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["cloudspire", "simulate", ROUND, "--trace", str(one)]) == 0
    assert main(["cloudspire", "simulate", ROUND, "--trace", str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(one)]) == 0
    assert "replay identical" in capsys.readouterr().out
    trace = json.loads(one.read_text(encoding="utf-8"))
    for step in trace["steps"]:
        for event in step["events"]:
            if event["event"] == "health_lost":
                event["amount"] += 1
    one.write_text(json.dumps(trace), encoding="utf-8")
    assert main(["cloudspire", "replay", str(one)]) == 1
    assert "replay differs" in capsys.readouterr().out


def test_the_svg_and_text_pictures(tmp_path: Path) -> None:
    scenario = load_scenario(ROUND)
    svg = render_svg(scenario, scenario.initial)
    root = ET.fromstring(svg)
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "Deployment Stack" in texts and "Water Tower" in texts and "hero Harbor Keeper" in texts
    text = render_text(scenario, scenario.initial)
    assert "L-bottom Harbor-1" in text and "bp1 [blue]" in text and "top lane Driftwood-3" in text
    stacked = load_scenario("example:cloudspire/engagement.json")
    assert "+1 under: Bark Brute" in render_text(stacked, stacked.initial)  # hidden cards counted
    assert main(["cloudspire", "simulate", ROUND, "--svg", str(tmp_path / "p.svg")]) == 0
    assert (tmp_path / "p.svg").read_text(encoding="utf-8").startswith("<svg")


def test_data_says_the_card_set_is_an_assumed_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cloudspire", "data"]) == 0
    out = capsys.readouterr().out
    assert "**Card set: assumed**" in out and "invented example" in out
    assert "Water Tower (spire)" in out and "Lance Launcher (spire)" in out


def test_data_with_an_override_is_marked_user(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "d.json"
    data.write_text(json.dumps({"values": {"crit_damage": 3}}), encoding="utf-8")
    assert main(["cloudspire", "data", "--data", str(data)]) == 0
    assert "| crit_damage        | 3         | user" in capsys.readouterr().out


def test_engagement_prints_both_plans_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "cloudspire",
                "engagement",
                "example:cloudspire/engagement.json",
                "--engine",
                "z3",
                "--format",
                "md",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "engine z3" in out and "| defeat " in out and "| health " in out
    assert (
        main(["cloudspire", "engagement", "example:cloudspire/engagement.json", "--engine", "z3", "--json"])
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    assert doc["status"] == "proven" and doc["replayed"] is True
    assert [(p["objective"], p["defeated"], p["health_lost"]) for p in doc["answer"]["plans"]] == [
        ("defeat", 2, 1),
        ("health", 1, 0),
    ]
    # CP-SAT answers z3's plans: the same JSON answer but for the engine
    assert (
        main(
            ["cloudspire", "engagement", "example:cloudspire/engagement.json", "--engine", "cpsat", "--json"]
        )
        == 0
    )
    cpsat = json.loads(capsys.readouterr().out)
    assert cpsat["answer"] == {**doc["answer"], "engine": "cpsat"} and cpsat["replayed"] is True


def test_survive_and_spires_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    survive = tmp_path / "s.json"
    document = json.loads(
        Path(__file__).resolve().parents[2].joinpath("examples/cloudspire/survive.json").read_text()
    )
    document["rounds"] = 1
    survive.write_text(json.dumps(document), encoding="utf-8")
    assert main(["cloudspire", "survive", str(survive), "--engine", "grouped", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["answer"]["probability"] == "1" and doc["replayed"] is True
    args = [
        "example:cloudspire/spires.json",
        "--bound",
        "1",
        "--rounds",
        "1",
        "--engine",
        "z3",
        "--format",
        "md",
    ]
    assert main(["cloudspire", "spires", *args]) == 0
    out = capsys.readouterr().out
    assert "Fewest spires keeping Health above 1" in out


def test_the_shared_ambiguities_verb_shows_a_witness(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["cloudspire", "ambiguities", "--only", "CS-BOSS-GLOBAL", "--no-fixtures", "--format", "md"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "every reading told apart by `example:cloudspire/rulings/CS-BOSS-GLOBAL.json`" in out
    assert "| hero: health        | `12`                   | `13`            |" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["cloudspire", "simulate", "nowhere.json"], "nowhere.json:$: no such file"),
        (["cloudspire", "engagement", "example:cloudspire/round.json"], "starts with the dice rolled"),
        (
            ["cloudspire", "simulate", ROUND, "--ruling", "CS-ROLLS=often"],
            "unknown reading of CS-ROLLS 'often'",
        ),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
