"""Cloudspire's short names over the shared simulate, trace and replay.

Simulating, tracing and replaying are written once in :mod:`invasion_oracle.model.core.play`; this
module keeps the short names the tests and solvers use. The outcome of a run is
:mod:`.outcome`'s.
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.cloudspire.scenario import Scenario
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.decisions import ChanceSource, Decider
from invasion_oracle.model.core.driver import Playthrough
from invasion_oracle.model.core.play import replay_trace as _replay_trace
from invasion_oracle.model.core.play import run as _run
from invasion_oracle.model.core.play import trace_json as _trace_json
from invasion_oracle.model.core.trace import ReplayReport


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    return _run(scenario, decider, chance)


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    from invasion_oracle.model.cloudspire.spec import SPEC

    return _trace_json(SPEC, scenario, playthrough)


def replay_trace(trace: Any, source: str) -> ReplayReport:
    from invasion_oracle.model.cloudspire.spec import SPEC

    return _replay_trace(SPEC, trace, source)
