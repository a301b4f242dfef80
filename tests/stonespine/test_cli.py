"""The `invasion stonespine` commands: tables, canonical JSON traces, replay, determinism."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from invasion_oracle.reports.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "stonespine"
DEFAULT = str(EXAMPLES / "default.json")


def test_simulate_prints_pictures_tables_and_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "simulate", DEFAULT]) == 0
    out = capsys.readouterr().out
    assert "Reproduce: `invasion stonespine simulate" in out
    assert "entrance" in out and "exit" in out  # the dungeon pictures
    for heading in ("Decisions and chance:", "Trace:", "Outcome:", "| player "):
        assert heading in out


def test_json_trace_is_canonical_and_byte_identical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out1, out2 = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["stonespine", "simulate", DEFAULT, "--trace", str(out1)]) == 0
    assert main(["stonespine", "simulate", DEFAULT, "--trace", str(out2)]) == 0
    capsys.readouterr()
    raw = out1.read_bytes()
    assert raw == out2.read_bytes()
    assert not raw.startswith(b"\xef\xbb\xbf")
    trace = json.loads(raw)
    assert trace["format"] == "invasion-oracle/trace" and trace["format_version"] == 1
    assert list(trace) == sorted(trace)
    assert set(trace["rulings"]) >= {"SS-EXIT-Y13", "SS-PASSAGE"}
    assert all(isinstance(step["request"]["request"], str) for step in trace["steps"])


def test_replay_identical_and_tampered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "trace.json"
    assert main(["stonespine", "simulate", DEFAULT, "--trace", str(path)]) == 0
    capsys.readouterr()
    assert main(["stonespine", "replay", str(path)]) == 0
    assert "replay identical" in capsys.readouterr().out
    trace = json.loads(path.read_text(encoding="utf-8"))
    # A fixture whose recorded event disagrees with the oracle is reported at its step.
    for step in trace["steps"]:
        for event in step["events"]:
            if event["event"] == "hero_damaged":
                event["damage"] += 1
                break
        else:
            continue
        break
    path.write_text(json.dumps(trace), encoding="utf-8")
    assert main(["stonespine", "replay", str(path)]) == 1
    assert "replay differs: step" in capsys.readouterr().out


def test_replay_rejects_a_file_that_is_not_a_trace(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"format": "something-else"}', encoding="utf-8")
    assert main(["stonespine", "replay", str(path)]) == 2
    assert "$.format: not an invasion-oracle trace" in capsys.readouterr().err


def test_rulings_and_data_listings(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rulings", "--game", "stonespine"]) == 0
    out = capsys.readouterr().out
    assert "SS-EXIT-Y13" in out and "forced (default)" in out
    assert main(["rulings", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["answer"]
    assert all({"id", "readings", "default", "citation", "why"} <= set(r) for r in listed)
    assert main(["stonespine", "data"]) == 0
    out = capsys.readouterr().out
    assert "Barbarian" in out and "seed" in out and "assumed" in out


def test_ruling_flag_changes_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    witness = str(EXAMPLES / "rulings" / "SS-EXIT-Y13.json")
    assert main(["stonespine", "simulate", witness]) == 0
    forced = capsys.readouterr().out
    assert main(["stonespine", "simulate", witness, "--ruling", "SS-EXIT-Y13=ignored"]) == 0
    ignored = capsys.readouterr().out
    assert "reason=exit" in forced and "reason=exit" not in ignored
    assert "Rulings changed from the default: SS-EXIT-Y13=ignored" in ignored


def test_data_file_overrides_values(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"trophies": [10, 20, 30, 40]}), encoding="utf-8")
    assert main(["stonespine", "simulate", DEFAULT, "--data", str(data), "--json"]) == 0
    trace = json.loads(capsys.readouterr().out)["answer"]
    values = [t["value"] for p in trace["outcome"]["players"] for t in p["trophies"]]
    assert values and all(v == 30 for v in values)  # the example is year 3


SCENARIOS = sorted(p.name for p in EXAMPLES.rglob("*.json") if p.name != "data-override.json")


def test_the_example_data_file_applies(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "data", "--data", str(EXAMPLES / "data-override.json")]) == 0
    out = capsys.readouterr().out
    assert "| Paladin      | purple   |        6 |" in out
    assert (
        "| hatchlings_extra     |  2 "
        in out.replace("| hatchlings_extra     | 2 ", "| hatchlings_extra     |  2 ")
        or "hatchlings_extra" in out
    )


def test_ambiguities_command_on_a_scenario(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stonespine", "ambiguities", DEFAULT, "--only", "SS-TROLL-MOVE"]) == 0
    out = capsys.readouterr().out
    assert "SS-TROLL-MOVE=may" in out and "change the outcome" in out


@pytest.mark.parametrize("example", SCENARIOS)
def test_every_example_runs_and_replays(
    example: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = next(EXAMPLES.rglob(example))
    trace = tmp_path / "t.json"
    assert main(["stonespine", "simulate", str(path), "--trace", str(trace)]) == 0
    capsys.readouterr()
    assert main(["stonespine", "replay", str(trace)]) == 0


def test_an_unmodelled_ongoing_ability_is_named_beside_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    # The default scenario's Dragon has an ongoing ability the seed does not give.
    assert main(["stonespine", "simulate", DEFAULT]) == 0
    assert "`dragon-ongoing`, which the rulebook does not give" in capsys.readouterr().out
    assert main(["stonespine", "simulate", DEFAULT, "--ruling", "SS-UNKNOWN-ONGOING=refuse"]) == 2
    assert "dragon-ongoing" in capsys.readouterr().err
