"""Stonespine solver benchmarks: each measure against a baseline measured in the same run.

1. Optimal placement, objective (a) (heroes surely defeated in the first wave), proven, on
   instances whose optimum is below the maximum (unique or nearly), on a degenerate one (every
   placement defeats the whole wave) and on 8x8 study grids. This project: the pruned search
   (``solver/stonespine/placement.py``). Baselines: enumerating every placement on the compiled
   board, and enumerating every placement through the oracle; a baseline too slow to run in full
   is timed on a sample spread over the placements and scaled, and the ratio says so
   ("extrapolated").
2. Route queries: every outcome of one hero on open grids (every doorway open), against z3 asked
   every question (the previous method) and against walking every route.
3. Objective (b): the placement maximising the phase's expected defeats, against solving every
   placement's phase.
4. The year planner (``invasion stonespine plan``): purchases, placement and gate policy together,
   against the oracle expectimax over every plan (``oracle_plan_value``), both in CPU seconds.
5. min-damage engines: the search (the baseline), z3 and CP-SAT on the same study grids, search
   time only, with what importing OR-Tools costs a fresh process (``auto``'s crossover).
6. place engines: objective (a) by the search (the baseline), z3 and CP-SAT on the same instances
   at four sizes, search time only.

``python -m tests.bench.bench_stonespine scaling`` measures the placement search against grid size
and minions and writes the table and picture of ``docs/performance.md``.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import invasion_oracle.model.stonespine  # noqa: F401
from invasion_oracle.model.stonespine.heroes import HeroColor
from invasion_oracle.model.stonespine.scenario import Scenario, load_scenario, scenario_from_document
from invasion_oracle.solver.common import Deadline, TimeLimit
from invasion_oracle.solver.stonespine.board import Layout, board_for
from invasion_oracle.solver.stonespine.dice import Roll, roll_distribution
from invasion_oracle.solver.stonespine.fast import EntryTables, LayoutEvaluator
from invasion_oracle.solver.stonespine.generate import random_dungeon, scenario_document, study_document
from invasion_oracle.solver.stonespine.placement import (
    _hardest_first,
    guaranteed_value,
    oracle_guaranteed_for,
    search_expected,
    search_guaranteed,
    upper_bound,
)
from invasion_oracle.solver.stonespine.policy import InvasionDP
from invasion_oracle.solver.stonespine.policy import Measure as PhaseMeasure
from invasion_oracle.solver.stonespine.routes import RouteModel, enumerate_outcomes, solve_routes
from invasion_oracle.solver.stonespine.space import forget_recent, layouts, minion_counts, placement_space
from tests.bench import Measure, ortools_import_measure
from tests.solver_stonespine.instances import NEAR_UNIQUE, SMALL

ROOT = Path(__file__).resolve().parents[2]
ORACLE_SAMPLE = 4  # placements timed through the oracle when it cannot run in full
ENUMERATION_SAMPLE = 3000  # placements timed on the compiled board when enumeration is too long

# NEAR_UNIQUE and SMALL (tests/solver_stonespine/instances.py): a 4x3 year-3 dungeon whose optimum
# is below the maximum and nearly unique, and a 3x2 one on which the oracle runs in full.
ORACLE_CAP = 20.0  # seconds one placement may take through the oracle before the sample stops


def _timed(work: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best, result = float("inf"), None
    for _ in range(repeat):
        forget_recent()  # each run compiles its dungeon, as a command does
        started = time.perf_counter()
        result = work()
        best = min(best, time.perf_counter() - started)
    return best, result


def study(**options: Any) -> Scenario:
    return scenario_from_document(study_document(**options), "bench: study grid")


def degenerate_4x4() -> Scenario:
    """The previous benchmark's instance: every placement defeats all four heroes."""
    doc = scenario_document(
        random_dungeon(9, 4, 4, open_doors=0.4),
        year=4,
        guardian="Dragon",
        levels=(4, 4),
        placement={"guardians": ["A1"], "minions": ["A1", "A1", "A1"]},
        heroes={"black": "Thief", "purple": "Cleric", "red": "Barbarian"},
        health_bonus={"black": 2, "purple": 2, "red": 2},
    )
    return scenario_from_document(doc, "bench: generated 4x4 seed 9")


