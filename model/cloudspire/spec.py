"""20 Strong: Cloudspire on the game contract (:class:`model.core.spec.GameSpec`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from model.cloudspire.data import GameData, build_game_data
from model.cloudspire.render import render_svg, render_text
from model.cloudspire.rulings import GAME
from model.cloudspire.scenario import Scenario, load
from model.cloudspire.simulate import outcome
from model.cloudspire.state import GameState
from model.core.rulings import Rulings
from model.core.spec import GameSpec


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
    package="model.cloudspire",
    examples="cloudspire",
)
