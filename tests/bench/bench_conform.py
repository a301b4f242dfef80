"""Cases a second through the conformance protocol against the oracle's own adapter (issue 35).

The fixed suite's rate (Spirit Island's Ravage, Build and Explore cases, the graded variant, one
adapter process) is the baseline; ``invasion conform --fuzz``'s rate is measured beside it, per
game and over all four, with one adapter process (``--jobs 1``): a generated case is drawn from
its game's strategies, realised by the oracle (every acceptable outcome), sent, answered and
graded. The target is 100 generated cases a second on one core, per game: besides the
wall-clock rate (which a loaded machine slows), the rate per CPU second of the runner and the
adapter together (``getrusage``, the adapter's counted once it has exited) says what one core
does whatever else the machine runs. Both rates include starting the adapter; the runner's own
one-time import of a game's modules (which any command of that game pays) is done before timing,
as the fixed suite's run has done for Spirit Island.
"""

from __future__ import annotations

import importlib
import resource
import shlex
import sys
import time
from pathlib import Path

from tests.bench import Measure

ROOT = Path(__file__).resolve().parents[2]
ORACLE = f"{shlex.quote(sys.executable)} {shlex.quote(str(ROOT / 'examples' / 'adapters' / 'oracle.py'))}"
SUITE_GROUPS = ("spirit-island/ravage/", "spirit-island/build/", "spirit-island/explore/")


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def suite_rate() -> tuple[float, float, int]:
    from invasion_oracle.reports.conform.runner import Options, load_cases, run_cases

    fixtures = ROOT / "fixtures"
    cases = load_cases(fixtures, ("spirit-island",), SUITE_GROUPS)
    started, cpu = time.perf_counter(), _cpu()
    run = run_cases(cases, Options(ORACLE, cases=SUITE_GROUPS, folder=fixtures, graded_only=True))
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    assert run.passed, "the oracle adapter must pass its own suite"
    return len(run.judged()) / seconds, len(run.judged()) / cpu, len(run.judged())


def fuzz_rate(games: tuple[str, ...], examples: int) -> tuple[float, float, int]:
    from invasion_oracle.model import registry
    from invasion_oracle.reports.conform.fuzz import FuzzOptions, fuzz

    for game in games or registry.names():  # the game's modules, loaded once per process
        registry.spec(game)
        importlib.import_module(f"invasion_oracle.properties.{game.replace('-', '_')}")

    started, cpu = time.perf_counter(), _cpu()
    out = fuzz(FuzzOptions(ORACLE, games=games, seed=1, examples=examples, progress=False))
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    assert out.passed, [f.signature for f in out.failures]
    generated = sum(t.generated for t in out.tallies.values())
    return generated / seconds, generated / cpu, generated


def results(quick: bool = False) -> list[Measure]:
    baseline, baseline_cpu, suite_cases = suite_rate()
    label = f"the fixed suite: {suite_cases} Spirit Island action cases"
    measures = []
    plan = [(("spirit-island",), 100 if quick else 400)]
    if not quick:
        plan += [((game,), 400) for game in ("vulketh", "cloudspire", "stonespine")]
        plan.append(((), 100))
    for games, examples in plan:
        rate, per_cpu, generated = fuzz_rate(games, examples)
        what = ", ".join(games) if games else "all four games"
        measures.append(
            Measure(
                f"conform --fuzz: generated cases a CPU second ({what})",
                per_cpu,
                "cases/s",
                baseline_cpu,
                label,
                per_cpu / baseline_cpu,
                f"{generated} generated cases, runner and adapter CPU time together (one core; target 100/s)",
            )
        )
        measures.append(
            Measure(
                f"conform --fuzz: generated cases a second ({what})",
                rate,
                "cases/s",
                baseline,
                label,
                rate / baseline,
                f"{generated} generated cases against the oracle adapter, --jobs 1, seed 1 (target 100/s)",
            )
        )
    return measures
