"""What ``invasion conform --fuzz`` prints: counts per game, the distinct failures shrunk, why
cases were skipped, as text/Markdown, JSON (schema ``answer-conform-fuzz``) or JUnit.

Nothing here depends on the clock unless ``--budget`` was given (then the count reached is
what the budget allowed, and the report says so): the same seed and ``--examples`` give the
same bytes.
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.reports.conform.fuzz import Failure, FuzzRun
from invasion_oracle.reports.output import command_line, md_code, md_escape
from invasion_oracle.reports.tables import table

SCHEMA_NAME = "answer-conform-fuzz"


def _limit(out: FuzzRun) -> str:
    options = out.options
    if options.budget is not None:
        reached = sum(t.generated for t in out.tallies.values())
        stop = "spent" if out.budget_reached else "not spent: every game reached its --examples"
        return f"a budget of {options.budget:g} s ({stop}; {reached} case(s) generated within it)"
    return f"{options.examples} case(s) a game"


def render(out: FuzzRun, argv: list[str], max_failures: int) -> str:
    run = out.run
    name = md_escape(run.name or run.command)
    lines = [f"# Fuzzing: {name} {md_escape(run.version)}".rstrip(), ""]
    lines.append(
        f"Command {md_code(run.command)}; protocol {run.protocol_version}; graded at level(s) "
        f"**{'+'.join(run.levels)}**; seed {out.options.seed}; {_limit(out)}."
    )
    if run.capabilities:
        caps = "; ".join(
            f"{k}: {', '.join(map(str, v)) if isinstance(v, list) else v}"
            for k, v in sorted(run.capabilities.items())
        )
        lines.append(f"Capabilities declared: {md_escape(caps)}.")
    rows = [
        (game, t.generated, t.graded, t.passed, t.failed, t.skipped, t.oracle_refused)
        for game, t in out.tallies.items()
    ]
    lines += [
        "",
        table(rows, ["game", "generated", "graded", "passed", "failed", "skipped", "refused by the oracle"]),
    ]
    for game, tally in out.tallies.items():
        if tally.by_shape:
            shapes = ", ".join(f"{shape} {n}" for shape, n in sorted(tally.by_shape.items()))
            lines.append(f"- {game}: sent by shape: {shapes}.")
        if tally.skip_reasons:
            reasons = "; ".join(f"{md_escape(k)} ({n})" for k, n in sorted(tally.skip_reasons.items()))
            lines.append(f"- {game}: skipped: {reasons}.")
        if tally.dropped:
            lines.append(
                f"- {game}: no longer drawn (refused every time): {md_escape(', '.join(tally.dropped))}."
            )
    if out.aborted:
        lines += ["", f"**Run stopped:** {md_escape(out.aborted)}"]
    lines += ["", f"## Distinct failures ({len(out.failures)})", ""]
    if not out.failures:
        lines.append("None.")
    for number, failure in enumerate(out.failures[:max_failures], 1):
        lines += _failure_lines(number, failure)
    if len(out.failures) > max_failures:
        lines.append(f"- ... {len(out.failures) - max_failures} more (--max-failures, or --format json)")
    graded = sum(t.graded for t in out.tallies.values())
    verdict = "PASSED" if out.passed else "FAILED"
    lines += [
        "",
        f"{verdict} ({name}, level {'+'.join(run.levels)}): {graded} generated case(s) graded, "
        f"{len(out.failures)} distinct failure(s).",
        "",
        f"Reproduce: {md_code(command_line(['invasion', *argv]))}",
    ]
    return "\n".join(lines)


def _failure_lines(number: int, failure: Failure) -> list[str]:
    if failure.outcome == "failed":
        confirmed = "confirmed (failed again twice)" if failure.confirmed else "NOT confirmed on re-run"
    else:
        confirmed = (
            f"confirmed ({failure.outcome} again at --timeout)"
            if failure.confirmed
            else f"NOT confirmed: not {failure.outcome} again at --timeout"
        )
    stopped = f" ({failure.shrink_stopped})" if failure.shrink_stopped else ""
    lines = [
        f"{number}. {md_code(failure.signature)}: {md_code(failure.detail)}",
        f"   - first at generated case {failure.found_at} ({md_code(failure.original.id)}, size "
        f"{failure.original_size}); {failure.seen} generated case(s) showed it",
        f"   - shrunk to size {failure.size} in {failure.shrink_runs} run(s){md_escape(stopped)}; {confirmed}",
    ]
    lines += [f"   - state {md_code(d)}" for d in failure.state_diff[:5]]
    variant = failure.case.variants[0]
    lines.append(f"   - scenario {md_code(canonical_json(failure.case.scenario))}")
    lines.append(
        f"   - projection {md_code(failure.case.projection)}; answers "
        f"{md_code(canonical_json([a.to_json() for a in variant.answers]))}; from {variant.start}"
    )
    if failure.saved:
        lines.append(f"   - saved in {md_code(failure.saved)}")
    return lines


def failure_json(failure: Failure) -> dict[str, Any]:
    return {
        "signature": failure.signature,
        "game": failure.game,
        "section": failure.section,
        "outcome": failure.outcome,
        "detail": failure.detail,
        "state_diff": list(failure.state_diff),
        "found_at": failure.found_at,
        "seen": failure.seen,
        "original_size": failure.original_size,
        "size": failure.size,
        "shrink_runs": failure.shrink_runs,
        "confirmed": failure.confirmed,
        "shrink_stopped": failure.shrink_stopped,
        "saved": failure.saved,
        "case": failure.case.to_json(),
    }


def fuzz_json(out: FuzzRun) -> dict[str, Any]:
    run, options = out.run, out.options
    return {
        "implementation": {
            "name": run.name,
            "version": run.version,
            "command": run.command,
            "protocol_version": run.protocol_version,
            "levels": list(run.levels),
            "capabilities": run.capabilities,
        },
        "seed": options.seed,
        "examples": options.examples,
        "budget": None if options.budget is None else f"{options.budget:g}",
        "budget_reached": out.budget_reached,
        "requested": run.requested,
        "passed": out.passed,
        "aborted": out.aborted,
        "games": {
            game: {
                "generated": t.generated,
                "graded": t.graded,
                "passed": t.passed,
                "failed": t.failed,
                "skipped": t.skipped,
                "oracle_refused": t.oracle_refused,
                "by_shape": dict(sorted(t.by_shape.items())),
                "skip_reasons": dict(sorted(t.skip_reasons.items())),
                "dropped": list(t.dropped),
            }
            for game, t in out.tallies.items()
        },
        "failures": [failure_json(f) for f in out.failures],
    }


def render_json(out: FuzzRun, argv: list[str]) -> str:
    """The envelope (``invasion schema envelope``) with :func:`fuzz_json` as its answer; under
    ``INVASION_DEBUG`` (the tests) the answer is checked against ``answer-conform-fuzz``."""
    import os

    from invasion_oracle.reports.envelope import check_answer, envelope_json

    answer = fuzz_json(out)
    if os.environ.get("INVASION_DEBUG"):
        check_answer("conform", "fuzz", answer)
    return envelope_json("", "conform-fuzz", command_line(["invasion", *argv]), answer)


def render_junit(out: FuzzRun) -> str:
    """JUnit XML: one ``testsuite`` per game; a ``testcase`` per distinct failure (``failure``) and
    one for the generated cases that passed."""
    root = ET.Element("testsuites", name="invasion conform --fuzz")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    title = out.run.name or out.run.command
    for game, tally in out.tallies.items():
        suite = ET.SubElement(root, "testsuite", name=f"{title}.{game}")
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for failure in (f for f in out.failures if f.game == game):
            case = ET.SubElement(
                suite,
                "testcase",
                name=failure.signature,
                classname=f"{title}.{game}.{failure.section}",
                time="0",
            )
            kind = "failure" if failure.outcome == "failed" else "error"
            node = ET.SubElement(case, kind, message=failure.detail[:500], type=failure.outcome)
            node.text = "\n".join(
                [failure.detail, *failure.state_diff, canonical_json(failure.case.scenario)]
            )
            counts["tests"] += 1
            counts["failures" if kind == "failure" else "errors"] += 1
        passing = ET.SubElement(
            suite,
            "testcase",
            name=f"{game}: {tally.passed} generated case(s) passed",
            classname=f"{title}.{game}",
        )
        passing.set("time", "0")
        counts["tests"] += 1
        if tally.skipped:
            skipped = ET.SubElement(
                suite, "testcase", name=f"{game}: {tally.skipped} skipped", classname=f"{title}.{game}"
            )
            skipped.set("time", "0")
            ET.SubElement(
                skipped,
                "skipped",
                message="; ".join(f"{k} ({n})" for k, n in sorted(tally.skip_reasons.items()))[:500],
            )
            counts["tests"] += 1
            counts["skipped"] += 1
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")
