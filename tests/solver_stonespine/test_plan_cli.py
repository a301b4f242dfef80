"""``invasion stonespine plan``: the JSON answer against its published schema, the SVG picture of the
best plan, and ``--compare-ruling`` side by side (small generated instances: each test well under a second)."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import jsonschema
import pytest

from invasion_oracle.model.core.jsonio import load_schema
from invasion_oracle.reports.cli import main

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_plan import small_instance


def scenario_file(tmp_path: Path, seed: int) -> str:
    path = tmp_path / f"plan-{seed}.json"
    path.write_text(json.dumps(small_instance(seed)), encoding="utf-8")
    return str(path)


def test_plan_json_answer_validates_against_the_published_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = scenario_file(tmp_path, 1)  # seed 1 has rubble: SS-RUBBLE-REMOVE can matter
    argv = ["stonespine", "plan", scenario, "--compare-ruling", "SS-RUBBLE-REMOVE", "--format", "json"]
    assert main(argv) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert (envelope["query"], envelope["status"], envelope["replayed"]) == ("plan", "proven", True)
    answer = envelope["answer"]
    validator = jsonschema.Draft202012Validator(
        load_schema("invasion_oracle.reports", "schemas/answer-stonespine-plan.schema.json")
    )
    validator.validate(answer)
    assert [r["reading"] for r in answer["readings"]] == ["uncover", "clear"]
    assert answer["readings"][0]["best"] == answer["best_expected"]
    assert answer["readings"][0]["changes_best"] is False
    # without --compare-ruling the (optional) field is left out
    del answer["readings"]
    validator.validate(answer)


def test_plan_svg_draws_the_best_plan_and_its_purchases(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = scenario_file(tmp_path, 0)  # the best plan buys a secret passage (tests/quality)
    picture = tmp_path / "plan.svg"
    assert main(["stonespine", "plan", scenario, "--measure", "defeated", "--svg", str(picture)]) == 0
    out = capsys.readouterr().out
    assert f"The picture of the best plan was written to `{picture}`" in out
    svg = picture.read_text(encoding="utf-8")
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert "the best plan" in svg and "passage bought" in svg
    assert "connection a purchase opens" in svg  # the passage opens a connection: drawn and in the legend


def test_compare_ruling_refuses_a_ruling_also_fixed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = scenario_file(tmp_path, 1)
    argv = [
        "stonespine",
        "plan",
        scenario,
        "--ruling",
        "SS-RUBBLE-REMOVE=clear",
        "--compare-ruling",
        "SS-RUBBLE-R",
    ]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--compare-ruling" in err and "also fixed by --ruling" in err and "Traceback" not in err


def test_a_time_limit_never_claims_proven(capsys: pytest.CaptureFixture[str]) -> None:
    # plan-year3 takes about 2 s of CPU: stopped after 0.05 s it is unknown or best-found, with the
    # measure's largest value as the bound
    assert (
        main(["stonespine", "plan", "example:stonespine/plan-year3", "--time-limit", "0.05", "--json"]) == 0
    )
    envelope = json.loads(capsys.readouterr().out)
    answer = envelope["answer"]
    assert envelope["status"] in ("unknown", "best-found") and answer["stopped"] == "time-limit"
    if envelope["status"] == "best-found":  # the classes found first were searched (they stream)
        # the bound is the measure's largest value, this year's trophy (the proven best is 0)
        from invasion_oracle.model.stonespine.scenario import load_scenario

        data = load_scenario("example:stonespine/plan-year3").data
        assert Fraction(answer["upper_bound"]) == data.trophy_value(3) >= 0
        assert "purchases" in answer["unfinished"] and envelope["replayed"] is False
