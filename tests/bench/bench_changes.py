"""``invasion changes`` timed (issue 34): a designer's one-value change, against a full run.

* **full**: every job of both sides computed (``--no-cache``): the whole Stonespine suite, its
  ruling witnesses and its README searches, under the bundled data and under the override;
* **cold**: the same on an empty result cache: the bundled side is computed whole, recording its
  reads; the override's side reuses each case that read no changed value (model/core/reads.py);
* **warm**: the cache filled by a run on the bundled data (an override that changes nothing),
  then the one-field override: only the cases that read the changed value run.

Each run's wall-clock time and CPU time (its own and its workers', ``getrusage``: a shared
machine's wall clock says little alone) are printed; the ratios are the full run's over each
run's, and the cold run's over the warm one's. The three runs' answers must be byte-identical
(the bench fails otherwise). Targets (issue 34): warm within 60 s on two cores, cold within 5
minutes. ``--quick`` times one case file and one search instead.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from tests.bench import Measure

ROOT = Path(__file__).resolve().parents[2]
INVASION = [str(Path(sys.executable).with_name("invasion"))]
COMMAND = "invasion changes --data barbarian-5.json --format json --workers 2 --cache-dir DIR"


@dataclass(frozen=True, slots=True)
class Run:
    wall: float
    cpu: float
    jobs: str  # the run's own summary: jobs from the cache, run, cases built afresh
    answer: str


def _override(folder: Path, name: str, health: int | None) -> str:
    path = folder / name
    change = {} if health is None else {"heroes": {"Barbarian": {"health": health}}}
    document = {"extends": "bundled", "game": "stonespine", **change}
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _timed(words: list[str]) -> Run:
    """One run: wall-clock and CPU seconds (its workers' too), its summary line and its answer."""
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(words, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = after.ru_utime + after.ru_stime - cpu.ru_utime - cpu.ru_stime
    summary = [line for line in done.stderr.splitlines() if "from the cache" in line]
    said = summary[-1].split(": ", 2)[-1] if summary else "no cache"
    return Run(wall, used, said, done.stdout)


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
        full = _timed([*words, "--data", changed, "--no-cache"])
        cold = _timed([*words, "--data", changed, "--cache-dir", str(folder / "cold")])
        cache = ["--cache-dir", str(folder / "warm")]
        _timed([*words, "--data", unchanged, *cache])  # the cache filled on the bundled data
        warm = _timed([*words, "--data", changed, *cache])
    # the cache changes the time an answer takes, never the answer
    assert cold.answer == full.answer and warm.answer == full.answer, "an answer differs from the full run's"
    label = f"a full run (--no-cache; {full.cpu:.0f} s CPU)"
    return [
        Measure(
            "changes: warm, one value changed (s)",
            warm.wall,
            "s",
            full.wall,
            label,
            full.wall / warm.wall,
            f"{what}; Barbarian health 5 after a run on the bundled data ({warm.jobs}); "
            f"{warm.cpu:.0f} s CPU ({full.cpu / warm.cpu:.1f}x less than full); "
            f"cold / warm: {cold.wall / warm.wall:.1f}x wall, {cold.cpu / warm.cpu:.1f}x CPU; "
            f"target 60 s on two cores; answer identical to the full run's; `{COMMAND}`",
        ),
        Measure(
            "changes: cold, one value changed (s)",
            cold.wall,
            "s",
            full.wall,
            label,
            full.wall / cold.wall,
            f"{what}; Barbarian health 5 on an empty cache ({cold.jobs}); {cold.cpu:.0f} s CPU "
            f"({full.cpu / cold.cpu:.2f}x full's); target 5 minutes; answer identical to the full run's",
        ),
    ]
