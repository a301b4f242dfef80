"""Markdown for the ambiguity report: differences side by side, searches, well-formedness.

Every value from a scenario goes through :func:`invasion_oracle.reports.output.md_escape`; every command is
shell-quoted (:func:`invasion_oracle.reports.output.command_line`) and names bundled files as ``example:...``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import zip_longest
from typing import Any

from invasion_oracle.model.core.ambiguity import ABSENT, Coverage, Difference
from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.rulings import REGISTRY, Ruling
from invasion_oracle.properties.divergence import FOUND, NO_GENERATOR, NONE_FOUND, Divergence
from invasion_oracle.properties.wellformed import Check
from invasion_oracle.reports.output import command_line, md_code, md_escape, visible
from invasion_oracle.reports.tables import table

MAX_EVENT_ROWS = 12
"""Event rows shown per difference; ``--json`` has them all."""


def value_text(value: Any) -> str:
    """A value as a short cell: strings as they are, anything else as compact JSON.

    >>> value_text([{"chamber": "A1", "hero": "red"}])
    '[{"chamber":"A1","hero":"red"}]'
    """
    if value == ABSENT or isinstance(value, str):
        return str(value)
    return canonical_json(value)


def event_text(event: Any) -> str:
    """``kind field=value ...`` for an event given as plain JSON."""
    if not isinstance(event, dict):
        return value_text(event)
    fields = " ".join(f"{k}={value_text(v)}" for k, v in event.items() if k != "event")
    return f"{event.get('event', '?')} {fields}".strip()


def code(text: str) -> str:
    """Text as an inline code span (plain escaped text when it holds a backtick).

    >>> code('[{"hero":"red"}]')
    '`[{"hero":"red"}]`'
    """
    if "`" in text or not text:
        return md_escape(text)
    return f"`{visible(text)}`"


def reading_label(ruling: Ruling, reading: str) -> str:
    return f"{reading} (default)" if reading == ruling.default else reading


def simulate_command(game: str, scenario: str, ruling_id: str, reading: str) -> str:
    return command_line(["invasion", game, "simulate", scenario, "--ruling", f"{ruling_id}={reading}"])


def difference_md(game: str, difference: Difference) -> str:
    """One scenario under every reading: groups, outcome fields and events side by side."""
    ruling = REGISTRY.get(difference.ruling)
    labels = [reading_label(ruling, r.reading) for r in difference.runs]
    groups = " | ".join(" = ".join(g) for g in difference.groups)
    verdict = {
        "outcome": "the outcome differs",
        "events": "only the events differ (the outcome is the same)",
        "none": "no difference: this scenario does not tell the readings apart",
    }[difference.kind]
    lines = [f"{md_code(difference.scenario)}: {verdict}; results: {md_escape(groups)}", ""]
    if difference.outcome_fields:
        rows = [
            [code(f.path), *(code(value_text(v)) for _, v in f.values)] for f in difference.outcome_fields
        ]
        lines += [table(rows, ["outcome field", *labels]), ""]
    if difference.event_hunks:
        lines += [_events_table(difference), ""]
    lines += ["Reproduce:", ""]
    lines += [
        f"- `{simulate_command(game, difference.scenario, ruling.id, r.reading)}`" for r in difference.runs
    ]
    return "\n".join(lines)


def _events_table(difference: Difference) -> str:
    rows: list[list[str]] = []
    for hunk in difference.event_hunks:
        a, b = hunk.readings
        for offset, (left, right) in enumerate(zip_longest(hunk.first, hunk.second)):
            where = f"{hunk.at[0] + offset + 1} / {hunk.at[1] + offset + 1}"
            rows.append(
                [
                    f"{a} vs {b}",
                    where,
                    code(event_text(left)) if left is not None else "-",
                    code(event_text(right)) if right is not None else "-",
                ]
            )
    shown = rows[:MAX_EVENT_ROWS]
    text = table(shown, ["readings", "event #", "first reading's event", "second reading's event"])
    if len(rows) > MAX_EVENT_ROWS:
        text += f"\n\n_{len(rows) - MAX_EVENT_ROWS} more differing event row(s); `--json` lists them all._"
    return text


def coverage_md(game: str, cover: Coverage) -> str:
    """A ruling's witnesses, each run under every reading, and what is missing."""
    ruling = cover.ruling
    head = [
        f"### {ruling.id}",
        "",
        f"{md_escape(ruling.question)} _({md_escape(ruling.citation)})_",
        "",
        "Readings: "
        + "; ".join(
            f"`{r.name}`{' **(default)**' if r.name == ruling.default else ''}: {md_escape(r.meaning)}"
            for r in ruling.readings
        ),
        "",
        f"Why the default: {md_escape(ruling.why)}",
        "",
    ]
    missing = cover.missing()
    if missing:
        head += ["**Missing:** " + "; ".join(md_escape(m) for m in missing), ""]
    body = [difference_md(game, d) for d in cover.differences]
    return "\n".join(head + body) + "\n"


