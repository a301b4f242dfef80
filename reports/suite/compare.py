"""Comparing an implementation's reply with a case variant's expectation.

The rules (``docs/conformance.md``, "Comparing"): events in order and field by field; the
requests asked (type, kind, who answers, and the options as a multiset: their order is not
compared); what is pending after; the projected state. An ``ok`` variant passes when the reply
matches any of its ``one_of`` outcomes on every field that outcome lists; ``illegal`` needs an
``illegal`` reply at the same step; ``refused`` a ``refused`` reply.

>>> from invasion_oracle.reports.suite.cases import Variant, Expected
>>> v = Variant((), (), 0, "ok", (Expected(({"event": "a"},), None, {"x": 1}, ()),))
>>> verdict(v, {"status": "ok", "events": [{"event": "a"}], "requests": [], "pending": None,
...             "state": {"x": 2}}).detail
'state differs: $.x: expected 1, got 2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.reports.suite.cases import Expected, Variant
from invasion_oracle.reports.suite.events import compared

MAX_DIFFS = 5


@dataclass(frozen=True, slots=True)
class Verdict:
    passed: bool
    detail: str = ""  # for a failure: what differs first, briefly
    first_event: str = ""  # expected vs got at the first differing event
    state_diff: tuple[str, ...] = ()


def request_key(request: Any) -> str:
    """A request as compared: options (or outcomes) as a sorted multiset."""
    if not isinstance(request, dict):
        return canonical_json(request)
    out = dict(request)
    for field in ("options", "outcomes"):
        if isinstance(out.get(field), list):
            out[field] = sorted(out[field], key=canonical_json)
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


def _events_diff(expected: list[Any], got: list[Any]) -> str:
    for i, (a, b) in enumerate(zip(expected, got, strict=False)):
        if canonical_json(compared(a)) != canonical_json(compared(b)):
            return f"event {i + 1}: expected {_short(a, 200)}, got {_short(b, 200)}"
    if len(expected) != len(got):
        i = min(len(expected), len(got))
        extra = got[i] if len(got) > len(expected) else expected[i]
        what = "unexpected" if len(got) > len(expected) else "missing"
        return f"event {i + 1}: {what} {_short(extra, 200)} ({len(expected)} expected, {len(got)} given)"
    return ""


def _against(expected: Expected, reply: dict[str, Any]) -> Verdict:
    got_events = reply.get("events")
    if not isinstance(got_events, list):
        return Verdict(False, "the reply has no events list")
    first = _events_diff(list(expected.events), got_events)
    if first:
        return Verdict(False, f"events differ at {first.partition(':')[0]}", first)
    if expected.requests is not None:
        got = reply.get("requests")
        got_list = got if isinstance(got, list) else []
        given = [request_key(r) for r in got_list] if isinstance(got, list) else None  # None: no list
        if given != [request_key(r) for r in expected.requests]:
            for i, (a, b) in enumerate(zip(expected.requests, got_list, strict=False)):
                if request_key(a) != request_key(b):
                    return Verdict(False, f"request {i + 1} differs: expected {_short(a)}, got {_short(b)}")
            return Verdict(False, f"{len(expected.requests)} request(s) expected, {len(got_list)} given")
    if request_key(expected.pending) != request_key(reply.get("pending")):
        return Verdict(
            False, f"pending differs: expected {_short(expected.pending)}, got {_short(reply.get('pending'))}"
        )
    diff = state_diff(expected.state, reply.get("state"))
    if diff:
        return Verdict(False, f"state differs: {diff[0]}", "", tuple(diff))
    return Verdict(True)


def verdict(variant: Variant, reply: dict[str, Any]) -> Verdict:
    """Whether ``reply`` (a decoded reply object) meets ``variant``'s expectation."""
    status = reply.get("status")
    if variant.result == "illegal":
        if status == "illegal" and reply.get("step") == variant.step:
            return Verdict(True)
        if status == "illegal":
            return Verdict(
                False, f"refused answer {reply.get('step')}; answer {variant.step} must be refused"
            )
        return Verdict(
            False, f"answer {variant.step} must be refused ({variant.reason}); the reply is {status}"
        )
    if variant.result == "refused":
        if status == "refused":
            return Verdict(True)
        return Verdict(
            False, f"the scenario must be refused under these readings ({variant.reason}); reply is {status}"
        )
    if status != "ok":
        reason = reply.get("reason", "")
        where = f" at answer {reply.get('step')}" if status == "illegal" else ""
        return Verdict(False, f"reply is {status}{where}: {reason}"[:300])
    best: Verdict | None = None
    for expected in variant.one_of:
        found = _against(expected, reply)
        if found.passed:
            return found
        best = best or found
    assert best is not None, "an ok variant lists at least one outcome"
    return best
