"""What a conformance run prints: the table, the failures and the compliance statement.

The compliance statement follows DATC: for every ruling a case depends on, which reading the
implementation's answers match when each reading is asked. ``follows X`` means its answers
match reading X whatever it is asked (it has chosen X); ``configurable`` means they match the
reading asked every time; ``mixed`` lists what was seen.
"""

from __future__ import annotations

from collections import Counter
from typing import Any
from xml.etree import ElementTree as ET

from invasion_oracle.model.core.rulings import REGISTRY
from invasion_oracle.reports.conform.runner import OUTCOMES, Result, Run
from invasion_oracle.reports.output import command_line, md_code, md_escape
from invasion_oracle.reports.suite.cases import GENERATOR_VERSION, SUITE_VERSION
from invasion_oracle.reports.tables import table


def _counts(results: list[Result]) -> Counter[str]:
    return Counter(r.outcome for r in results)


def _matched_readings(run: Run) -> dict[str, dict[str, Counter[str]]]:
    """Per ruling and reading asked: how many answers matched each reading (``-``: none)."""
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
    return seen


def _verdict(default: str, by_asked: dict[str, Counter[str]]) -> str:
    """One ruling's verdict from the readings the answers matched under each reading asked."""
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
        verdict = f"follows {only}" + (" (the default)" if only == default else "")
    else:
        verdict = "mixed: " + "; ".join(
            f"asked {a}: " + ", ".join(f"{k} x{n}" for k, n in sorted(c.items()))
            for a, c in sorted(placed.items())
        )
    if unplaced:
        verdict += f"; {unplaced} answer(s) matched no reading"
    return verdict


def compliance(run: Run) -> list[dict[str, Any]]:
    """Per ruling: for each reading asked, the readings the answers matched (``-``: none)."""
    seen = _matched_readings(run)
    out = []
    for rid in sorted(seen):
        ruling = REGISTRY.get(rid)
        by_asked = seen[rid]
        out.append(
            {
                "ruling": rid,
                "game": ruling.game,
                "default": ruling.default,
                "asked": {a: dict(sorted(c.items())) for a, c in sorted(by_asked.items())},
                "verdict": _verdict(ruling.default, by_asked),
            }
        )
    return out


def _code(text: str) -> str:
    """Text shown as inline code (backticks inside become quotes; controls visible)."""

    return md_code(text)


def _levels_text(run: Run) -> str:
    return "+".join(run.levels)


