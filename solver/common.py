"""What every search shares: time and memory limits, Ctrl-C, progress on a terminal, z3 results
as proven/best-found/unknown."""

from __future__ import annotations

import contextlib
import contextvars
import enum
import importlib
import importlib.util
import os
import resource
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, TextIO

import z3

from invasion_oracle.model.core.errors import MissingEngineError

DEFAULT_MEMORY_BYTES = 2 * 1024**3  # the documented default memory bound of a search (2 GiB)


class Status(enum.StrEnum):
    PROVEN = "proven"  # exact: the search finished (z3 unsat/sat or exhaustive enumeration)
    BEST_FOUND = "best-found"  # stopped early: the best answer found so far, with the bound proved
    UNKNOWN = "unknown"  # the time limit was hit (or z3 gave up): no claim is made


class OracleDisagreement(AssertionError):
    """A solver answer that the oracle does not reproduce: a bug, never an output."""


class TimeLimit(Exception):
    """Raised inside a search when it must stop: ``reason`` is ``time``, ``memory`` or ``interrupted``."""

    def __init__(self, reason: str = "time") -> None:
        super().__init__(reason)
        self.reason = reason
        # a CP-SAT minimisation stopped early: the lower bound on its objective it had proved
        self.bound: float | None = None


def resident_bytes() -> int:
    """This process's resident memory now (Linux ``/proc``), else its peak so far."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


@dataclass(slots=True)
class Deadline:
    """A wall-clock limit (``seconds=None``: none), a memory bound (``memory_bytes=None``: none)
    and a Ctrl-C flag, checked together by :meth:`check` inside every loop that can grow."""

    seconds: float | None = None
    started: float = field(default_factory=time.perf_counter)
    memory_bytes: int | None = None
    interrupted: bool = False
    parent: Deadline | None = None  # a share of a longer deadline: its Ctrl-C stops this one too
    tripped: str | None = None  # why a check stopped the work: time, memory or interrupted
    _calls: int = 0
    _measured: float = 0.0  # when the memory was last measured

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return self.seconds - (time.perf_counter() - self.started)

    def expired(self) -> bool:
        left = self.remaining()
        return left is not None and left <= 0

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

    def stopped(self) -> bool:
        """Ctrl-C was pressed (here or in the deadline this is a share of)."""
        return self.interrupted or (self.parent is not None and self.parent.stopped())

    def trip(self, reason: str) -> TimeLimit:
        """Record why the work stopped (here and in the deadlines this is a share of: the command
        then knows its search was cut short) and return the exception to raise."""
        deadline: Deadline | None = self
        while deadline is not None:
            if deadline.tripped is None:
                deadline.tripped = reason
            deadline = deadline.parent
        return TimeLimit(reason)

    def check(self) -> None:
        if self.stopped():
            raise self.trip("interrupted")
        now = time.perf_counter()
        if self.seconds is not None and now - self.started >= self.seconds:
            raise self.trip("time")
        if self.memory_bytes is not None:
            # Reading the process's size costs microseconds: every 256 checks, and at least
            # every 50 ms for loops that check rarely.
            self._calls += 1
            if (
                self._calls & 0xFF == 1 or now - self._measured > 0.05
            ) and resident_bytes() > self.memory_bytes:
                raise self.trip("memory")
            if self._calls & 0xFF == 1 or now - self._measured > 0.05:
                self._measured = now

    def check_size(self, items: int, limit: int = 5_000_000) -> None:
        """Stop a memo or list that has grown past ``limit`` entries (with the memory bound on)."""
        if self.memory_bytes is not None and items > limit and resident_bytes() > self.memory_bytes:
            raise self.trip("memory")

    def z3_ms(self) -> int | None:
        left = self.remaining()
        return None if left is None else max(1, int(left * 1000))

    def share(self, fraction: float) -> Deadline:
        """A deadline for one part of the work, ``fraction`` of the time left, with the same memory
        bound and Ctrl-C: a search whose answer must still be replayed leaves the rest for that."""
        left = self.remaining()
        return Deadline(
            None if left is None else max(0.0, left * fraction),
            memory_bytes=self.memory_bytes,
            parent=self,
        )


@contextlib.contextmanager
def sigint_watch() -> Iterator[Callable[[], bool]]:
    """While active, a Ctrl-C (SIGINT) that arrives during a z3 check (or a CP-SAT solve) interrupts
    it at once, and the Python handler still runs (after the check returns); yields a function telling whether a
    SIGINT arrived, whoever handled it.

    Why: z3 left to itself catches SIGINT during a check with its own handler, stops with
    ``unknown`` (reason "canceled", the same as a timeout) and the Python handler never hears of
    it, so an interrupted search would report a time limit and exit 0. Here z3's own handler is
    off, and a thread woken by the signal (``signal.set_wakeup_fd``) interrupts z3 instead: Python
    runs signal handlers only between bytecodes of the main thread, which is inside z3."""
    seen = [False]
    try:
        reader, writer = socket.socketpair()
    except OSError:
        yield lambda: seen[0]
        return
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main thread: leave Ctrl-C as it is
        reader.close()
        writer.close()
        yield lambda: seen[0]
        return

    def watch() -> None:
        while True:
            try:
                data = reader.recv(512)
            except OSError:
                return
            if not data:
                return
            if signal.SIGINT in data:
                seen[0] = True
                if _Z3_CHECKING[0]:  # interrupting an idle z3 context spoils its next check
                    with contextlib.suppress(Exception):
                        z3.main_ctx().interrupt()
                for running in list(_CPSAT_SOLVING):  # a CP-SAT solve holds the main thread too
                    running[1] = True
                    with contextlib.suppress(Exception):
                        running[0].stop_search()

    _Z3_CTRL_C_OFF[0] += 1
    z3.set_param("ctrl_c", False)
    watcher = threading.Thread(target=watch, name="sigint-watch", daemon=True)
    watcher.start()
    try:
        yield lambda: seen[0]
    finally:
        signal.set_wakeup_fd(previous)
        _Z3_CTRL_C_OFF[0] -= 1
        if not _Z3_CTRL_C_OFF[0]:
            z3.set_param("ctrl_c", True)
        with contextlib.suppress(OSError):
            writer.shutdown(socket.SHUT_RDWR)
        writer.close()
        watcher.join(timeout=1)
        reader.close()


_Z3_CTRL_C_OFF = [0]  # sigint_watch contexts active (z3's own Ctrl-C handler is off inside them)


@contextlib.contextmanager
def stop_on_interrupt(*deadlines: Deadline) -> Iterator[None]:
    """While active, Ctrl-C (SIGINT) stops the searches under ``deadlines`` at their next check and
    interrupts z3 (:func:`sigint_watch`), instead of raising KeyboardInterrupt somewhere in the
    middle."""
    if not deadlines or signal.getsignal(signal.SIGINT) is None:
        yield
        return

    def handler(signum: int, frame: FrameType | None) -> None:
        for deadline in deadlines:
            deadline.interrupted = True

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave Ctrl-C as it is
        yield
        return
    try:
        with sigint_watch():
            yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _pipe_tick() -> float:
    try:  # a bad value is ignored, as the default is what anyone wants
        seconds = float(os.environ.get("INVASION_PROGRESS_SECONDS", "10"))
    except ValueError:
        return 10.0
    return seconds if seconds >= 0 and seconds == seconds else 10.0


PIPE_TICK_SECONDS = _pipe_tick()
"""How often a search whose stderr is not a terminal (a pipe, a CI log) prints a progress line:
10 s, or ``$INVASION_PROGRESS_SECONDS`` (the tests set it high, so that their stderr stays quiet
on a slow machine)."""


@dataclass(slots=True)
class Progress:
    """Progress on stderr: on a terminal a bar (:mod:`~invasion_oracle.solver.progress_bar`) with
    done/total and the time left, or without a total the count so far and the time elapsed;
    elsewhere (a pipe, a file, CI) a plain line about every :data:`PIPE_TICK_SECONDS` once the
    search has run that long, so a quick search prints nothing there and stdout is never touched
    (it stays byte-identical). ``unit`` names what is counted (``states``, ``plans``).

    A search of several stages names each with :meth:`stage` (its own total, or None).
    """

    label: str
    total: int | None = None
    stream: TextIO = field(default_factory=lambda: sys.stderr)
    done: int = 0
    unit: str = ""
    enabled: bool = field(init=False)
    _bar: Any = field(init=False, default=None)
    _started: float = field(init=False, default=0.0)
    _next_line: float = field(init=False, default=0.0)

    def __post_init__(self) -> None:
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self._started = time.monotonic()
        self._next_line = self._started + PIPE_TICK_SECONDS
        if self.enabled:
            from invasion_oracle.solver.progress_bar import TerminalBar

            self._bar = TerminalBar(f"{self.label} (Ctrl-C stops)", self.total, self.stream, self.unit)

    def stage(self, label: str, total: int | None = None, unit: str = "") -> None:
        """A new stage of the same search: its name, its total (None: not known) and unit; the
        count and the clock start again."""
        self.label, self.total, self.unit, self.done = label, total, unit, 0
        self._started = time.monotonic()
        if self._bar is not None:
            self._bar.restart(f"{label} (Ctrl-C stops)", total, unit)

    def step(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self._next_line:
            now = time.monotonic()
            if now >= self._next_line:
                self._next_line = now + PIPE_TICK_SECONDS
                self._line(now - self._started)

    def _line(self, elapsed: float) -> None:
        from invasion_oracle.solver.progress_bar import time_left

        unit = f" {self.unit}" if self.unit else ""
        if self.total:
            done = f"{self.done:,}/{self.total:,}{unit} done"
            if 0 < self.done < self.total:
                done += f", {time_left(self.done, self.total, elapsed)}"
        else:
            done = f"{self.done:,}{unit} done (total not known in advance)"
        with contextlib.suppress(OSError, ValueError):  # a closed or broken stderr stops nothing
            print(f"invasion: {self.label}: {done}, {elapsed:.0f} s", file=self.stream, flush=True)

    def finish(self) -> None:
        self._next_line = 0.0
        if self._bar is not None:
            self._bar.close()
            self._bar = None


_Z3_CHECKING = [0]  # z3 checks running now (Ctrl-C interrupts z3 only during one)
# CP-SAT solves running now, [solver, stopped by Ctrl-C]: sigint_watch's thread stops their search
_CPSAT_SOLVING: list[list[Any]] = []


CPSAT_MODULE = "ortools.sat.python.cp_model"
_CPSAT_IMPORT: list[threading.Thread] = []  # the thread importing OR-Tools, once one was started


CPSAT_EXTRA = "pip install 'invasion-oracle[cpsat]'"
"""How to install OR-Tools, which only the ``cpsat`` engines need (an extra, not a dependency)."""


def cpsat_available() -> bool:
    """Whether OR-Tools is installed, found without importing it (the import costs about a second).

    ``auto`` picks another engine and ``both`` runs the others (naming CP-SAT ``not-installed``) when
    it is not; ``--engine cpsat`` is then refused (:func:`require_cpsat`)."""
    if "ortools" in sys.modules:
        return sys.modules["ortools"] is not None
    try:
        return importlib.util.find_spec("ortools") is not None
    except (ImportError, ValueError):
        return False


def require_cpsat() -> None:
    """Refuse the ``cpsat`` engine, in one line, when OR-Tools is not installed.

    Raises :class:`~invasion_oracle.model.core.errors.MissingEngineError`."""
    if not cpsat_available():
        raise MissingEngineError(f"--engine cpsat needs OR-Tools, which is not installed: {CPSAT_EXTRA}")


def load_cpsat(deadline: Deadline) -> None:
    """Import OR-Tools' CP-SAT (``from ortools.sat.python import cp_model`` is then immediate)
    under ``deadline``: the first import brings pandas and takes about a second of CPU, seconds on
    a busy machine, and cannot be interrupted. It runs in a thread while this one checks the
    deadline every 50 ms: when the time runs out first, TimeLimit is raised at once (the import goes
    on in its thread, and a later call waits for it under its own deadline). An import that fails
    raises when the module is imported the usual way; OR-Tools not installed at all raises
    :class:`~invasion_oracle.model.core.errors.MissingEngineError` (:func:`require_cpsat`)."""
    require_cpsat()
    if not _CPSAT_IMPORT:
        if CPSAT_MODULE in sys.modules:  # imported the usual way already
            return
        deadline.check()
        worker = threading.Thread(target=_import_cpsat, name="cpsat-import", daemon=True)
        _CPSAT_IMPORT.append(worker)
        worker.start()
    worker = _CPSAT_IMPORT[0]
    while worker.is_alive():
        worker.join(0.05)
        deadline.check()


def _import_cpsat() -> None:
    with contextlib.suppress(Exception):  # the usual import, later, raises it where it is used
        importlib.import_module(CPSAT_MODULE)


def _cpsat_run(solver: Any, model: Any, deadline: Deadline, callback: Any = None) -> Any:
    """``solver.solve(model)``, marked as running so that Ctrl-C (:func:`sigint_watch`) stops it;
    a solve stopped so trips ``deadline`` as interrupted (the Python handler may not have run
    yet when the solve returns)."""
    running = [solver, False]
    _CPSAT_SOLVING.append(running)
    try:
        status = solver.solve(model) if callback is None else solver.solve(model, callback)
    finally:
        _CPSAT_SOLVING.remove(running)
    if running[1]:
        raise deadline.trip("interrupted")
    return status


def checking(solver: Any, *assumptions: Any) -> z3.CheckSatResult:
    """``invasion_oracle.solver.check(*assumptions)``, marked as running so that Ctrl-C can interrupt it."""
    _Z3_CHECKING[0] += 1
    try:
        return solver.check(*assumptions)
    finally:
        _Z3_CHECKING[0] -= 1


def cpsat_solve(model: Any, deadline: Deadline, parameters: Mapping[str, Any] | None = None) -> Any:
    """Solve an OR-Tools CP-SAT ``model`` under the deadline, one worker (deterministic, and the
    machine is shared): the solver (read values with ``.value``) with an optimum, or a solution
    for a feasibility model; ``None`` when infeasible; raises TimeLimit when the deadline ends
    first (its ``bound``: the objective's proved lower bound, for a minimisation). ``parameters``:
    CP-SAT parameters of the search's own, by name (measured to help it)."""
    from ortools.sat.python import cp_model

    deadline.check()
    solver = cp_model.CpSolver()
    for name, value in (parameters or {}).items():
        setattr(solver.parameters, name, value)
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is sigint_watch's: an interrupt, not a time limit
    left = deadline.remaining()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(0.001, left)
    status = _cpsat_run(solver, model, deadline)
    if status == cp_model.OPTIMAL or (status == cp_model.FEASIBLE and not model.has_objective()):
        return solver
    if status == cp_model.INFEASIBLE:
        return None
    stop = deadline.trip("interrupted" if deadline.stopped() else "time")  # the command hears of it
    if model.has_objective():
        stop.bound = solver.best_objective_bound
    raise stop


def cpsat_lex_min(
    model: Any,
    terms: Sequence[tuple[Any, int]],
    deadline: Deadline,
    bits: int = 40,
    parameters: Mapping[str, Any] | None = None,
) -> Any:
    """The lexicographically smallest solution of a CP-SAT ``model`` (left unchanged) over
    ``terms``, each ``(expression, span)`` with the expression's values in ``0 .. span - 1``: the
    first term smallest, then the second, ... (as z3's lexicographic ``Optimize`` followed by
    fixing one term at a time). Terms are minimised in blocks of one weighted objective (the
    weights of a block below ``2**bits``, so sums stay exact), each block fixed before the next.
    Returns the solver of the last solve (read values with ``.value``), ``None`` when infeasible;
    raises TimeLimit when the deadline ends first."""
    work = model.clone()
    blocks: list[list[tuple[Any, int]]] = [[]]
    size = 1
    for expr, span in terms:
        if span <= 1 or isinstance(expr, int):
            continue  # a single value: nothing to choose
        if blocks[-1] and size * span > 1 << bits:
            blocks.append([])
            size = 1
        blocks[-1].append((expr, span))
        size *= span
    solver = None
    for block in blocks:
        weights, weight = [], 1
        for _, span in reversed(block):
            weights.append(weight)
            weight *= span
        weights.reverse()
        if block:
            work.minimize(sum(w * expr for w, (expr, _) in zip(weights, block, strict=True)))
        solver = cpsat_solve(work, deadline, parameters)
        if solver is None:
            return None
        for expr, _ in block:
            work.add(expr == solver.value(expr))
    return solver


def cpsat_count(model: Any, variables: Sequence[Any], deadline: Deadline) -> int:
    """How many assignments of ``variables`` a CP-SAT feasibility ``model`` allows (every solution
    enumerated, one worker; distinct values of ``variables`` counted); raises TimeLimit when the
    deadline ends first."""
    from ortools.sat.python import cp_model

    deadline.check()
    seen: set[tuple[int, ...]] = set()
    cut = [False]

    class Collect(cp_model.CpSolverSolutionCallback):
        def on_solution_callback(self) -> None:
            seen.add(tuple(int(self.value(v)) for v in variables))
            if deadline.stopped() or deadline.expired():
                cut[0] = True
                self.stop_search()

    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.random_seed = 0
    solver.parameters.catch_sigint_signal = False  # Ctrl-C is sigint_watch's: an interrupt, not a time limit
    solver.parameters.enumerate_all_solutions = True
    left = deadline.remaining()
    if left is not None:
        solver.parameters.max_time_in_seconds = max(0.001, left)
    status = _cpsat_run(solver, model, deadline, Collect())
    if status in (cp_model.OPTIMAL, cp_model.INFEASIBLE) and not cut[0]:  # every solution enumerated
        return len(seen)
    raise deadline.trip("interrupted" if deadline.stopped() else "time")


def z3_check(solver: Any, deadline: Deadline, *assumptions: Any) -> z3.CheckSatResult:
    """``invasion_oracle.solver.check`` under the deadline; raises TimeLimit on timeout or z3 giving up."""
    deadline.check()
    ms = deadline.z3_ms()
    if ms is not None:
        solver.set("timeout", ms)
    if deadline.memory_bytes is not None:
        z3.set_param("memory_max_size", max(64, deadline.memory_bytes // 2**20))
    try:
        result = checking(solver, *assumptions)
    except z3.Z3Exception as err:  # z3 stops with an exception when it runs out of memory
        raise deadline.trip("interrupted" if deadline.stopped() else "memory") from err
    if result == z3.unknown:
        reason = str(solver.reason_unknown())
        if deadline.stopped():
            raise deadline.trip("interrupted")
        raise deadline.trip("memory" if "memory" in reason else "time")
    return result


# -- several engines on one question (``--engine both``) -------------------------------------------

STOP_NAMES = {"time": "time-limit", "memory": "memory-limit", "interrupted": "interrupted"}
NOT_INSTALLED = "not-installed"
"""Why an engine of ``both`` did not run: its library (OR-Tools, for ``cpsat``) is not installed.
Such an engine is named in ``engines.unfinished`` but does not keep the others' answer from being
proven: nothing was stopped, there was no such engine to run."""
STOP_WORDS = {
    "time-limit": "stopped by the time limit",
    "memory-limit": "stopped by the memory limit",
    "interrupted": "interrupted by Ctrl-C",
    "gave-up": "gave up without an answer",
    NOT_INSTALLED: f"not installed: {CPSAT_EXTRA}",
}


@dataclass(frozen=True, slots=True)
class EngineRun:
    """One engine of a ``both`` run: ``stopped`` is None when it finished (its answer proven), else
    why not (``time-limit``, ``memory-limit``, ``interrupted``, ``gave-up``); ``started`` is False
    for an engine never started because the command had already been stopped."""

    engine: str
    stopped: str | None = None
    started: bool = True

    def words(self) -> str:
        """``baseline interrupted by Ctrl-C``, ``cpsat not started (stopped by the time limit)``."""
        why = STOP_WORDS.get(self.stopped or "", self.stopped or "")
        return f"{self.engine} not started ({why})" if not self.started else f"{self.engine} {why}"

    def to_json(self) -> dict[str, Any]:
        return {"engine": self.engine, "stopped": self.stopped, "started": self.started}


@dataclass(frozen=True, slots=True)
class EngineRuns:
    """What became of each engine of a ``both`` run, in the order they ran. "Agree", "proven" and
    an ``engine`` label are said only of the engines that finished."""

    runs: tuple[EngineRun, ...]

    @property
    def finished(self) -> tuple[str, ...]:
        return tuple(r.engine for r in self.runs if r.stopped is None)

    @property
    def unfinished(self) -> tuple[EngineRun, ...]:
        return tuple(r for r in self.runs if r.stopped is not None)

    @property
    def complete(self) -> bool:
        """Every engine that could run finished (one not installed never ran, and stops nothing)."""
        return all(r.stopped == NOT_INSTALLED for r in self.unfinished) and bool(self.finished)

    def label(self, shown: str | None = None) -> str:
        """The JSON ``engine`` field: the engines that finished, joined by ``+``; when none did, the
        engine whose (partial) answer is shown, ``shown`` or else the first that ran.

        >>> EngineRuns((EngineRun("z3"), EngineRun("baseline", "interrupted"))).label()
        'z3'
        >>> EngineRuns((EngineRun("z3", "time-limit"), EngineRun("baseline", "time-limit", False))).label()
        'z3'
        """
        return "+".join(self.finished) or shown or self.runs[0].engine

    def status(self, status: str) -> str:
        """The status of the whole run: a ``proven`` answer is only ``best-found`` when an engine
        that should have checked it did not finish (the single-engine path says the same when cut).

        >>> EngineRuns((EngineRun("z3"), EngineRun("baseline", "interrupted"))).status("proven")
        'best-found'
        """
        return "best-found" if status == "proven" and not self.complete else status

    def words(self) -> str:
        """The engines in words for a report: ``z3 and baseline (agree)``, or which finished (and
        agree) and which were stopped, and why.

        >>> EngineRuns((EngineRun("z3"), EngineRun("cpsat"), EngineRun("baseline", "interrupted"))).words()
        'z3 and cpsat finished (agree); baseline interrupted by Ctrl-C: not compared'
        """
        done = list(self.finished)
        if self.complete:  # an engine not installed never ran: named, and stops no claim
            skipped = "".join(f"; {r.words()}" for r in self.unfinished)
            return _and(done) + (" (agree)" if len(done) > 1 else "") + skipped
        head = f"{_and(done)} finished" + (" (agree)" if len(done) > 1 else "") if done else "none finished"
        return head + "; " + "; ".join(r.words() for r in self.unfinished) + ": not compared"

    def to_json(self) -> dict[str, Any]:
        return {"finished": list(self.finished), "unfinished": [r.to_json() for r in self.unfinished]}

    def merged(self, other: EngineRuns) -> EngineRuns:
        """One record for several questions asked of the same engines: an engine finished only if it
        finished every question (its first stop is kept)."""
        order = [r.engine for r in self.runs] + [r.engine for r in other.runs if r.engine not in self.engines]
        by = {r.engine: r for r in self.runs}
        for run in other.runs:
            if by.get(run.engine) is None or by[run.engine].stopped is None:
                by[run.engine] = run
        return EngineRuns(tuple(by[e] for e in order))

    @property
    def engines(self) -> tuple[str, ...]:
        return tuple(r.engine for r in self.runs)


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


ENGINE_RUNS: contextvars.ContextVar[list[EngineRuns] | None] = contextvars.ContextVar(
    "engine_runs", default=None
)
"""Where the running command collects its ``both`` records (set by the command line's
``interruptible``): its envelope reports them as ``engines`` and never says ``proven`` past them."""


def recorded_engines() -> EngineRuns | None:
    """Every ``both`` record of the running command, merged (None: it ran one engine per question)."""
    held = ENGINE_RUNS.get()
    if not held:
        return None
    merged = held[0]
    for runs in held[1:]:
        merged = merged.merged(runs)
    return merged


def _why_unfinished(deadline: Deadline | None) -> str:
    """Why an engine under ``deadline`` did not finish, in the envelope's words."""
    if deadline is not None and deadline.stopped():
        return "interrupted"
    while deadline is not None:
        if deadline.tripped is not None:
            return STOP_NAMES.get(deadline.tripped, deadline.tripped)
        if deadline.expired():
            return "time-limit"
        deadline = deadline.parent
    return "gave-up"


def _cut(deadline: Deadline | None) -> bool:
    """The command was stopped (Ctrl-C, or a limit): engines not started yet are not started."""
    root = deadline
    while root is not None and root.parent is not None:
        root = root.parent
    return deadline is not None and (
        deadline.stopped() or deadline.expired() or (root is not None and root.tripped is not None)
    )


def is_proven(answer: Any) -> bool:
    """An answer's ``status`` (a :class:`Status` or its string) is ``proven``."""
    return bool(getattr(answer.status, "value", answer.status) == Status.PROVEN.value)


def run_engines(
    engines: Sequence[str],
    solve: Callable[[str], Any],
    deadline: Deadline | None,
    finished: Callable[[Any], bool] = is_proven,
) -> tuple[list[Any], EngineRuns]:
    """``solve(engine)`` for each engine in turn, and what became of each: an engine finished when
    its answer is ``finished`` (proven); once the command is stopped (Ctrl-C, a limit) the engines
    after are not started. ``solve`` may also raise :class:`TimeLimit`: that engine has no answer.
    Returns the answers (of the engines that answered, in order) and the record, which the running
    command's envelope reports (:data:`ENGINE_RUNS`) when there is more than one engine."""
    answers: list[Any] = []
    runs: list[EngineRun] = []
    for engine in engines:
        if engine == "cpsat" and not cpsat_available():  # an extra not installed: said, not run
            runs.append(EngineRun(engine, NOT_INSTALLED, started=False))
            continue
        if runs and _cut(deadline):
            runs.append(EngineRun(engine, _why_unfinished(deadline), started=False))
            continue
        try:
            answer = solve(engine)
        except TimeLimit as stop:
            reason = STOP_NAMES.get(stop.reason, stop.reason)
            runs.append(EngineRun(engine, "interrupted" if _stopped(deadline) else reason))
            continue
        answers.append(answer)
        runs.append(EngineRun(engine, None if finished(answer) else _why_unfinished(deadline)))
    record = EngineRuns(tuple(runs))
    held = ENGINE_RUNS.get()
    if held is not None and len(engines) > 1:
        held.append(record)
    return answers, record


def shown_answer(answer: Any, runs: EngineRuns, engine_field: str = "engine") -> Any:
    """The answer a ``both`` run shows (a dataclass with ``status`` and an engine field): named by
    the engines that finished (:meth:`EngineRuns.label`), and not ``proven`` when one of the
    engines that should have checked it did not finish (:meth:`EngineRuns.status`)."""
    import dataclasses

    if len(runs.runs) < 2:
        return answer
    status = answer.status
    word = runs.status(str(getattr(status, "value", status)))
    return dataclasses.replace(
        answer,
        **{engine_field: runs.label(str(getattr(answer, engine_field)))},
        status=type(status)(word) if isinstance(status, enum.Enum) else word,
    )


def _stopped(deadline: Deadline | None) -> bool:
    return deadline is not None and deadline.stopped()
