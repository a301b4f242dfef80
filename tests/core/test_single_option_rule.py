"""One rule for every game (issue 20): a decision with a single legal option is never asked and
leaves no event of its own (docs/fixtures.md, "Single-option decisions"), so a hand-written
decision script answers the same decisions in every game."""

from __future__ import annotations

import pytest

from invasion_oracle.model import registry
from invasion_oracle.model.core.bundled import examples
from invasion_oracle.model.core.decisions import DecisionRequest
from invasion_oracle.model.core.errors import InvasionError
from invasion_oracle.model.core.jsonio import read_json_file
from invasion_oracle.model.core.play import run
from invasion_oracle.model.core.spec import ScenarioOptions

FORMER_EVENTS = {"only_option", "decision_forced"}  # what Cloudspire and Stonespine used to leave


@pytest.mark.parametrize("game", registry.names())
def test_no_bundled_run_asks_a_single_option_decision(game: str) -> None:
    spec = registry.spec(game)
    assert spec.examples
    played = asked = 0
    for ref in examples(spec.examples):
        if "/rulings/" in ref.relative:
            continue
        try:
            scenario = spec.load(read_json_file(str(ref)), str(ref), ScenarioOptions())
            playthrough = run(scenario)
        except InvasionError:  # a file made for one search (a position without a script)
            continue
        played += 1
        for step in playthrough.steps:
            if isinstance(step.request, DecisionRequest):
                asked += 1
                assert len(step.request.options) > 1, (str(ref), step.request)
        assert not {e.kind for e in playthrough.events} & FORMER_EVENTS, str(ref)
    assert played >= 2 and asked > 0  # the rule was exercised, not vacuously true
