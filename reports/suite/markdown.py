"""The suite for people, DATC-style: ``docs/suite/GAME.md``, generated from the cases.

Cases are numbered within the game and grouped by rule section (the game's rule map, in order);
each shows its description, the rule's citation (the rulebook's title and section heading), what
is compared, the rulings it depends on, and the expected result under every reading. Long states
are shortened (the case file holds them whole). ``invasion fixtures generate`` writes the pages and
``--check`` fails when one would change.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.reports.suite.cases import SUITE_VERSION, Case
from invasion_oracle.reports.suite.plugins import suite_for

MAX_STATE = 240  # characters of a state shown inline


def _short(value: Any) -> str:
    text = canonical_json(value)
    return text if len(text) <= MAX_STATE else text[: MAX_STATE - 1] + "…"


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _readings(readings: Mapping[str, str]) -> str:
    return ", ".join(f"{rid}={name}" for rid, name in sorted(readings.items())) or "every reading"


def _expected(case: Case) -> list[str]:
    lines = []
    for variant in case.variants:
        head = f"  - under {_readings(variant.readings_map)}: "
        if variant.result == "illegal":
            lines.append(head + f"the answer at step {variant.step} must be refused ({variant.reason})")
        elif variant.result == "refused":
            lines.append(head + f"the scenario is refused ({variant.reason})")
        elif len(variant.one_of) == 1:
            lines.append(head + f"state {_code(_short(variant.one_of[0].state))}")
        else:
            lines.append(head + f"one of {len(variant.one_of)} outcomes (the players' choice):")
            for outcome in variant.one_of:
                via = f"choosing {_code(canonical_json(outcome.via))}: " if outcome.via is not None else ""
                lines.append(f"    - {via}state {_code(_short(outcome.state))}")
    return lines


def game_page(game: str, title: str, cases: Sequence[Case]) -> str:
    """The page of one game's cases."""
    suite = suite_for(game)
    headings = {s.key: s.heading for s in suite.sections} if suite is not None else {}
    order = list(headings)
    by_section: dict[str, list[Case]] = {}
    for case in cases:
        by_section.setdefault(case.section, []).append(case)
    keys = [k for k in order if k in by_section] + sorted(k for k in by_section if k not in order)
    rulebook = cases[0].citation.get("rulebook", title) if cases else title
    out = [
        f"# {title}: the conformance suite",
        "",
        f"Suite version {SUITE_VERSION}, {len(cases)} cases, generated from `fixtures/{game}/*.cases.json` by "
        "`invasion fixtures generate` (do not edit). Rules are cited from the " + rulebook + " by section "
        "heading. Each case: what it shows, the rule, what is compared (the projection of the state after "
        "the case's answers), the rulings it depends on, and the expected result under every combination "
        "of their readings (any other ruling's reading does not change it). The case files hold the "
        "scenario, the answers, the events and requests; `docs/fixtures.md` specifies them.",
        "",
    ]
    number = 0
    for key in keys:
        out += [f"## {headings.get(key, key)}", ""]
        for case in by_section[key]:
            number += 1
            tags = []
            if case.boards:
                tags.append("boards " + ", ".join(case.boards))
            if case.choice:
                tags.append("players' choice")
            extra = f" ({'; '.join(tags)})" if tags else ""
            out.append(f"{number}. **{case.id}**{extra}: {case.description}")
            out.append(
                f"  - rule: {case.citation.get('rulebook', rulebook)}, “{case.citation.get('section', key)}”"
            )
            depends = ", ".join(case.rulings) or "none"
            out.append(f"  - compared: {_code(case.projection)}; depends on: {depends}")
            out += _expected(case)
            if case.derive is not None:
                out.append(
                    "  - other combinations of these readings: realised by the oracle on demand "
                    "(`invasion conform` grades them; the file keeps the case's answer sources)"
                )
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
