"""Vul'Keth's short names over the shared simulate, trace and replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this
module keeps a one-line fingerprint of a run (``summary``) used to compare rulings' readings, and the short names the tests and solvers use. The outcome of a run is
:mod:`.outcome`'s.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import run as _run
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport
from invasion_oracle.model.vulketh.scenario import Scenario
from invasion_oracle.model.vulketh.state import GameState


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given (the shared
    :func:`invasion_oracle.model.core.play.run`)."""
    playthrough: Playthrough[GameState] = _run(scenario, decider, chance)
    return playthrough


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
