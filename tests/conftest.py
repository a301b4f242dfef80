"""Test-wide settings.

Hypothesis runs derandomised in `make test` and CI (profile ``ci``): the same examples every run,
so test time and results do not wander. ``HYPOTHESIS_PROFILE=explore`` draws fresh examples and
keeps a database of failures, for deeper local sweeps (with ``INVASION_HYPOTHESIS_SCALE``).
"""

from __future__ import annotations

import gc
import os
import signal
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from hypothesis import HealthCheck, settings

from tests.browser import CHROMIUM, Chromium

# The tests allocate far more than CPython's young-generation threshold (700) between frees:
# collecting every 700 allocations cost about 5% of test CPU, every 20,000 about half that. Cycles
# are still found, a little later (no test waits for one to be collected without gc.collect()).
gc.set_threshold(20_000, 20, 20)

# A run started in the background by a shell without job control (`make test &`, nohup) inherits
# SIGINT ignored, and so does every command a test starts: the Ctrl-C tests would see no Ctrl-C.
# Python's own handler, as a run from a terminal has it (a command started from here then gets
# the default disposition, and its Python installs the same handler).
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

settings.register_profile(
    "ci",
    derandomize=True,
    database=None,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("explore", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# An internal error in a test must fail the test, not become the CLI's exit status 3.
os.environ.setdefault("INVASION_DEBUG", "1")
# No result cache unless a test asks for one (--cache-dir): a cached answer would hide what a test
# changes (a toy ruling, a monkeypatch) and the user's cache folder is not the tests' to fill.
os.environ.setdefault("INVASION_NO_CACHE", "1")
# a search in a pipe prints a progress line every 10 s (solver.common.Progress): not in the tests,
# whose stderr checks would then depend on the machine's speed
os.environ.setdefault("INVASION_PROGRESS_SECONDS", "100000")


@pytest.fixture(autouse=True, scope="session")
def _batch_jobs_in_the_tests_process() -> Iterator[None]:
    """A command run in a test's process without ``--workers`` runs its batch jobs there, not in a
    new pool of one process per core: the pool's processes start cold (imports, caches) and the
    other test worker already holds the second core. Tests of the pool ask for it (``--workers 2``)."""
    from invasion_oracle.reports import batch

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(batch.Runner, "pool_size", lambda self: self.workers or 1)
        yield


@pytest.fixture(scope="session")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Chromium]:
    """One headless Chromium for the tests of this process (tests/browser.py), started by the first
    test asking for it: each test opens its own page in it."""
    if CHROMIUM is None:
        pytest.skip("Chromium is not installed: apt-get install -y chromium (CI installs it)")
    browser = Chromium(tmp_path_factory.mktemp("chromium"))
    try:
        yield browser
    finally:
        browser.close()


# The ``ci`` profile promises the same examples every run, but Hypothesis mixes into its draws the
# literal constants of every module loaded so far, and which modules a worker of ``pytest -n`` has
# loaded before a test depends on how the tests were spread over the workers. The pinning the
# searches use (``fixed_constants``) holds for the whole run, from before Hypothesis's plug-in
# scans the loaded modules at collection; it also spares each worker those scans of every newly
# loaded module's source (about half a second of CPU).
_PINNED_CONSTANTS = ExitStack()


def pytest_configure(config: pytest.Config) -> None:
    from invasion_oracle.properties.budget import fixed_constants

    _PINNED_CONSTANTS.enter_context(fixed_constants())


def pytest_unconfigure(config: pytest.Config) -> None:
    _PINNED_CONSTANTS.close()


def pytest_collection_finish(session: pytest.Session) -> None:
    # What collection built (modules, test items) lives until the end: out of the collector's way,
    # so that its full passes walk only what the tests make (they were about 5% of test time).
    gc.freeze()


@pytest.hookimpl(tryfirst=True)  # before xdist's worker reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests reading the whole committed suite (tests/suite_cases: about 4 s of CPU to parse, once
    per process) run in one worker under ``--dist loadgroup`` (``make test``), not in both."""
    if not config.pluginmanager.hasplugin("xdist"):  # (its marker is unknown without it)
        return
    from tests import suite_cases

    readers = {id(suite_cases.all_cases), id(suite_cases.cases_by_game), id(suite_cases.case_by_id)}
    for item in items:
        module = getattr(item, "module", None)
        if module is not None and any(id(value) in readers for value in vars(module).values()):
            item.add_marker(pytest.mark.xdist_group("committed-suite"))
