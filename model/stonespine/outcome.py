"""Stonespine's outcome of a run, as traces record it (beside the state, not in :mod:`.simulate`:
``docs/adding-a-game.md``).
"""

from __future__ import annotations

from typing import Any

from invasion_oracle.model.stonespine.heroes import COLORS
from invasion_oracle.model.stonespine.state import GameState


def outcome(state: GameState) -> dict[str, Any]:
    """What the run ended with, per player and for the hero cards."""
    players = []
    for p in state.players:
        players.append(
            {
                "name": p.name,
                "priority": p.priority,
                "defeated": [{"chamber": c.name, "hero": h.value} for c, h in p.defeated],
                "escaped": [h.value for h in p.escaped],
                "entered": p.entered,
                "gate_open": p.gate_open,
                "xp": p.xp,
                "trophies": by_year(p.trophies),
                "demerits": by_year(p.demerits),
                "guardian": p.guardian.to_json(),
                "placement": p.placement.to_json(),
            }
        )
    result: dict[str, Any] = {
        "year": state.year,
        "stage": state.stage.value,
        "players": players,
        "heroes": [{"color": c.value, "card": state.card(c).name, "health": state.health(c)} for c in COLORS],
    }
    if state.solo:
        result["jael"] = {"trophies": by_year(state.jael.trophies), "xp": state.jael.xp}
    if state.final_scores:
        result["final_scores"] = [s.to_json() for s in state.final_scores]
    return result


def by_year(pairs: tuple[tuple[int, int], ...]) -> list[dict[str, int]]:
    """Trophies or demerits, ``(year, value)`` pairs, as JSON."""
    return [{"year": year, "value": value} for year, value in pairs]
