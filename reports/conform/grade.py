"""Grading one reply against a case variant: the one grader, at the levels asked (protocol 2).

* ``state``: the reply's status (``ok``, ``illegal`` at the same step, ``refused``) and, for an
  ``ok`` variant, the projected ``state``: nothing else is needed (a reply may omit events,
  requests and pending);
* ``requests``: also the requests asked and what is pending after;
* ``events``: also the events, in order, field by field.

Each level is graded on its own: an ``ok`` variant passes a level when one of its ``one_of``
outcomes matches on that level's fields; :func:`verdict` passes a reply when one outcome matches at
every level asked (``invasion conform``; ``invasion fixtures check`` asks every level, where the
reply is the oracle's own replay). What the case depends on is also here
(:func:`case_info`): ``depends_on``, ``section``, ``boards`` and ``map``, read from the case
file when it has them (suite version 3) and derived from the case otherwise.

>>> from invasion_oracle.reports.suite.cases import Variant, Expected
>>> v = Variant((), (), 0, "ok", (Expected(({"event": "a"},), None, {"x": 1}, ()),))
>>> verdict(v, {"status": "ok", "state": {"x": 1}}, ("state",)).passed
True
>>> verdict(v, {"status": "ok", "state": {"x": 1}}, ("events",)).detail
'[events] the reply has no events list'
>>> verdict(v, {"status": "ok", "events": [{"event": "a"}], "requests": [], "pending": None,
...             "state": {"x": 2}}).detail
'[state] state differs: $.x: expected 1, got 2'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.reports.suite.build import boards_of
from invasion_oracle.reports.suite.cases import Case, Expected, Variant
from invasion_oracle.reports.suite.events import compared

LEVELS = ("state", "requests", "events")
MAX_DIFFS = 5  # state paths listed for a failure


@dataclass(frozen=True, slots=True)
class Verdict:
    """A reply graded: passed when one outcome matches at every level asked."""

    passed: bool
    detail: str = ""  # for a failure: the first failing level and what differs first
    first_event: str = ""  # an events-level failure's detail
    state_diff: tuple[str, ...] = ()
    levels: Mapping[str, bool] = field(default_factory=dict)  # level -> passed on its own


@dataclass(frozen=True)
class CaseInfo:
    """What the runner needs of a case beyond its variants."""

    depends_on: tuple[str, ...]
    section: str
    boards: tuple[str, ...]
    map: str
    choice: bool


def case_info(case: Case, raw: Mapping[str, Any]) -> CaseInfo:
    """The case's ``depends_on``, ``section``, ``boards`` and ``map``: its own, else derived.

    Derived ``depends_on`` (suite version 2): the rulings the case lists, plus every ruling whose
    reading differs between its variants or that its variants pin to a reading other than the
    default (the case is set up under it); a ruling every variant pins to its default is taken as
    one the case does not depend on.
    """
    if isinstance(raw.get("depends_on"), list):
        depends = tuple(str(r) for r in raw["depends_on"])
    else:
        readings: dict[str, set[str]] = {}
        for variant in case.variants:
            for rid, reading in variant.readings:
                readings.setdefault(rid, set()).add(reading)
        varying = {rid for rid, seen in readings.items() if len(seen) > 1 or seen != {_default(rid)}}
        depends = tuple(sorted(set(case.rulings) | varying))
    section = str(raw.get("section") or (case.rule_refs[0].section if case.rule_refs else ""))
    if isinstance(raw.get("boards"), list):
        boards = tuple(str(b) for b in raw["boards"])
    else:
        boards = boards_of(case.game, case.scenario)
    scenario_map = case.scenario.get("map")
    map_name = str(raw.get("map") or (scenario_map if isinstance(scenario_map, str) else ""))
    return CaseInfo(depends, section, boards, map_name, bool(raw.get("choice", case.choice)))


def _default(rid: str) -> str:
    from invasion_oracle.model.core.rulings import REGISTRY

    try:
        return REGISTRY.get(rid).default
    except KeyError:
        return ""


def variant_for(case: Case, info: CaseInfo, asked: Mapping[str, str]) -> int | None:
    """The variant graded under the readings asked: its readings agree on ``depends_on`` only."""
    for index, variant in enumerate(case.variants):
        own = variant.readings_map
        if all(asked.get(rid, own.get(rid)) == own.get(rid) for rid in info.depends_on if rid in own):
            return index
    return None


def request_key(request: Any) -> str:
    """A request as compared: options (or outcomes) as a sorted multiset."""
    if not isinstance(request, dict):
        return canonical_json(request)
    out = dict(request)
    for name in ("options", "outcomes"):
        if isinstance(out.get(name), list):
            out[name] = sorted(out[name], key=canonical_json)
    out.pop("context", None)
    out.pop("purpose", None)
    return canonical_json(out)


def state_diff(expected: Any, got: Any, path: str = "$", out: list[str] | None = None) -> list[str]:
    """Paths where two JSON values differ, with both values (at most :data:`MAX_DIFFS`).

    >>> state_diff({"a": [1, 2]}, {"a": [1, 3], "b": 0})
    ['$.a[1]: expected 2, got 3', '$.b: unexpected (got 0)']
    """
    out = [] if out is None else out
    if len(out) >= MAX_DIFFS or canonical_json(expected) == canonical_json(got):
        return out
    if isinstance(expected, dict) and isinstance(got, dict):
        for key in sorted(set(expected) | set(got)):
            if len(out) >= MAX_DIFFS:
                break
            if key not in got:
                out.append(f"{path}.{key}: missing (expected {_short(expected[key])})")
            elif key not in expected:
                out.append(f"{path}.{key}: unexpected (got {_short(got[key])})")
            else:
                state_diff(expected[key], got[key], f"{path}.{key}", out)
        return out
    if isinstance(expected, list) and isinstance(got, list) and len(expected) == len(got):
        for i, (a, b) in enumerate(zip(expected, got, strict=True)):
            state_diff(a, b, f"{path}[{i}]", out)
        return out
    out.append(f"{path}: expected {_short(expected)}, got {_short(got)}")
    return out


def _short(value: Any, limit: int = 80) -> str:
    text = canonical_json(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _state_level(expected: Expected, reply: Mapping[str, Any]) -> tuple[bool, str, tuple[str, ...]]:
    if "state" not in reply:
        return False, "the reply has no state", ()
    diff = state_diff(expected.state, reply.get("state"))
    if diff:
        return False, f"state differs: {diff[0]}", tuple(diff)
    return True, "", ()


def _requests_level(expected: Expected, reply: Mapping[str, Any]) -> tuple[bool, str, tuple[str, ...]]:
    if "pending" not in reply:
        return False, "the reply has no pending (the requests level needs it)", ()
    if expected.requests is not None:
        got = reply.get("requests")
        if not isinstance(got, list):
            return False, "the reply has no requests list", ()
        if len(got) != len(expected.requests):
            return False, f"{len(expected.requests)} request(s) expected, {len(got)} given", ()
        for i, (a, b) in enumerate(zip(expected.requests, got, strict=True)):
            if not same_json(a, b) and request_key(a) != request_key(b):
                return False, f"request {i + 1} differs: expected {_short(a)}, got {_short(b)}", ()
    pending = reply.get("pending")
    if not same_json(expected.pending, pending) and request_key(expected.pending) != request_key(pending):
        return (
            False,
            f"pending differs: expected {_short(expected.pending)}, got {_short(pending)}",
            (),
        )
    return True, "", ()


def _events_level(expected: Expected, reply: Mapping[str, Any]) -> tuple[bool, str, tuple[str, ...]]:
    got = reply.get("events")
    if not isinstance(got, list):
        return False, "the reply has no events list", ()
    want = list(expected.events)
    for i, (a, b) in enumerate(zip(want, got, strict=False)):
        if same_json(a, b):
            continue
        if request_key(compared(a)) != request_key(compared(b)):
            return (
                False,
                f"events differ at event {i + 1}: expected {_short(a, 200)}, got {_short(b, 200)}",
                (),
            )
    if len(want) != len(got):
        return False, f"events differ: {len(want)} expected, {len(got)} given", ()
    return True, "", ()


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value of the same JSON types (``1``, ``1.0`` and
    ``true`` differ; a list and a tuple do not): then they compare equal however compared, and
    the canonical text of each (the grading's comparison, most of its time) is not needed. A
    ``False`` says only that the slower comparison must decide (options in another order).

    >>> same_json({"a": [1, "x"]}, {"a": (1, "x")}), same_json([1], [True]), same_json(1, 1.0)
    (True, False, False)
    """
    if type(a) is not type(b):
        if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
            return len(a) == len(b) and all(map(same_json, a, b))
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(value, b[key]) for key, value in a.items())
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(map(same_json, a, b))
    return bool(a == b)


