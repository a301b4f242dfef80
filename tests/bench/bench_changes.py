"""``invasion changes`` timed (issue 34): a designer's one-value change, against a full run.

* **full**: every job of both sides computed (``--no-cache``): the whole Stonespine suite, its
  ruling witnesses and its README searches, under the bundled data and under the override;
* **cold**: an empty result cache and an override that changes nothing: the bundled side is
  computed whole, recording its reads, and the override's side reuses all of it
  (model/core/reads.py). Its answer must be "no change" over the full run's cases, byte for byte;
  its cache is the warm run's;
* **warm**: then the one-field override on that cache: only the cases that read the changed
  value run. Cold then warm is an empty cache to the one-value answer in two runs: about the
  work of one cold run of the override (on 6 December 49 jobs run and 687 cases built in the
  two, against 47 and 684 in one), plus a start and a cache read.

Each run's wall-clock time and CPU time (its own and its workers', ``getrusage``: a shared
machine's wall clock says little alone) are printed; the ratios are the full run's over each
run's, and cold then warm over warm. The warm answer must be byte-identical to the full run's,
the cold one to the no-change answer (the bench fails otherwise). Targets (issue 34): warm within
60 s on two cores, cold within 5 minutes. ``--quick`` times one case file and one search instead.
(Before issue 38's 120 s for the whole ``make bench``, the cold run was the override's on an empty
cache and a separate run on an unchanged override filled the warm run's cache: four runs.)
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


def no_change_answer(full: str, unchanged: str) -> str:
    """The answer an override that changes nothing must give (issue 34: "no change"), as the
    command writes it: the full run's games, each with the full run's count of cases compared
    and every change counted 0; nothing listed."""
    from invasion_oracle.reports.changes import recorded

    answer = json.loads(full)
    summary = {
        game: {kind: count if kind == "cases_compared" else 0 for kind, count in counts.items()}
        for game, counts in answer["summary"].items()
    }
    parts: dict[str, dict[str, object]] = {part: {} for part in ("cases", "rules", "rulings", "searches")}
    return str(recorded({**answer, **parts, "data": unchanged, "no_change": True, "summary": summary}))


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
        cache = ["--cache-dir", str(folder / "cache")]
        cold = _timed([*words, "--data", unchanged, *cache])  # an empty cache; it fills the warm run's
        warm = _timed([*words, "--data", changed, *cache])
    # the cache changes the time an answer takes, never the answer
    assert warm.answer == full.answer, "the warm answer differs from the full run's"
    assert cold.answer == no_change_answer(full.answer, unchanged), "the cold answer is not 'no change'"
    label = f"a full run (--no-cache; {full.cpu:.0f} s CPU)"
    both = cold.wall + warm.wall
    return [
        Measure(
            "changes: warm, one value changed (s)",
            warm.wall,
            "s",
            full.wall,
            label,
            full.wall / warm.wall,
            f"{what}; Barbarian health 5 on the cold run's cache ({warm.jobs}); "
            f"{warm.cpu:.0f} s CPU ({full.cpu / warm.cpu:.1f}x less than full); "
            f"cold then warm / warm: {both / warm.wall:.1f}x wall, {(cold.cpu + warm.cpu) / warm.cpu:.1f}x CPU; "
            f"target 60 s on two cores; answer identical to the full run's; `{COMMAND}`",
        ),
        Measure(
            "changes: cold, nothing changed, empty cache (s)",
            cold.wall,
            "s",
            full.wall,
            label,
            full.wall / cold.wall,
            f"{what}; an override that changes nothing on an empty cache, the bundled side computed "
            f"whole and recorded ({cold.jobs}); {cold.cpu:.0f} s CPU ({cold.cpu / full.cpu:.2f}x full's); "
            "answer: no change over the full run's cases; its cache is the warm run's",
        ),
        Measure(
            "changes: cold then warm, empty cache to the one-value answer (s)",
            both,
            "s",
            full.wall,
            label,
            full.wall / both,
            f"{what}; the two runs above, {cold.cpu + warm.cpu:.0f} s CPU "
            f"({(cold.cpu + warm.cpu) / full.cpu:.2f}x full's); about one cold run of the override's work, "
            "plus a start and a cache read; target 5 minutes",
        ),
    ]
