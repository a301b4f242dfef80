"""How many cases each rule section and each ruling reading has (``invasion fixtures coverage``).

A section counts the cases citing it; a reading counts the cases with a variant under it among
the cases that depend on its ruling (where the reading changes the outcome). Coverage fails when
a game has no case plug-in (its rule sections are unknown), a section of its rule map has no
case, a case cites a section that is not in the rule map, or a reading has no case.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.codec import fields_json
from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.suite.cases import Case
from invasion_oracle.reports.suite.plugins import suite_for


@dataclass
class GameCoverage:
    game: str
    cases: int
    actions: int
    sections: list[tuple[str, int]] = field(default_factory=list)
    readings: list[tuple[str, str, bool, int]] = field(default_factory=list)  # id, reading, default, cases
    sources: dict[str, int] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return fields_json(
            self,
            *("game", "cases", "single_action", "sections", "readings", "sources", "problems"),
            single_action=self.actions,
            sections=[{"section": s, "cases": n} for s, n in self.sections],
            readings=[{"ruling": r, "reading": x, "default": d, "cases": n} for r, x, d, n in self.readings],
        )


def coverage(game: str, cases: Sequence[Case]) -> GameCoverage:
    result = GameCoverage(game, len(cases), sum(1 for c in cases if c.kind == "action"))
    result.sources = dict(sorted(Counter(c.source for c in cases).items()))
    suite = suite_for(game)
    cited = Counter(ref.section for c in cases for ref in c.rule_refs)
    if suite is None:
        result.problems.append(
            f"{game} has no case plug-in (reports/suite/{game.replace('-', '_')}.py): its rule sections are "
            "unknown; see docs/adding-a-game.md, 'Cases'"
        )
    else:
        headings = [s.heading for s in suite.sections]
        result.sections = [(h, cited.get(h, 0)) for h in headings]
        for heading, count in result.sections:
            if count == 0:
                result.problems.append(f"{game}: rule section {heading!r} has no case")
        for heading in sorted(set(cited) - set(headings)):
            result.problems.append(f"{game}: cases cite {heading!r}, which is not a section of the rule map")
    # each case once per reading it has a variant under, of a ruling it depends on
    under = Counter(
        pair for c in cases for pair in {p for v in c.variants for p in v.readings if p[0] in c.rulings}
    )
    for ruling in REGISTRY.all(game):
        for reading in ruling.reading_names:
            count = under[(ruling.id, reading)]
            result.readings.append((ruling.id, reading, reading == ruling.default, count))
            if count == 0:
                result.problems.append(f"{game}: ruling {ruling.id} reading {reading!r} has no case")
    return result


def report(results: Mapping[str, GameCoverage]) -> str:
    """Markdown tables: per game its sections, readings and sources, then the problems."""
    from invasion_oracle.reports.output import md_escape
    from invasion_oracle.reports.tables import table

    parts = []
    for game, result in results.items():
        parts.append(f"## {game}: {result.cases} cases ({result.actions} single actions)")
        if result.sections:
            parts.append(table([(md_escape(s), n) for s, n in result.sections], ["rule section", "cases"]))
        parts.append(
            table(
                [(r, x + (" (default)" if d else ""), n) for r, x, d, n in result.readings],
                ["ruling", "reading", "cases"],
            )
        )
        parts.append(table(list(result.sources.items()), ["source", "cases"]))
    problems = [p for r in results.values() for p in r.problems]
    parts.append(
        "Coverage complete: every rule section and every reading has cases."
        if not problems
        else "Coverage incomplete:\n" + "\n".join(f"- {md_escape(p)}" for p in problems)
    )
    return "\n\n".join(parts)
