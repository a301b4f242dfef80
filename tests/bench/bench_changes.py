"""``invasion changes`` timed (issue 34): a designer's one-value change, against a full run.

* **full**: every job of both sides computed (``--no-cache``): the whole Stonespine suite, its
  ruling witnesses and its README searches, under the bundled data and under the override;
* **cold**: the same on an empty result cache: the bundled side is computed whole, the override's
  side reuses each job that read no changed value (model/core/reads.py);
* **warm**: the cache filled by a run on the bundled data (an override that changes nothing),
  then the one-field override: only the jobs that read the changed value run.

The ratios are the full run's wall-clock time over each run's. Targets (issue 34): warm within
60 s on two cores, cold within 5 minutes. ``--quick`` times one case file and one search instead.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench import Measure

ROOT = Path(__file__).resolve().parents[2]
INVASION = [str(Path(sys.executable).with_name("invasion"))]
COMMAND = "invasion changes --data barbarian-5.json --format json --cache-dir DIR"


def _override(folder: Path, name: str, health: int | None) -> str:
    path = folder / name
    change = {} if health is None else {"heroes": {"Barbarian": {"health": health}}}
    document = {"extends": "bundled", "game": "stonespine", **change}
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _timed(words: list[str]) -> tuple[float, str]:
    """Wall-clock seconds, and the run's summary line with its CPU seconds (a shared machine's
    wall clock says little on its own)."""
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(words, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    summary = [line for line in done.stderr.splitlines() if "from the cache" in line]
    said = summary[-1].split(": ", 2)[-1] if summary else "no cache"
    return wall, f"{said}; {used:.0f} s CPU"


def results(quick: bool = False) -> list[Measure]:
    limit = ["--cases", "heroes-abilities", "--searches", "stonespine/place"] if quick else []
    what = (
        "one case file and one search"
        if quick
        else "the whole Stonespine suite, witnesses and README searches"
    )
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        unchanged, changed = _override(folder, "v0.json", None), _override(folder, "v1.json", 5)
        words = [*INVASION, "changes", "--format", "json", "--workers", "2", *limit]
        full, full_cpu = _timed([*words, "--data", changed, "--no-cache"])
        cache = ["--cache-dir", str(folder / "cold")]
        cold, cold_jobs = _timed([*words, "--data", changed, *cache])
        cache = ["--cache-dir", str(folder / "warm")]
        _timed([*words, "--data", unchanged, *cache])  # the cache filled on the bundled data
        warm, warm_jobs = _timed([*words, "--data", changed, *cache])
    label = f"a full run (--no-cache; {full_cpu.split('; ')[-1]})"
    return [
        Measure(
            "changes: warm, one value changed (s)",
            warm,
            "s",
            full,
            label,
            full / warm,
            f"{what}; Barbarian health 5 after a run on the bundled data ({warm_jobs}); target 60 s on two "
            f"cores; `{COMMAND}`",
        ),
        Measure(
            "changes: cold, one value changed (s)",
            cold,
            "s",
            full,
            label,
            full / cold,
            f"{what}; Barbarian health 5 on an empty cache ({cold_jobs}); target 5 minutes",
        ),
    ]
