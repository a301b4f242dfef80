"""Stonespine's short names over the shared simulate, trace and replay.

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
from invasion_oracle.model.stonespine.heroes import COLORS
from invasion_oracle.model.stonespine.scenario import Scenario
from invasion_oracle.model.stonespine.state import GameState


def run(
    scenario: Scenario, decider: Decider | None = None, chance: ChanceSource | None = None
) -> Playthrough[GameState]:
    """Play ``scenario`` to its end with its own answerers, or the ones given."""
    return _run(scenario, decider, chance)


def trace_json(scenario: Scenario, playthrough: Playthrough[GameState]) -> str:
    from invasion_oracle.model.stonespine.spec import SPEC

    return _trace_json(SPEC, scenario, playthrough)


def replay_trace(trace: Any, source: str) -> ReplayReport:
    from invasion_oracle.model.stonespine.spec import SPEC

    return _replay_trace(SPEC, trace, source)


def summary(playthrough: Playthrough[GameState], initial: GameState) -> str:
    """A one-line fingerprint of a run's outcome: what differs between readings shows here.

    Per player: defeats (hero@chamber), escapes (hero@chamber, reason), XP, trophies,
    demerits, guardian moves and changed element spaces; then hero health and Jael.
    """
    parts = []
    for before, after in zip(initial.players, playthrough.final.players, strict=True):
        name = after.name
        defeats = [
            f"{e.get('hero')}@{e.get('chamber')}"
            for e in playthrough.events
            if e.kind == "hero_defeated" and e.get("player") == name
        ]
        escapes = [
            f"{e.get('hero')}@{e.get('chamber') or 'entrance'}({e.get('reason')})"
            for e in playthrough.events
            if e.kind == "hero_escaped" and e.get("player") == name
        ]
        bits = [
            f"defeated {' '.join(defeats) or '-'}",
            f"escaped {' '.join(escapes) or '-'}",
            f"xp {after.xp}",
        ]
        if after.guardian.markers != (0, 0):
            bits.append(f"levels {after.guardian.markers[0]}/{after.guardian.markers[1]}")
        bits.append("trophies " + (" ".join(f"y{y}:{v}" for y, v in after.trophies) or "-"))
        bits.append("demerits " + (" ".join(f"y{y}:{v}" for y, v in after.demerits) or "-"))
        moves = [
            e.get("chamber")
            for e in playthrough.events
            if e.kind == "guardian_moved" and e.get("player") == name
        ]
        if moves:
            bits.append("guardian moved to " + " ".join(moves))
        changed = _changed_spaces(before, after)
        if changed:
            bits.append("spaces " + " ".join(changed))
        parts.append(f"{name}: " + "; ".join(bits))
    heroes = " ".join(f"{c.value}={playthrough.final.health(c)}" for c in COLORS)
    parts.append(f"health {heroes}")
    if playthrough.final.solo:
        parts.append(
            "Jael trophies " + (" ".join(f"y{y}:{v}" for y, v in playthrough.final.jael.trophies) or "-")
        )
    return " | ".join(parts)


def _changed_spaces(before: Any, after: Any) -> list[str]:
    out: list[str] = []
    if before.dungeon.rows != after.dungeon.rows:
        return out
    for cell in after.dungeon.cells():
        old, new = before.dungeon.chamber(cell), after.dungeon.chamber(cell)
        for i, (a, b) in enumerate(zip(old.spaces, new.spaces, strict=True)):
            if a != b:
                out.append(f"{cell.name}:{i + 1} {str(a) or 'empty'}->{str(b) or 'empty'}")
    return out
