"""Stonespine Architects: Invasion on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import GameSpec
from invasion_oracle.model.stonespine.data import GameData, build_game_data
from invasion_oracle.model.stonespine.entering import Rules, exit_chamber
from invasion_oracle.model.stonespine.outcome import outcome
from invasion_oracle.model.stonespine.render import render_dungeon
from invasion_oracle.model.stonespine.rulings import GAME
from invasion_oracle.model.stonespine.scenario import Scenario, load
from invasion_oracle.model.stonespine.state import GameState, PlayerState
from invasion_oracle.model.stonespine.svg import render_svg


def player_picture(scenario: Scenario, player: PlayerState, state: GameState | None = None) -> str:
    """One player's dungeon with figures, defeated heroes and this year's exit."""
    rules = Rules.of(scenario.rulings, scenario.data)
    year = state.year if state else scenario.initial.year
    return render_dungeon(
        player.dungeon,
        rules.passage_mode,
        guardians=player.placement.guardians,
        minions=player.placement.minions,
        defeated={c: h.value for c, h in player.defeated},
        exit_cell=exit_chamber(rules, player.dungeon, year) if player.dungeon.rows else None,
        title=f"{player.name}: {player.guardian.board.name}, year {year}",
    )


def render_text(scenario: Scenario, state: GameState) -> str:
    """Every player's dungeon, one after the other."""
    return "\n\n".join(player_picture(scenario, p, state) for p in state.players)


def _outcome(scenario: Scenario, state: GameState) -> dict[str, Any]:
    return outcome(state)


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    return build_game_data(rulings, dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="Stonespine Architects: Invasion",
    seed="000_316842920c166c7e.txt",
    rulebook="Stonespine Architects: Invasion Rulebook",
    load=load,
    outcome=_outcome,
    render_text=render_text,
    render_svg=render_svg,
    build_data=_data,
    package="invasion_oracle.model.stonespine",
    examples="stonespine",
)
