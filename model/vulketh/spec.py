"""Rise of Tribes: The Vul'Keth Invasion on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`).

The spec names the model's functions (:class:`~invasion_oracle.model.core.spec.Deferred`):
reading it imports none of the model, which loads at the first scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.core.spec import Deferred, GameSpec
from invasion_oracle.model.vulketh.rulings import GAME

if TYPE_CHECKING:
    from invasion_oracle.model.core.rulings import Rulings
    from invasion_oracle.model.vulketh.data import GameData


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    from invasion_oracle.model.vulketh.data import build_game_data

    del rulings  # no ruling changes the Vul'Keth data
    return build_game_data(dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="Rise of Tribes: The Vul'Keth Invasion",
    seed="003_a0498fd92e3f4dbf.txt",
    rulebook="Rise of Tribes: The Vul'Keth Invasion Rulebook (an expansion for Rise of Tribes: Beasts & Bronze)",
    load=Deferred("invasion_oracle.model.vulketh.scenario", "load"),
    outcome=Deferred("invasion_oracle.model.vulketh.outcome", "outcome"),
    render_text=Deferred("invasion_oracle.model.vulketh.render", "render_text"),
    render_svg=Deferred("invasion_oracle.model.vulketh.render", "render_svg"),
    build_data=_data,
    package="invasion_oracle.model.vulketh",
    examples="vulketh",
)
