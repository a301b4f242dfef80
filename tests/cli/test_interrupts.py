"""Ctrl-C in a search of every game: exit 130, the envelope says ``stopped: interrupted``.

Each search below needs far longer than the test gives it. Three games are interrupted in the test's
process (a real SIGINT to the command's own handler, sent once the search has checked its deadline
and then spent a few milliseconds of CPU); one as a real command, whose signal is sent once the
search has printed its first progress line. Either way the signal lands in the search, not in the
reading or the imports, however busy the machine is, and no test waits a fixed time. The answer printed is ``unknown`` (nothing
replayed) or the best found so far; never a proven claim, and never a traceback.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from invasion_oracle.solver.stonespine.generate import study_document


def _main_thread_cpu() -> Callable[[], float]:
    """The calling thread's CPU clock (call it in the main thread): read from another thread, it
    tells how far the main thread has got, however busy the machine (wall time does not)."""
    clock = time.pthread_getcpuclockid(threading.get_ident())
    return lambda: time.clock_gettime(clock)


def _under_way() -> bool:
    """Whether a search is under way: it checked its deadline (every search loop does), or a z3
    check or CP-SAT solve runs."""
    from invasion_oracle.solver import common

    return _CHECKS[0] > 0 or common._Z3_CHECKING[0] > 0 or bool(common._CPSAT_SOLVING)


_CHECKS = [0]  # Deadline.check calls since the test began (the tests that count them reset it)
INSIDE_CPU_SECONDS = 0.02
"""CPU the main thread spends in the search before the signal: past the few Python lines between
"under way" and the solver's own loop, whatever the load (a wall-clock delay would be too short on
a busy machine and wasted on an idle one)."""
GIVE_UP_SECONDS = 60.0  # a search that never says it is under way is signalled anyway (no hang)


@contextlib.contextmanager
def _sigint_once_under_way(ready: Callable[[], bool] = _under_way) -> Iterator[None]:
    """Send this process one SIGINT once ``ready()`` holds and the main thread has then spent
    :data:`INSIDE_CPU_SECONDS` of CPU, and never once the block is left (a lock and a flag), so the
    signal lands in the search and meets the command's handler, not pytest's."""
    cpu = _main_thread_cpu()
    lock = threading.Lock()
    left = threading.Event()

    def fire() -> None:
        give_up = time.monotonic() + GIVE_UP_SECONDS
        since: float | None = None
        while not left.wait(0.002):
            if since is None and ready():
                since = cpu()
            if (since is not None and cpu() - since >= INSIDE_CPU_SECONDS) or time.monotonic() > give_up:
                with lock:
                    if not left.is_set():
                        os.kill(os.getpid(), signal.SIGINT)
                return

    watcher = threading.Thread(target=fire, name="sigint-once", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        with lock:
            left.set()
        watcher.join()


def _interrupted_inside(ready: Callable[[], bool], deadline: Any, search: Any) -> Any:
    """Run ``search`` under ``stop_on_interrupt(deadline)`` with a SIGINT sent to this process once
    it is inside (``ready``); returns the TimeLimit it must raise."""
    from invasion_oracle.solver.common import TimeLimit, stop_on_interrupt

    with stop_on_interrupt(deadline), _sigint_once_under_way(ready), pytest.raises(TimeLimit) as stopped:
        search()
    return stopped.value


SEARCHES = {
    "stonespine": ["stonespine", "place", "{grid}", "--engine", "oracle"],
    "spirit-island": ["spirit-island", "fear-threshold", "--land", "6C 6C@1 6T 6T@1 6E", "--pool", "3"],
    "vulketh": [
        "vulketh",
        "race",
        "example:vulketh/race.json",
        "--ruling",
        "VK-POWER-UNLOCK=by-section",  # the token order too: about 30 s
    ],
    "cloudspire": ["cloudspire", "survive", "example:cloudspire/survive.json"],
}
"""A search per game that needs far longer than the tests give it."""

IN_PROCESS = ("stonespine", "spirit-island", "cloudspire")
"""Interrupted in the test's own process; Vul'Keth (z3, whose own Ctrl-C handler the command turns
off) is interrupted as a real command, signal, exit status and all."""


def _search_argv(game: str, tmp_path: Path) -> list[str]:
    # 5 rows: over a minute of the oracle engine (4 rows now take about 2 s: the signal could land
    # after the proof, in the replay, and the answer would rightly be proven).
    grid = tmp_path / "study-5x26.json"
    if not grid.exists():
        grid.write_text(json.dumps(study_document(5, 26, seed=1, open_doors=0.5)), encoding="utf-8")
    return [word.replace("{grid}", str(grid)) for word in SEARCHES[game]] + ["--json"]


def _assert_interrupted(game: str, status: int, out: str, err: str) -> None:
    assert status == 130, (game, err[-500:])
    envelope = json.loads(out)
    assert envelope["stopped"] == "interrupted", game
    assert envelope["status"] in ("unknown", "best-found"), game
    if envelope["status"] == "unknown":
        assert envelope["replayed"] is False, game


def _signal_once_under_way(original: Callable[..., Any]) -> Callable[..., Any]:
    """``stop_on_interrupt`` that sends this process one SIGINT once the search is under way
    (:func:`_sigint_once_under_way`), inside the command's own handler: wherever it lands (search,
    replay) the command must answer honestly."""

    @contextlib.contextmanager
    def signalling(*deadlines: Any) -> Iterator[None]:
        with original(*deadlines), _sigint_once_under_way():
            yield

    return signalling


@pytest.mark.parametrize("game", IN_PROCESS)
def test_ctrl_c_stops_a_search_with_exit_130(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from invasion_oracle.reports.cli import main
    from invasion_oracle.solver import common

    monkeypatch.setenv("INVASION_DEBUG", "")
    real_check = common.Deadline.check

    def counted(deadline: common.Deadline) -> None:
        _CHECKS[0] += 1
        real_check(deadline)

    _CHECKS[0] = 0
    monkeypatch.setattr(common.Deadline, "check", counted)
    monkeypatch.setattr(common, "stop_on_interrupt", _signal_once_under_way(common.stop_on_interrupt))
    status = main(_search_argv(game, tmp_path))
    captured = capsys.readouterr()
    _assert_interrupted(game, status, captured.out, captured.err)


def test_ctrl_c_stops_a_search_command_with_exit_130(tmp_path: Path) -> None:
    """The real command: SIGINT from outside once its search has said it is under way."""
    game = "vulketh"
    process = subprocess.Popen(
        [sys.executable, "-m", "invasion_oracle.reports.cli", *_search_argv(game, tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        # a progress line at the search's first step (in a pipe): the signal is sent on it, so it
        # lands in the search (whose handler is set), not in the imports, however busy the machine
        env={**os.environ, "INVASION_DEBUG": "", "INVASION_PROGRESS_SECONDS": "0"},
    )
    assert process.stderr is not None
    said = _until_a_line_with(b"invasion: race", process.stderr.fileno(), time.monotonic() + 120)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    _assert_interrupted(game, process.returncode, out.decode(), (said + err).decode())
    assert b"invasion: race" in said, said  # the signal was sent on the search's progress line


def _until_a_line_with(marker: bytes, fd: int, give_up: float) -> bytes:
    """What ``fd`` gives until a whole line holding ``marker`` (or its end, or ``give_up``): never
    blocked on past the deadline."""
    said = b""
    with selectors.DefaultSelector() as selector:
        selector.register(fd, selectors.EVENT_READ)
        while not any(marker in line for line in said.split(b"\n")[:-1]) and time.monotonic() < give_up:
            if not selector.select(give_up - time.monotonic()):
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            said += chunk
    return said


def test_ctrl_c_during_a_z3_check_is_an_interrupt_not_a_time_limit() -> None:
    """z3 catches SIGINT itself while it checks and answers unknown ("canceled", as for a timeout):
    under stop_on_interrupt the check stops at once and the deadline knows it was Ctrl-C."""

    import z3

    from invasion_oracle.solver import common
    from invasion_oracle.solver.common import Deadline, z3_check

    solver = z3.Solver()
    pigeons = [z3.Int(f"p{i}") for i in range(40)]
    solver.add(z3.Distinct(pigeons), *[z3.And(p >= 0, p < 39) for p in pigeons])  # unsat, slowly
    deadline = Deadline()
    checking = lambda: common._Z3_CHECKING[0] > 0  # noqa: E731
    stopped = _interrupted_inside(checking, deadline, lambda: z3_check(solver, deadline))
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

    from invasion_oracle.solver import common
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
    solving = lambda: bool(common._CPSAT_SOLVING)  # noqa: E731
    stopped = _interrupted_inside(solving, deadline, lambda: cpsat_solve(model, deadline))
    assert stopped.reason == "interrupted"
    assert deadline.stopped() and deadline.tripped == "interrupted"
