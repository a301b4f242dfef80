"""Cloudspire benchmarks: rounds per second of seeded games, and each search against its second
engine measured in the same run (ratio = the other engine's time / this one's)."""

from __future__ import annotations

import time
from collections.abc import Callable

from invasion_oracle.model.cloudspire.scenario import load_scenario
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.core.decisions import SeededChance, SeededRandomDecider
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability
from tests.bench import Measure


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def results() -> list[Measure]:
    setup = load_scenario("example:cloudspire/setup.json")
    rounds = 0
    started = time.perf_counter()
    for seed in range(10):
        final = run(setup, SeededRandomDecider(seed), SeededChance(seed)).final
        rounds += final.round
    rate = rounds / (time.perf_counter() - started)
    out = [
        Measure(
            "rounds / s, whole games from setup",
            rate,
            "rounds/s",
            None,
            "",
            None,
            f"{rounds} rounds, 10 seeded games",
        )
    ]

    engagement = load_scenario("example:cloudspire/engagement.json")
    z3_time = _timed(lambda: best_engagement(engagement, "z3"))
    base_time = _timed(lambda: best_engagement(engagement, "baseline"))
    out.append(
        Measure(
            "(a) engagement, z3 + oracle replay",
            z3_time,
            "s",
            base_time,
            "exhaustive oracle search",
            base_time / z3_time,
            "engagement.json, both plans",
        )
    )

    survive = load_scenario("example:cloudspire/survive.json")
    grouped = _timed(lambda: survival_probability(survive, engine="grouped"))
    per_die = _timed(lambda: survival_probability(survive, engine="per-die"))
    out.append(
        Measure(
            "(b) survival, grouped rolls + policy replay",
            grouped,
            "s",
            per_die,
            "per-die chance",
            per_die / grouped,
            "survive.json, 3 rounds",
        )
    )

    spires = load_scenario("example:cloudspire/spires.json")
    cegis = _timed(lambda: fewest_spires(spires, 1, engine="z3"))
    baseline = _timed(lambda: fewest_spires(spires, 1, engine="baseline"))
    out.append(
        Measure(
            "(c) fewest spires, z3 CEGIS",
            cegis,
            "s",
            baseline,
            "every placement by size",
            baseline / cegis,
            "spires.json, bound 1",
        )
    )
    import ortools.sat.python.cp_model  # noqa: F401  (the import once, outside the timing, as z3's)

    cpsat = _timed(lambda: fewest_spires(spires, 1, engine="cpsat"))
    out.append(
        Measure(
            "(c) fewest spires, CP-SAT CEGIS",
            cpsat,
            "s",
            cegis,
            "z3 CEGIS, same proposals",
            cegis / cpsat,
            "spires.json, bound 1",
        )
    )
    return out