def divergence_md(result: Divergence, written: str | None = None) -> str:
    """One divergence search: its witness and outcome per reading, or the budget it spent."""
    spent = f"{result.runs} scenario(s) run under every reading (budget {result.budget.examples} drawn)"
    if result.status == NO_GENERATOR:
        return f"- **{result.ruling}**: no generator: {md_escape(result.message)}"
    if result.status == NONE_FOUND:
        extra = f"; {result.events_only} differed in their events only" if result.events_only else ""
        if result.engine == "z3":
            return f"- **{result.ruling}**: none: {md_escape(result.message)}"
        return f"- **{result.ruling}**: no scenario whose outcome differs, within the budget: {spent}{extra}"
    if result.status != FOUND or result.difference is None or result.document is None:
        return f"- **{result.ruling}**: unknown: the time limit stopped the search after {spent}"
    how = f"{spent}; shrunk" if result.engine == "hypothesis" else md_escape(result.message)
    lines = [
        f"- **{result.ruling}**: found by {result.engine} ({how}); the scenario:",
        "",
        "```json",
        canonical_json(result.document, indent=1),
        "```",
        "",
    ]
    difference = result.difference
    if written:
        difference = Difference(
            difference.ruling, written, difference.runs, difference.outcome_fields, difference.event_hunks
        )
    else:
        lines += ["(save the scenario above as `witness.json` to reproduce)", ""]
        difference = Difference(
            difference.ruling,
            "witness.json",
            difference.runs,
            difference.outcome_fields,
            difference.event_hunks,
        )
    lines.append(difference_md(result.game, difference))
    return "\n".join(lines)


def wellformed_md(results: Sequence[Check], commands: dict[str, str] | None = None) -> str:
    """The well-formedness checks of one game as a table."""
    rows = []
    for r in results:
        if r.status == "found":
            verdict = "reached" if r.check.startswith("reach: ") else "PROBLEM FOUND"
        elif r.status == "none-found":
            verdict = "not reached within the budget" if r.check.startswith("reach: ") else "none found"
        else:
            verdict = r.status
        where = (commands or {}).get(r.check, "")
        rows.append(
            [
                md_escape(r.check),
                verdict,
                f"{r.runs} / {r.budget.examples}",
                md_escape(r.detail),
                f"`{where}`" if where else "",
            ]
        )
    return table(rows, ["check", "result", "scenarios run / drawn", "detail", "witness"])


def dead_rules_md(found: Sequence[Any], command: str) -> str:
    """The rules a reading may make dead, one row per (reading, rule) the witnesses made suspect."""
    rows = []
    for d in found:
        if d.status == "never-fired":
            verdict = "**never fired**" + (" (the default reading: a problem)" if d.default else "")
        elif d.status == "fires":
            verdict = "fires (a generated scenario shows it)"
        else:
            verdict = d.status
        rows.append(
            [
                f"{md_escape(d.ruling)}={md_escape(d.reading)}",
                md_escape(d.rule),
                verdict,
                str(d.runs),
                f"{', '.join(map(md_escape, d.alive_under))} ({md_code(d.witness)})",
            ]
        )
    head = (
        "A rule that fires under one reading in a ruling's witnesses but not under another is searched "
        "for under that other reading over generated scenarios (a search, not a proof). "
        f"Reproduce: `{command}`"
    )
    return "\n".join(
        [
            head,
            "",
            table(rows, ["reading", "rule", "under this reading", "scenarios run", "fires under (witness)"]),
        ]
    )


def register_rows(analysis: Any, game: str) -> list[list[str]]:
    """One row per ruling of ``game``: the register (DATC style) with what was observed."""
    rows = []
    for ruling in analysis.rulings:
        if ruling.game != game:
            continue
        readings = "<br>".join(
            f"{r.name}{' (default)' if r.name == ruling.default else ''}: {md_escape(r.meaning)}"
            for r in ruling.readings
        )
        cover = analysis.coverage.get(ruling.id)
        if cover is None:
            witnessed = "unknown (interrupted)"
        elif cover.missing():
            witnessed = "**missing**: " + "; ".join(md_escape(m.split(": ", 1)[1]) for m in cover.missing())
        else:
            names = sorted({d.scenario for d in cover.differences})
            witnessed = f"every reading told apart by {', '.join(md_code(n) for n in names)}"
        fixtures = "not read (--fixtures DIR)"
        if analysis.fixture_cases is not None:
            depending = analysis.fixtures_depending(ruling.id)
            fixtures = f"{len(depending['outcome'])} by outcome, {len(depending['events'])} by events only"
        rows.append(
            [
                f"`{ruling.id}`",
                md_escape(ruling.question),
                readings,
                md_escape(ruling.why),
                witnessed,
                fixtures,
                md_escape(ruling.citation),
            ]
        )
    return rows


REGISTER_HEADERS = ["id", "question", "readings", "why", "witnesses", "fixtures", "citation"]


def register_md(analysis: Any, command: str) -> str:
    """``invasion rulings``: the register of every game, one table per game."""
    from invasion_oracle.reports.tables import section

    parts = []
    for game in analysis.games:
        rows = register_rows(analysis, game)
        if not rows:
            continue
        parts.append(section(f"Rulings of {game}", table(rows, REGISTER_HEADERS), command=command))
    if analysis.fixture_cases is not None:
        parts.append(f"Fixture cases read: {analysis.fixture_cases}.")
        parts += [f"- {md_escape(note)}" for note in analysis.fixture_notes]
    return "\n".join(parts) if parts else "_(no rulings)_"
