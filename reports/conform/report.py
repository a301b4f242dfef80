"""What a conformance run prints: the table, the failures and the compliance statement.

The compliance statement follows DATC: for every ruling a case depends on, which reading the
implementation's answers match when each reading is asked. ``follows X`` means its answers
match reading X whatever it is asked (it has chosen X); ``configurable`` means they match the
reading asked every time; ``mixed`` lists what was seen.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from model.core.rulings import REGISTRY
from reports.conform.runner import OUTCOMES, Result, Run
from reports.output import command_line, md_code, md_escape
from reports.suite.cases import GENERATOR_VERSION, SUITE_VERSION
from reports.tables import table


def _counts(results: list[Result]) -> Counter[str]:
    return Counter(r.outcome for r in results)


def compliance(run: Run) -> list[dict[str, Any]]:
    """Per ruling: for each reading asked, the readings the answers matched (``-``: none)."""
    seen: dict[str, dict[str, Counter[str]]] = {}
    for result in run.results:
        if result.outcome not in ("passed", "failed") or result.variant < 0:
            continue
        case = result.case
        own = result.readings
        for rid in case.rulings:
            asked = own.get(rid)
            if asked is None:
                continue
            # Only variants that differ from the one sent in this ruling alone say which reading
            # the answers follow; when several readings fit, the case does not tell them apart.
            alike = [
                case.variants[i].readings_map
                for i in result.matches
                if all(v == own.get(k) for k, v in case.variants[i].readings_map.items() if k != rid)
            ]
            matched = {r[rid] for r in alike if rid in r}
            if len(matched) > 1:
                continue
            label = next(iter(matched)) if matched else "-"
            seen.setdefault(rid, {}).setdefault(asked, Counter())[label] += 1
    out = []
    for rid in sorted(seen):
        ruling = REGISTRY.get(rid)
        by_asked = seen[rid]
        unplaced = sum(c.get("-", 0) for c in by_asked.values())
        placed = {a: Counter({k: n for k, n in c.items() if k != "-"}) for a, c in by_asked.items()}
        placed = {a: c for a, c in placed.items() if c}
        behaviours = {k for c in placed.values() for k in c}
        if not placed:
            verdict = "undetermined: no answer matched any reading"
        elif all(set(c) == {a} for a, c in placed.items()):
            if len(placed) > 1:
                verdict = "configurable: follows the reading asked"
            else:
                only = next(iter(placed))
                verdict = f"matches {only} when asked {only}; the other readings are undetermined"
        elif len(behaviours) == 1:
            only = next(iter(behaviours))
            verdict = f"follows {only}" + (" (the default)" if only == ruling.default else "")
        else:
            verdict = "mixed: " + "; ".join(
                f"asked {a}: " + ", ".join(f"{k} x{n}" for k, n in sorted(c.items()))
                for a, c in sorted(placed.items())
            )
        if unplaced:
            verdict += f"; {unplaced} answer(s) matched no reading"
        out.append(
            {
                "ruling": rid,
                "game": ruling.game,
                "default": ruling.default,
                "asked": {a: dict(sorted(c.items())) for a, c in sorted(by_asked.items())},
                "verdict": verdict,
            }
        )
    return out


def _code(text: str) -> str:
    """Text shown as inline code (backticks inside become quotes; controls visible)."""

    return md_code(text)


def render(run: Run, argv: list[str], max_failures: int) -> str:
    name = md_escape(run.name or "the implementation")
    lines = [f"# Conformance: {name} {md_escape(run.version)}".rstrip(), ""]
    lines.append(
        f"Suite {SUITE_VERSION} (generator {GENERATOR_VERSION}); command {_code(run.command)}; "
        f"{run.seconds:.1f} s; {run.restarts} restart(s)."
    )
    rows = []
    for game in sorted({r.case.game for r in run.results}):
        graded = [r for r in run.graded if r.case.game == game]
        counts = _counts(graded)
        rows.append((game, len(graded), *(counts.get(o, 0) for o in OUTCOMES)))
    lines += ["", table(rows, ["game", "graded", *OUTCOMES])]
    if run.aborted:
        lines += ["", f"**Run stopped:** {md_escape(run.aborted)}"]
    failures = [r for r in run.graded if r.outcome not in ("passed", "skipped")]
    if failures:
        lines += ["", f"## Failures ({len(failures)})", ""]
        for result in failures[:max_failures]:
            lines.append(f"- {_code(result.case.id)} ({result.outcome}): {_code(result.detail)}")
            if result.verdict and result.verdict.first_event:
                lines.append(f"  - first differing {_code(result.verdict.first_event)}")
            if result.verdict and len(result.verdict.state_diff) > 1:
                lines += [f"  - state {_code(d)}" for d in result.verdict.state_diff]
        if len(failures) > max_failures:
            lines.append(f"- ... {len(failures) - max_failures} more (--max-failures, or --format json)")
    skipped = Counter(r.detail for r in run.graded if r.outcome == "skipped")
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"{md_escape(k)} ({n})" for k, n in sorted(skipped.items()))]
    statement = compliance(run)
    lines += ["", "## Compliance statement", ""]
    if statement:
        lines.append(
            table(
                [
                    (s["ruling"], s["default"], _asked_text(s["asked"]), md_escape(s["verdict"]))
                    for s in statement
                ],
                ["ruling", "default", "asked -> answers matched", "statement"],
            )
        )
    else:
        lines.append("No ruling-dependent case was run (or --graded-only).")
    total = len(run.graded)
    good = sum(1 for r in run.graded if r.outcome == "passed")
    verdict = "PASSED" if run.passed else "FAILED"
    lines += [
        "",
        f"{verdict}: {good} of {total} graded case(s) passed under the readings asked "
        f"({', '.join(f'{g}: ' + _non_default(g, r) for g, r in sorted(run.requested.items())) or 'none'}).",
        "",
        f"Reproduce: {_code(command_line(['invasion', *argv]))}",
    ]
    return "\n".join(lines)


def _asked_text(asked: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{a} -> " + ", ".join(f"{k} x{n}" for k, n in c.items()) for a, c in asked.items())


def _non_default(game: str, readings: dict[str, str]) -> str:
    changed = [
        f"{r.id}={readings[r.id]}" for r in REGISTRY.all(game) if readings.get(r.id, r.default) != r.default
    ]
    return ", ".join(changed) if changed else "every default"


def render_json(run: Run, argv: list[str]) -> str:
    from reports.envelope import envelope_json

    answer = {
        "implementation": {"name": run.name, "version": run.version, "command": run.command},
        "suite_version": SUITE_VERSION,
        "passed": run.passed,
        "aborted": run.aborted,
        "restarts": run.restarts,
        "requested": run.requested,
        "counts": dict(_counts(run.graded)),
        "results": [
            {
                "id": r.case.id,
                "variant": r.variant,
                "graded": r.graded,
                "outcome": r.outcome,
                "detail": r.detail,
                "state_diff": list(r.verdict.state_diff) if r.verdict else [],
                "matches": list(r.matches),
            }
            for r in run.results
        ],
        "compliance": compliance(run),
    }
    return envelope_json(
        "",
        "conform",
        command_line(["invasion", *argv]),
        answer,
    )
