"""Batch jobs (searches over many scenarios x readings) on a process pool or a Dask cluster.

:func:`run_jobs` calls a module-level function once per argument tuple and returns the results
in the order of the jobs, whoever ran them:

* by default on a local process pool (one worker per core; ``workers=1`` runs them here, in
  order, which is what the tests mostly do);
* with ``scheduler="tcp://host:8786"`` on a Dask distributed cluster (``pip install
  'invasion-oracle[dask]'``; every worker needs this package installed at the same version).

Every job is deterministic (its random source is seeded from its own name, its searches stop at
a fixed work count), so the answers are the same either way. With a :class:`~invasion_oracle.reports.cache.JobCache`
on the runner, a job whose key (job, arguments, code and data version of its game) is cached is
not run again (:attr:`Batch.reused`).

Progress: on a terminal a bar per batch with its total and time left (rich); elsewhere (a pipe, CI) a
line on stderr when the batch starts, about every 10 s, and when it ends, with counts done / total.

Ctrl-C: the pool's workers ignore SIGINT (they run in their own process group) and are
terminated within a fraction of a second, whenever it comes (even while the pool starts); the
jobs not finished come back as ``None`` with :attr:`Batch.interrupted` set, and every later batch of the command is skipped (:func:`interrupted`), so one Ctrl-C stops
the whole command and it can write what is finished, marked partial.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Any, TextIO

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.model.core.overrides import all_in_force, run_under
from invasion_oracle.reports.cache import JobCache, data_key

CONNECT_SECONDS = 10
"""How long to wait for a Dask scheduler before giving up with a clear error."""
TICK_SECONDS = 10.0
"""How often a batch running in a pipe prints a progress line."""

_STOPPED = [False]  # set by the first Ctrl-C of the command: every later batch is skipped


def interrupted() -> bool:
    """Whether a Ctrl-C stopped a batch of this command."""
    return _STOPPED[0]


def reset_interrupted() -> None:
    _STOPPED[0] = False


@dataclass(frozen=True, slots=True)
class Runner:
    """Where jobs run: ``scheduler`` (a Dask address) or a local pool of ``workers`` processes;
    ``cache``: where results are looked up and stored (None: no cache)."""

    workers: int | None = None  # None: one per core
    scheduler: str | None = None
    cache: JobCache | None = field(default=None, compare=False)

    def describe(self) -> str:
        if self.scheduler:
            return f"Dask cluster at {self.scheduler}"
        return f"local process pool ({self.pool_size()} workers)"

    def pool_size(self) -> int:
        return self.workers or os.cpu_count() or 1


@dataclass(frozen=True, slots=True)
class Batch:
    """Results in job order; ``None`` for a job that did not finish (interrupted)."""

    results: tuple[Any, ...]
    interrupted: bool = False
    reused: tuple[str, ...] = ()  # labels of the jobs answered from the cache
    computed: tuple[str, ...] = ()  # labels of the jobs run


Describe = Callable[[tuple[Any, ...]], tuple[str | None, str]]
"""A job's arguments -> (the game package it depends on, "" for none, None: never cache it;
a label for the reuse list)."""
Expects = Callable[[tuple[Any, ...]], Any]
"""A job's arguments -> the type of its answer (a cached answer is rebuilt and checked as one)."""


