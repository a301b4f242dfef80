"""Stonespine Architects: Invasion on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`).

The spec names the model's functions (:class:`~invasion_oracle.model.core.spec.Deferred`):
reading it imports none of the model, which loads at the first scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.spec import Deferred, GameSpec
from invasion_oracle.model.stonespine.rulings import GAME

if TYPE_CHECKING:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.stonespine.data import GameData
    from invasion_oracle.model.stonespine.scenario import Scenario
    from invasion_oracle.model.stonespine.state import GameState, PlayerState


def player_picture(scenario: Scenario, player: PlayerState, state: GameState | None = None) -> str:
    """One player's dungeon with figures, defeated heroes and this year's exit."""
    from invasion_oracle.model.stonespine.entering import Rules, exit_chamber
    from invasion_oracle.model.stonespine.render import render_dungeon

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
    from invasion_oracle.model.stonespine.outcome import outcome

    return outcome(state)


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    from invasion_oracle.model.stonespine.data import build_game_data

    return build_game_data(rulings, dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="Stonespine Architects: Invasion",
    seed="000_316842920c166c7e.txt",
    rulebook="Stonespine Architects: Invasion Rulebook",
    load=Deferred("invasion_oracle.model.stonespine.scenario", "load"),
    outcome=_outcome,
    render_text=render_text,
    render_svg=Deferred("invasion_oracle.model.stonespine.svg", "render_svg"),
    build_data=_data,
    package="invasion_oracle.model.stonespine",
    examples="stonespine",
)
