"""Ctrl-C in a search of every game: exit 130, the envelope says ``stopped: interrupted``.

Each search below needs far longer than the test gives it. The signal is sent once the process has
spent 1.2 s of its own CPU time (read from ``/proc``), so it lands in the search and
not in the imports, however busy the machine is. The answer printed is ``unknown`` (nothing
replayed) or the best found so far; never a proven claim, and never a traceback.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.solver.stonespine.generate import study_document
from tests.proc_stat import stat_fields

CPU_BEFORE_SIGNAL = 1.2  # seconds of the command's own time: past its imports and set-up (about 0.8 s)

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


def _interrupted_after(seconds: float, deadline: Any, search: Any) -> Any:
    """Run ``search`` under ``stop_on_interrupt(deadline)`` with a SIGINT sent to this process
    after ``seconds``; returns the TimeLimit it must raise."""
    import threading

    from invasion_oracle.solver.common import TimeLimit, stop_on_interrupt

    timer = threading.Timer(seconds, os.kill, (os.getpid(), signal.SIGINT))
    with stop_on_interrupt(deadline):
        timer.start()
        with pytest.raises(TimeLimit) as stopped:
            search()
    timer.join()
    return stopped.value


def _cpu_seconds(pid: int) -> float:
    fields = stat_fields(pid)
    assert fields is not None, f"process {pid} is gone"
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_ctrl_c_stops_a_search_of_every_game_with_exit_130(tmp_path: Path) -> None:
    # 5 rows: over a minute of the oracle engine (4 rows now take about 2 s: the signal could land
    # after the proof, in the replay, and the answer would rightly be proven).
    grid = tmp_path / "study-5x26.json"
    grid.write_text(json.dumps(study_document(5, 26, seed=1, open_doors=0.5)), encoding="utf-8")
    commands = {
        "stonespine": ["stonespine", "place", str(grid), "--engine", "oracle"],
        "spirit-island": [
            "spirit-island",
            "fear-threshold",
            "--land",
            "6C 6C@1 6T 6T@1 6E",
            "--pool",
            "3",
        ],
        "vulketh": [
            "vulketh",
            "race",
            "example:vulketh/race.json",
            "--ruling",
            "VK-POWER-UNLOCK=by-section",  # the token order too: about 30 s
        ],
        "cloudspire": ["cloudspire", "survive", "example:cloudspire/survive.json"],
    }
    env = {**os.environ, "INVASION_DEBUG": ""}
    running = {
        game: subprocess.Popen(
            [sys.executable, "-m", "invasion_oracle.reports.cli", *argv, "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for game, argv in commands.items()
    }
    waiting = dict(running)
    give_up = time.monotonic() + 120
    while waiting and time.monotonic() < give_up:
        for game, process in list(waiting.items()):
            if process.poll() is not None or _cpu_seconds(process.pid) >= CPU_BEFORE_SIGNAL:
                process.send_signal(signal.SIGINT)
                del waiting[game]
        time.sleep(0.05)
    for game, process in running.items():
        out, err = process.communicate(timeout=60)
        assert process.returncode == 130, (game, err[-500:])
        envelope = json.loads(out)
        assert envelope["stopped"] == "interrupted", game
        assert envelope["status"] in ("unknown", "best-found"), game
        if envelope["status"] == "unknown":
            assert envelope["replayed"] is False, game


def test_ctrl_c_during_a_z3_check_is_an_interrupt_not_a_time_limit() -> None:
    """z3 catches SIGINT itself while it checks and answers unknown ("canceled", as for a timeout):
    under stop_on_interrupt the check stops at once and the deadline knows it was Ctrl-C."""

    import z3

    from invasion_oracle.solver.common import Deadline, z3_check

    solver = z3.Solver()
    pigeons = [z3.Int(f"p{i}") for i in range(40)]
    solver.add(z3.Distinct(pigeons), *[z3.And(p >= 0, p < 39) for p in pigeons])  # unsat, slowly
    deadline = Deadline()
    stopped = _interrupted_after(0.3, deadline, lambda: z3_check(solver, deadline))
    assert stopped.reason == "interrupted"
    assert deadline.stopped() and deadline.tripped == "interrupted"
    assert z3.get_param("ctrl_c") == "true"  # z3's own handler is back once the command is done


def test_ctrl_c_during_a_cpsat_solve_is_an_interrupt_not_a_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CP-SAT, left to itself, catches SIGINT during a solve and stops as at a time limit (the
    Python handler never hears of it): cpsat_solve leaves Ctrl-C to stop_on_interrupt, whose
    thread stops the search at once, and the deadline knows it was Ctrl-C."""

    from ortools.sat.python import cp_model

    from invasion_oracle.solver.common import Deadline, cpsat_solve

    class Slow(cp_model.CpSolver):  # pigeons below are proven apart in presolve: search instead
        def solve(self, model: Any, solution_callback: Any = None) -> Any:
            self.parameters.cp_model_presolve = False
            self.parameters.linearization_level = 0
            self.parameters.symmetry_level = 0
            return super().solve(model, solution_callback)

    monkeypatch.setattr(cp_model, "CpSolver", Slow)
    model = cp_model.CpModel()
    pigeons = [[model.new_bool_var("") for _ in range(11)] for _ in range(12)]  # 12 pigeons, 11 holes
    for holes in pigeons:
        model.add_bool_or(holes)
    for hole in range(11):
        for i in range(12):
            for k in range(i + 1, 12):
                model.add_bool_or([pigeons[i][hole].Not(), pigeons[k][hole].Not()])
    deadline = Deadline()
    stopped = _interrupted_after(0.3, deadline, lambda: cpsat_solve(model, deadline))
    assert stopped.reason == "interrupted"
    assert deadline.stopped() and deadline.tripped == "interrupted"
