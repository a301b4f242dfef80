"""Batch jobs give the same answers here, on the local process pool and on a Dask cluster."""

from __future__ import annotations

import importlib.util
import json
import time

import pytest

from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.reports.ambiguity import jobs
from invasion_oracle.reports.batch import Runner, run_jobs
from invasion_oracle.reports.cli import main

WORK = [
    ("coverage", ("stonespine", "SS-TROLL-MOVE")),
    ("coverage", ("stonespine", "SS-PASSAGE")),
    ("divergence", ("stonespine", "SS-TROPHY-VALUES", 4, None)),
]


def _answers(runner: Runner) -> list[object]:
    batch = run_jobs(jobs.dispatch, WORK, runner, "test")
    assert not batch.interrupted
    return [r.to_json() for r in batch.results]


def test_the_process_pool_gives_the_answers_given_here() -> None:
    here = _answers(Runner(workers=1))  # first: the pool's forked workers inherit the imports
    assert _answers(Runner(workers=2)) == here


@pytest.mark.skipif(
    importlib.util.find_spec("distributed") is None,
    reason="Dask is not installed: pip install 'invasion-oracle[dask]' (make test installs it with the dev extra)",
)
def test_a_dask_cluster_gives_the_same_answers(capsys: pytest.CaptureFixture[str]) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        args = [
            "stonespine",
            "ambiguities",
            "--only",
            "SS-EXIT-Y13",
            "--only",
            "SS-PASSAGE",
            "--no-fixtures",
            "--json",
        ]
        assert main([*args, "--scheduler", cluster.scheduler_address]) == 0
        on_dask = json.loads(capsys.readouterr().out)["answer"]
    assert main([*args, "--workers", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"] == on_dask


@pytest.mark.skipif(importlib.util.find_spec("distributed") is None, reason="Dask is not installed")
def test_an_unreachable_scheduler_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # nothing listens on port 9 (discard): every connection is refused at once, at any load, so a
    # short wait for the scheduler still ends in the same error
    monkeypatch.setattr("invasion_oracle.reports.batch.CONNECT_SECONDS", 0.1)
    with pytest.raises(MalformedInputError, match="cannot reach a Dask scheduler there"):
        run_jobs(jobs.dispatch, WORK[:1], Runner(scheduler="tcp://127.0.0.1:9"), "test")


@pytest.mark.parametrize("moment", ["making the pool", "handing over a job"])
def test_a_ctrl_c_while_the_pool_starts_stops_the_batch_and_leaves_no_worker(
    moment: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the signal lands while the pool is being made, or after its workers are forked but before
    # every job is handed over: it must stop this batch and every later one, and terminate every
    # worker (a KeyboardInterrupt there escaped the clean-up: the command went on with its next
    # batch, or a worker forked but not yet in the pool's table lived on, holding the output open)
    import multiprocessing
    import os
    import signal
    from concurrent.futures import Future, ProcessPoolExecutor

    import invasion_oracle.reports.batch as batch

    class Interrupted(ProcessPoolExecutor):
        def __init__(self, *args: object, **kwargs: object) -> None:
            if moment == "making the pool":
                os.kill(os.getpid(), signal.SIGINT)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.handed = 0

        def submit(self, fn: object, /, *args: object, **kwargs: object) -> Future[object]:
            future = super().submit(fn, *args, **kwargs)  # type: ignore[arg-type]
            self.handed += 1
            if moment == "handing over a job" and self.handed == 1:  # the workers are forked now
                os.kill(os.getpid(), signal.SIGINT)
            return future

    before = set(multiprocessing.active_children())
    monkeypatch.setattr(batch, "ProcessPoolExecutor", Interrupted)
    try:
        result = run_jobs(jobs.dispatch, WORK, Runner(workers=2), "test")
        assert result.interrupted and batch.interrupted()
        assert run_jobs(jobs.dispatch, WORK[:1], Runner(workers=1), "later").interrupted
    finally:
        batch.reset_interrupted()
    for _ in range(100):  # every worker terminated (reaping one can lag a moment on a busy machine)
        if set(multiprocessing.active_children()) <= before:
            break
        time.sleep(0.1)
    assert set(multiprocessing.active_children()) <= before
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # Ctrl-C as it was
