"""Invariants of the Invasion phase over many generated dungeons, placements, heroes and rulings."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings

from model.stonespine.simulate import run
from properties.stonespine import invariant_violations, scenarios
from tests.stonespine.helpers import load


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_invariants_hold_for_generated_invasions(doc: dict[str, Any]) -> None:
    scenario = load(doc)
    playthrough = run(scenario)
    assert invariant_violations(scenario, playthrough) == []


@settings(max_examples=50, deadline=None)
@given(scenarios(max_players=1))
def test_invariant_checker_catches_a_planted_double_entry(doc: dict[str, Any]) -> None:
    """The checker is not vacuous: planting a repeated entry is reported."""
    from dataclasses import replace

    from model.core.events import Event

    scenario = load(doc)
    playthrough = run(scenario)
    entries = [e for e in playthrough.events if e.kind == "hero_entered"]
    if not entries:
        return
    planted = Event.make(
        "hero_entered",
        player=entries[0].get("player"),
        hero=entries[0].get("hero"),
        chamber=entries[0].get("chamber"),
    )
    events = list(playthrough.opening)
    at = events.index(entries[0]) + 1 if entries[0] in events else None
    if at is None:
        steps = list(playthrough.steps)
        for i, step in enumerate(steps):
            if entries[0] in step.events:
                k = step.events.index(entries[0]) + 1
                steps[i] = replace(step, events=step.events[:k] + (planted,) + step.events[k:])
                break
        tampered = replace(playthrough, steps=tuple(steps))
    else:
        tampered = replace(playthrough, opening=tuple(events[:at] + [planted] + events[at:]))
    assert any("twice" in p for p in invariant_violations(scenario, tampered))
