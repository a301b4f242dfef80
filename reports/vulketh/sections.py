"""Vul'Keth sections of the main job (``make run``) and of the full report (``make report``).

Every section reads bundled examples (``example:vulketh/...``), so it runs from any install, and
prints the command that reproduces it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from invasion_oracle.model.vulketh.scenario import load_scenario
from invasion_oracle.model.vulketh.simulate import run
from invasion_oracle.model.vulketh.spec import SPEC
from invasion_oracle.reports.output import command_line
from invasion_oracle.reports.simulation import simulation_report
from invasion_oracle.reports.tables import section

WORKED = "example:vulketh/worked_example.json"
GAME = "example:vulketh/solo_game.json"
CLEAR = "example:vulketh/clear_hex.json"
RACE = "example:vulketh/race.json"
CLEAR_HEX, CLEAR_MEMBERS = 7, 4


def invader_turn() -> str:
    """The rulebook's worked Invader turn, played by the oracle."""
    scenario = load_scenario(WORKED)
    body = simulation_report(
        SPEC, scenario, run(scenario), command_line(["invasion", "vulketh", "simulate", WORKED])
    )
    return section("Vul'Keth: the rulebook's worked Invader turn (GROW 3, MOVE 4, lowest)", body)


def clear_search() -> str:
    """Search (b): members placed so a hex holds no Invader after any card, z3, CP-SAT and baseline."""
    from invasion_oracle.reports.vulketh.tables import clear_report
    from invasion_oracle.solver.common import run_engines
    from invasion_oracle.solver.vulketh.clear import ENGINES, clear_hex, question_from_scenario

    question = question_from_scenario(load_scenario(CLEAR), CLEAR_HEX, CLEAR_MEMBERS)
    answers, runs = run_engines(ENGINES, lambda e: clear_hex(question, engine=e), None)
    command = command_line(
        [
            "invasion",
            "vulketh",
            "clear",
            CLEAR,
            "--hex",
            str(CLEAR_HEX),
            "--members",
            str(CLEAR_MEMBERS),
            "--engine",
            "both",
        ]
    )
    if len({(a.placement, a.alternatives) for a in answers}) != 1:
        raise AssertionError("the engines disagree on the clearing placement")
    return section(
        f"Vul'Keth: where to put members so hex {CLEAR_HEX} holds no Invader after the next Invader turn",
        clear_report(question, answers[0], runs, command),
    )


def differ_search() -> str:
    """Search (c): the smallest positions where the MOVE and GROW readings part."""
    from invasion_oracle.model.core.rulings import REGISTRY, Rulings
    from invasion_oracle.model.vulketh.data import default_data
    from invasion_oracle.model.vulketh.game import Rules
    from invasion_oracle.reports.vulketh.tables import differ_report
    from invasion_oracle.solver.common import run_engines
    from invasion_oracle.solver.vulketh.differ import RULINGS, make_question

    rules = Rules.of(Rulings.defaults("vulketh"), default_data())
    results = []
    for rid in RULINGS:
        names = REGISTRY.get(rid).reading_names
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                for direction in ["highest"] if rid == "VK-MOVE-HIGHEST" else ["lowest", "highest"]:
                    # The baseline: z3 answers the same (tests/vulketh, `--engine both`) but takes
                    # minutes on some GROW pairs where the baseline takes a tenth of a second.
                    question = make_question(rules, rid, (a, b), direction)
                    answers, runs = run_engines(("baseline",), _differ_engine(question), None)
                    results.append((answers[0], runs))
    command = command_line(["invasion", "vulketh", "differ"])
    return section(
        "Vul'Keth: the smallest positions where MOVE and GROW readings part", differ_report(results, command)
    )


def _differ_engine(question: Any) -> Callable[[str], Any]:
    from invasion_oracle.solver.vulketh.differ import smallest_difference

    def solve(engine: str) -> Any:
        return smallest_difference(question, engine=engine)

    return solve


def race_search() -> str:
    """Search (a): the race to the fifth Warlord (z3 and the baseline)."""
    from invasion_oracle.reports.vulketh.tables import race_report
    from invasion_oracle.solver.common import run_engines
    from invasion_oracle.solver.vulketh.race import question_from_scenario, race

    question = question_from_scenario(load_scenario(RACE))
    answers, runs = run_engines(("z3", "baseline"), lambda e: race(question, engine=e), None)
    for part in ("fewest", "furthest"):
        a, b = getattr(answers[0], part), getattr(answers[1], part)
        if (a.turn, a.plan, a.draws) != (b.turn, b.plan, b.draws):
            raise AssertionError(f"z3 and the baseline disagree on the race's {part}")
    command = command_line(["invasion", "vulketh", "race", RACE, "--engine", "both"])
    return section(
        "Vul'Keth: the race to the fifth Warlord", race_report(question, answers[0], runs, command)
    )


SECTIONS = (invader_turn, clear_search, differ_search)
LONG_SECTIONS = (race_search,)
