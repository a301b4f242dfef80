"""Spirit Island benchmarks: Invader Phases per second on a four-board island, and the searches.

Baselines measured in the same run: the same phases on one board (ratio = cost per land), and
each search's exhaustive baseline against z3 (ratio = z3 time / baseline time).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from model.core.decisions import SeededChance, SeededRandomDecider
from model.spirit_island.pieces import parse_land
from model.spirit_island.scenario import load_scenario, scenario_from_document
from model.spirit_island.simulate import run
from reports.tables import table
from solver.spirit_island.fear_threshold import best_fight_back, fear_table
from solver.spirit_island.island_search import baseline_facts, question_from_scenario, z3_facts

ROOT = Path(__file__).resolve().parents[2]
FOUR = ROOT / "examples" / "spirit_island" / "four_boards.json"


def _phases_per_second(document: dict[str, object], rounds: int) -> tuple[float, int]:
    """Play ``rounds`` seeded games (play-on, so every game runs all its phases)."""
    scenario = scenario_from_document(document, "bench")
    phases = 0
    started = time.perf_counter()
    for seed in range(rounds):
        playthrough = run(scenario, SeededRandomDecider(seed), SeededChance(seed), play_on=True)
        phases += sum(1 for e in playthrough.events if e.kind == "invader_phase_ended")
    return phases / (time.perf_counter() - started), phases


def _timed(fn: Callable[[], object], repeat: int) -> float:
    started = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - started) / repeat


def main() -> str:
    four = load_scenario(str(FOUR)).document
    one = {
        **four,
        "island": {"boards": ["A"]},
        "spirits": [{"name": "River", "presence": {"A5": 1, "A8": 1}}],
    }
    four_rate, four_phases = _phases_per_second(four, 20)
    one_rate, _ = _phases_per_second(one, 20)
    rows: list[tuple[object, ...]] = [
        (
            "Invader Phases / s, four boards (32 lands, BADC-partial)",
            f"{four_rate:.0f}",
            f"{one_rate:.0f} (one board)",
            f"{one_rate / four_rate:.2f}x",
            f"{four_phases} phases, 20 seeded games from setup",
        ),
    ]
    land = parse_land("C C@1 2T T@1 2E")
    z3_fear = _timed(lambda: fear_table(land, method="z3"), 3)
    base_fear = _timed(lambda: fear_table(land, method="baseline"), 3)
    rows.append(
        (
            "fear-threshold table (7 rows, each replayed)",
            f"{z3_fear * 1000:.1f} ms z3",
            f"{base_fear * 1000:.1f} ms baseline",
            f"{z3_fear / base_fear:.2f}x",
            "land C C@1 2T T@1 2E",
        )
    )
    fight = parse_land("2C 3T 3E")
    z3_fight = _timed(lambda: best_fight_back(fight, 4, method="z3"), 3)
    base_fight = _timed(lambda: best_fight_back(fight, 4, method="baseline"), 3)
    rows.append(
        (
            "fight-back, 4 Dahan",
            f"{z3_fight * 1000:.1f} ms z3",
            f"{base_fight * 1000:.1f} ms baseline",
            f"{z3_fight / base_fight:.2f}x",
            "land 2C 3T 3E",
        )
    )
    question = question_from_scenario(
        load_scenario(str(ROOT / "examples" / "spirit_island" / "island_search.json"))
    )
    z3_island = _timed(lambda: z3_facts(question), 1)
    base_island = _timed(lambda: baseline_facts(question), 1)
    rows.append(
        (
            "island land sets, 3 turns, board A",
            f"{z3_island * 1000:.0f} ms z3 (+replays)",
            f"{base_island * 1000:.1f} ms baseline",
            f"{z3_island / base_island:.0f}x",
            "examples/spirit_island/island_search.json",
        )
    )
    return table(rows, ["measure", "value", "baseline", "ratio", "workload"])


if __name__ == "__main__":
    print(main())
