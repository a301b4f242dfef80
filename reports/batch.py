"""Batch jobs (searches over many scenarios x readings) on a process pool or a Dask cluster.

:func:`run_jobs` calls a module-level function once per argument tuple and returns the results
in the order of the jobs, whoever ran them:

* by default on a local process pool (one worker per core; ``workers=1`` runs them here, in
  order, which is what the tests mostly do);
* with ``scheduler="tcp://host:8786"`` on a Dask distributed cluster (``pip install
  'invasion-oracle[dask]'``; every worker needs this package installed at the same version).

Every job is deterministic (its random source is seeded from its own name), so the answers are
the same either way. Progress shows on a terminal as jobs finish (``solver.common.Progress``).
On Ctrl-C the jobs not yet finished are cancelled and come back as ``None``, with
:attr:`Batch.interrupted` set, so a report can say which answers are unknown.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from model.core.errors import MalformedInputError
from solver.common import Progress

CONNECT_SECONDS = 10
"""How long to wait for a Dask scheduler before giving up with a clear error."""


@dataclass(frozen=True, slots=True)
class Runner:
    """Where jobs run: ``scheduler`` (a Dask address) or a local pool of ``workers`` processes."""

    workers: int | None = None  # None: one per core
    scheduler: str | None = None

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


def run_jobs(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], runner: Runner, label: str
) -> Batch:
    """Run ``job(*args)`` for every ``args`` in ``arguments`` on ``runner``."""
    if not arguments:
        return Batch(())
    progress = Progress(label, total=len(arguments))
    try:
        if runner.scheduler:
            return _on_dask(job, arguments, runner.scheduler, progress)
        if runner.pool_size() == 1 or len(arguments) == 1:
            return _here(job, arguments, progress)
        return _on_pool(job, arguments, runner.pool_size(), progress)
    finally:
        progress.finish()


def _here(job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], progress: Progress) -> Batch:
    results: list[Any] = [None] * len(arguments)
    try:
        for index, args in enumerate(arguments):
            results[index] = job(*args)
            progress.step()
    except KeyboardInterrupt:
        return Batch(tuple(results), interrupted=True)
    return Batch(tuple(results))


def _on_pool(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], workers: int, progress: Progress
) -> Batch:
    results: list[Any] = [None] * len(arguments)
    pool = ProcessPoolExecutor(max_workers=min(workers, len(arguments)))
    futures: dict[Future[Any], int] = {}
    try:
        futures = {pool.submit(job, *args): index for index, args in enumerate(arguments)}
        pending = set(futures)
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                results[futures[future]] = future.result()
                progress.step()
    except KeyboardInterrupt:
        for future in futures:
            future.cancel()
        pool.shutdown(wait=False, cancel_futures=True)
        return Batch(tuple(results), interrupted=True)
    pool.shutdown()
    return Batch(tuple(results))


def _on_dask(
    job: Callable[..., Any], arguments: Sequence[tuple[Any, ...]], address: str, progress: Progress
) -> Batch:
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
    results: list[Any] = [None] * len(arguments)
    futures: list[Any] = []
    try:
        futures = [client.submit(job, *args, pure=False) for args in arguments]
        index = {future.key: i for i, future in enumerate(futures)}
        for future in distributed.as_completed(futures):
            results[index[future.key]] = future.result()
            progress.step()
    except KeyboardInterrupt:
        client.cancel(futures)
        return Batch(tuple(results), interrupted=True)
    finally:
        client.close()
    return Batch(tuple(results))
