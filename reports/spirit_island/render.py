"""Spirit Island pictures and tables around a simulated run, and the ``data`` listing."""

from __future__ import annotations

from invasion_oracle.model.spirit_island.data import GameData
from invasion_oracle.model.spirit_island.scenario import Scenario
from invasion_oracle.model.spirit_island.state import IslandState
from invasion_oracle.reports.spirit_island.tables import island_picture, lands_table, outcome_table
from invasion_oracle.reports.tables import table


def before(scenario: Scenario) -> str:
    return island_picture(scenario, scenario.initial, "Before")


def after(scenario: Scenario, final: IslandState) -> str:
    parts = [island_picture(scenario, final, "After"), "", "Lands:", "", lands_table(scenario, final)]
    parts += ["", "Outcome:", "", outcome_table(final)]
    return "\n".join(parts)


def data_report(data: GameData) -> str:
    """Piece statistics, boards, layouts, values and Fear cards, each with its provenance."""
    pieces = [
        (k.value, data.stats.of(k).health, data.stats.of(k).damage, data.stats.of(k).fear, p.value, s)
        for k, p, s in data.stats_sources
    ]
    boards = [
        (b.name, b.expansion, b.confidence, b.provenance.value, len(b.lands), len(b.edges), b.source)
        for b in data.boards
    ]
    layouts = [
        (x.name, " ".join(x.boards), len(x.edges), "partial" if x.partial else "complete", x.source)
        for x in data.layouts
    ]
    values = [(k, v.value, v.provenance.value, v.source) for k, v in data.values]
    fear = [
        (
            c.name,
            " / ".join("; ".join(e.describe() for e in lvl) or "nothing" for lvl in c.levels),
            c.provenance.value,
        )
        for c in data.fear_cards
    ]
    return "\n\n".join(
        [
            table(pieces, ["piece", "Health", "Damage", "Fear", "provenance", "source"]),
            table(boards, ["board", "expansion", "confidence", "provenance", "lands", "edges", "source"]),
            table(layouts, ["layout", "boards", "cross edges", "", "source"]),
            table(values, ["value", "setting", "provenance", "source"]),
            table(fear, ["Fear card", "Terror Level I / II / III", "provenance"]),
        ]
    )