def _every_placement(scenario: Scenario) -> tuple[list[Layout], list[Roll]]:
    board, _, _ = board_for(scenario)
    rolls = [r for r, p in roll_distribution(scenario.data, board.year) if p > 0]
    return list(layouts(board, minion_counts(scenario, board), range(board.size))), rolls


def _placement_sample(scenario: Scenario, limit: int | None) -> tuple[list[Layout], int, list[Roll]]:
    """Every placement (in :func:`layouts`' order), or, past ``limit``, every k-th of them (the first
    ``limit``, k = count // limit) without building the others (2.9 million on an 8x8 grid took
    14 s to list): ``(placements, count, rolls)``."""
    board, _, _ = board_for(scenario)
    rolls = [r for r, p in roll_distribution(scenario.data, board.year) if p > 0]
    counts, nodes = minion_counts(scenario, board), range(board.size)
    per_guardians = sum(math.comb(board.size + c - 1, c) for c in counts)
    total = math.comb(board.size + board.guardian_figures - 1, board.guardian_figures) * per_guardians
    if limit is None or total <= limit:
        return list(layouts(board, counts, nodes)), total, rolls
    stride, picked, index = total // limit, [], 0
    for guardians in itertools.combinations_with_replacement(nodes, board.guardian_figures):
        for count in counts:
            block = math.comb(board.size + count - 1, count)
            first = -index % stride
            for minions in itertools.islice(
                itertools.combinations_with_replacement(nodes, count), first, None, stride
            ):
                tally = [0] * board.size
                for node in minions:
                    tally[node] += 1
                picked.append(Layout(tuple(sorted(guardians)), tuple(tally)))
            index += block
    return picked[:limit], total, rolls


def enumeration_time(scenario: Scenario, limit: int | None = None) -> tuple[float, bool, int]:
    """Seconds to evaluate every placement on the compiled board (the previous search, with its
    cut on the best so far), or ``limit`` of them scaled up: ``(seconds, extrapolated, placements)``."""
    board, _, defeated = board_for(scenario)
    sample, count, rolls = _placement_sample(scenario, limit)
    tables = EntryTables(board, batch=True)
    order = _hardest_first(rolls)
    started = time.perf_counter()
    best = -1
    for layout in sample:
        value, _ = guaranteed_value(LayoutEvaluator(board, layout, tables), order, best, defeated)
        best = max(best, value)
    seconds = time.perf_counter() - started
    if len(sample) == count:
        return seconds, False, count
    return seconds / len(sample) * count, True, count


def oracle_time(scenario: Scenario, sample: int | None = None) -> tuple[float, bool, int]:
    """Seconds to evaluate every placement through the oracle (every roll searched by the oracle,
    with the cut on the best so far), or ``sample`` of them scaled up (each stopped after
    ``ORACLE_CAP`` seconds, which makes the scaled figure a lower bound)."""
    board, _, _ = board_for(scenario)
    chosen, count, rolls = _placement_sample(scenario, sample)
    order = _hardest_first(rolls)
    started = time.perf_counter()
    best = -1
    for layout in chosen:
        cap = Deadline(None if sample is None else ORACLE_CAP)
        with contextlib.suppress(TimeLimit):
            best = max(best, oracle_guaranteed_for(scenario, 0, board, layout, order, best, cap))
    seconds = time.perf_counter() - started
    if len(chosen) == count:
        return seconds, False, count
    return seconds / len(chosen) * count, True, count


