"""Stonespine Architects: Invasion on the game contract (:class:`model.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.core.rulings import Rulings
from model.core.spec import GameSpec
from model.stonespine.data import GameData, build_game_data
from model.stonespine.entering import Rules, exit_chamber
from model.stonespine.render import render_dungeon
from model.stonespine.rulings import GAME
from model.stonespine.scenario import Scenario, load
from model.stonespine.simulate import outcome
from model.stonespine.state import GameState, PlayerState
from model.stonespine.svg import render_svg


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
    package="model.stonespine",
    examples="stonespine",
)
