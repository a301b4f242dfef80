"""``invasion changes`` timed (issue 34): a cold run (empty result cache) of one game's whole suite,
witnesses and README searches under a one-value override, against the runs after it.

* the same data again (warm): every producer's cases come from the cache; only the searches run;
* a one-value change after the cold run: the bundled side comes from the cache, the new side is
  recomputed whole (the cache keys on the game's data, not on the values each case reads, so a
  changed value reruns every case of its game on that side).

The ratios are the cold run's wall-clock time over each later run's. ``--quick`` times one case
file (``--cases heroes-abilities``) instead of the whole suite.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tests.bench import Measure

ROOT = Path(__file__).resolve().parents[2]
INVASION = [str(Path(sys.executable).with_name("invasion"))]


def _override(folder: Path, name: str, health: int) -> str:
    path = folder / name
    document = {"extends": "bundled", "game": "stonespine", "heroes": {"Barbarian": {"health": health}}}
    path.write_text(json.dumps(document), encoding="utf-8")
    return str(path)


def _timed(words: list[str]) -> float:
    started = time.perf_counter()
    done = subprocess.run(words, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    return time.perf_counter() - started


def results(quick: bool = False) -> list[Measure]:
    limit = ["--cases", "heroes-abilities", "--searches", "stonespine/place"] if quick else []
    what = "one case file and one search" if quick else "the whole Stonespine suite and its README searches"
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        cache = ["--cache-dir", str(folder / "cache"), "--format", "json"]
        first, second = _override(folder, "v2.json", 5), _override(folder, "v3.json", 4)
        cold = _timed([*INVASION, "changes", "--data", first, *cache, *limit])
        warm = _timed([*INVASION, "changes", "--data", first, *cache, *limit])
        changed = _timed([*INVASION, "changes", "--data", second, *cache, *limit])
    label = "the cold run (empty cache)"
    return [
        Measure(
            "changes: warm run, same data (s)",
            warm,
            "s",
            cold,
            label,
            cold / warm,
            f"{what}, Barbarian health 5 against the bundled data, run again",
        ),
        Measure(
            "changes: after a one-value change (s)",
            changed,
            "s",
            cold,
            label,
            cold / changed,
            f"{what}: Barbarian health 4 after the cold run with 5 (the bundled side from the cache)",
        ),
    ]