def placement_measures() -> list[Measure]:
    # (name, scenario, oracle: None in full / a sample / 0 not run, enumeration: None in full / a
    # sample, runs of the search). The degenerate 4x4's enumeration is sampled too: every one of its
    # 13,056 placements costs the same (none is cut), 4.4 s in full.
    example = load_scenario("example:stonespine/placement.json")
    hard = study(rows=8, columns=8, seed=23, elements=0.3, bonus=6)
    instances: list[tuple[str, Scenario, int | None, int | None, int]] = [
        ("3x2 year 2", study(**SMALL), None, None, 3),
        ("4x3 year 3, optimum 2 of 3, 3 tied", study(**NEAR_UNIQUE), ORACLE_SAMPLE, None, 3),
        ("examples/stonespine/placement.json, 4x4 year 4", example, 2, None, 3),
        ("4x4 year 4, every placement ties at 4 of 4", degenerate_4x4(), 0, ENUMERATION_SAMPLE, 3),
        ("8x8 study grid, 25 chambers enterable", hard, 0, ENUMERATION_SAMPLE, 1),
        ("8x8 study grid, 52 chambers enterable", study(rows=8, columns=8, seed=3), 0, ENUMERATION_SAMPLE, 1),
    ]
    measures = []
    for name, scenario, oracle_sample, enumeration_limit, runs in instances:
        ours, answer = _timed(lambda s=scenario: search_guaranteed(s), repeat=runs)
        assert answer.status.value == "proven", name
        board, _, _ = board_for(scenario)
        workload = (
            f"{name}: guardian + {board.minions} minion(s); proven best {answer.best} of "
            f"{max(sum(r) for r, p in roll_distribution(scenario.data, board.year) if p > 0)} heroes, "
            f"{len(answer.tied)}{'' if answer.ties_complete else '+'} tied; {answer.evaluated:,} classes evaluated"
        )
        seconds, extrapolated, count = enumeration_time(scenario, enumeration_limit)
        measures.append(
            Measure(
                f"place (a): {name}",
                ours,
                "s",
                seconds,
                f"every one of {count:,} placements on the compiled board"
                + (f" (timed on {enumeration_limit:,}, scaled)" if extrapolated else ""),
                seconds / ours,
                workload,
                extrapolated,
            )
        )
        if oracle_sample == 0:
            continue  # minutes per placement through the oracle: the compiled enumeration stands in
        oracle, extrapolated, count = oracle_time(scenario, oracle_sample)
        measures.append(
            Measure(
                f"place (a): {name}",
                ours,
                "s",
                oracle,
                f"every one of {count:,} placements through the oracle"
                + (f" (timed on {oracle_sample}, scaled)" if extrapolated else ", measured in full"),
                oracle / ours,
                workload,
                extrapolated,
            )
        )
    return measures


def expected_measures() -> list[Measure]:
    scenario = study(rows=2, columns=3, seed=1, year=2, minions=2, bonus=3)
    ours, answer = _timed(lambda: search_expected(scenario, PhaseMeasure.DEFEATED), repeat=3)
    board, _, defeated = board_for(scenario)
    dist = roll_distribution(scenario.data, board.year)
    choices, _ = _every_placement(scenario)

    def every() -> None:
        for layout in choices:
            InvasionDP(board, layout, dist, PhaseMeasure.DEFEATED, None, defeated).solve()

    baseline, _ = _timed(every)
    return [
        Measure(
            "place (b): expected defeats, 3x2 year 2",
            ours,
            "s",
            baseline,
            f"the phase solved for every one of {len(choices)} placements",
            baseline / ours,
            f"best {answer.best}, {len(answer.tied)} tied, the best policy replayed by the oracle",
        )
    ]


def _cpu(work: Callable[[], Any]) -> tuple[float, Any]:
    forget_recent()  # each run compiles its dungeon, as a command does
    started = time.process_time()
    result = work()
    return time.process_time() - started, result


