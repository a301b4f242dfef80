"""Vul'Keth benchmarks, for `make bench` (``tests/bench/bench_vulketh.py`` re-exports
:func:`results`): each measure with a baseline measured in the same run.

* Invader turns per second in the oracle, against the searches' compiled twin on the same turns
  (ratio: how much slower the oracle's full bookkeeping is than the bare arithmetic);
* each search with z3 against its exhaustive baseline through the oracle (ratio: baseline time /
  z3 time; below 1 the baseline is faster at this size);
* the race with its exact engines (z3, CP-SAT, compiled, baseline) at three sizes and the two
  ``auto`` chooses between at a fourth, search time
  only (issue 22: why ``auto`` keeps z3, ``solver/vulketh/race.py``);
* clearing a hex with its three exact engines (baseline, z3, CP-SAT) at several sizes, search time
  only (issue 22; the crossover ``auto`` uses: ``solver/vulketh/clear.py``, CLEAR_CROSSOVER).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from invasion_oracle.model.core.decisions import FirstLegalDecider, PreferringDecider, SeededChance
from invasion_oracle.model.core.driver import play
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.vulketh.scenario import load_scenario, scenario_from_document
from tests.bench import Measure, engine_measures, ortools_import_measure

# (hex, members) on clear_hex.json, every hex allowed: hex 5 can never be cleared, so the baseline
# tries every placement of up to that many members (C(9 + members, members)); hex 7 is cleared
# with 2 members, where the baseline stops whatever the members allowed.
CLEAR_SIZES = ((5, 1), (5, 3), (5, 5), (7, 5))
Z3_UP_TO = 3  # z3 takes about a second at every size (compiling the Invader turns): the first three


def clear_engines(sizes: tuple[tuple[int, int], ...] = CLEAR_SIZES, repeat: int = 2) -> list[Measure]:
    import ortools.sat.python.cp_model  # noqa: F401  (imported once, before timing: its own row)

    from invasion_oracle.solver.common import Deadline, Progress
    from invasion_oracle.solver.vulketh import clear
    from invasion_oracle.solver.vulketh.clear import baseline_work
    from invasion_oracle.solver.vulketh.clear import question_from_scenario as clear_question

    scenario = load_scenario("example:vulketh/clear_hex.json")
    cases = []
    for k, (target, members) in enumerate(sizes):
        question = clear_question(scenario, target, members)
        runs: dict[str, Callable[[], object]] = {
            "baseline": lambda q=question: clear._baseline(q, Deadline(), Progress("bench"), clear._Extent()),
            "cpsat": lambda q=question: clear._cpsat(q, Deadline(), clear._Extent()),
        }
        if k < Z3_UP_TO:
            runs["z3"] = lambda q=question: clear._z3(q, Deadline(), clear._Extent())
        work = baseline_work(question)
        picks = clear.auto_engine(question)
        cases.append(
            (
                f"hex {target}, {members} members",
                f"clear_hex.json, any hex; baseline work {work:,} placements; auto picks {picks}",
                runs,
            )
        )
    return engine_measures("clear (b) engines", cases, repeat)


# The race at three sizes, every engine at each: race.json's first player turn (12 plans), that
# turn with the token order the player's too (VK-POWER-UNLOCK=by-section: 24 plans), its first two
# (144); then the compiled engine, z3 and the baseline on the first two turns with the token order (288 plans). The
# whole race (1,728 plans) is the README line, timed with auto (the compiled engine, about 1.2 s;
# z3 8.5 s, CP-SAT 19.3 s, the baseline about 90 s, 3 December, idle) by bench_readme.
ALL_RACE_ENGINES = ("z3", "cpsat", "compiled", "baseline")
RACE_SIZES: tuple[tuple[int, bool, tuple[str, ...]], ...] = (
    (1, False, ALL_RACE_ENGINES),
    (1, True, ALL_RACE_ENGINES),
    (2, False, ALL_RACE_ENGINES),
    (2, True, ("compiled", "z3", "baseline")),
)


def race_engines(
    sizes: tuple[tuple[int, bool, tuple[str, ...]], ...] = RACE_SIZES, repeat: int = 1
) -> list[Measure]:
    """The race's exact engines, search time only (the answers replayed through the oracle, as
    the command does), CPU; OR-Tools imported before timing (its own row, the import measure)."""
    import ortools.sat.python.cp_model  # noqa: F401

    from invasion_oracle.solver.vulketh.race import auto_engine, race
    from invasion_oracle.solver.vulketh.race import question_from_scenario as race_question

    cases = []
    for n, token_order, engines in sizes:
        document = read_json_file("example:vulketh/race.json")
        document["player_turns"] = document["player_turns"][:n]
        if token_order:
            document["rulings"] = {"VK-POWER-UNLOCK": "by-section"}
        label = f"{n} player turn(s)" + (", token order" if token_order else "")
        question = race_question(scenario_from_document(document, f"race.json, {label}"))
        runs: dict[str, Callable[[], object]] = {
            e: lambda q=question, e=e: race(q, engine=e) for e in engines
        }
        cases.append(
            (
                label,
                f"race.json's first {label}: {len(question.plans()):,} plans; "
                f"auto picks {auto_engine(question)}",
                runs,
            )
        )
    return engine_measures("race (a) engines", cases, repeat)


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def _turn_rates(turns: int) -> tuple[float, float]:
    from invasion_oracle.solver.vulketh.compiled import CONCRETE, Compiled, from_state

    scenario = load_scenario("example:vulketh/clear_hex.json")
    document = {**scenario.document, "start": "invader"}
    scenario = scenario_from_document(document, "bench")
    game = scenario.game()
    drawn: list[int] = []
    cards = [c.id for c in scenario.data.action_cards]
    started = time.perf_counter()
    for seed in range(turns):
        state, opening = game.start(scenario.initial)
        playthrough = play(
            game,
            state,
            PreferringDecider(("decline",), FirstLegalDecider()),
            SeededChance(seed),
            opening=opening,
        )
        drawn.append(cards.index(next(e.get("card") for e in playthrough.events if e.kind == "card_drawn")))
    oracle = turns / (time.perf_counter() - started)
    compiled = Compiled(scenario.rules, CONCRETE)
    start = from_state(scenario.initial, scenario.rules)
    started = time.perf_counter()
    for card in drawn:
        compiled.invader_turn(start, card)
    twin = turns / (time.perf_counter() - started)
    return oracle, twin


def results(quick: bool = False) -> list[Measure]:
    if quick:  # the engines at the smallest size, once each (about a second, z3's compilation)
        return [
            ortools_import_measure(),
            *race_engines(RACE_SIZES[:1]),
            *clear_engines(CLEAR_SIZES[:1], repeat=1),
        ]
    from invasion_oracle.solver.vulketh.clear import clear_hex
    from invasion_oracle.solver.vulketh.clear import question_from_scenario as clear_question
    from invasion_oracle.solver.vulketh.differ import make_question, smallest_difference

    oracle, twin = _turn_rates(400)
    out = [
        Measure(
            "Invader turns / s (oracle)",
            oracle,
            "turns/s",
            twin,
            "compiled twin",
            oracle / twin,
            "400 seeded turns, clear_hex.json",
        ),
    ]
    clear = clear_question(load_scenario("example:vulketh/clear_hex.json"), 5, 4)
    z3_time = _timed(lambda: clear_hex(clear, engine="z3"))
    base_time = _timed(lambda: clear_hex(clear, engine="baseline"))
    out.append(
        Measure(
            "clear (b), z3",
            z3_time,
            "s",
            base_time,
            "baseline",
            base_time / z3_time,
            "hex 5, up to 4 members (none works: exhaustive)",
        )
    )
    scenario = load_scenario("example:vulketh/worked_example.json")
    differ = make_question(scenario.rules, "VK-GROW-OVERFLOW", ("occupied", "next-hex"), "lowest")
    z3_time = _timed(lambda: smallest_difference(differ, engine="z3"))
    base_time = _timed(lambda: smallest_difference(differ, engine="baseline"))
    out.append(
        Measure(
            "differ (c), z3",
            z3_time,
            "s",
            base_time,
            "baseline",
            base_time / z3_time,
            "VK-GROW-OVERFLOW occupied/next-hex, lowest (size 4)",
        )
    )
    return [*out, ortools_import_measure(), *race_engines(), *clear_engines()]
