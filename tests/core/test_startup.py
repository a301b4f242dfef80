"""What a process that loads and plays the games imports: not networkx nor drawsvg (together about
0.2 s of CPU at every start of an adapter or a command), which only the graph views and the
pictures need. Each loads when first asked for, and gives what it gave before."""

from __future__ import annotations

import json
import subprocess
import sys

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
