"""`make bench`: run every benchmark module in this folder; print tables, write out/bench.json
and out/bench.md.

``python -m tests.bench [--quick] [bench_NAME ...]``. Each ``bench_*.py`` module has
``results() -> list[Measure]`` (or ``results(quick: bool)``, which ``--quick`` calls with
``quick=True``; modules without that parameter are skipped by ``--quick``) or ``main() -> str``
(see ``tests/bench/__init__.py``). Benchmarks measure a baseline in the same run and print ratios,
so numbers compare across machines; ``out/bench.json`` keeps them (with the machine, Python, z3 and
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

import importlib
import inspect
import os
import pkgutil
import platform
import sys
import time
from pathlib import Path

import tests.bench as package
from invasion_oracle.model.core.canonical import canonical_json, write_atomic
from invasion_oracle.reports.tables import table
from tests.bench import Measure

OUT = Path("out") / "bench.json"
HEADERS = ["measure", "this project", "baseline (same run)", "ratio", "workload"]


def _versions() -> dict[str, str]:
    from importlib import metadata

    found = {}
    for package_name in ("z3-solver", "ortools"):
        try:
            found[package_name] = metadata.version(package_name)
        except metadata.PackageNotFoundError:
            found[package_name] = "not installed"
    return found


def main() -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("bench_"))
    quick = "--quick" in sys.argv[1:]
    only = {a for a in sys.argv[1:] if not a.startswith("--")}
    benchmarks: dict[str, object] = {}
    markdown: list[str] = []
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
    started_all = time.perf_counter()
    for name in names:
        if only and name not in only:
            continue
        module = importlib.import_module(f"tests.bench.{name}")
        takes_quick = hasattr(module, "results") and "quick" in inspect.signature(module.results).parameters
        if quick and not takes_quick:
            continue
        started = time.perf_counter()
        print(f"## {name}\n", flush=True)
        if hasattr(module, "results"):
            measures: list[Measure] = module.results(quick=True) if quick else module.results()
            text = table([m.row() for m in measures], HEADERS)
            benchmarks[name] = [m.to_json() for m in measures]
        else:
            text = module.main()
        print(text, flush=True)
        markdown += [f"## {name}", "", text, ""]
        print(f"\n_{name} took {time.perf_counter() - started:.1f} s_\n", flush=True)
    print(f"_all benchmarks took {time.perf_counter() - started_all:.1f} s_")
    OUT.parent.mkdir(exist_ok=True)
    write_atomic(OUT, canonical_json(record, indent=1) + "\n")
    write_atomic(OUT.with_suffix(".md"), "\n".join(markdown))
    print(f"written: {OUT}, {OUT.with_suffix('.md')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
