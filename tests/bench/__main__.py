"""`make bench`: run every benchmark module in this folder; print tables, write out/bench.json.

Each ``bench_*.py`` module has ``results() -> list[Measure]`` or ``main() -> str`` (see
``tests/bench/__init__.py``). Benchmarks measure a baseline in the same run and print ratios, so
numbers compare across machines; ``out/bench.json`` keeps them for comparing runs.
"""

from __future__ import annotations

import importlib
import pkgutil
import platform
import sys
import time
from pathlib import Path

import tests.bench as package
from model.core.canonical import canonical_json, write_atomic
from reports.tables import table
from tests.bench import Measure

OUT = Path("out") / "bench.json"


def main() -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("bench_"))
    only = set(sys.argv[1:])
    benchmarks: dict[str, object] = {}
    record = {"python": platform.python_version(), "machine": platform.machine(), "benchmarks": benchmarks}
    started_all = time.perf_counter()
    for name in names:
        if only and name not in only:
            continue
        module = importlib.import_module(f"tests.bench.{name}")
        started = time.perf_counter()
        print(f"## {name}\n", flush=True)
        if hasattr(module, "results"):
            measures: list[Measure] = module.results()
            print(
                table(
                    [m.row() for m in measures],
                    ["measure", "this project", "baseline (same run)", "ratio", "workload"],
                )
            )
            benchmarks[name] = [m.to_json() for m in measures]
        else:
            print(module.main(), flush=True)
        print(f"\n_{name} took {time.perf_counter() - started:.1f} s_\n", flush=True)
    print(f"_all benchmarks took {time.perf_counter() - started_all:.1f} s_")
    OUT.parent.mkdir(exist_ok=True)
    write_atomic(OUT, canonical_json(record, indent=1) + "\n")
    print(f"written: {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
