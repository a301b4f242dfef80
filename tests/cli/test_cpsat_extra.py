"""OR-Tools is an extra (``invasion-oracle[cpsat]``, issue 36): without it, ``--engine cpsat`` is one
line and exit 2, ``both`` runs the engines installed and names CP-SAT ``not-installed`` (still
proven by the others), and ``auto`` never needs it, for every game with a CP-SAT engine.

The absence is simulated in a subprocess (``sys.modules["ortools"] = None`` blocks the import, as a
missing package would); one interpreter runs every game's commands, to keep the test short.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from invasion_oracle.solver.common import cpsat_available

PROBE = r"""
import contextlib, io, json, sys
sys.modules["ortools"] = None  # as if OR-Tools were not installed
from invasion_oracle.reports.cli import main

def run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return {"argv": argv, "status": status, "out": out.getvalue(), "err": err.getvalue()}

import invasion_oracle as io_
from invasion_oracle.solver.common import cpsat_available
from invasion_oracle.solver.stonespine.min_damage import _after_budget
from invasion_oracle.solver.vulketh.clear import ClearQuestion, auto_engine
from invasion_oracle.model.vulketh.scenario import load_scenario
big = ClearQuestion(load_scenario("example:vulketh/clear_hex.json"), 7, 5, tuple(range(1, 10)))
try:
    io_.spirit_island.fear_threshold("C C@1 2T T@1 2E", fear=1, engine="cpsat")
    library = "answered"
except io_.MissingEngineError as err:
    library = str(err)
results = {
    "available": cpsat_available(),
    "clear_auto_past_crossover": auto_engine(big),
    "min_damage_after_budget": _after_budget(),
    "library": library,
    "ortools_imported": False,
    "runs": [run(argv) for argv in json.loads(sys.argv[1])],
}
results["ortools_imported"] = any(name.startswith("ortools.") for name in sys.modules)
print(json.dumps(results))
"""

# (game's search, its options): each run with --engine cpsat, both and auto (the default)
SEARCHES = {
    "stonespine": [
        "stonespine",
        "min-damage",
        "example:stonespine/placement.json",
        "--what",
        "minions",
        "--heroes",
        "red,red,red,red",
    ],
    "spirit-island": ["spirit-island", "fear-threshold", "--land", "C C@1 2T T@1 2E", "--pool", "3"],
    # (--hexes 7: the same answer, two members on hex 7, for a third of z3's time)
    "vulketh": [
        "vulketh",
        "clear",
        "example:vulketh/clear_hex.json",
        "--hex",
        "7",
        "--members",
        "4",
        "--hexes",
        "7",
    ],
    "cloudspire": ["cloudspire", "engagement", "example:cloudspire/engagement.json"],
}
ENGINES = ("cpsat", "both", "auto")

# Every test here reads the one probe (a module fixture): under `make test` (--dist loadgroup) they
# run in one worker, so the probe's interpreter runs once, not once per worker.
pytestmark = pytest.mark.xdist_group("cpsat-extra-probe")


@pytest.fixture(scope="module")
def without_ortools() -> dict[str, object]:
    argvs = [
        [*argv, "--engine", engine, "--format", "json"] for argv in SEARCHES.values() for engine in ENGINES
    ]
    done = subprocess.run(
        [sys.executable, "-c", PROBE, json.dumps(argvs)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    results: dict[str, object] = json.loads(done.stdout)
    return results


def _run(results: dict[str, object], game: str, engine: str) -> dict[str, object]:
    runs = results["runs"]
    assert isinstance(runs, list)
    argv = [*SEARCHES[game], "--engine", engine, "--format", "json"]
    found: dict[str, object] = next(r for r in runs if r["argv"] == argv)
    return found


def test_the_probe_really_lacks_ortools(without_ortools: dict[str, object]) -> None:
    assert without_ortools["available"] is False and without_ortools["ortools_imported"] is False
    assert cpsat_available()  # the dev install has it: the tests cover CP-SAT itself


@pytest.mark.parametrize("game", SEARCHES)
def test_engine_cpsat_without_ortools_is_one_line(without_ortools: dict[str, object], game: str) -> None:
    ran = _run(without_ortools, game, "cpsat")
    assert ran["status"] == 2 and ran["out"] == ""
    assert ran["err"] == (
        "invasion: error: --engine cpsat needs OR-Tools, which is not installed: "
        "pip install 'invasion-oracle[cpsat]'\n"
    )


@pytest.mark.parametrize("game", SEARCHES)
def test_both_runs_the_engines_installed_and_names_cpsat(
    without_ortools: dict[str, object], game: str
) -> None:
    ran = _run(without_ortools, game, "both")
    assert ran["status"] == 0 and ran["err"] == "", ran
    envelope = json.loads(str(ran["out"]))
    engines = envelope["engines"]
    assert engines["unfinished"] == [{"engine": "cpsat", "started": False, "stopped": "not-installed"}]
    assert len(engines["finished"]) >= 2 and "cpsat" not in engines["finished"]
    # the engines that ran finished and agree: proven, and named as the ones that answered
    assert envelope["status"] == "proven"
    assert set(envelope["answer"]["engine"].split("+")) == set(engines["finished"])


@pytest.mark.parametrize("game", SEARCHES)
def test_auto_needs_no_ortools(without_ortools: dict[str, object], game: str) -> None:
    ran = _run(without_ortools, game, "auto")
    assert ran["status"] == 0 and ran["err"] == "", ran
    envelope = json.loads(str(ran["out"]))
    assert envelope["status"] == "proven" and "cpsat" not in envelope["answer"]["engine"]


def test_auto_falls_back_where_it_would_take_cpsat(without_ortools: dict[str, object]) -> None:
    # past the crossover auto takes CP-SAT when installed, z3 when not; so after min-damage's budget
    from invasion_oracle.model.vulketh.scenario import load_scenario
    from invasion_oracle.solver.stonespine.min_damage import _after_budget
    from invasion_oracle.solver.vulketh.clear import ClearQuestion, auto_engine

    big = ClearQuestion(load_scenario("example:vulketh/clear_hex.json"), 7, 5, tuple(range(1, 10)))
    assert (auto_engine(big), _after_budget()) == ("cpsat", "cpsat")
    assert without_ortools["clear_auto_past_crossover"] == "z3"
    assert without_ortools["min_damage_after_budget"] == "z3"


def test_the_library_raises_missing_engine(without_ortools: dict[str, object]) -> None:
    assert without_ortools["library"] == (
        "--engine cpsat needs OR-Tools, which is not installed: pip install 'invasion-oracle[cpsat]'"
    )
