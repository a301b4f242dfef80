"""20 Strong: Cloudspire on the game contract (:class:`invasion_oracle.model.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from invasion_oracle.model.cloudspire.data import GameData, build_game_data
from invasion_oracle.model.cloudspire.outcome import outcome
from invasion_oracle.model.cloudspire.render import render_svg, render_text
from invasion_oracle.model.cloudspire.rulings import GAME
from invasion_oracle.model.cloudspire.scenario import Scenario, load
from invasion_oracle.model.cloudspire.state import GameState
from invasion_oracle.model.core.rulings import Rulings
from invasion_oracle.model.core.spec import GameSpec


def _text(scenario: Scenario, state: GameState) -> str:
    return render_text(scenario, state)


def _svg(scenario: Scenario, state: GameState) -> str:
    return render_svg(scenario, state)


def _data(rulings: Rulings, overrides: Mapping[str, Any] | None, source: str) -> GameData:
    return build_game_data(dict(overrides) if overrides is not None else None, source)


SPEC = GameSpec(
    name=GAME,
    title="20 Strong: Cloudspire",
    seed="004_9bb22f109adedf2e.txt",
    rulebook="20 Strong: Cloudspire Rulebook",
    load=load,
    outcome=outcome,
    render_text=_text,
    render_svg=_svg,
    build_data=_data,
    package="invasion_oracle.model.cloudspire",
    examples="cloudspire",
)
