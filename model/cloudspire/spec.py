"""20 Strong: Cloudspire on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`).

The spec names the model's functions (:class:`~invasion_oracle.model.core.spec.Deferred`):
reading it imports none of the model, which loads at the first scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.core.spec import Deferred, GameSpec

if TYPE_CHECKING:
    from invasion_oracle.model.cloudspire.data import GameData
    from invasion_oracle.model.core.rulings import Rulings


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    from invasion_oracle.model.cloudspire.data import build_game_data

    return build_game_data(dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="20 Strong: Cloudspire",
    seed="004_9bb22f109adedf2e.txt",
    rulebook="20 Strong: Cloudspire Rulebook",
    load=Deferred("invasion_oracle.model.cloudspire.scenario", "load"),
    outcome=Deferred("invasion_oracle.model.cloudspire.outcome", "outcome"),
    render_text=Deferred("invasion_oracle.model.cloudspire.render", "render_text"),
    render_svg=Deferred("invasion_oracle.model.cloudspire.render", "render_svg"),
    build_data=_data,
    package="invasion_oracle.model.cloudspire",
    examples="cloudspire",
)
