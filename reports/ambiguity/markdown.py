"""The whole ``invasion ambiguities`` answer as Markdown: register, witnesses, searches, check."""

from __future__ import annotations

from invasion_oracle.model.registry import title
from invasion_oracle.reports.ambiguity.analysis import Analysis
from invasion_oracle.reports.ambiguity.render import (
    REGISTER_HEADERS,
    coverage_md,
    dead_rules_md,
    divergence_md,
    register_rows,
    wellformed_md,
)
from invasion_oracle.reports.output import command_line, md_escape
from invasion_oracle.reports.tables import section, table


def game_md(
    analysis: Analysis, game: str, written: dict[str, str], level: int = 2, heading: str | None = None
) -> str:
    """One game's part: its register, each ruling's witnesses, its searches' answers."""
    sub = "#" * (level + 1)
    parts = [f"{'#' * level} {heading or f'{md_escape(title(game))} ({game})'}", ""]
    rows = register_rows(analysis, game)
    if not rows:
        return "\n".join([*parts, "_(no rulings selected)_", ""])
    parts += [f"{sub} The register", "", table(rows, REGISTER_HEADERS), ""]
    parts += [f"{sub} Witnesses: each ruling's witness scenarios under every reading", ""]
    for ruling in analysis.rulings:
        cover = analysis.coverage.get(ruling.id)
        if ruling.game == game and cover is not None:
            parts.append(coverage_md(game, cover).replace("### ", f"{sub}# ", 1))
    searched = [
        analysis.divergences[r.id]
        for r in analysis.rulings
        if r.game == game and r.id in analysis.divergences
    ]
    if searched:
        parts += [
            f"{sub} Divergence search: the smallest generated scenario whose outcome depends on each ruling",
            "",
        ]
        parts += [divergence_md(d, written.get(d.ruling)) for d in searched]
        parts.append("")
    suspects = [
        d for r in analysis.rulings if r.game == game for d in (analysis.dead_rules or {}).get(r.id, ())
    ]
    if suspects:
        again = command_line(["invasion", game, "ambiguities", "--check", "--verbose", "--no-fixtures"])
        parts += [
            f"{sub} Dead rules: readings under which a rule never fires",
            "",
            dead_rules_md(suspects, again),
            "",
        ]
    if game in analysis.wellformed:
        commands = {
            check.check: command_line(["invasion", game, "simulate", written[f"{game}:{check.check}"]])
            for check in analysis.wellformed[game]
            if f"{game}:{check.check}" in written
        }
        parts += [f"{sub} Well-formedness", "", wellformed_md(analysis.wellformed[game], commands), ""]
    return "\n".join(parts)


def fixtures_md(analysis: Analysis) -> str:
    if analysis.fixture_cases is None:
        return "No fixtures folder was read (`--fixtures DIR`)."
    lines = [
        f"{analysis.fixture_cases} fixture case(s) rerun under every other reading of every ruling of their game."
    ]
    lines += [f"- {md_escape(n)}" for n in analysis.fixture_notes]
    rows = [
        [
            md_escape(d.case),
            ", ".join(f"{rid} ({kind})" for rid, kind in d.depends) or "-",
            ", ".join(d.undeclared) or "-",
        ]
        for d in analysis.dependencies
    ]
    return "\n".join([*lines, "", table(rows, ["case", "depends on", "not declared"])])


def analysis_md(
    analysis: Analysis, command: str, written: dict[str, str], moved: list[str] | None, check: bool
) -> str:
    parts = [section("Rule ambiguities", f"Games: {', '.join(analysis.games)}.", command=command, level=1)]
    parts += [game_md(analysis, game, written) for game in analysis.games]
    parts.append(section("Fixtures that depend on rulings", fixtures_md(analysis)))
    if moved is not None:
        body = "\n".join(f"- {md_escape(line)}" for line in moved) or "Nothing changed since the baseline."
        parts.append(section("Changes since the baseline", body))
    if check:
        failing = [*analysis.problems(), *(moved or [])]
        body = "\n".join(f"- {md_escape(line)}" for line in failing) or "Clean: nothing to fix."
        parts.append(section(f"Check: {len(failing)} problem(s)", body))
    if analysis.interrupted:
        parts.append("_Interrupted: the answers missing above are unknown._")
    return "\n".join(parts)


def summary_section() -> str:
    """The main job's view (``make run``): every ruling of every game, and what its witnesses show."""
    from invasion_oracle.model import registry
    from invasion_oracle.reports.ambiguity.analysis import Options, analyse
    from invasion_oracle.reports.batch import Runner

    analysis = analyse(Options(registry.names(), runner=Runner(workers=1)))
    rows = []
    for ruling in analysis.rulings:
        cover = analysis.coverage[ruling.id]
        kinds = sorted({d.kind for d in cover.differences}) or ["-"]
        status = (
            "every reading told apart"
            if cover.complete
            else "; ".join(m.split(": ", 1)[1] for m in cover.missing())
        )
        rows.append([ruling.game, f"`{ruling.id}`", ruling.default, md_escape(status), ", ".join(kinds)])
    body = (
        f"{len(analysis.rulings)} open rules in {len(analysis.games)} games; each is run on its witness "
        "scenarios under every reading (`invasion ambiguities` shows the differences side by side).\n\n"
        + table(rows, ["game", "ruling", "default", "witnesses", "what differs"])
    )
    return section("Rule ambiguities: the register and its witnesses", body, command="invasion ambiguities")
