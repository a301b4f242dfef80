"""The Vul'Keth outcome of a run, and thin helpers over the shared simulate/replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this module says
what a finished run's outcome is (the ``outcome`` of its traces), a one-line fingerprint used to
compare rulings' readings, and keeps the short names the tests and solvers use.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import run as _run
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport
from invasion_oracle.model.vulketh.action_board import strength
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import GameState


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given (the shared
    :func:`invasion_oracle.model.core.play.run`)."""
    playthrough: Playthrough[GameState] = _run(scenario, decider, chance)
    return playthrough


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


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    from invasion_oracle.model.vulketh.spec import SPEC

    return _trace_json(SPEC, scenario, playthrough)


def replay_trace(trace: Any, source: str) -> ReplayReport:
    """Re-run a trace's scenario with its recorded answers and compare everything."""
    from invasion_oracle.model.vulketh.spec import SPEC

    return _replay_trace(SPEC, trace, source)
