"""What changed since a baseline: a designer's CI compares two ``invasion ambiguities --json``.

``invasion ambiguities --json > baseline.json`` records, per ruling, each witness's outcome and
events digest under each reading, the fixtures depending on it, and any divergence witness found;
``invasion ambiguities --check --baseline baseline.json`` prints every change as a sentence (the
outcome fields that moved, with old and new values) and exits 1 when there is one.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.ambiguity import differing_fields
from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.errors import MalformedInputError
from invasion_oracle.reports.ambiguity.render import value_text


def answer_of(document: Any, source: str) -> dict[str, Any]:
    """The analysis in a baseline file: the ``--json`` envelope's answer (or the bare answer)."""
    if isinstance(document, dict) and isinstance(document.get("answer"), dict):
        if document.get("query") not in (None, "ambiguities"):
            raise MalformedInputError(
                source,
                "$.query",
                f"a baseline is the output of `invasion ambiguities --json`, not of {document.get('query')!r}",
            )
        document = document["answer"]
    if not isinstance(document, dict) or not isinstance(document.get("rulings"), list):
        raise MalformedInputError(source, "$.answer.rulings", "not an `invasion ambiguities --json` output")
    problem = _shape_problem(document)
    if problem is not None:
        raise MalformedInputError(source, "$.answer" + problem[0], problem[1])
    answer: dict[str, Any] = document
    return answer


def _shape_problem(answer: dict[str, Any]) -> tuple[str, str] | None:
    """The first place where a baseline's answer is not shaped as :func:`changes` reads it:
    ``(JSONPath below the answer, reason)``, or None."""
    for r, ruling in enumerate(answer["rulings"]):
        where = f".rulings[{r}]"
        if not isinstance(ruling, dict) or not isinstance(ruling.get("id"), str):
            return where, "a ruling is an object with a string id"
        witnesses = ruling.get("witnesses")
        if witnesses is not None:
            if not isinstance(witnesses, dict) or not isinstance(witnesses.get("witnesses", []), list):
                return f"{where}.witnesses", "expected an object with a list of witnesses"
            for w, witness in enumerate(witnesses.get("witnesses", [])):
                at = f"{where}.witnesses.witnesses[{w}]"
                if not isinstance(witness, dict) or not isinstance(witness.get("scenario"), str):
                    return at, "a witness is an object with a string scenario"
                runs = witness.get("runs", [])
                if not isinstance(runs, list):
                    return f"{at}.runs", "expected a list"
                for n, run in enumerate(runs):
                    if not isinstance(run, dict) or not isinstance(run.get("reading"), str):
                        return f"{at}.runs[{n}]", "a run is an object with a string reading"
        if ruling.get("divergence") is not None and not isinstance(ruling["divergence"], dict):
            return f"{where}.divergence", "expected an object or null"
    fixtures = answer.get("fixtures")
    if isinstance(fixtures, dict):
        dependencies = fixtures.get("dependencies", [])
        if not isinstance(dependencies, list):
            return ".fixtures.dependencies", "expected a list"
        for d, dependency in enumerate(dependencies):
            at = f".fixtures.dependencies[{d}]"
            if isinstance(dependency, dict) and (
                not isinstance(dependency.get("case"), str)
                or not isinstance(dependency.get("depends_on", {}), dict)
            ):
                return at, "a dependency is an object with a string case and a depends_on object"
    return None


def changes(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Every difference between two analyses that a designer should look at, as sentences."""
    found: list[str] = []
    old_rulings = {r.get("id"): r for r in old["rulings"] if isinstance(r, dict)}
    new_rulings = {r["id"]: r for r in new["rulings"]}
    for rid in new_rulings.keys() - old_rulings.keys():
        found.append(f"{rid}: new ruling")
    games = set(new.get("games", []))
    for rid in old_rulings.keys() - new_rulings.keys():
        if old_rulings[rid].get("game") in games:
            found.append(f"{rid}: ruling removed")
    for rid in sorted(new_rulings.keys() & old_rulings.keys()):
        found += _ruling_changes(rid, old_rulings[rid], new_rulings[rid])
    found += _fixture_changes(old.get("fixtures"), new.get("fixtures"))
    return sorted(found)


def _ruling_changes(rid: str, old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    found = []
    for key in ("readings", "default"):
        if canonical_json(old.get(key)) != canonical_json(new.get(key)):
            found.append(f"{rid}: its {key} changed")
    old_w = {w["scenario"]: w for w in (old.get("witnesses") or {}).get("witnesses", [])}
    new_w = {w["scenario"]: w for w in (new.get("witnesses") or {}).get("witnesses", [])}
    for name in sorted(new_w.keys() - old_w.keys()):
        found.append(f"{rid}: new witness {name}")
    for name in sorted(old_w.keys() - new_w.keys()):
        found.append(f"{rid}: witness {name} is gone")
    for name in sorted(new_w.keys() & old_w.keys()):
        old_runs = {r["reading"]: r for r in old_w[name].get("runs", [])}
        for run in new_w[name]["runs"]:
            before = old_runs.get(run["reading"])
            if before is None:
                continue
            where = f"{rid}: {name} under {run['reading']}"
            if before.get("error") != run["error"]:
                found.append(
                    f"{where}: {value_text(before.get('error') or 'ran')} -> {value_text(run['error'] or 'ran')}"
                )
            for path, (a, b) in differing_fields([before.get("outcome"), run["outcome"]]):
                found.append(f"{where}: outcome {path}: {value_text(a)} -> {value_text(b)}")
            if before.get("events_digest") != run["events_digest"]:
                found.append(f"{where}: the events changed")
    old_d, new_d = old.get("divergence"), new.get("divergence")
    if old_d and new_d:
        if old_d.get("status") != new_d["status"]:
            found.append(f"{rid}: divergence search {old_d.get('status')} -> {new_d['status']}")
        elif canonical_json(old_d.get("document")) != canonical_json(new_d["document"]):
            found.append(f"{rid}: the divergence search found another witness")
    return found


def _fixture_changes(old: Any, new: Any) -> list[str]:
    if not isinstance(old, dict) or not isinstance(new, dict):
        return []
    before = {d["case"]: d.get("depends_on", {}) for d in old.get("dependencies", []) if isinstance(d, dict)}
    found = []
    for dep in new["dependencies"]:
        was = before.get(dep["case"])
        if was is None:
            continue
        for rid in sorted(set(was) | set(dep["depends_on"])):
            a, b = was.get(rid, "nothing"), dep["depends_on"].get(rid, "nothing")
            if a != b:
                found.append(f"fixture {dep['case']}: depends on {rid} by {a} -> {b}")
    return found
