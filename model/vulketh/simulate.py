"""Run a scenario through the oracle, and write or replay its trace.

A trace is the fixture other implementations run against: the scenario, every ruling's reading,
every request with its legal options and the answer given, every event, and the outcome, in
canonical JSON. :func:`replay_trace` re-runs a trace's scenario with its recorded answers and
reports the first step where anything differs.
"""

from __future__ import annotations

from typing import Any

from model.core.canonical import canonical_json
from model.core.decisions import ChanceSource, Decider, ScriptedChance, ScriptedDecider
from model.core.driver import Playthrough, play
from model.core.trace import (
    ORACLE_VERSION,
    TRACE_FORMAT,
    TRACE_VERSION,
    ReplayReport,
    check_trace,
    compare,
    recorded_answers,
    ruling_specs,
)
from model.vulketh.action_board import strength
from model.vulketh.rulings import GAME
from model.vulketh.scenario import Scenario, scenario_from_document
from model.vulketh.state import GameState


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    game = scenario.game()
    state, opening = game.start(scenario.initial)
    return play(
        game, state, decider or scenario.decider(), chance or scenario.chance_source(), opening=opening
    )


def outcome(scenario: Scenario, state: GameState) -> dict[str, Any]:
    """What the run ended with: the result, the map, both sides' tracks, the board and the decks."""
    game = scenario.game()
    result = (
        state.outcome.to_json()
        if state.outcome
        else {"result": "undecided", "reason": "the script has no more player turns", "round": state.round}
    )
    return {
        "result": result,
        "round": state.round,
        "invader_turns": state.invader_turns,
        "hexes": {str(n): cell.to_json() for n, cell in enumerate(state.hexes, 1)},
        "player": {
            "score": state.score,
            "resources": state.resources.to_json(),
            "supply": state.player_supply,
            "developments": state.developments,
            "bronze": dict(state.bronze),
        },
        "invaders": {
            "resources": state.invader_resources,
            "supply": state.invader_supply,
            "reserve": state.reserve,
            "warlords": len(state.warlords()),
            "summoned": game.summoned(state),
            "warlord_board": list(state.warlord_board),
            "unlocked": list(game.unlocked(state)),
        },
        "action_board": {
            action: {"dice": list(state.board.row(action)), "strength": strength(state.board.row(action))}
            for action in ("GROW", "MOVE", "GATHER", "LEAD")
        },
        "decks": {str(n): list(pile) for n, pile in enumerate(state.decks, 1)},
        "discard": list(state.discard),
        "last_card": state.last_card,
        "invader_events": {"pile": list(state.event_pile), "discard": list(state.event_discard)},
    }


def summary(scenario: Scenario, state: GameState) -> str:
    """A one-line fingerprint of the end: result, score, resources, Warlords and the map."""
    cells = " ".join(
        f"{n}:{c.player}p{c.invaders}i{'W' if c.warlord else ''}{'V' if c.village else ''}"
        for n, c in enumerate(state.hexes, 1)
        if c.player or c.invaders or c.warlord or c.village
    )
    result = state.outcome.result if state.outcome else "undecided"
    return (
        f"{result}; score {state.score}; player {state.resources.describe()}; "
        f"invaders {state.invader_resources}r supply {state.invader_supply} reserve {state.reserve}; "
        f"board {','.join(state.warlord_board) or '-'}; {cells}"
    )


def trace_document(scenario: Scenario, playthrough: Playthrough[GameState]) -> dict[str, Any]:
    return {
        "format": TRACE_FORMAT,
        "format_version": TRACE_VERSION,
        "oracle_version": ORACLE_VERSION,
        "game": GAME,
        "scenario": scenario.document,
        "rulings": scenario.rulings.to_json(),
        "opening": list(playthrough.opening),
        "steps": list(playthrough.steps),
        "outcome": outcome(scenario, playthrough.final),
    }


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    return canonical_json(trace_document(scenario, playthrough), indent=1) + "\n"


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    trace = check_trace(trace, source, GAME)
    scenario = scenario_from_document(trace["scenario"], f"{source}:$.scenario", ruling_specs(trace))
    decisions, outcomes = recorded_answers(trace)
    playthrough = run(
        scenario,
        ScriptedDecider(decisions, label="trace decisions"),
        ScriptedChance(outcomes, label="trace chance"),
    )
    return compare(trace, trace_document(scenario, playthrough))