CHECKS = {"state": _state_level, "requests": _requests_level, "events": _events_level}


def passes_all(variant: Variant, reply: Mapping[str, Any], levels: Sequence[str]) -> bool:
    """Whether one outcome of ``variant`` matches the reply at every level in ``levels``."""
    if variant.result != "ok" or reply.get("status") != "ok":
        return all(passed for passed, _, _ in grade_full(variant, reply, levels).values())
    return any(all(CHECKS[level](e, reply)[0] for level in levels) for e in variant.one_of)


def grade_full(
    variant: Variant, reply: Mapping[str, Any], levels: Sequence[str]
) -> dict[str, tuple[bool, str, tuple[str, ...]]]:
    """Per level asked: (passed, what differs first, the state paths that differ)."""
    status = reply.get("status")
    out: dict[str, tuple[bool, str, tuple[str, ...]]] = {}
    if variant.result in ("illegal", "refused"):
        if variant.result == "illegal":
            ok = status == "illegal" and reply.get("step") == variant.step
            detail = (
                ""
                if ok
                else f"answer {variant.step} must be refused ({variant.reason}); the reply is {status}"
                + (f" at answer {reply.get('step')}" if status == "illegal" else "")
            )
        else:
            ok = status == "refused"
            detail = "" if ok else f"the scenario must be refused ({variant.reason}); the reply is {status}"
        return {level: (ok, detail[:300], ()) for level in levels}
    if status != "ok":
        where = f" at answer {reply.get('step')}" if status == "illegal" else ""
        detail = f"reply is {status}{where}: {reply.get('reason', '')}"[:300]
        return {level: (False, detail, ()) for level in levels}
    for level in levels:
        first: tuple[bool, str, tuple[str, ...]] | None = None
        for expected in variant.one_of:
            found = CHECKS[level](expected, reply)
            if found[0]:
                first = found
                break
            first = first or found
        assert first is not None, "an ok variant lists at least one outcome"
        out[level] = first
    return out


def verdict(variant: Variant, reply: Mapping[str, Any], levels: Sequence[str] = LEVELS) -> Verdict:
    """``reply`` (a decoded reply object) graded against ``variant`` at every level in ``levels``;
    a failure's detail names the first level that fails (or says no one outcome matches them all)."""
    found = grade_full(variant, reply, levels)
    passed = passes_all(variant, reply, levels)
    by_level = {level: r[0] for level, r in found.items()}
    if passed:
        return Verdict(True, levels=by_level)
    failing = [(level, r) for level, r in found.items() if not r[0]]
    level, (_, detail, diff) = failing[0] if failing else (levels[0], found[levels[0]])
    detail = f"[{level}] {detail}" if detail else f"[{level}] no single outcome matches every level"
    return Verdict(False, detail, detail if level == "events" else "", diff, by_level)