def run_jobs(
    job: Callable[..., Any],
    arguments: Sequence[tuple[Any, ...]],
    runner: Runner,
    label: str,
    describe: Describe | None = None,
    expects: Expects | None = None,
) -> Batch:
    """Run ``job(*args)`` for every ``args`` in ``arguments`` on ``runner``; the runner's cache is
    used only for jobs that ``describe`` and ``expects`` say how to store."""
    if not arguments:
        return Batch(())
    if _STOPPED[0]:
        return Batch((None,) * len(arguments), interrupted=True)
    results: list[Any] = [None] * len(arguments)
    keys: list[str | None] = [None] * len(arguments)
    labels = [describe(args)[1] if describe else f"{label} {i + 1}" for i, args in enumerate(arguments)]
    cache = runner.cache if describe is not None and expects is not None else None
    # The data in force (--data) travels with each job to a worker or a cluster, and is in the
    # key of each cached result of its game: a result under other data is never reused.
    in_force = all_in_force()
    packages: list[str] = [""] * len(arguments)
    reused: list[str] = []
    todo: list[int] = []
    for index, args in enumerate(arguments):
        if cache is not None and describe is not None and expects is not None:
            package = describe(args)[0]
            keys[index] = (
                None if package is None else cache.key(job, args, package, data_key(in_force, package))
            )
            packages[index] = package or ""
            key = keys[index]
            if key is not None:
                hit, value = cache.get(key, labels[index], packages[index], expects(args))
                if hit:
                    results[index] = value
                    reused.append(labels[index])
                    continue
        todo.append(index)
    progress = Progress(label, len(todo), len(reused))
    work: list[tuple[Any, ...]] = [arguments[i] for i in todo]
    runnable = job
    if in_force:
        runnable, work = run_under, [(in_force, job, *args) for args in work]
    done: dict[int, Any] = {}
    stopped = False
    try:
        if not work:
            pass
        elif runner.scheduler:
            done, stopped = _on_dask(runnable, work, runner.scheduler, progress)
        elif runner.pool_size() == 1 or len(work) == 1:
            done, stopped = _here(runnable, work, progress)
        else:
            done, stopped = _on_pool(runnable, work, runner.pool_size(), progress)
    except KeyboardInterrupt:  # one that came before a runner took it over: none of these jobs ran
        stopped = True
    finally:
        progress.finish()
    computed = []
    for position, value in done.items():
        index = todo[position]
        results[index] = value
        computed.append(labels[index])
        key = keys[index]
        if cache is not None and expects is not None and key is not None and value is not None:
            cache.put(key, labels[index], packages[index], expects(arguments[index]), value)
    if cache is not None:
        cache.reused += reused
        cache.computed += computed
    if stopped:
        _STOPPED[0] = True
    return Batch(tuple(results), stopped, tuple(reused), tuple(computed))


# -- progress ----------------------------------------------------------------------------------


class Progress:
    """A bar on a terminal (done/total, time left); elsewhere a line on stderr at the start, every ~10 s and the end."""

    def __init__(self, label: str, total: int, reused: int = 0, stream: TextIO | None = None) -> None:
        self.label, self.total, self.reused, self.done = label, total, reused, 0
        self.stream = stream or sys.stderr
        self.started = time.monotonic()
        self._bar: Any = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._ticker: threading.Thread | None = None
        self._time_left: Callable[[int, int | None, float], str] = lambda done, total, elapsed: ""
        cached = f" ({reused} from the cache)" if reused else ""
        if bool(getattr(self.stream, "isatty", lambda: False)()):
            from invasion_oracle.solver.progress_bar import TerminalBar

            self._bar = TerminalBar(f"{label}{cached} (Ctrl-C stops)", total, self.stream, "jobs")
        elif total:
            # imported here, not in the ticker: a worker forked while the ticker held the import
            # lock of the module inherited it held, and hung at its first import of it
            from invasion_oracle.solver.progress_bar import time_left

            self._time_left = time_left
            self._line(f"{total} job(s) to run{cached}")
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        elif reused:
            self._line(f"all {reused} job(s) from the cache")

    def _line(self, text: str) -> None:
        with self._lock, contextlib.suppress(OSError, ValueError):
            print(f"invasion: {self.label}: {text}", file=self.stream, flush=True)

    def _tick(self) -> None:
        while not self._stop.wait(TICK_SECONDS):
            elapsed = time.monotonic() - self.started
            left = self._time_left(self.done, self.total, elapsed)
            self._line(f"{self.done}/{self.total} done, {left}, {elapsed:.0f} s")

    def step(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)

    def finish(self) -> None:
        self._stop.set()
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self._ticker is not None:
            self._ticker = None
            self._line(f"{self.done}/{self.total} done in {time.monotonic() - self.started:.0f} s")


# -- runners -----------------------------------------------------------------------------------


def _here(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], progress: Progress
) -> tuple[dict[int, Any], bool]:
    from invasion_oracle.solver.common import sigint_watch  # z3 is imported only when jobs run

    done: dict[int, Any] = {}
    with sigint_watch() as seen:  # whoever handles a Ctrl-C: a job's answer then is partial
        try:
            for index, args in enumerate(arguments):
                result = job(*args)
                if seen():  # the job saw the Ctrl-C: its answer is partial
                    return done, True
                done[index] = result
                progress.step()
        except KeyboardInterrupt:
            return done, True
    return done, False


