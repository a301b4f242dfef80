"""Spirit Island's Invader Phase on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`).

The spec names the model's functions (:class:`~invasion_oracle.model.core.spec.Deferred`):
reading it imports none of the model, which loads at the first scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.spec import Deferred, GameSpec
from invasion_oracle.model.spirit_island.rulings import GAME

if TYPE_CHECKING:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.spirit_island.data import GameData
    from invasion_oracle.model.spirit_island.scenario import Scenario
    from invasion_oracle.model.spirit_island.state import IslandState


def render_text(scenario: Scenario, state: IslandState) -> str:
    from invasion_oracle.model.spirit_island.render import render_island

    return render_island(scenario.island, state.lands, title=f"turn {state.turn}")


def _svg(scenario: Scenario, state: IslandState) -> str:
    from invasion_oracle.model.spirit_island.render import render_svg

    return render_svg(scenario.island, state.lands, title=f"turn {state.turn}")


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    from invasion_oracle.model.spirit_island.data import build_game_data

    return build_game_data(dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="Spirit Island: the Invader Phase",
    seed="002_e6736f3c5c17c7be.txt",
    rulebook="Spirit Island Rulebook: the Invaders and the Invader Phase",
    load=Deferred("invasion_oracle.model.spirit_island.scenario", "load"),
    outcome=Deferred("invasion_oracle.model.spirit_island.outcome", "outcome"),
    render_text=render_text,
    render_svg=_svg,
    build_data=_data,
    package="invasion_oracle.model.spirit_island",
    examples="spirit_island",
)
