"""Invariants of the Invasion phase over many generated dungeons, placements, heroes and rulings."""

from __future__ import annotations

from dataclasses import replace as dc_replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.stonespine.scenario import load_scenario
from invasion_oracle.model.stonespine.simulate import run
from invasion_oracle.properties.stonespine import invariant_violations, outcome_mismatches, scenarios
from tests.stonespine.helpers import load


def _invariants_hold(doc: dict[str, Any]) -> None:
    """The invariants hold, and the outcome agrees with the events (one run checks both)."""
    scenario = load(doc)
    playthrough = run(scenario)
    assert invariant_violations(scenario, playthrough) == []
    assert outcome_mismatches(scenario, playthrough) == []


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_invariants_hold_for_generated_invasions(doc: dict[str, Any]) -> None:
    _invariants_hold(doc)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_invariants_hold_for_generated_invasions_deep(doc: dict[str, Any]) -> None:
    _invariants_hold(doc)


@settings(max_examples=20, deadline=None)
@given(scenarios(max_players=1))
def test_invariant_checker_catches_a_planted_double_entry(doc: dict[str, Any]) -> None:
    """The checker is not vacuous: planting a repeated entry is reported."""
    from dataclasses import replace

    from invasion_oracle.model.core.events import Event

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


EXAMPLES = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "examples" / "stonespine").rglob("*.json")
    if p.name != "data-override.json"
)


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_outcome_agrees_with_its_events(path: Path) -> None:
    """Whole campaigns too: Cleanup, several years, final scoring, Jael's area."""
    scenario = load_scenario(str(path))
    playthrough = run(scenario)
    assert invariant_violations(scenario, playthrough) == []
    assert outcome_mismatches(scenario, playthrough) == []


def test_outcome_checker_catches_planted_differences() -> None:
    """The checker is not vacuous: an outcome total the events do not explain is reported."""
    scenario = load_scenario(str(EXAMPLES[0].parent / "campaign.json"))
    playthrough = run(scenario)
    final = playthrough.final
    richer = dc_replace(
        final, players=(dc_replace(final.players[0], xp=final.players[0].xp + 1), *final.players[1:])
    )
    assert any("xp" in p for p in outcome_mismatches(scenario, dc_replace(playthrough, final=richer)))
    steps = tuple(
        dc_replace(s, events=tuple(e for e in s.events if e.kind != "demerit_taken"))
        for s in playthrough.steps
    )
    problems = outcome_mismatches(scenario, dc_replace(playthrough, steps=steps))
    assert any("demerits" in p for p in problems)
