"""Cloudspire benchmarks: rounds per second of seeded games, and each search against its second
engine measured in the same run (ratio = the other engine's time / this one's); the engagement's
three exact engines (baseline, z3, CP-SAT) at four sizes, search time only (issue 22)."""

from __future__ import annotations

import time
from collections.abc import Callable

from invasion_oracle.model.cloudspire.scenario import load_scenario, scenario_from_document
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.core.decisions import SeededChance, SeededRandomDecider
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability
from tests.bench import Measure, engine_measures, ortools_import_measure

ENGAGEMENT = "example:cloudspire/engagement.json"
# Dice added one by one to the bundled engagement's board (its five first, then four more): the
# committed dice of each size; the bundled dice not committed are exhausted.
ENGAGEMENT_DICE = (
    ("B1", "hit"),
    ("Y1", "crit"),
    ("G1", "miss"),
    ("P1", "hit"),
    ("B2", "miss"),
    ("Y4", "hit"),
    ("G3", "crit"),
    ("P2", "hit"),
    ("B4", "miss"),
)
ENGAGEMENT_SIZES = (3, 4, 5, 9)  # committed dice; 5 is the bundled engagement
ENGAGEMENT_BASELINE_UP_TO = 5  # the baseline doubles per die (0.6 s at 5): larger sizes run z3 and CP-SAT


def engagement_engines(sizes: tuple[int, ...] = ENGAGEMENT_SIZES, repeat: int = 3) -> list[Measure]:
    """The engagement's engines on the bundled board with 3 to 9 rolled dice, both plans, search
    time only (the baseline's memoised search; z3's and CP-SAT's models, optima and canonical plan)."""
    import ortools.sat.python.cp_model  # noqa: F401  (imported once, before timing: its own row)

    from invasion_oracle.model.core.jsonio import read_json_file
    from invasion_oracle.solver.cloudspire import engagement as eng
    from invasion_oracle.solver.common import Deadline

    cases = []
    for size in sizes:
        document = read_json_file(ENGAGEMENT)
        dice = document["state"]["dice"]
        dice["committed"] = dict(ENGAGEMENT_DICE[:size])
        dropped = {name for name, _ in ENGAGEMENT_DICE[size:5]}
        dice["exhausted"] = sorted(set(dice["exhausted"]) | dropped)
        scenario = scenario_from_document(document, f"engagement.json, {size} dice")
        game = scenario.game()
        origin = scenario.initial
        start, _ = game.start(origin)

        def solve(plan: Callable[..., object], origin: object = origin, game: object = game) -> None:
            for objective in eng.OBJECTIVES:
                plan(game, origin, objective, Deadline())

        runs: dict[str, Callable[[], object]] = {
            "z3": lambda solve=solve: solve(eng._z3_plan),
            "cpsat": lambda solve=solve: solve(eng._cpsat_plan),
        }
        if size <= ENGAGEMENT_BASELINE_UP_TO:
            runs["baseline"] = lambda g=game, o=origin, s=start: eng._Baseline(g, o, Deadline()).best(s)
        cases.append((f"{size} dice", f"engagement.json's board, {size} rolled dice, both plans", runs))
    return engine_measures("(a) engagement engines", cases, repeat)


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def results(quick: bool = False) -> list[Measure]:
    if quick:  # the engines at the smallest size, once each (about 0.2 s, and OR-Tools' import)
        return [ortools_import_measure(), *engagement_engines((3,), repeat=1)]
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
    return [*out, ortools_import_measure(), *engagement_engines()]
