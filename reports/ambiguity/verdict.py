"""``invasion ambiguities --check`` as a CI verdict: a short text (the verdict, then one line per
problem with the command that shows it) or JUnit XML (``--format junit``: each ruling a test case,
each game's well-formedness a test case), so a CI dashboard lists every ruling as a test."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from invasion_oracle.reports.ambiguity.analysis import Analysis
from invasion_oracle.reports.output import command_line

RULING_ID = re.compile(r"\b[A-Z]{2,3}(?:-[A-Z0-9]+)+\b")


def show_command(analysis: Analysis, problem: str, fixtures: str | None) -> str:
    """The command that shows one problem in full."""
    ids = {r.id for r in analysis.rulings}
    first = problem.split(":", 1)[0]
    if first.startswith("fixture "):
        named = [m for m in RULING_ID.findall(problem) if m in ids]
        words = ["invasion", "ambiguities", *(["--only", named[-1]] if named else [])]
        return command_line([*words, "--fixtures", fixtures or "fixtures"])
    if first in ids:
        return command_line(["invasion", "ambiguities", "--only", first, "--no-fixtures"])
    if first in analysis.games:
        return command_line(["invasion", first, "ambiguities", "--wellformed", "--no-fixtures"])
    return "invasion ambiguities --check --verbose"


def verdict_text(analysis: Analysis, moved: list[str], fixtures: str | None) -> str:
    """The verdict line, then each problem on one line: ``- problem  (see: command)``."""
    failing = [*analysis.problems(), *moved]
    checked = f"{len(analysis.rulings)} ruling(s) of {len(analysis.games)} game(s)"
    if analysis.fixture_cases is not None:
        checked += f", {analysis.fixture_cases} fixture case(s)"
    else:
        checked += ", fixtures not read"
    if analysis.interrupted:
        head = f"ambiguities check: INTERRUPTED ({checked}; what was not checked is unknown)"
    elif failing:
        head = f"ambiguities check: FAILED, {len(failing)} problem(s) ({checked})"
    else:
        head = f"ambiguities check: clean ({checked})"
    lines = [head]
    lines += [f"- {p}  (see: {show_command(analysis, p, fixtures)})" for p in failing]
    if failing:
        lines.append("the full report: invasion ambiguities --check --verbose (or --out FILE)")
    return "\n".join(lines) + "\n"


def junit(analysis: Analysis, moved: list[str], fixtures: str | None) -> str:
    """JUnit XML: a test suite per game, a test case per ruling and one for its well-formedness."""
    problems = [*analysis.problems(), *moved]
    suites = ET.Element("testsuites", name="invasion ambiguities --check")
    total = failed = 0
    for game in analysis.games:
        suite = ET.SubElement(suites, "testsuite", name=game)
        cases: list[tuple[str, list[str]]] = []
        for ruling in (r for r in analysis.rulings if r.game == game):
            mine = [p for p in problems if _about(p, ruling.id)]
            cases.append((ruling.id, mine))
        if game in analysis.wellformed:
            cases.append(("wellformed", [p for p in problems if p.startswith(f"{game}: ")]))
        for name, mine in cases:
            case = ET.SubElement(suite, "testcase", classname=game, name=name)
            if mine:
                failure = ET.SubElement(case, "failure", message=mine[0], type="ambiguity")
                failure.text = "\n".join(f"{p}  (see: {show_command(analysis, p, fixtures)})" for p in mine)
            elif analysis.interrupted:
                ET.SubElement(case, "skipped", message="interrupted")
        suite.set("tests", str(len(cases)))
        suite.set("failures", str(sum(1 for _, mine in cases if mine)))
        total += len(cases)
        failed += sum(1 for _, mine in cases if mine)
    suites.set("tests", str(total))
    suites.set("failures", str(failed))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _about(problem: str, ruling_id: str) -> bool:
    head = problem.split(":", 1)[0]
    if head == ruling_id:
        return True
    return head.startswith("fixture ") and problem.rstrip().endswith(
        f"on {ruling_id}, which it does not declare"
    )


def scenario_verdict_text(
    scenario: str, checked: int, failing: list[str], baseline: str | None, interrupted: bool
) -> str:
    """The verdict of ``ambiguities FILE --check``: one line, then each problem with its command."""
    against = f"compared with {baseline}" if baseline else "expected: every ruling it depends on declared"
    what = f"{checked} ruling(s) run on {scenario}; {against}"
    if interrupted:
        head = f"ambiguities check: INTERRUPTED ({what}; what was not run is unknown)"
    elif failing:
        head = f"ambiguities check: FAILED, {len(failing)} problem(s) ({what})"
    else:
        head = f"ambiguities check: clean ({what})"
    lines = [head]
    for problem in failing:
        rid = problem.split(":", 1)[0].split(" ", 1)[0]
        see = command_line(["invasion", "ambiguities", scenario, "--only", rid])
        lines.append(f"- {problem}  (see: {see})")
    if failing:
        lines.append(
            f"the full report: {command_line(['invasion', 'ambiguities', scenario, '--check', '--verbose'])}"
        )
    return "\n".join(lines) + "\n"


def scenario_junit(scenario: str, rulings: list[str], failing: list[str], interrupted: bool) -> str:
    """JUnit XML of ``ambiguities FILE --check``: a test suite for the scenario, a case per ruling."""
    suites = ET.Element("testsuites", name="invasion ambiguities --check")
    suite = ET.SubElement(suites, "testsuite", name=scenario)
    failed = 0
    for rid in rulings:
        mine = [p for p in failing if p.split(":", 1)[0].split(" ", 1)[0] == rid]
        case = ET.SubElement(suite, "testcase", classname=scenario, name=rid)
        if mine:
            failed += 1
            failure = ET.SubElement(case, "failure", message=mine[0], type="ambiguity")
            failure.text = "\n".join(mine)
        elif interrupted:
            ET.SubElement(case, "skipped", message="interrupted")
    for node in (suite, suites):
        node.set("tests", str(len(rulings)))
        node.set("failures", str(failed))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"
