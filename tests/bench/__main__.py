"""`make bench`: run every benchmark module in this folder.

Each ``bench_*.py`` module has ``main() -> str`` returning a Markdown table. Benchmarks measure a
baseline in the same run and print ratios, so numbers compare across machines.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import time

import tests.bench as package


def main() -> int:
    names = sorted(m.name for m in pkgutil.iter_modules(package.__path__) if m.name.startswith("bench_"))
    only = set(sys.argv[1:])
    for name in names:
        if only and name not in only:
            continue
        module = importlib.import_module(f"tests.bench.{name}")
        started = time.perf_counter()
        print(f"## {name}\n", flush=True)
        print(module.main(), flush=True)
        print(f"\n_{name} took {time.perf_counter() - started:.1f} s_\n", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