def plan_measures() -> list[Measure]:
    """The planner against the enumeration baseline on the generated instances its tests use."""
    from invasion_oracle.solver.stonespine.plan import PlanMeasure, oracle_plan_value, solve_plan
    from tests.solver_stonespine.test_plan import small_instance

    measures = []
    for seed in (0, 1):
        scenario = scenario_from_document(small_instance(seed), f"bench: plan seed {seed}")
        ours, (answer, _) = _cpu(lambda s=scenario: solve_plan(s, PlanMeasure.SCORE))
        baseline, value = _cpu(lambda s=scenario: oracle_plan_value(s, PlanMeasure.SCORE))
        assert answer.best_expected is not None and answer.best_expected.expected == value
        measures.append(
            Measure(
                f"plan: purchases, placement and gate policy, 3x1 year 1 (seed {seed}), CPU",
                ours,
                "s",
                baseline,
                "the oracle expectimax over every plan",
                baseline / ours,
                f"best {answer.best_expected.expected} ({answer.status.value}, replayed), "
                f"{answer.purchase_classes} purchase classes, {answer.plans_evaluated} plans",
            )
        )
    return measures


def open_grid(size: int) -> dict[str, Any]:
    """Every doorway open, few elements: the number of routes explodes with the grid."""
    letters = "ABCDEFGH"
    rows = []
    for r in range(size):
        row = []
        for c in range(size):
            doors = (
                ("T" if r > 0 or c == 0 else "")
                + ("B" if r < size - 1 else "")
                + ("L" if c > 0 else "")
                + ("R" if c < size - 1 else "")
            )
            element = " spike" if (r * 7 + c * 3) % 11 == 0 else ""
            row.append(f"cave {doors}{element}")
        rows.append(row)
    return {"entrance": letters[0], "exit": letters[size - 1], "rows": rows}


def open_grid_scenario(size: int) -> Scenario:
    letters = "ABCDEFGH"
    far = f"{letters[size - 1]}{size}"
    minions = [f"{letters[size // 2]}{size // 2}", f"{letters[size // 3]}{size - 1}", f"B{size}"]
    doc = scenario_document(
        open_grid(size),
        year=4,
        guardian="Dragon",
        levels=(4, 4),
        placement={"guardians": [far], "minions": minions},
        heroes={"black": "Thief", "purple": "Cleric", "red": "Barbarian"},
        health_bonus={"red": 6},
    )
    return scenario_from_document(doc, f"bench: open grid {size}x{size}")


def route_measures() -> list[Measure]:
    measures = []
    for size in (8,):
        scenario = open_grid_scenario(size)
        ours, answer = _timed(lambda s=scenario: solve_routes(s, HeroColor.RED), repeat=2)
        board, layout, defeated = board_for(scenario)

        def ask_everything(b: Any = board, lay: Any = layout, d: int = defeated) -> int:
            model = RouteModel(b, lay, HeroColor.RED, d)
            found = 0
            for c in range(b.size):
                for condition in (model.path.defeated_at(c), model.path.escaped_at(c)):
                    found += model.witness(condition, Deadline()) is not None
            return found

        z3_all, found = _timed(ask_everything)
        assert found == len(answer.outcomes), "z3 and the harvest disagree"
        workload = (
            f"open {size}x{size} grid, red hero (Barbarian, 12 health): all {len(answer.outcomes)} outcomes, "
            "each replayed through the oracle"
        )
        measures.append(
            Measure(
                f"routes: every outcome, {size}x{size}",
                ours,
                "s",
                z3_all,
                "z3 asked every (fate, chamber), no replay",
                z3_all / ours,
                workload,
            )
        )
        limit = 2.0  # the walk does not finish on an open 8x8 grid: a lower bound either way
        try:
            walked, _ = _timed(
                lambda b=board, lay=layout, d=defeated, cap=limit: enumerate_outcomes(
                    b, lay, HeroColor.RED, d, Deadline(cap)
                )
            )
            measures.append(
                Measure(
                    f"routes: every outcome, {size}x{size}",
                    ours,
                    "s",
                    walked,
                    "every route walked",
                    walked / ours,
                    workload,
                )
            )
        except TimeLimit:
            measures.append(
                Measure(
                    f"routes: every outcome, {size}x{size}",
                    ours,
                    "s",
                    limit,
                    f"every route walked: stopped at {limit:.0f} s, not finished (a lower bound)",
                    limit / ours,
                    workload,
                    extrapolated=True,
                )
            )
    return measures


