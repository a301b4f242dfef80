"""What a process that loads and plays the games imports: not networkx nor drawsvg (together about
0.2 s of CPU at every start of an adapter or a command), which only the graph views and the
pictures need. Each loads when first asked for, and gives what it gave before."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

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

# a game's modules other than those reading its spec imports (its name, title and rulings)
LOADED = """
def loaded():
    games = sorted({name.split(".")[2] for name in sys.modules
                    if name.startswith("invasion_oracle.model.") and name.count(".") >= 3
                    and name.split(".")[2] != "core" and name.split(".")[3] not in ("rulings", "spec")})
    return {"games": games, "jsonschema": "jsonschema" in sys.modules}
"""

COMMAND = (
    """
import io, json, sys
from contextlib import redirect_stdout
from invasion_oracle.reports.cli import main
"""
    + LOADED
    + """
out = io.StringIO()
with redirect_stdout(out):
    status = main(json.loads(sys.argv[1]))
print(json.dumps({"status": status, "out": out.getvalue(), **loaded()}))
"""
)

ADAPTER = (
    """
import io, json, sys
from invasion_oracle.reports.conform.adapter import serve
"""
    + LOADED
    + """
case = sys.stdin.buffer.read()
said, replied = io.BytesIO(), io.BytesIO()
serve(io.BytesIO(b'{"type": "hello"}\\n{"type": "bye"}\\n'), said)
after_hello = loaded()
serve(io.BytesIO(case + b'{"type": "bye"}\\n'), replied)
print(json.dumps({"hello": json.loads(said.getvalue()), "after_hello": after_hello,
                  "reply": json.loads(replied.getvalue()), "after_case": loaded()}))
"""
)


def _command(argv: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", COMMAND, json.dumps(argv)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-800:]
    out: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    assert out["status"] == 0, out
    return out


def test_invasion_games_reads_every_spec_and_loads_no_game_nor_the_schema_checks() -> None:
    from invasion_oracle.model import registry
    from invasion_oracle.model.core.rulings import REGISTRY

    out = _command(["games", "--json"])
    assert out["games"] == [] and not out["jsonschema"]
    # and the table is whole: every game with its rulebook and as many rulings as a loaded game has
    registry.load_all()
    listed = {row["game"]: row for row in json.loads(out["out"])["answer"]}
    assert list(listed) == list(registry.names())
    for spec in registry.specs():
        row = listed[spec.name]
        assert (row["title"], row["rulebook"]) == (spec.title, spec.rulebook)
        assert row["rulings"] == len(REGISTRY.all(spec.name)) > 0


def test_a_stonespine_command_loads_no_other_game() -> None:
    out = _command(["stonespine", "simulate", "example:stonespine/default", "--format", "json"])
    assert out["games"] == ["stonespine"]
    answer = json.loads(out["out"])["answer"]
    assert answer["game"] == "stonespine" and answer["outcome"]["players"]


def test_an_adapter_says_hello_loading_no_game_and_plays_a_case_loading_only_its_game() -> None:
    from pathlib import Path

    from invasion_oracle.reports.conform.grade import LEVELS, verdict
    from invasion_oracle.reports.conform.protocol import encode
    from invasion_oracle.reports.conform.runner import case_message, load_cases

    fixtures = Path(__file__).resolve().parents[2] / "fixtures"
    case = load_cases(fixtures, ("vulketh",))[0]
    message = encode(case_message(case, 0, {}, LEVELS))
    done = subprocess.run([sys.executable, "-c", ADAPTER], input=message, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr[-800:]
    out = json.loads(done.stdout)
    assert out["hello"]["type"] == "hello" and "vulketh" in out["hello"]["games"]
    assert out["after_hello"] == {"games": [], "jsonschema": False}
    assert out["after_case"]["games"] == ["vulketh"]
    assert verdict(case.variants[0], out["reply"], LEVELS).passed, out["reply"]
