"""`make bench`: run every benchmark module in this folder; print tables, write out/bench.json
and out/bench.md.

``python -m tests.bench [--quick] [bench_NAME ...]``. Each ``bench_*.py`` module has
``results() -> list[Measure]`` (or ``results(quick: bool)``, which ``--quick`` calls with
``quick=True``; modules without that parameter are skipped by ``--quick``) or ``main() -> str``
(see ``tests/bench/__init__.py``). Benchmarks measure a baseline in the same run and print ratios,
so numbers compare across machines. ``bench_readme`` runs first, alone (it runs the README's
commands side by side on every core); the other modules then run side by side, one worker process
per core (a measure and its baseline always in the same process). ``out/bench.json`` keeps them (with the machine, Python, z3 and
OR-Tools versions) for comparing runs.

* ``bench_readme``: every search line of the README run as a subprocess, its CPU time (children's
  ``getrusage``) against the 2 s budget.
* the public game API: ``tests.bench.public_api_measures`` and ``drive_public`` (in
  ``tests/bench/__init__.py``) time one unit of play through ``start`` / ``pending`` / ``step``
  against a game's internal path and a plain implementation; ``bench_spirit_island.public_api``
  is the example to copy for any game.
* engines: each search's engines on three or more sizes, the crossover printed.
"""

from __future__ import annotations

import multiprocessing
import os
import pkgutil
import platform
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import tests.bench as package
from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from tests.bench.runner import cpu_seconds, run_module

OUT = Path("out") / "bench.json"


def _versions() -> dict[str, str]:
    from importlib import metadata

    found = {}
    for package_name in ("z3-solver", "ortools"):
        try:
            found[package_name] = metadata.version(package_name)
        except metadata.PackageNotFoundError:
            found[package_name] = "not installed"
    return found


# bench_readme runs first and alone: it runs the README's commands side by side on every core
# itself. The other modules then run side by side, one process per core (each measure and its
# baseline are timed in the same process, so the ratios keep their meaning), the most CPU first
# so that the cores finish together. bench_changes first of all: its runs use both cores
# themselves (--workers 2) for about half of the whole run's CPU, and the other modules fill the
# cores around them (6 December, load 8, CPU seconds: changes 153, Stonespine 27, conform 21,
# Vul'Keth 16, Spirit Island 5.5, Cloudspire 5, report 4, public API 2); the output keeps the
# modules' name order.
ALONE = ("bench_readme",)
LONGEST_FIRST = (
    "bench_changes",
    "bench_stonespine",
    "bench_conform",
    "bench_vulketh",
    "bench_spirit_island",
    "bench_cloudspire",
    "bench_report",
)


def main() -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("bench_"))
    quick = "--quick" in sys.argv[1:]
    only = {a for a in sys.argv[1:] if not a.startswith("--")}
    names = [n for n in names if not only or n in only]
    benchmarks: dict[str, object] = {}
    record = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "system": platform.platform(),
        "cpus": str(os.cpu_count()),
        "load_average": " ".join(f"{x:.2f}" for x in os.getloadavg()),
        "versions": _versions(),
        "quick": quick,
        "benchmarks": benchmarks,
    }
    done: dict[str, tuple[str, list[object] | None, float, float]] = {}

    def report(name: str, result: tuple[str, list[object] | None, float, float]) -> None:
        done[name] = result
        text, _, seconds, cpu = result
        if text:
            print(f"## {name}\n\n{text}\n\n_{name} took {seconds:.1f} s ({cpu:.1f} s CPU)_\n", flush=True)

    started_all, cpu_all = time.perf_counter(), cpu_seconds()
    for name in names:
        if name in ALONE:
            report(name, run_module(name, quick))
    rest = sorted(
        (n for n in names if n not in ALONE),
        key=lambda n: LONGEST_FIRST.index(n) if n in LONGEST_FIRST else len(LONGEST_FIRST),
    )
    workers = min(len(rest), os.cpu_count() or 1)
    if workers > 1:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            running = {pool.submit(run_module, name, quick): name for name in rest}
            for future in as_completed(running):
                report(running[future], future.result())
    else:
        for name in rest:
            report(name, run_module(name, quick))
    # the pool's workers have exited: their CPU, and their commands', is in this process's children
    print(
        f"_all benchmarks took {time.perf_counter() - started_all:.1f} s "
        f"({cpu_seconds() - cpu_all:.1f} s CPU, load average {os.getloadavg()[0]:.1f} at the end)_"
    )
    markdown: list[str] = []
    for name in names:  # the files keep the modules' name order, whichever finished first
        text, measures, _, _ = done[name]
        if not text:
            continue
        if measures is not None:
            benchmarks[name] = measures
        markdown += [f"## {name}", "", text, ""]
    OUT.parent.mkdir(exist_ok=True)
    write_atomic(OUT, canonical_json(record, indent=1) + "\n")
    write_atomic(OUT.with_suffix(".md"), "\n".join(markdown))
    print(f"written: {OUT}, {OUT.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
