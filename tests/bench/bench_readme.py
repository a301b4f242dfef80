"""Every search command of the README, run as a user runs it, with its CPU time (issue 22).

Each ``.venv/bin/invasion GAME VERB ...`` line of the README whose verb is a search is run as a
subprocess (the installed ``invasion`` beside this Python) with ``--json``; its CPU time is the
children's user + system time from its own ``rusage`` (``os.wait4``), so other
jobs on the machine do not count. The goal: at most :data:`BUDGET` seconds each, with the answer
proven. ``--quick`` stops each command after :data:`QUICK_CPU` seconds of CPU (``RLIMIT_CPU``).

The README line and its measure are printed side by side; the ratio is budget / CPU time (1 or
more: within the budget).
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.bench import Measure

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 2.0
QUICK_CPU = 2  # the budget: a command stopped there is over it either way
SEARCH_VERBS = {
    "stonespine": {"place", "wave", "policy", "routes", "min-damage", "escape", "plan"},
    "spirit-island": {"fear-threshold", "fight-back", "defend", "cascade", "lands", "flip"},
    "vulketh": {"race", "clear", "differ"},
    "cloudspire": {"engagement", "survive", "spires"},
}

LONGEST = {("cloudspire", "survive"), ("cloudspire", "spires"), ("vulketh", "race")}
"""The searches that take the most CPU (1.3-1.7 s each, 6 December; the others 0.3-0.8 s)."""


def readme_searches(readme: Path = ROOT / "README.md") -> list[tuple[int, str, list[str]]]:
    """``(line number, the README line, the arguments after invasion)`` of each search line."""
    found = []
    for number, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), 1):
        text = line.split("#", 1)[0].strip()
        if not text.startswith(".venv/bin/invasion "):
            continue
        words = shlex.split(text)[1:]
        if len(words) >= 2 and words[1] in SEARCH_VERBS.get(words[0], ()):
            found.append((number, line.strip(), words))
    return found


def run_line(words: list[str], cpu_limit: int | None, root: Path = ROOT) -> tuple[float, str]:
    """CPU seconds of one command (its own ``rusage``, from ``os.wait4``: commands may run side by
    side) and its JSON status (past ``cpu_limit`` CPU seconds: ``stopped``)."""

    def limit() -> None:
        if cpu_limit is not None:
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    # ``invasion`` is reports.cli:main; run from ``root`` first on the path (``root`` may be another
    # checkout, e.g. the unmodified main for the "before" table of docs/performance.md).
    start = f"import sys; sys.path.insert(0, {str(root)!r}); from invasion_oracle.reports.cli import main; sys.exit(main())"
    command = [sys.executable, "-c", start, *words, "--json"]
    env = {**os.environ, "PYTHONPATH": str(root)}
    with tempfile.TemporaryFile() as out:
        child = subprocess.Popen(
            command, cwd=root, env=env, stdout=out, stderr=subprocess.DEVNULL, preexec_fn=limit
        )
        _pid, code, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(code)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    spent = usage.ru_utime + usage.ru_stime
    try:
        status = str(json.loads(text)["status"])
    except (ValueError, KeyError, TypeError):
        status = "stopped" if child.returncode < 0 else f"exit {child.returncode}"
    return spent, status


def results(quick: bool = False, root: Path = ROOT) -> list[Measure]:
    lines = readme_searches(root / "README.md")
    # Side by side on every core: each command's CPU time is its own (``os.wait4``), so running
    # them together changes the wall time of the bench, not the measure. The lines the README names
    # as large start first, then the longest searches (:data:`LONGEST`), so the others fill the
    # remaining cores around them.
    workers = os.cpu_count() or 1

    def timed(words: list[str]) -> tuple[float, str, float]:
        started = time.perf_counter()
        cpu, status = run_line(words, QUICK_CPU if quick else None, root)
        return cpu, status, time.perf_counter() - started

    order = sorted(
        range(len(lines)), key=lambda i: ("(large:" not in lines[i][1], tuple(lines[i][2][:2]) not in LONGEST)
    )
    with ThreadPoolExecutor(workers) as pool:
        started = {i: pool.submit(timed, lines[i][2]) for i in order}
        runs = [started[i].result() for i in range(len(lines))]
    measures = []
    for (number, line, words), (cpu, status, wall) in zip(lines, runs, strict=True):
        within = "within" if cpu <= BUDGET and status == "proven" else "OVER"
        if within == "OVER" and "(large:" in line:  # the README names the instance as large
            within = "large, as the README says; over"
        measures.append(
            Measure(
                f"README:{number} {' '.join(words[:2])}",
                cpu,
                "s CPU",
                BUDGET,
                "the budget",
                BUDGET / cpu if cpu else None,
                f"{status}; {within} {BUDGET:g} s; {wall:.1f} s wall; `{shlex.join(['invasion', *words])}`",
            )
        )
    return measures


if __name__ == "__main__":
    from invasion_oracle.reports.tables import table

    # python -m tests.bench.bench_readme [--quick] [ROOT]: ROOT another checkout to time.
    other = [a for a in sys.argv[1:] if not a.startswith("--")]
    rows = [m.row() for m in results("--quick" in sys.argv, Path(other[0]) if other else ROOT)]
    print(table(rows, ["measure", "this project", "baseline (same run)", "ratio", "workload"]))
