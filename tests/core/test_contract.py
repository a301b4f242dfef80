"""The game contract: a toy game is simulated, replayed, written as fixtures and listed by the
command line through the registry alone (issue "One shape for four games")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.play import load_file, replay_trace, run, trace_document
from invasion_oracle.reports import fixtures
from invasion_oracle.reports.cli import main
from tests.core.toy_game import SPEC

EXAMPLE = "example:tests.core:toy_examples/three.json"


@pytest.fixture
def nim() -> Iterator[None]:
    registry.register(SPEC)
    yield
    registry.unregister(SPEC.name)


def test_the_toy_game_plays_and_replays_through_the_shared_parts(nim: None) -> None:
    scenario = load_file(SPEC, EXAMPLE)
    playthrough = run(scenario)
    # Bo starts (scripted die), takes two (scripted), Ann takes the last (first legal) and wins.
    assert [e.to_json() for e in playthrough.events][-1] == {
        "event": "took",
        "player": "Ann",
        "stones": 1,
        "left": 0,
    }
    trace = trace_document(SPEC, scenario, playthrough)
    assert trace["outcome"] == {"winner": "Ann"} and trace["game"] == "nim"
    assert replay_trace(SPEC, json.loads(json.dumps(trace, default=lambda o: o.to_json())), "t").identical


def test_the_command_line_lists_simulates_and_replays_the_toy_game(
    nim: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["games"]) == 0
    assert "| nim " in capsys.readouterr().out
    trace = tmp_path / "nim.trace.json"
    assert main(["simulate", EXAMPLE, "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "0 stone(s)" in out and "Reproduce: `invasion simulate" in out
    assert main(["replay", str(trace)]) == 0
    assert "replay identical" in capsys.readouterr().out
    assert main(["nim", "simulate", EXAMPLE, "--json"]) == 0
    envelope = json.loads(capsys.readouterr().out)
    assert envelope["game"] == "nim" and envelope["answer"]["outcome"] == {"winner": "Ann"}
    # Another game's verb names the verb the file belongs to.
    assert main(["stonespine", "simulate", EXAMPLE]) == 2
    assert "use `invasion nim simulate" in capsys.readouterr().err


def test_fixtures_include_the_toy_game(nim: None, tmp_path: Path) -> None:
    cases = {f.case: f for f in fixtures.build() if f.game == "nim"}
    assert list(cases) == ["nim/three"]
    assert json.loads(cases["nim/three"].text)["outcome"] == {"winner": "Ann"}
    assert [str(r) for r in examples(SPEC.examples)] == [EXAMPLE]


def test_unknown_game_in_a_file_is_refused_with_the_known_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "x.json"
    path.write_text('{"game": "chess"}', encoding="utf-8")
    assert main(["simulate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "$.game: unknown game 'chess'" in err and "stonespine" in err


def test_every_game_map_is_the_shared_places() -> None:
    from invasion_oracle.model.cloudspire.area import play_area
    from invasion_oracle.model.core.places import Places
    from invasion_oracle.model.stonespine.dungeon import PassageMode
    from invasion_oracle.model.stonespine.scenario import load_scenario
    from invasion_oracle.model.vulketh.hexmap import default_map

    dungeon = load_scenario("example:stonespine/default.json").initial.players[0].dungeon
    chambers = dungeon.places(PassageMode.EDGE)
    assert isinstance(chambers, Places) and "A1" in chambers
    assert set(dungeon.graph(PassageMode.EDGE).edges) == set(chambers.graph.edges)
    hexes = default_map().places()
    assert len(hexes) == 9 and hexes.connected()
    assert isinstance(play_area(), Places)