def public_api(games: int = 20) -> list[Measure]:
    """Hero walks (``example:stonespine/default.json`` played to its end, seeded dice, first legal
    choice) through the public ``start`` / ``pending`` / ``step`` against the core driver's
    ``play`` (the path ``simulate`` takes: answers checked, every step recorded)."""
    from tests.bench import DriverPair, public_api_measures

    scenario = load_scenario(str(ROOT / "examples" / "stonespine" / "default.json"))
    pair = DriverPair(scenario.game(), scenario.initial, range(games))
    measures = public_api_measures(
        "Stonespine game (hero walks)",
        units=games,
        public=pair.public,
        internal=pair.internal,
        repeat=3,
        workload=f"example:stonespine/default.json to its end, {games} seeds, first legal choice",
    )
    pair.check("Stonespine")
    return measures


# min-damage engines (issue 22): study grids, the wave black + purple + red, kobold tokens, up to 8.
# Found among generated grids: the answers are not zero and the search (the baseline) finishes in
# about a second on tokens (it takes minutes once the answer is 4 or more; CP-SAT does not).
MIN_DAMAGE = {
    "4x4": {"rows": 4, "columns": 4, "seed": 3, "elements": 0.3, "bonus": 3},
    "6x6": {"rows": 6, "columns": 6, "seed": 5, "elements": 0.3, "bonus": 4},
    "8x8": {"rows": 8, "columns": 8, "seed": 5, "elements": 0.3, "bonus": 7},
}


def _cpu_best(work: Callable[[], Any], runs: int, spend: float = 0.6) -> tuple[float, int, Any]:
    """The least CPU seconds of up to ``runs`` runs (fewer once ``spend`` seconds are used):
    ``(seconds, runs made, result)``."""
    best, made, result, used = float("inf"), 0, None, 0.0
    while made < runs and (made == 0 or used < spend):
        seconds, result = _cpu(work)
        best, made, used = min(best, seconds), made + 1, used + seconds
    return best, made, result


def min_damage_measures(quick: bool = False) -> list[Measure]:
    """min-damage's engines on the same study grids: search time only (no replay), CPU, best of
    up to 3 runs of the search, 2 of CP-SAT, 1 of z3; the ratio is the search's time over the engine's (the search is the baseline:
    every placement or filling in order, smallest count first). The search's candidate count is
    what ``auto``'s budget counts (solver/stonespine/min_damage.py, MINION_BUDGET, TOKEN_BUDGET).
    OR-Tools is imported before the timing, as z3 is; what the import costs a fresh process is
    its own line. Quick: the 4x4 minions, search against CP-SAT."""
    import ortools.sat.python.cp_model  # noqa: F401  (the import once, outside the timing, as z3's)

    from invasion_oracle.model.stonespine.elements import Element
    from invasion_oracle.solver.stonespine import min_damage as md

    heroes = (HeroColor.BLACK, HeroColor.PURPLE, HeroColor.RED)
    roll = md._roll(heroes)
    measures = []
    grids = {"4x4": MIN_DAMAGE["4x4"]} if quick else MIN_DAMAGE
    for size, options in grids.items():
        scenario = study(**options)
        board, layout, defeated = board_for(scenario)
        problem = md._token_problem(
            scenario, 0, board, layout, Element.parse("kobold"), roll, defeated, Deadline()
        )
        questions: list[tuple[str, Callable[[Any], Any]]] = [
            (
                "fewest minions",
                lambda run, b=board, lay=layout, d=defeated: md.minion_search(
                    b, lay, roll, d, 8, run, Deadline()
                ),
            )
        ]
        if size != "8x8" and not quick:  # z3 takes about 4 s on the 8x8 tokens: left out for time
            questions.append(
                ("fewest kobolds", lambda run, p=problem: md.token_search(p, 8, run, Deadline()))
            )
        for question, solve in questions:
            counted = md.SearchRun("search", budget=10**9)
            search, runs, found = _cpu_best(lambda c=counted, f=solve: f(c), 3)
            candidates = (10**9 - (counted.budget or 0)) // runs
            engines = ("cpsat",) if quick else ("z3", "cpsat")
            for engine in engines:
                seconds, made, other = _cpu_best(
                    lambda e=engine, f=solve: f(md.SearchRun(e)), 1 if engine == "z3" else 2
                )
                if other[0] != found[0] or (engine == "cpsat" and other != found):
                    raise AssertionError(f"min-damage {question} {size}: {engine} {other}, search {found}")
                measures.append(
                    Measure(
                        f"min-damage engines: {question}, {size} study grid, {engine}, CPU",
                        seconds * 1000,
                        "ms",
                        search * 1000,
                        f"the search, {candidates:,} candidates ({search / candidates * 1e6:,.0f} us each)",
                        search / seconds,
                        f"{len(board.enterable())} chambers enterable, wave black+purple+red: {found[0]} "
                        f"(best of {made} {engine}, {runs} search)",
                    )
                )
    if not quick:
        measures += [_past_the_crossover(md), ortools_import_measure()]
    return measures