def coverage(run: Run) -> list[dict[str, Any]]:
    """Graded cases per game and rule section, and how many passed at each level declared."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for result in run.results:
        if not result.judged:
            continue
        key = (result.case.game, result.info.section)
        row = rows.setdefault(
            key,
            {
                "game": key[0],
                "section": key[1],
                "graded": 0,
                "passed": 0,
                "levels": {level: 0 for level in run.levels},
            },
        )
        row["graded"] += 1
        row["passed"] += result.outcome == "passed"
        for level, ok in result.levels.items():
            row["levels"][level] += ok
    return [rows[k] for k in sorted(rows)]


def _failures(run: Run, max_failures: int) -> list[str]:
    failures = [r for r in run.graded if r.outcome not in ("passed", "skipped")]
    if not failures:
        return []
    lines = ["", f"## Failures of {md_escape(run.title)} ({len(failures)})", ""]
    for result in failures[:max_failures]:
        lines.append(f"- {_code(result.case.id)} ({result.outcome}): {_code(result.detail)}")
        if result.verdict and len(result.verdict.state_diff) > 1:
            lines += [f"  - state {_code(d)}" for d in result.verdict.state_diff]
        if result.stderr and "error output" not in result.detail:
            lines.append(f"  - its last error output: {_code(result.stderr)}")
    if len(failures) > max_failures:
        lines.append(f"- ... {len(failures) - max_failures} more (--max-failures, or --format json)")
    return lines


def _one(run: Run, max_failures: int) -> list[str]:
    name = md_escape(run.title)
    lines = [f"## {name} {md_escape(run.version)}".rstrip(), ""]
    lines.append(
        f"Command {_code(run.command)}; protocol {run.protocol_version}; graded at level(s) "
        f"**{_levels_text(run)}**; {run.seconds:.1f} s; {run.restarts} restart(s)."
    )
    if run.capabilities:
        caps = "; ".join(
            f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in sorted(run.capabilities.items())
        )
        lines.append(f"Capabilities declared: {md_escape(caps)}.")
    rows = []
    for game in sorted({r.case.game for r in run.results}):
        graded = [r for r in run.graded if r.case.game == game]
        counts = _counts(graded)
        judged = len(run.judged(game))
        rows.append((game, _levels_text(run), len(graded), judged, *(counts.get(o, 0) for o in OUTCOMES)))
    lines += ["", table(rows, ["game", "level", "cases", "graded", *OUTCOMES])]
    cov = coverage(run)
    if cov:
        lines += ["", f"Coverage of {name}: graded cases per rule section (passed at each level)", ""]
        lines.append(
            table(
                [
                    (
                        c["game"],
                        md_escape(c["section"]),
                        c["graded"],
                        *(f"{c['levels'].get(level, 0)}" for level in run.levels),
                    )
                    for c in cov
                ],
                ["game", "section", "graded", *(f"passed: {level}" for level in run.levels)],
            )
        )
    if run.aborted:
        lines += ["", f"**Run stopped:** {md_escape(run.aborted)}"]
    if run.shortfall:
        lines += ["", f"**{md_escape(run.shortfall)}**"]
    lines += _failures(run, max_failures)
    skipped = Counter(r.detail for r in run.graded if r.outcome == "skipped")
    if skipped:
        lines += ["", "Skipped: " + "; ".join(f"{md_escape(k)} ({n})" for k, n in sorted(skipped.items()))]
    statement = compliance(run)
    lines += ["", f"### Compliance statement of {name} (level {_levels_text(run)})", ""]
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
        lines.append("No ruling-dependent case was run (or --graded-only, --smoke).")
    total = len(run.graded)
    judged = len(run.judged())
    good = sum(1 for r in run.graded if r.outcome == "passed")
    verdict = "PASSED" if run.passed else "FAILED"
    asked = ", ".join(f"{g}: " + _non_default(g, r) for g, r in sorted(run.requested.items())) or "none"
    lines += [
        "",
        f"{verdict} ({name}, level {_levels_text(run)}): {good} of {judged} graded case(s) passed "
        f"({total - judged} of {total} not graded) under the readings asked ({asked}).",
    ]
    return lines


def _side_by_side(runs: list[Run]) -> list[str]:
    """Per rule section and per case, every implementation's outcome (cases where all passed are
    counted, not listed)."""
    titles = [md_escape(r.title) for r in runs]
    lines = ["## Side by side", ""]
    sections: dict[tuple[str, str], list[list[int]]] = {}
    per_case: dict[str, list[str]] = {}
    for i, run in enumerate(runs):
        for result in run.graded:
            key = (result.case.game, result.info.section)
            cells = sections.setdefault(key, [[0, 0] for _ in runs])
            if result.judged:
                cells[i][1] += 1
                cells[i][0] += result.outcome == "passed"
            per_case.setdefault(result.case.id, ["-"] * len(runs))[i] = result.outcome
    lines.append(
        table(
            [
                (g, md_escape(s), *(f"{p}/{n}" for p, n in cells))
                for (g, s), cells in sorted(sections.items())
            ],
            ["game", "section", *(f"{t} ({'+'.join(r.levels)})" for t, r in zip(titles, runs, strict=True))],
        )
    )
    differing = {cid: cells for cid, cells in per_case.items() if any(c != "passed" for c in cells)}
    lines += ["", f"Cases ({len(per_case) - len(differing)} passed by every implementation, not listed):", ""]
    lines.append(table([(_code(cid), *cells) for cid, cells in sorted(differing.items())], ["case", *titles]))
    return lines


def render(runs: list[Run] | Run, argv: list[str], max_failures: int) -> str:
    runs = [runs] if isinstance(runs, Run) else runs
    first = runs[0]
    heading = " vs ".join(md_escape(r.title) for r in runs)
    lines = [f"# Conformance: {heading}", ""]
    lines.append(f"Suite {SUITE_VERSION} (generator {GENERATOR_VERSION}) from {_code(first.folder)}.")
    if len(runs) > 1:
        lines += ["", *_side_by_side(runs)]
    for run in runs:
        lines += ["", *_one(run, max_failures)]
    lines += ["", f"Reproduce: {_code(command_line(['invasion', *argv]))}"]
    return "\n".join(lines)


def _asked_text(asked: dict[str, dict[str, int]]) -> str:
    return "; ".join(f"{a} -> " + ", ".join(f"{k} x{n}" for k, n in c.items()) for a, c in asked.items())


def _non_default(game: str, readings: dict[str, str]) -> str:
    changed = [
        f"{r.id}={readings[r.id]}" for r in REGISTRY.all(game) if readings.get(r.id, r.default) != r.default
    ]
    return ", ".join(changed) if changed else "every default"


def result_json(r: Result) -> dict[str, Any]:
    return {
        "id": r.case.id,
        "game": r.case.game,
        "section": r.info.section,
        "variant": r.variant,
        "graded": r.graded,
        "outcome": r.outcome,
        "levels": dict(r.levels),
        "detail": r.detail,
        "state_diff": list(r.verdict.state_diff) if r.verdict else [],
        "matches": list(r.matches),
        "stderr": r.stderr,
    }


def run_json(run: Run) -> dict[str, Any]:
    return {
        "implementation": {
            "label": run.label,
            "name": run.name,
            "version": run.version,
            "command": run.command,
            "protocol_version": run.protocol_version,
            "levels": list(run.levels),
            "capabilities": run.capabilities,
        },
        "suite_version": SUITE_VERSION,
        "folder": run.folder,
        "passed": run.passed,
        "aborted": run.aborted,
        "shortfall": run.shortfall,
        "restarts": run.restarts,
        "requested": run.requested,
        "counts": dict(_counts(run.graded)),
        "graded": {g: len(run.judged(g)) for g in run.games_asked},
        "coverage": coverage(run),
        "results": [result_json(r) for r in run.results],
        "compliance": compliance(run),
    }


def render_json(runs: list[Run] | Run, argv: list[str]) -> str:
    from invasion_oracle.reports.envelope import envelope_json

    runs = [runs] if isinstance(runs, Run) else runs
    answer = run_json(runs[0]) if len(runs) == 1 else {"runs": [run_json(r) for r in runs]}
    return envelope_json("", "conform", command_line(["invasion", *argv]), answer)


def render_jsonl_line(run: Run, result: Result) -> str:
    """One result as one JSON line (``--format jsonl``, streamed while the run goes on)."""
    from invasion_oracle.model.core.canonical import canonical_json

    return canonical_json({"implementation": run.title, "level": list(run.levels), **result_json(result)})


def render_junit(runs: list[Run]) -> str:
    """JUnit XML: one ``testsuite`` per implementation and game, one ``testcase`` per graded case
    (skipped -> ``skipped``; failed -> ``failure``; crashed, timed-out, bad-reply -> ``error``)."""
    root = ET.Element("testsuites", name="invasion conform")
    totals = Counter[str]()
    for run in runs:
        for game in sorted({r.case.game for r in run.graded}):
            results = [r for r in run.graded if r.case.game == game]
            suite = ET.SubElement(root, "testsuite", name=f"{run.title}.{game}")
            counts = Counter[str]()
            for r in results:
                case = ET.SubElement(
                    suite,
                    "testcase",
                    name=r.case.id,
                    classname=f"{run.title}.{game}.{r.info.section}",
                    time="0",
                )
                counts["tests"] += 1
                if r.outcome in ("skipped", "not-run"):
                    ET.SubElement(case, "skipped", message=r.detail[:500])
                    counts["skipped"] += 1
                elif r.outcome == "failed":
                    node = ET.SubElement(case, "failure", message=r.detail[:500], type="failed")
                    node.text = "\n".join([r.detail, *(r.verdict.state_diff if r.verdict else ()), r.stderr])
                    counts["failures"] += 1
                elif r.outcome != "passed":
                    node = ET.SubElement(case, "error", message=r.detail[:500], type=r.outcome)
                    node.text = r.stderr
                    counts["errors"] += 1
            for key in ("tests", "failures", "errors", "skipped"):
                suite.set(key, str(counts[key]))
                totals[key] += counts[key]
            suite.set("time", f"{run.seconds:.3f}")
    for key in ("tests", "failures", "errors", "skipped"):
        root.set(key, str(totals[key]))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
