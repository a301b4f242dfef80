"""What a process that loads and plays the games imports: not networkx nor drawsvg (together about
0.2 s of CPU at every start of an adapter or a command), which only the graph views and the
pictures need. Each loads when first asked for, and gives what it gave before."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

PLAY_EVERY_GAME = """
import json, sys
from pathlib import Path
import invasion_oracle as io
import invasion_oracle.examples
from invasion_oracle.model import registry

registry.load_all()
played = {}
for example in ("spirit_island/invader_phase", "spirit_island/four_boards", "vulketh/race",
                "stonespine/default", "cloudspire/survive"):
    played[example] = len(io.load("example:" + example).play().events)
# a Vul'Keth map of its own is checked for connectedness too
folder = Path(invasion_oracle.examples.__file__).parent
document = json.loads((folder / "vulketh" / "clear_hex.json").read_text())
document["map"] = {"edges": [[a, a + 1] for a in range(1, 9)]}
io.load(document)
before = sorted(m for m in ("networkx", "drawsvg") if m in sys.modules)
from invasion_oracle.model.spirit_island.scenario import scenario_from_document
four = json.loads((folder / "spirit_island" / "four_boards.json").read_text())
graph = scenario_from_document(four, "four_boards").island.graph
print(json.dumps({"played": played, "before": before, "after": "networkx" in sys.modules,
                  "nodes": graph.number_of_nodes(), "frozen": graph.frozen}))
"""


def test_playing_every_game_imports_neither_networkx_nor_drawsvg() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PLAY_EVERY_GAME], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-800:]
    out = json.loads(done.stdout)
    assert all(count > 0 for count in out["played"].values()), out["played"]
    assert out["before"] == []
    # asked for, the island's graph is there: 4 boards of 8 lands and an Ocean each, frozen
    assert out["after"] and out["nodes"] == 36 and out["frozen"]


# -- what a command and an adapter load: only the game they serve -----------------------------------

# One process runs, in this order, `invasion games`, an adapter's hello, a Stonespine command and
# a Vul'Keth case through the adapter, and notes after each which games' models are loaded (a
# game's modules other than the rulings and spec, which reading the spec imports). A command run
# after another adds only what it loads itself, so the order tells each one's imports apart.
PROBE = """
import gc, io, json, sys
from contextlib import redirect_stdout
from invasion_oracle.reports.cli import main
from invasion_oracle.reports.conform.adapter import serve

def loaded():
    games = sorted({name.split(".")[2] for name in sys.modules
                    if name.startswith("invasion_oracle.model.") and name.count(".") >= 3
                    and name.split(".")[2] != "core" and name.split(".")[3] not in ("rulings", "spec")})
    return {"games": games, "jsonschema": "jsonschema" in sys.modules}

def command(argv):
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(argv)
    return {"status": status, "out": json.loads(out.getvalue()), "loaded": loaded()}

def adapter(lines):
    said = io.BytesIO()
    status = serve(io.BytesIO(lines + b'{"type": "bye"}\\n'), said)
    return {"said": [json.loads(line) for line in said.getvalue().splitlines()], "loaded": loaded(),
            "status": status, "frozen": gc.get_freeze_count() > 0}

def console(argv):
    gc.unfreeze()  # (the adapter froze it as it ended)
    sys.argv = ["invasion", *argv]
    with redirect_stdout(io.StringIO()):
        status = main()
    return {"status": status, "frozen": gc.get_freeze_count() > 0}

case = sys.stdin.buffer.read()
print(json.dumps({
    "games": command(["games", "--json"]),
    "frozen_after_a_call": gc.get_freeze_count() > 0,
    "hello": adapter(b'{"type": "hello"}\\n'),
    "stonespine": command(["stonespine", "simulate", "example:stonespine/default", "--format", "json"]),
    "case": adapter(case),
    "console": console(["games", "--json"]),
}))
"""


@pytest.fixture(scope="module")
def probe() -> tuple[Any, dict[str, Any]]:
    """The probe's record, and the Vul'Keth case it sent (the first worked example's)."""
    from invasion_oracle.reports.conform.grade import LEVELS
    from invasion_oracle.reports.conform.protocol import encode
    from invasion_oracle.reports.conform.runner import case_message, load_cases

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    case = load_cases(fixtures, ("vulketh",), ("vulketh/worked-examples/",))[0]
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        input=encode(case_message(case, 0, {}, LEVELS)),
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-800:]
    record: dict[str, Any] = json.loads(done.stdout)
    return case, record


def test_invasion_games_reads_every_spec_and_loads_no_game_nor_the_schema_checks(
    probe: tuple[Any, dict[str, Any]],
) -> None:
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.rulings import REGISTRY

    games = probe[1]["games"]
    assert games["status"] == 0 and games["loaded"] == {"games": [], "jsonschema": False}
    # and the table is whole: every game with its rulebook and as many rulings as a loaded game has
    registry.load_all()
    listed = {row["game"]: row for row in games["out"]["answer"]}
    assert list(listed) == list(registry.names())
    for spec in registry.specs():
        row = listed[spec.name]
        assert (row["title"], row["rulebook"]) == (spec.title, spec.rulebook)
        assert row["rulings"] == len(REGISTRY.all(spec.name)) > 0


def test_an_adapter_says_hello_loading_no_game(probe: tuple[Any, dict[str, Any]]) -> None:
    (said,) = probe[1]["hello"]["said"]
    assert said["type"] == "hello" and "vulketh" in said["games"]
    assert probe[1]["hello"]["loaded"] == {"games": [], "jsonschema": False}


def test_a_stonespine_command_loads_no_other_game(probe: tuple[Any, dict[str, Any]]) -> None:
    run = probe[1]["stonespine"]
    assert run["status"] == 0 and run["loaded"]["games"] == ["stonespine"]
    assert run["out"]["answer"]["game"] == "stonespine" and run["out"]["answer"]["outcome"]["players"]
    # a valid scenario passes the compiled check: jsonschema (about 0.09 s) is never imported
    compiled = importlib.util.find_spec("jsonschema_rs") is not None
    assert run["loaded"]["jsonschema"] is not compiled


def test_an_adapter_s_case_loads_only_its_game(probe: tuple[Any, dict[str, Any]]) -> None:
    from invasion_oracle.reports.conform.grade import LEVELS, verdict

    case, record = probe
    assert record["case"]["loaded"]["games"] == ["stonespine", "vulketh"]  # Stonespine: the command's
    # the case message and the answer pass the compiled checks: no jsonschema either
    assert record["case"]["loaded"]["jsonschema"] is (importlib.util.find_spec("jsonschema_rs") is None)
    (reply,) = record["case"]["said"]
    assert verdict(case.variants[0], reply, LEVELS).passed, reply


def test_a_command_and_an_adapter_leave_the_collector_frozen_as_they_end(
    probe: tuple[Any, dict[str, Any]],
) -> None:
    """The console script's process ends after ``main()``, an adapter's after ``serve()``: their
    collections at exit skip what they loaded (a seventh of an adapter's start, one case and its
    exit). ``main(argv)`` called from Python leaves the caller's collector alone."""
    assert probe[1]["frozen_after_a_call"] is False
    assert probe[1]["hello"]["status"] == 0 and probe[1]["hello"]["frozen"] is True
    assert probe[1]["console"] == {"status": 0, "frozen": True}