def _past_the_crossover(md: Any) -> Measure:
    """Fewest kobolds where the answer is 6: the search tries every filling of 5 first (it takes
    about two minutes), CP-SAT proves it in a few tenths of a second. The search is stopped after
    ``cap`` seconds: its time is a lower bound."""
    from invasion_oracle.model.stonespine.elements import Element

    cap = 1.0
    scenario = study(rows=4, columns=4, seed=0, elements=0.3, bonus=3)
    board, layout, defeated = board_for(scenario)
    roll = md._roll([HeroColor.RED] * 4)
    problem = md._token_problem(
        scenario, 0, board, layout, Element.parse("kobold"), roll, defeated, Deadline()
    )
    seconds, made, found = _cpu_best(
        lambda: md.token_search(problem, 8, md.SearchRun("cpsat"), Deadline()), 1
    )
    counted = md.SearchRun("search", budget=10**9)
    started = time.process_time()
    with contextlib.suppress(TimeLimit):
        md.token_search(problem, 8, counted, Deadline(cap))
        raise AssertionError("the search finished within the cap: pick a harder instance")
    search = time.process_time() - started
    tried = 10**9 - (counted.budget or 0)
    return Measure(
        "min-damage engines: fewest kobolds past the crossover, 4x4 study grid, cpsat, CPU",
        seconds * 1000,
        "ms",
        search * 1000,
        f"the search: stopped after {cap:.0f} s and {tried:,} fillings, not finished (a lower bound)",
        search / seconds,
        f"{len(board.enterable())} chambers enterable, wave red x4: {found[0]} kobolds (best of {made} cpsat)",
        extrapolated=True,
    )


@contextlib.contextmanager
def _unreplayed() -> Any:
    """While active, the placement engines skip the oracle replay of their answer and return what
    they would answer as a dict (``best``, ``tied`` layouts, ``complete``, ...): their search time
    alone. The replay is the same for every engine, and measured by the engine tests."""
    import inspect

    from invasion_oracle.solver.stonespine import placement

    answer = placement._answer
    signature = inspect.signature(answer)
    placement._answer = lambda *args: dict(signature.bind(*args).arguments)  # type: ignore[assignment]
    try:
        yield
    finally:
        placement._answer = answer


