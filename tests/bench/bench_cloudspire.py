"""Cloudspire benchmarks: rounds per second of seeded games, and each search against its second
engine measured in the same run (ratio = the other engine's time / this one's): survival's two
engines at 1 and 2 rounds, fewest spires' three (z3, CP-SAT, baseline) at three sizes, the
engagement's three at four sizes, search time only (issue 22). The bundled questions are the
README lines, timed whole by ``bench_readme``."""

from __future__ import annotations

import time
from collections.abc import Callable

from invasion_oracle.model.cloudspire.scenario import Scenario, load_scenario, scenario_from_document
from invasion_oracle.model.cloudspire.simulate import run
from invasion_oracle.model.core.decisions import SeededChance, SeededRandomDecider
from invasion_oracle.solver.cloudspire.engagement import best_engagement
from invasion_oracle.solver.cloudspire.spire_cover import fewest_spires
from invasion_oracle.solver.cloudspire.survival import survival_probability
from tests.bench import Measure, best_cpu, engine_measures, ortools_import_measure

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

    return [
        *out,
        *survival_engines(),
        ortools_import_measure(),
        *spire_engines(),
        *engagement_engines(),
    ]


def _cut(example: str, rounds: int) -> Scenario:
    """``example`` with its question cut to ``rounds`` rounds."""
    from invasion_oracle.model.core.jsonio import read_json_file

    document = {**read_json_file(example), "rounds": rounds}
    return scenario_from_document(
        document, f"{example.removeprefix('example:cloudspire/')}, {rounds} round(s)"
    )


# The survival question at 1 and 2 rounds: the bundled 3 rounds is the README line (bench_readme
# times it as a user runs it); here each engine once more at 3 rounds would add about 10 s.
SURVIVAL_ROUNDS = (1, 2)


def survival_engines(rounds: tuple[int, ...] = SURVIVAL_ROUNDS) -> list[Measure]:
    """Survival's grouped-rolls engine (with its policy replay) against the per-die chance, CPU."""
    out = []
    for n in rounds:
        scenario = _cut("example:cloudspire/survive.json", n)
        grouped = best_cpu(1, lambda s=scenario: survival_probability(s, engine="grouped"))
        per_die = best_cpu(1, lambda s=scenario: survival_probability(s, engine="per-die"))
        out.append(
            Measure(
                f"(b) survival, grouped rolls + policy replay, {n} round(s)",
                grouped,
                "s",
                per_die,
                "per-die chance",
                per_die / grouped,
                f"survive.json cut to {n} round(s) (the bundled 3: bench_readme)",
            )
        )
    return out


# Fewest spires at three sizes, every engine at each: spires.json cut to 1 round (bound 1 and 2)
# and its 2 rounds at bound 1. The bundled question (2 rounds, bound 2) is the README line: z3
# 4.5 s, CP-SAT 3.8 s, the baseline 20 s of search (3 December), too long for every bench.
SPIRE_SIZES = ((1, 1), (1, 2), (2, 1))


def spire_engines(sizes: tuple[tuple[int, int], ...] = SPIRE_SIZES) -> list[Measure]:
    """Fewest spires by z3 CEGIS, CP-SAT CEGIS and every placement by size, search and replay, CPU;
    OR-Tools imported before timing (its import is its own row)."""
    import ortools.sat.python.cp_model  # noqa: F401

    cases = []
    for rounds, bound in sizes:
        scenario = _cut("example:cloudspire/spires.json", rounds)
        runs: dict[str, Callable[[], object]] = {
            e: lambda s=scenario, b=bound, e=e: fewest_spires(s, b, engine=e)
            for e in ("z3", "cpsat", "baseline")
        }
        cases.append(
            (
                f"{rounds} round(s), bound {bound}",
                f"spires.json cut to {rounds} round(s), health kept above {bound}; auto picks z3",
                runs,
            )
        )
    return engine_measures("(c) fewest spires engines", cases, repeat=1)
