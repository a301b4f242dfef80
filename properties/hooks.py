"""What the generic searches read from a game's ``properties/<pkg>.py`` (all optional).

* ``scenario_documents()`` - a hypothesis strategy of valid scenario *documents* (plain JSON
  with ``"game"``), rulings drawn too. The divergence search (:mod:`invasion_oracle.properties.divergence`)
  and the well-formedness checks (:mod:`invasion_oracle.properties.wellformed`) draw from it and shrink what
  they find to a small scenario. Without it, both report "no generator" for the game.
* ``WIN_CONDITIONS`` - ``{name: predicate(outcome) -> bool}`` over the spec's outcome (plain
  JSON): the ways the game can be won. The well-formedness checks search for a scenario
  reaching each one.
* ``RULE_EVENTS`` - ``{rule: predicate(event) -> bool}`` over the events (plain JSON): the rules of
  the game's rule map, named by their seed section, and the events that show one has fired. The
  dead-rule check (:mod:`invasion_oracle.properties.dead_rules`) flags a reading under which one
  never fires.

``docs/adding-a-game.md`` ("Ambiguity and well-formedness hooks") describes them for a new game.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import TYPE_CHECKING, Any

from invasion_oracle.model.registry import package_of

if TYPE_CHECKING:  # a game's strategies import hypothesis when asked for (properties.<game>)
    from hypothesis import strategies as st

WinCondition = Callable[[Any], bool]


def game_properties(game: str) -> ModuleType | None:
    """``properties.<pkg>`` for ``game``, or None when the game has none."""
    name = f"invasion_oracle.properties.{package_of(game)}"
    if name in sys.modules:  # already imported (or a plug-in's module put there)
        return sys.modules[name]
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def scenario_strategy(game: str) -> st.SearchStrategy[Any] | None:
    """The game's ``scenario_documents()`` strategy, or None when it has no generator."""
    module = game_properties(game)
    make = getattr(module, "scenario_documents", None) if module is not None else None
    if make is None:
        return None
    strategy: st.SearchStrategy[Any] = make()
    return strategy


def win_conditions(game: str) -> Mapping[str, WinCondition]:
    """The game's ``WIN_CONDITIONS`` (empty when it declares none)."""
    module = game_properties(game)
    found: Mapping[str, WinCondition] = getattr(module, "WIN_CONDITIONS", {}) if module is not None else {}
    return found


EventPredicate = Callable[[Any], bool]


def rule_events(game: str) -> Mapping[str, EventPredicate]:
    """The game's ``RULE_EVENTS`` (empty when it declares none)."""
    module = game_properties(game)
    found: Mapping[str, EventPredicate] = getattr(module, "RULE_EVENTS", {}) if module is not None else {}
    return found