def place_engine_measures(quick: bool = False) -> list[Measure]:
    """``place`` (objective (a)) on the search, z3 and CP-SAT, the same instances, top 10: search
    time only (without the answer's oracle replay), CPU, best of up to 3 runs of the search, 2 of
    CP-SAT (fewer past 0.6 s), 1 of z3; the ratio is the search's time over the engine's. The
    oracle baseline is :func:`placement_measures`' (3x2 in full, the others sampled: minutes to
    hours). OR-Tools is imported before the timing, as z3 is (min-damage's lines give what the
    import costs a fresh process). z3 must find the search's value, CP-SAT its ties too. Quick:
    3x2, CP-SAT only."""
    import ortools.sat.python.cp_model  # noqa: F401  (the import once, outside the timing, as z3's)

    from invasion_oracle.solver.stonespine.cpsat_placement import cpsat_guaranteed
    from invasion_oracle.solver.stonespine.placement import z3_guaranteed

    instances: list[tuple[str, Scenario, tuple[str, ...]]] = [
        ("3x2 year 2", study(**SMALL), ("z3", "cpsat")),
        ("4x3 year 3, optimum 2 of 3", study(**NEAR_UNIQUE), ("z3", "cpsat")),
        ("8x8 study grid, 52 chambers enterable", study(rows=8, columns=8, seed=3), ("z3", "cpsat")),
    ]
    # placement.json (4x4 year 4) is left out for time: z3 4-7 s and CP-SAT 1.6-2.7 s a run against
    # the search's 0.03 s (3 December; docs/performance.md, "CP-SAT for Stonespine placement (a)").
    if quick:
        instances = [(instances[0][0], instances[0][1], ("cpsat",))]
    engines: dict[str, Callable[[Scenario], Any]] = {
        "search": lambda s: search_guaranteed(s, top=10),
        "z3": lambda s: z3_guaranteed(s, top=10),
        "cpsat": lambda s: cpsat_guaranteed(s, top=10),
    }
    runs = {"search": 3, "cpsat": 2}
    measures = []
    for name, scenario, others in instances:
        board, _, _ = board_for(scenario)
        timed: dict[str, tuple[float, int, Any]] = {}
        with _unreplayed():
            for engine in ("search", *others):
                timed[engine] = _cpu_best(lambda f=engines[engine], s=scenario: f(s), runs.get(engine, 1))
        search, searched, found = timed["search"]
        for engine in others:
            seconds, made, got = timed[engine]
            agrees = got["best"] == found["best"] and (
                engine != "cpsat" or (got["tied"], got["complete"]) == (found["tied"], found["complete"])
            )
            if not agrees:
                raise AssertionError(f"place {name}: {engine} answered {got}, the search {found}")
            tied = f"{len(found['tied'])}{'' if found['complete'] else '+'} tied"
            measures.append(
                Measure(
                    f"place engines: {name}, {engine}, CPU",
                    seconds * 1000,
                    "ms",
                    search * 1000,
                    f"the search (best of {searched})",
                    search / seconds,
                    f"{len(board.enterable())} chambers enterable, guardian + {board.minions} minion(s): "
                    f"best {found['best']} of {upper_bound(placement_space(scenario))}, {tied} "
                    f"(best of {made} {engine})",
                )
            )
    return measures


def results(quick: bool = False) -> list[Measure]:
    if quick:  # the planner's line takes well under a second, min-damage's about one
        return [
            *plan_measures(),
            *public_api(5),
            *min_damage_measures(quick=True),
            *place_engine_measures(quick=True),
        ]
    return [
        *placement_measures(),
        *place_engine_measures(),
        *expected_measures(),
        *plan_measures(),
        *route_measures(),
        *public_api(),
        *min_damage_measures(),
    ]


# -- the scaling curve (docs/performance.md) -------------------------------------------------------


SIZES = (3, 4, 5, 6, 7, 8, 10, 12, 16)  # 16x16 with three minions: its slowest seed 26 s
MINIONS = (1, 2, 3)
SEEDS = range(12)


def scaling(limit: float = 60.0) -> list[dict[str, Any]]:
    """The pruned search's time to a proven optimum on study grids (elements thinned to 30 %,
    heroes with 6 extra health, year 4), per grid size and number of minions, over a few seeds."""
    rows = []
    for size, minions in itertools.product(SIZES, MINIONS):
        times, classes, values = [], [], []
        for seed in SEEDS:
            scenario = study(rows=size, columns=size, seed=seed, minions=minions, elements=0.3, bonus=6)
            space = placement_space(scenario)
            seconds, answer = _timed(lambda s=scenario: search_guaranteed(s, deadline=Deadline(limit)))
            times.append(seconds if answer.status.value == "proven" else float("inf"))
            classes.append(space.estimate())
            values.append(f"{answer.best}")
        finite = [t for t in times if t != float("inf")]
        rows.append(
            {
                "size": size,
                "minions": minions,
                "median": statistics.median(times),
                "max": max(times),
                "unproven": len(times) - len(finite),
                "classes": int(statistics.median(classes)),
                "values": values,
            }
        )
        print(rows[-1], flush=True)
    return rows


