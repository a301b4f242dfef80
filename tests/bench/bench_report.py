"""The report's runtime: ``invasion report --out DIR`` on a fresh cache, then again on the cache.

``make bench`` runs a reduced report (one game's sections, no long sections, no searches, no
fixtures: a few seconds) so that it does not lengthen ``make bench``; ``make bench-report``
(``INVASION_BENCH_REPORT=full``) times the whole report, every game, the searches and the
witnesses (minutes; see docs/performance.md). Both print wall and CPU time (the command's
processes, its pool workers included) of the first and of the cached run, and their ratio.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from invasion_oracle.reports.tables import table

REDUCED = ["--game", "vulketh", "--no-long", "--no-search", "--no-fixtures"]


def _timed(argv: list[str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "invasion_oracle.reports.cli", "report", *argv],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={k: v for k, v in os.environ.items() if k != "INVASION_NO_CACHE"},
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> str:
    full = os.environ.get("INVASION_BENCH_REPORT") == "full"
    with tempfile.TemporaryDirectory() as folder:
        base = ["--out", str(Path(folder) / "out"), "--cache-dir", str(Path(folder) / "cache")]
        argv = base + ([] if full else REDUCED)
        first = _timed(argv)
        cached = _timed(argv)
    rows = [
        ["first run (empty cache)", f"{first[0]:.1f}", f"{first[1]:.1f}"],
        ["second run (cached)", f"{cached[0]:.1f}", f"{cached[1]:.1f}"],
        ["first / cached (CPU)", "", f"{first[1] / max(cached[1], 0.01):.1f}x"],
    ]
    what = (
        "the whole report"
        if full
        else "a reduced report (" + " ".join(REDUCED) + "; make bench-report: whole)"
    )
    return f"invasion report --out DIR: {what}\n\n" + table(rows, ["run", "wall s", "CPU s"])
