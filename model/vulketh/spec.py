"""Rise of Tribes: The Vul'Keth Invasion on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import GameSpec
from invasion_oracle.model.vulketh.data import GameData, build_game_data
from invasion_oracle.model.vulketh.outcome import outcome
from invasion_oracle.model.vulketh.render import render_svg, render_text
from invasion_oracle.model.vulketh.rulings import GAME
from invasion_oracle.model.vulketh.scenario import load


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    del rulings  # no ruling changes the Vul'Keth data
    return build_game_data(dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="Rise of Tribes: The Vul'Keth Invasion",
    seed="003_a0498fd92e3f4dbf.txt",
    rulebook="Rise of Tribes: The Vul'Keth Invasion Rulebook (an expansion for Rise of Tribes: Beasts & Bronze)",
    load=load,
    outcome=outcome,
    render_text=render_text,
    render_svg=render_svg,
    build_data=_data,
    package="invasion_oracle.model.vulketh",
    examples="vulketh",
)