def scaling_svg(rows: Sequence[dict[str, Any]], width: int = 640, height: int = 360) -> str:
    """A line per number of minions: median seconds to a proven optimum against grid size (log)."""
    import math

    left, right, top, bottom = 60, 150, 20, 50
    times = [r["median"] for r in rows if r["median"] != float("inf")] + [
        r["max"] for r in rows if r["max"] != float("inf")
    ]
    low, high = math.log10(max(min(times), 1e-3)), math.log10(max(times) * 1.5)
    sizes = sorted({r["size"] for r in rows})

    def x(size: int) -> float:
        return left + (size - sizes[0]) / (sizes[-1] - sizes[0]) * (width - left - right)

    def y(seconds: float) -> float:
        return top + (high - math.log10(max(seconds, 1e-3))) / (high - low) * (height - top - bottom)

    colours = {1: "#1b9e77", 2: "#d95f02", 3: "#7570b3"}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="12">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<line x1="{left}" y1="{height - bottom}" x2="{width - right}" y2="{height - bottom}" stroke="black"/>',
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{height - bottom}" stroke="black"/>',
    ]
    for size in sizes:
        parts.append(
            f'<text x="{x(size):.1f}" y="{height - bottom + 18}" text-anchor="middle">{size}x{size}</text>'
        )
    for exponent in range(math.floor(low), math.ceil(high) + 1):
        if low <= exponent <= high:
            label = f"{10.0**exponent:g} s"
            parts.append(
                f'<line x1="{left - 4}" y1="{y(10.0**exponent):.1f}" x2="{width - right}" y2="{y(10.0**exponent):.1f}" stroke="#ddd"/>'
            )
            parts.append(
                f'<text x="{left - 8}" y="{y(10.0**exponent) + 4:.1f}" text-anchor="end">{label}</text>'
            )
    for minions, colour in colours.items():
        line = [r for r in rows if r["minions"] == minions and r["median"] != float("inf")]
        points = " ".join(f"{x(r['size']):.1f},{y(r['median']):.1f}" for r in line)
        parts.append(f'<polyline points="{points}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for r in line:
            parts.append(f'<circle cx="{x(r["size"]):.1f}" cy="{y(r["median"]):.1f}" r="3" fill="{colour}"/>')
            if r["max"] != float("inf"):
                parts.append(
                    f'<line x1="{x(r["size"]):.1f}" y1="{y(r["median"]):.1f}" x2="{x(r["size"]):.1f}" y2="{y(r["max"]):.1f}" stroke="{colour}" stroke-dasharray="2,2"/>'
                )
        ly = top + 20 * minions
        parts.append(
            f'<line x1="{width - right + 15}" y1="{ly}" x2="{width - right + 35}" y2="{ly}" stroke="{colour}" stroke-width="2"/>'
        )
        parts.append(
            f'<text x="{width - right + 40}" y="{ly + 4}">guardian + {minions} minion{"s" if minions > 1 else ""}</text>'
        )
    parts.append(
        f'<text x="{(left + width - right) / 2:.1f}" y="{height - 12}" text-anchor="middle">study grid (median of {len(SEEDS)} seeds; dashes: slowest)</text>'
    )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> str:
    from invasion_oracle.reports.tables import table

    return table(
        [m.row() for m in results()], ["measure", "this project", "baseline (same run)", "ratio", "workload"]
    )


if __name__ == "__main__":
    if sys.argv[1:] == ["scaling"]:
        from invasion_oracle.model.core.canonical import write_atomic

        measured = scaling()
        write_atomic(ROOT / "docs" / "stonespine-placement-scaling.svg", scaling_svg(measured))
        print(json.dumps(measured, default=str, indent=1))
    else:
        print(main())
