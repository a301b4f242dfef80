"""Simulate and replay any game on the contract, and write its trace.

Written once over :class:`~invasion_oracle.model.core.spec.GameSpec`: a game only says how a scenario loads and
what its outcome is. A trace is the fixture other implementations run against: the scenario,
every ruling's reading, every request with its legal options and the answer given, every event,
and the outcome, in canonical JSON (``docs/fixtures.md``; schema ``invasion schema trace``).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from invasion_oracle.model.core.canonical import canonical_json
from invasion_oracle.model.core.decisions import ChanceSource, Decider, ScriptedChance, ScriptedDecider
from invasion_oracle.model.core.driver import Playthrough, play
from invasion_oracle.model.core.errors import ScriptedAnswerError
from invasion_oracle.model.core.jsonio import json_path, located_inside, read_json_file
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import GameSpec, Scenario, ScenarioOptions
from invasion_oracle.model.core.trace import (
    ORACLE_VERSION,
    TRACE_FORMAT,
    TRACE_VERSION,
    ReplayReport,
    check_trace,
    compare,
    recorded_answers,
    ruling_specs,
)


def load_file(spec: GameSpec, path: str | Path, options: ScenarioOptions | None = None) -> Any:
    """Read a scenario file of ``spec``'s game and load it."""
    return spec.load(read_json_file(path), str(path), options or ScenarioOptions())


def run(
    scenario: Scenario[Any],
    decider: Decider | None = None,
    chance: ChanceSource | None = None,
    on_unused: Callable[[ScriptedAnswerError], None] | None = None,
) -> Playthrough[Any]:
    """Play ``scenario`` to its end with its own answerers, or the ones given.

    ``on_unused`` hears of each script that the run did not use up (the error names the first
    answer left over): under the readings its author had in mind the run went another way. It
    is not an error by itself, since the same witness is run under every reading of a ruling."""
    game = scenario.game()
    state, opening = game.start(scenario.initial)
    decider = decider or scenario.decider()
    chance = chance or scenario.chance_source()
    playthrough = play(game, state, decider, chance, opening=opening)
    if on_unused is not None:
        for answerer in (decider, chance):
            if isinstance(answerer, ScriptedDecider | ScriptedChance) and (leftover := answerer.unused()):
                on_unused(leftover)
    return playthrough


def trace_document(spec: GameSpec, scenario: Scenario[Any], playthrough: Playthrough[Any]) -> dict[str, Any]:
    """The trace of a run as plain data (see the module docstring)."""
    return {
        "format": TRACE_FORMAT,
        "format_version": TRACE_VERSION,
        "oracle_version": ORACLE_VERSION,
        "game": spec.name,
        "scenario": scenario.document,
        "rulings": scenario.rulings.to_json(),
        "opening": list(playthrough.opening),
        "steps": list(playthrough.steps),
        "outcome": spec.outcome(scenario, playthrough.final),
    }


def trace_json(spec: GameSpec, scenario: Scenario[Any], playthrough: Playthrough[Any]) -> str:
    """The canonical text of a run's trace, as fixtures store it."""
    return canonical_json(trace_document(spec, scenario, playthrough), indent=1) + "\n"


def replay_trace(spec: GameSpec, trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers only and compare everything.

    A recorded answer that is not legal, or a trace with too few steps, is named by its place
    in the file (``t.json:$.steps[3].answer``).
    """
    checked = check_trace(trace, source, spec.name)
    Rulings.defaults(spec.name).with_object(checked["rulings"], source)
    options = ScenarioOptions(ruling_specs=tuple(ruling_specs(checked)))
    with located_inside(source, "$.scenario") as inner:
        scenario = spec.load(checked["scenario"], inner, options)
    steps = checked["steps"]
    paths = {
        kind: [
            json_path(("steps", i, "answer")) for i, s in enumerate(steps) if s["request"]["request"] == kind
        ]
        for kind in ("decision", "chance")
    }
    decisions, outcomes = recorded_answers(checked)
    playthrough = run(
        scenario,
        ScriptedDecider(
            decisions, label="recorded decisions", located=(source, paths["decision"], "$.steps")
        ),
        ScriptedChance(outcomes, label="recorded chance", located=(source, paths["chance"], "$.steps")),
    )
    return compare(checked, trace_document(spec, scenario, playthrough))
