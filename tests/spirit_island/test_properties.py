"""The Invader Phase invariants (properties/spirit_island.py) on generated scenarios."""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from invasion_oracle.model.spirit_island.scenario import scenario_from_document
from invasion_oracle.properties.spirit_island import (
    invariant_violations,
    outcome_violations,
    replay_violations,
    run_document,
    scenario_documents,
)

SCALE = int(os.environ.get("INVASION_HYPOTHESIS_SCALE", "1"))  # deeper sweeps on demand


def examples(n: int) -> settings:
    return settings(max_examples=n * SCALE, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_played_on(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated")
    playthrough = run_document(scenario, play_on=True)
    assert invariant_violations(scenario, playthrough, complete=True) == []
    assert replay_violations(scenario, playthrough, play_on=True) == []
    assert outcome_violations(scenario, playthrough) == []


def check_real_game(document: dict[str, Any]) -> None:
    scenario = scenario_from_document(document, "generated")
    playthrough = run_document(scenario, play_on=False)
    assert invariant_violations(scenario, playthrough, complete=False) == []
    assert replay_violations(scenario, playthrough, play_on=False) == []
    assert outcome_violations(scenario, playthrough) == []


@examples(25)
@given(scenario_documents())
def test_invariants_hold_played_on(document: dict[str, Any]) -> None:
    """Played on past the outcome, every destruction's Fear is generated and counted."""
    check_played_on(document)


@examples(25)
@given(scenario_documents())
def test_invariants_hold_in_real_games(document: dict[str, Any]) -> None:
    check_real_game(document)


@pytest.mark.slow
@examples(300)
@given(scenario_documents())
def test_invariants_hold_played_on_deep(document: dict[str, Any]) -> None:
    check_played_on(document)


@pytest.mark.slow
@examples(300)
@given(scenario_documents())
def test_invariants_hold_in_real_games_deep(document: dict[str, Any]) -> None:
    check_real_game(document)


def test_the_invariants_catch_a_broken_run() -> None:
    """A doctored trace (a Ravage Blight with too little Damage) is reported: the checks can fail."""
    from dataclasses import replace

    from invasion_oracle.model.core.driver import Playthrough
    from invasion_oracle.model.core.events import Event
    from tests.spirit_island.helpers import doc

    scenario = scenario_from_document(
        doc(lands={"A8": "C", "A1": "E"}, invader_board={"ravage": ["1M"]}), "t"
    )
    playthrough = run_document(scenario, play_on=False)
    fake = Event.make("blight_added", land="A1", cause="ravage", pool=0, side="healthy")
    doctored = replace(playthrough, opening=(*playthrough.opening, fake))
    assert isinstance(doctored, Playthrough)
    from invasion_oracle.properties.spirit_island import _blight_follows_ravage

    assert _blight_follows_ravage(doctored.opening, "step 0")


def test_the_outcome_check_catches_fear_that_vanished() -> None:
    """The last Town's Fear dropped without a word (the bug of issue 12) is reported."""
    from dataclasses import replace

    from tests.spirit_island.helpers import doc

    document = doc(lands={"A1": "T 2D"}, invader_board={"ravage": ["1M"]}, invader_deck=["1J"])
    document["rulings"] = {"SI-WINNING-FEAR": "not-generated"}
    scenario = scenario_from_document(document, "t")
    playthrough = run_document(scenario, play_on=False)
    assert outcome_violations(scenario, playthrough) == []
    silent = tuple(e for e in playthrough.opening if e.kind != "fear_not_generated")
    problems = outcome_violations(scenario, replace(playthrough, opening=silent))
    assert problems == ["destroyed pieces were worth 1 Fear; 0 was generated or reported not generated"]