def _worker_start() -> None:
    """A pool worker: its own process group (a terminal's Ctrl-C reaches only the main process,
    which terminates the workers) and SIGINT ignored."""
    with contextlib.suppress(OSError):
        os.setpgid(0, 0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


POLL_SECONDS = 0.2
"""How often the pool's batch looks whether a Ctrl-C came (it stops within about this long)."""


def _on_pool(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], workers: int, progress: Progress
) -> tuple[dict[int, Any], bool]:
    """The jobs on a local process pool. A Ctrl-C at any moment here stops the batch: while this
    runs, SIGINT only sets a flag (:func:`_sigint_deferred`), which the loop reads, and the pool is
    then terminated. Why: a KeyboardInterrupt raised mid-start (between a worker's fork and its
    entry in the pool's table, or before the ``try``) escaped the clean-up, left a worker behind
    and let the command go on with its next batch."""
    done: dict[int, Any] = {}
    pool: ProcessPoolExecutor | None = None
    # A forked worker inherits the parent's per-module import locks as they are at the fork: one
    # held by another thread (a first import in progress) stays held in the worker for ever, and a
    # full `changes` run once hung so at a worker's first import of the solvers' common module.
    # Imported here first, on this thread, the worker finds it in sys.modules and takes no lock.
    import invasion_oracle.solver.common  # noqa: F401

    with _sigint_deferred() as seen:
        try:
            pool = ProcessPoolExecutor(max_workers=min(workers, len(arguments)), initializer=_worker_start)
            futures = {pool.submit(job, *args): index for index, args in enumerate(arguments)}
            pending = set(futures)
            while pending and not seen():
                finished, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                for future in finished:
                    done[futures[future]] = future.result()
                    progress.step()
            if not seen():
                pool.shutdown()
                return done, seen()  # one that came while it shut down still stops later batches
        except KeyboardInterrupt:  # SIGINT could not be deferred (another handler was in place)
            pass
        except BaseException:
            if pool is not None:
                _terminate(pool)
            raise
        if pool is not None:
            _terminate(pool)
        return done, True


@contextlib.contextmanager
def _sigint_deferred() -> Iterator[Callable[[], bool]]:
    """While active, a Ctrl-C raises nothing: it is recorded, and the function yielded tells
    whether one came. Only Python's default handler (KeyboardInterrupt) is replaced, and only on the
    main thread (where handlers run); otherwise nothing changes and the function says False.

    Why not block SIGINT with ``pthread_sigmask``: that holds it for the main thread only; the
    kernel then hands it to another thread (the progress ticker), Python runs its handler on the
    main thread all the same, and the KeyboardInterrupt still lands mid-start."""
    seen = [False]
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield lambda: seen[0]
        return

    def record(signum: int, frame: object) -> None:
        seen[0] = True

    signal.signal(signal.SIGINT, record)
    try:
        yield lambda: seen[0]
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _terminate(pool: ProcessPoolExecutor) -> None:
    """Stop the pool now: cancel what has not started, terminate the workers."""
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.terminate()
    for process in processes.values():
        with contextlib.suppress(Exception):
            process.join(5)
            if process.is_alive():  # a busy machine: never leave one behind
                process.kill()
                process.join()
    # The pool's own thread joins the same workers; two joins of one process can race (one of them
    # then reads it as still running), so let that thread finish before anyone counts children.
    manager = getattr(pool, "_executor_manager_thread", None)
    if manager is not None:
        manager.join(10)


def _on_dask(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], address: str, progress: Progress
) -> tuple[dict[int, Any], bool]:
    try:  # the optional dask extra (untyped: used through Any)
        distributed: Any = importlib.import_module("distributed")
    except ImportError:
        raise MalformedInputError(
            "--scheduler", address, "needs Dask: pip install 'invasion-oracle[dask]'"
        ) from None
    try:
        client = distributed.Client(address, timeout=f"{CONNECT_SECONDS}s")
    except (OSError, TimeoutError, ValueError) as err:
        raise MalformedInputError(
            "--scheduler", address, f"cannot reach a Dask scheduler there ({type(err).__name__}: {err})"
        ) from None
    done: dict[int, Any] = {}
    futures: list[Any] = []
    try:
        futures = [client.submit(job, *args, pure=False) for args in arguments]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in distributed.as_completed(futures):
            done[index[future.key]] = future.result()
            progress.step()
    except KeyboardInterrupt:
        client.cancel(futures)
        return done, True
    finally:
        client.close()
    return done, False
