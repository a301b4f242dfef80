"""Traces: the fixture format every game writes, and the comparison a replay makes.

A trace is canonical JSON with ``format`` (``invasion-oracle/trace``), ``format_version``,
``oracle_version``, ``game``, the ``scenario`` as given, every ruling's reading (``rulings``),
the events before the first request (``opening``), every ``step`` (request with its legal
options, answer, events) and the ``outcome``. Each game builds its own trace document; this module
checks headers, pulls out the recorded answers and finds the first difference.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.errors import MalformedInputError

TRACE_FORMAT = "invasion-oracle/trace"
TRACE_VERSION = 1
ORACLE_VERSION = "0.2.0"
"""The rules behaviour: bumped whenever a run's outcome under the same scenario and readings
changes (0.2.0: suite 4.0.0's changes, e.g. a single-option request is never asked)."""


@dataclass(frozen=True, slots=True)
class ReplayReport:
    identical: bool
    first_difference: str  # empty when identical


def check_trace_format(trace: Any, source: str) -> None:
    """Refuse a document that does not say it is a trace."""
    if not isinstance(trace, dict) or trace.get("format") != TRACE_FORMAT:
        raise MalformedInputError(
            source, "$.format", f"not an invasion-oracle trace (expected format {TRACE_FORMAT!r})"
        )


def check_trace(trace: Any, source: str, game: str) -> dict[str, Any]:
    """The trace as a dict, after checking it is one this oracle reads for ``game``."""
    check_trace_format(trace, source)
    found = trace.get("game")
    if not isinstance(found, str):
        raise MalformedInputError(source, "$.game", f"names the game this trace is for (here {game!r})")
    if found != game:
        raise MalformedInputError(
            source, "$.game", f"a {found!r} trace, not a {game} one; replay it with `invasion replay`"
        )
    if trace.get("format_version") != TRACE_VERSION:
        raise MalformedInputError(
            source,
            "$.format_version",
            f"this oracle reads version {TRACE_VERSION}, got {trace.get('format_version')!r}",
        )
    # here, not at the top: ORACLE_VERSION (an adapter's hello) needs no schema machinery
    from invasion_oracle.model.core.jsonio import load_schema, validate

    validate(trace, load_schema("invasion_oracle.model.core", "schemas/trace.schema.json"), source)
    checked: dict[str, Any] = trace
    return checked


def recorded_answers(trace: dict[str, Any]) -> tuple[list[Any], list[Any]]:
    """The decision answers and the chance outcomes, each in the order they were given."""
    decisions = [step["answer"] for step in trace["steps"] if step["request"]["request"] == "decision"]
    outcomes = [step["answer"] for step in trace["steps"] if step["request"]["request"] == "chance"]
    return decisions, outcomes


def ruling_specs(trace: dict[str, Any]) -> list[str]:
    return [f"{k}={v}" for k, v in trace["rulings"].items()]


def compare(recorded: dict[str, Any], fresh: dict[str, Any]) -> ReplayReport:
    """The first place where a replayed trace differs from the recorded one."""
    mine = _plain(fresh)
    for key in ("rulings", "opening"):
        if _plain(recorded[key]) != mine[key]:
            return ReplayReport(False, f"{key} differ")
    for i, (old, new) in enumerate(zip(recorded["steps"], mine["steps"], strict=False)):
        if _plain(old) != new:
            return ReplayReport(
                False, f"step {i + 1}: recorded {canonical_json(old)} but replay gives {canonical_json(new)}"
            )
    if len(recorded["steps"]) != len(mine["steps"]):
        return ReplayReport(
            False, f"recorded {len(recorded['steps'])} steps, replay gives {len(mine['steps'])}"
        )
    if _plain(recorded["outcome"]) != mine["outcome"]:
        return ReplayReport(False, "outcome differs")
    return ReplayReport(True, "")


def _plain(value: Any) -> Any:
    return json.loads(canonical_json(value))
